// The traffic panel with 100,000 recorded frames: every frame the server recorded reaches the
// panel (the exact count, in sequence order), the list stays virtualized (only the rows in
// view exist), and filtering and scrolling still work. No timing is asserted; the screenshot
// shows the state.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startMcplab, openApp, shot } from './harness.js';
import { frames, id, waitConnected } from './ui_helpers.js';

let mcplab;
let app;

before(async () => {
  mcplab = await startMcplab();
  app = await openApp(mcplab);
  await waitConnected(mcplab, ['demo']);
  // The demo server speaks both eras and `auto` picks 2026-07-28 (no `initialize`, and `ping`
  // is a `server/discover` there): this test filters for the handshake, so it uses 2025-11-25.
  const switched = await mcplab.api('POST', '/api/servers/demo/protocol', { protocol: '2025-11-25' });
  assert.equal(switched.status, 200, JSON.stringify(switched.body));
  await waitConnected(mcplab, ['demo']);
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
});

/** Sequence numbers of the rows inside the list's viewport, top to bottom. */
function visibleSeqs(page) {
  return page.locator(id('traffic-list')).evaluate((list) => {
    const box = list.getBoundingClientRect();
    return [...list.querySelectorAll('[data-testid="traffic-row"]')]
      .map((e) => ({ seq: Number(e.dataset.seq), r: e.getBoundingClientRect() }))
      .filter(({ r }) => r.bottom > box.top + 1 && r.top < box.bottom - 1)
      .sort((a, b) => a.r.top - b.r.top)
      .map(({ seq }) => seq);
  });
}

/** Scrolls the list to a fraction of its height and waits until rows are drawn there. */
async function scrollTo(page, fraction) {
  await page.locator(id('traffic-list')).evaluate((el, f) => { el.scrollTop = el.scrollHeight * f; }, fraction);
  await page.waitForFunction(([sel, f]) => {
    const list = document.querySelector(sel);
    if (!list) return false;
    const box = list.getBoundingClientRect();
    const inView = [...list.querySelectorAll('[data-testid="traffic-row"]')].filter((e) => {
      const r = e.getBoundingClientRect();
      return r.bottom > box.top + 1 && r.top < box.bottom - 1;
    });
    return Math.abs(list.scrollTop - list.scrollHeight * f) < list.clientHeight + 50 && inView.length > 5;
  }, [id('traffic-list'), fraction]);
}

const shownCount = async (page) => Number((await page.innerText(id('traffic-count'))).split('/')[0].replace(/[^0-9]/g, ''));

test('100,000 frames stay virtualized and searchable', async () => {
  const { page } = app;
  await page.click(id('nav-tools'));
  await page.waitForSelector(id('traffic-panel'));
  // The handshake, before the flood pushes it out of the server's ring.
  const handshake = await frames(mcplab, 'demo');
  const initializeFrames = handshake.filter((f) => f.msg?.method?.includes('initialize') || (f.direction === 'inbound' && f.msg?.result?.protocolVersion)).length;
  assert.ok(initializeFrames >= 2);

  // 50,000 pings = 100,000 frames (request + response), 32 at a time.
  const pings = Number(process.env.PINGS || 50_000);
  let next = 0;
  const worker = async () => {
    while (next < pings) {
      next++;
      const r = await mcplab.api('POST', '/api/servers/demo/ping');
      assert.equal(r.status, 200);
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));

  // Every frame the server recorded (kept or evicted from its ring) reaches the panel: no more,
  // no fewer.
  const snap = (await mcplab.api('GET', '/api/servers/demo/traffic')).body;
  const recorded = snap.frames.length + snap.dropped;
  assert.ok(recorded >= pings * 2);
  const lastSeq = snap.frames.at(-1).seq;
  await page.waitForFunction(([sel, n]) => Number((document.querySelector(sel)?.textContent ?? '').replace(/[^0-9]/g, '')) >= n, [id('traffic-count'), recorded], {
    timeout: 120_000,
  });
  assert.equal(await shownCount(page), recorded);

  const rows = await page.locator(id('traffic-row')).count();
  assert.ok(rows > 0 && rows < 300, `only the rows in view are in the DOM (${rows})`);
  // In sequence order, at the end (following), in the middle and at the top.
  const atEnd = await visibleSeqs(page);
  assert.equal(atEnd.at(-1), lastSeq);
  for (const where of [0.5, 0]) {
    await scrollTo(page, where);
    const seqs = await visibleSeqs(page);
    assert.ok(seqs.length > 5, `rows in view at ${where}`);
    assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b), `seq order at ${where}`);
    assert.equal(new Set(seqs).size, seqs.length, 'no row twice');
  }
  assert.equal((await visibleSeqs(page))[0], handshake[0].seq, 'the first frame is still there');

  // A filter shows the matching frames, all of them and only them.
  await page.fill(id('traffic-filter-method'), 'initialize');
  await page.waitForFunction((sel) => document.querySelectorAll(sel).length < 10, id('traffic-row'));
  const methods = await page.locator(id('traffic-row')).evaluateAll((els) => els.map((e) => e.dataset.method));
  assert.ok(methods.length >= 1, 'the filter shows rows');
  assert.ok(methods.every((m) => m.includes('initialize')), methods.join(', '));
  assert.equal(methods.length, initializeFrames);
  assert.equal(await shownCount(page), initializeFrames);
  await page.fill(id('traffic-filter-method'), '');
  await page.locator(id('traffic-list')).evaluate((el) => { el.scrollTop = el.scrollHeight / 2; });
  await page.waitForSelector(id('traffic-row'));
  await shot(page, '30-traffic-100k');
});

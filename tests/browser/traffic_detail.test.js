// The traffic detail of frames the server keeps bounded: a frame over the preview size reaches
// the panel truncated and the detail says so (how many bytes of how many), loads the whole text
// from the server on request, and says what is kept when a frame was too large for the whole
// traffic budget. Judged by the frame the API serves, not by what the page says of itself.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startMcplab, openApp, shot } from './harness.js';
import { axeViolations, id, waitConnected, frames } from './ui_helpers.js';

const cleanup = [];
after(async () => {
  for (const stop of cleanup.reverse()) await stop();
});

async function start(limits) {
  const mcplab = await startMcplab(limits.flatMap((l) => ['--limit', l]));
  const app = await openApp(mcplab);
  cleanup.push(() => app.browser.close(), () => mcplab.stop());
  await waitConnected(mcplab, ['demo']);
  return { mcplab, app };
}

/** Calls the demo's echo with `text` and returns the recorded response frame (truncated). */
async function echoFrame(mcplab, text) {
  const r = await mcplab.api('POST', '/api/servers/demo/tools/call', { name: 'echo', arguments: { message: text } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const all = await frames(mcplab, 'demo');
  const response = all.filter((f) => f.direction === 'inbound' && f.fullBytes !== undefined).at(-1);
  assert.ok(response, 'the echo response was recorded truncated');
  return response;
}

/** Opens the detail of frame `seq` through the panel's search. */
async function openFrame(page, seq, search) {
  await page.click(id('nav-tools'));
  await page.waitForSelector(id('traffic-panel'));
  await page.fill(id('traffic-search'), search);
  const row = `${id('traffic-row')}[data-seq="${seq}"]`;
  await page.waitForSelector(row);
  await page.click(row);
  await page.waitForSelector(`${id('frame-detail')}[data-seq="${seq}"]`);
}

test('a truncated frame says how much is shown and loads whole on request', async () => {
  const { mcplab, app } = await start(['preview=1KiB']);
  const { page } = app;
  const marker = 'END-OF-A-LONG-MESSAGE';
  const text = `${'x'.repeat(6000)}${marker}`;
  const cut = await echoFrame(mcplab, text);
  assert.ok(!cut.text.includes(marker));
  const whole = (await mcplab.api('GET', `/api/servers/demo/traffic/${cut.seq}`)).body;
  assert.equal(whole.fullBytes, undefined);
  assert.equal(Buffer.byteLength(whole.text), cut.fullBytes);

  await openFrame(page, cut.seq, 'xxxxxxxx');
  const notice = page.locator(id('frame-truncated'));
  const said = await notice.innerText();
  assert.match(said, /Truncated/);
  assert.ok(said.includes(`first ${Buffer.byteLength(cut.text).toLocaleString('en')} bytes`), said);
  assert.ok(said.includes(`of ${cut.fullBytes.toLocaleString('en')} bytes`), said);
  assert.equal(await page.locator(id('frame-unparsable')).count(), 0, 'a truncated frame is not called invalid');
  assert.ok(!(await page.innerText(id('frame-body'))).includes(marker));
  assert.deepEqual(await axeViolations(page), [], 'the notice is accessible');

  await page.click(id('frame-load-whole'));
  await page.waitForSelector(`${id('frame-truncated')}[data-state="loaded"]`);
  assert.match(await notice.innerText(), new RegExp(`whole frame: ${cut.fullBytes.toLocaleString('en')} bytes`));
  await page.waitForFunction(([sel, m]) => document.querySelector(sel)?.textContent?.includes(m), [id('frame-body'), marker]);
  // The row lists the whole size, not the preview's.
  const size = await page.locator(`${id('traffic-row')}[data-seq="${cut.seq}"] .c-size`).innerText();
  assert.match(size, /KB/);
  await shot(page, '31-traffic-truncated-frame');
});

test('a frame over the whole traffic budget says only its start is kept', async () => {
  const { mcplab, app } = await start(['preview=1KiB', 'traffic=32KiB']);
  const { page } = app;
  const cut = await echoFrame(mcplab, 'y'.repeat(50_000));
  const kept = (await mcplab.api('GET', `/api/servers/demo/traffic/${cut.seq}`)).body;
  assert.ok(kept.fullBytes > 50_000, 'the server kept only the start');

  await openFrame(page, cut.seq, 'yyyyyyyy');
  await page.click(id('frame-load-whole'));
  await page.waitForSelector(`${id('frame-truncated')}[data-state="loaded"]`);
  const said = await page.innerText(id('frame-truncated'));
  assert.match(said, /kept only the first/);
  assert.match(said, /--limit traffic=SIZE/);
});

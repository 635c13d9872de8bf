// The traffic panel with 100,000 recorded frames: every frame is counted, the list stays
// virtualized (only the rows in view exist), and filtering and scrolling still work.
// No timing is asserted; the screenshot shows the state.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startMcplab, openApp, shot } from './harness.js';

let mcplab;
let app;
const id = (name) => `[data-testid="${name}"]`;

before(async () => {
  mcplab = await startMcplab();
  app = await openApp(mcplab);
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
});

test('100,000 frames stay virtualized and searchable', async () => {
  const { page } = app;
  for (let i = 0; i < 100; i++) {
    const servers = await mcplab.api('GET', '/api/servers');
    if (servers.body.some((s) => s.config.name === 'demo' && s.status.state === 'connected')) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  // 50,000 pings = 100,000 frames (request + response), 32 at a time. Every recorded frame
  // must reach the panel (none lost or dropped out of order).
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
  const want = pings * 2;
  await page.waitForFunction(
    ([sel, n]) => {
      const text = document.querySelector(sel)?.textContent ?? '';
      return Number(text.replace(/[^0-9]/g, '')) >= n;
    },
    [id('traffic-count'), want],
    { timeout: 120_000 },
  );
  const rows = await page.locator(id('traffic-row')).count();
  assert.ok(rows > 0 && rows < 300, `only the rows in view are in the DOM (${rows})`);
  await page.fill(id('traffic-filter-method'), 'initialize');
  await page.waitForFunction((sel) => document.querySelectorAll(sel).length <= 3, id('traffic-row'));
  await page.fill(id('traffic-filter-method'), '');
  await page.locator(id('traffic-list')).evaluate((el) => { el.scrollTop = el.scrollHeight / 2; });
  await page.waitForSelector(id('traffic-row'));
  await shot(page, '30-traffic-100k');
});

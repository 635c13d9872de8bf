// Browser test of the server checker and live stderr: a raw server that breaks the spec on
// purpose (tests/interop/rawsrv.py) is checked from the Servers page; its findings are listed
// there and the traffic frame they point at carries a warning badge. A tool that writes to
// stderr shows up on the Servers page while the page is open.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startMcplab, openApp, shot, root } from './harness.js';

let mcplab;
let app;
const id = (name) => `[data-testid="${name}"]`;
const rawsrv = path.join(root, 'tests/interop/rawsrv.py');

before(async () => {
  mcplab = await startMcplab();
  app = await openApp(mcplab);
  const config = { name: 'bad', type: 'stdio', command: 'python3', args: [rawsrv, 'bad-tools', 'stderr'] };
  assert.equal((await mcplab.api('POST', '/api/servers', config)).status, 201);
  const connected = await mcplab.api('POST', '/api/servers/bad/connect');
  assert.equal(connected.body.status.state, 'connected', JSON.stringify(connected.body));
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
});

test('check a server from the Servers page; findings are listed and mark their frames', async () => {
  const { page } = app;
  await page.click(id('nav-servers'));
  await page.click(`${id('server-row-bad')} >> text=bad`);
  await page.click(id('server-check-run'));
  await page.waitForSelector(`${id('check-finding')}[data-rule="tool-duplicate"]`, { timeout: 30000 });
  const rules = await page.$$eval(id('check-finding'), (els) => els.map((e) => e.getAttribute('data-rule')));
  for (const rule of ['tool-name', 'input-schema', 'annotations']) assert.ok(rules.includes(rule), rules.join());
  assert.match(await page.innerText(id('check-summary')), /[1-9]\d* errors/);
  // The tools/list response in the traffic panel carries the warning.
  const marked = page.locator(`${id('traffic-row')}:has(${id('traffic-finding')})`).first();
  await marked.waitFor({ timeout: 10000 });
  await marked.click();
  await page.waitForSelector(id('frame-findings'));
  assert.match(await page.innerText(id('frame-findings')), /tool-name/);
  await shot(page, 'check-01-findings');
});

test("a stdio server's stderr appears live on the Servers page", async () => {
  const { page } = app;
  const r = await mcplab.api('POST', '/api/servers/bad/tools/call', { name: 'fail', arguments: {} });
  assert.equal(r.status, 200);
  await page.waitForFunction(
    (sel) => document.querySelector(sel)?.textContent?.includes('ValueError: boom'),
    id('stderr-bad'),
    { timeout: 10000 },
  );
  await shot(page, 'check-02-stderr');
});

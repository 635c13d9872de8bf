// A tapped session live in the browser: `mcplab tap -- mcplab demo-server` started as a host
// would start it, with the running inspector's data directory, sends its frames to the
// inspector while the host talks; the traffic panel shows them as they pass, labelled with the
// host from its clientInfo, and the server filter offers the session. Checked against what the
// inspector recorded (the taps API), not the page alone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { startMcplab, openApp, shot, bin } from './harness.js';
import { id, waitUntil } from './ui_helpers.js';

let mcplab;
let app;
let tap;

before(async () => {
  mcplab = await startMcplab();
  app = await openApp(mcplab);
});

after(async () => {
  if (tap && tap.exitCode === null) tap.kill('SIGTERM');
  await app?.browser.close();
  await mcplab?.stop();
});

/** Starts the tap as a host would, with the inspector's data directory. */
function startTap() {
  const child = spawn(bin, ['tap', '--', bin, 'demo-server'], {
    env: { ...process.env, MCPLAB_DATA_DIR: mcplab.dataDir },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { err += d; });
  return { child, output: () => out, errors: () => err };
}

const send = (child, message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);

test('a tapped session appears live in the traffic panel, labelled with its host', async () => {
  const { page } = app;
  await page.click(id('nav-tools'));
  await page.waitForSelector(id('traffic-panel'));

  const t = startTap();
  tap = t.child;
  send(tap, {
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'browser-host', title: 'Browser Host', version: '9.1' } },
  });
  await waitUntil(() => t.output().includes('"id":1'), 'the server answered initialize through the tap');
  assert.match(t.errors(), /recording live in the inspector/, t.errors());
  send(tap, { method: 'notifications/initialized' });
  send(tap, { id: 2, method: 'tools/call', params: { name: 'echo', arguments: { message: 'seen live' } } });
  await waitUntil(() => t.output().includes('seen live'), 'the call was answered through the tap');

  // While the tap still runs: the session and its frames are in the inspector.
  let session;
  await waitUntil(async () => {
    const taps = (await mcplab.api('GET', '/api/taps')).body;
    session = taps.find((s) => s.host?.name === 'browser-host');
    return Boolean(session);
  }, 'the inspector knows the tapped session');
  assert.equal(session.ended ?? null, null, 'still live');

  // The request and its answer, in that order, each labelled with the host.
  const rows = page.locator(id('traffic-row')).filter({ hasText: `browser-host · ${session.key}` });
  const calls = rows.filter({ hasText: 'tools/call' });
  await waitUntil(async () => (await calls.count()) === 2, 'the tools/call request and its answer are listed');
  const texts = await rows.allInnerTexts();
  // The whole method name (a notification's row shows it shortened, with a bell).
  const methods = await rows.evaluateAll((els) => els.map((e) => e.dataset.method));
  assert.deepEqual(methods, ['initialize', 'initialize', 'notifications/initialized', 'tools/call', 'tools/call'], texts.join(' | '));
  const option = page.locator(`${id('traffic-filter-server')} option[value="${session.key}"]`);
  assert.equal(await option.innerText(), `browser-host · ${session.key}`);
  await shot(page, 'tap-live');

  // The host hangs up: the tap ends with the server and the session is marked ended.
  tap.stdin.end();
  await waitUntil(() => tap.exitCode !== null, 'the tap ended with the server');
  assert.equal(tap.exitCode, 0);
  await waitUntil(async () => {
    const taps = (await mcplab.api('GET', '/api/taps')).body;
    return taps.find((s) => s.key === session.key)?.ended;
  }, 'the session is marked ended');
});

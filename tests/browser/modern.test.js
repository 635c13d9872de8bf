// Browser tests of protocol 2026-07-28 in the UI, against the demo server over streamable HTTP
// (`mcplab demo-server --http`, both eras): the era on the Servers page and the one-click switch
// to compare, the request headers per frame in the traffic view, cache hints with "bypass
// cache", a tool call that runs as a task on the Tasks page, and loading a skill on the Skills
// page. What happened on the wire is checked through the recorded traffic, not the page alone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { startMcplab, openApp, shot, bin } from './harness.js';
import { waitUntil } from './ui_helpers.js';

let demo;
let mcplab;
let app;
const id = (name) => `[data-testid="${name}"]`;

/** The demo server over HTTP on a free loopback port; resolves with its URL. */
async function startDemoHttp() {
  const child = spawn(bin, ['demo-server', '--http', '127.0.0.1:0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`demo server did not start\n${err}`)), 15000);
    child.stderr.on('data', (d) => {
      err += d;
      const m = err.match(/(http:\/\/\S+\/mcp)/);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`demo server exited (${code})\n${err}`)); });
  });
  return { url, stop: () => child.exitCode === null && child.kill('SIGTERM') };
}

/** The recorded frames of a server, parsed. */
async function frames(server) {
  const r = await mcplab.api('GET', `/api/servers/${server}/traffic`);
  const out = [];
  for (const f of r.body.frames.filter((f) => f.kind === 'message')) {
    // Long frames are listed truncated (`fullBytes`); the whole frame is served by its seq.
    const whole = f.fullBytes ? (await mcplab.api('GET', `/api/servers/${server}/traffic/${f.seq}`)).body : f;
    out.push({ ...whole, json: JSON.parse(whole.text) });
  }
  return out;
}

before(async () => {
  demo = await startDemoHttp();
  mcplab = await startMcplab();
  const added = await mcplab.api('POST', '/api/servers', { name: 'web', type: 'http', url: demo.url });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  const connected = await mcplab.api('POST', '/api/servers/web/connect');
  assert.equal(connected.body.status.state, 'connected', JSON.stringify(connected.body));
  app = await openApp(mcplab);
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
  demo?.stop();
});

test('the Servers page shows the era, how it was chosen, and switches to the other era', async () => {
  const { page } = app;
  await page.click(id('nav-servers'));
  await page.click(`${id('server-row-web')} >> text=web`);
  await page.waitForSelector(id('server-era'));
  assert.equal(await page.innerText(id('server-era-name')), 'modern');
  assert.equal(await page.innerText(id('server-era-revision')), '2026-07-28');
  assert.match(await page.innerText(id('server-era-how')), /server\/discover answered/);
  assert.match(await page.innerText(id('server-era-supported')), /2025-11-25/);
  await shot(page, 'modern-01-era');
  await page.click(id('server-era-switch'));
  await page.waitForFunction(() => document.querySelector('[data-testid="server-era-name"]')?.textContent === 'legacy', null, { timeout: 20000 });
  assert.equal(await page.innerText(id('server-era-revision')), '2025-11-25');
  const stored = await mcplab.api('GET', '/api/servers/web');
  assert.equal(stored.body.config.protocol, '2025-11-25');
  // The switched connection opened with the handshake.
  assert.ok((await frames('web')).some((f) => f.json.method === 'initialize'));
  await shot(page, 'modern-02-switched');
  await page.click(id('server-era-switch'));
  await page.waitForFunction(() => document.querySelector('[data-testid="server-era-name"]')?.textContent === 'modern', null, { timeout: 20000 });
});

test('tool lists show their cache hints and bypass the cache on request', async () => {
  const { page } = app;
  await page.click(id('nav-tools'));
  await page.selectOption(id('server-selector'), 'web');
  await page.waitForSelector(id('cache-tools'));
  // One short line; the server's hints in full are in its tooltip.
  assert.match(await page.innerText(id('cache-tools-text')), /^(Live · kept 1 min|Cached .* ago)$/);
  assert.match(await page.getAttribute(id('cache-tools-text'), 'title'), /fresh for 1 min · public/);
  const listsBefore = (await frames('web')).filter((f) => f.direction === 'outbound' && f.json.method === 'tools/list').length;
  await page.click(id('cache-tools-bypass'));
  // Wait (bounded) for the recorded traffic to show the new request.
  const toolLists = async () => (await frames('web')).filter((f) => f.direction === 'outbound' && f.json.method === 'tools/list').length;
  await waitUntil(async () => (await toolLists()) > listsBefore, 'the bypass to send a tools/list', { timeout: 10000 });
  const listsAfter = await toolLists();
  assert.equal(listsAfter, listsBefore + 1, 'bypass sent a new tools/list');
});

test('a tool call sends the request headers, shown with its frame in the traffic view', async () => {
  const { page } = app;
  await page.click(id('tool-item-echo'));
  await page.fill('#root_message', 'headers');
  await page.click(id('tool-call'));
  await page.waitForSelector(id('tool-result'));
  await page.click(`${id('traffic-row')}[data-method="tools/call"] >> nth=0`);
  await page.waitForSelector(id('frame-headers'));
  const headers = await page.innerText(id('frame-headers'));
  assert.match(headers, /Mcp-Method\s+tools\/call/);
  assert.match(headers, /Mcp-Name\s+echo/);
  assert.match(headers, /MCP-Protocol-Version\s+2026-07-28/);
  await shot(page, 'modern-03-headers');
});

test('a long tool call runs as a task and the Tasks page shows its history', async () => {
  const { page } = app;
  await page.click(id('tool-item-research'));
  await page.fill('#root_topic', 'browsers');
  await page.click(id('tool-call'));
  await page.waitForSelector(id('tool-result'), { timeout: 30000 });
  assert.match(await page.innerText(id('tool-result')), /finished after 3 steps/);
  await page.click(id('nav-tasks'));
  const card = page.locator('[data-testid^="task-demo-task-"]').first();
  await card.waitFor();
  assert.equal(await card.locator(id('task-status')).innerText(), 'completed');
  assert.ok((await card.locator(`${id('task-history')} li`).count()) >= 2);
  const polls = (await frames('web')).filter((f) => f.json.method === 'tasks/get');
  assert.ok(polls.length >= 1, 'the task was polled with tasks/get');
  await shot(page, 'modern-04-tasks');
});

test('the Skills page lists without reading and loads a skill with every file verified', async () => {
  const { page } = app;
  await page.click(id('nav-skills'));
  await page.waitForSelector(id('skill-item-demo-greeting'));
  const readsBefore = (await frames('web')).filter((f) => f.json.method === 'resources/read').length;
  assert.equal(readsBefore, 0, 'listing skills read no file');
  await page.click(id('skill-item-demo-greeting'));
  await page.click(id('skill-load'));
  await page.waitForSelector(id('skill-verified'));
  const reads = (await frames('web')).filter((f) => f.direction === 'outbound' && f.json.method === 'resources/read');
  assert.deepEqual(
    reads.map((f) => f.json.params.uri).sort(),
    ['skill://demo-greeting/SKILL.md', 'skill://demo-greeting/templates/greeting.txt'],
  );
  await shot(page, 'modern-05-skills');
});

test('no page errors were logged', () => {
  assert.deepEqual(app.errors.filter((e) => !/favicon/.test(e)), []);
});

// The HTTP view of the traffic panel against the demo server over streamable HTTP
// (`mcplab demo-server --http`): a frame's detail shows the HTTP exchange it travelled in
// (method, URL, status, request and response headers with the session and protocol headers,
// Authorization masked) and the frames of that exchange; "This exchange" filters to them.
// Checked against what the server recorded (the traffic API), not the page alone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { startMcplab, openApp, shot, bin } from './harness.js';
import { axeViolations, id, waitUntil } from './ui_helpers.js';

const SECRET = 'Bearer sk-very-secret-token-0123456789';
let demo;
let mcplab;
let app;

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

before(async () => {
  demo = await startDemoHttp();
  mcplab = await startMcplab();
  // The 2025-11-25 streamable HTTP wire: a session id and the protocol version on every request.
  const config = { name: 'web', type: 'http', url: demo.url, protocol: '2025-11-25', headers: { Authorization: SECRET } };
  const added = await mcplab.api('POST', '/api/servers', config);
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

test('a frame shows the HTTP exchange it travelled in, grouped with its frames', async () => {
  const { page } = app;
  const call = await mcplab.api('POST', '/api/servers/web/tools/call', { name: 'echo', arguments: { message: 'over http' } });
  assert.equal(call.status, 200, JSON.stringify(call.body));

  // What the server recorded: the request, the exchange that posted it, the answer it carried.
  const recorded = (await mcplab.api('GET', '/api/servers/web/traffic')).body.frames;
  const request = recorded.filter((f) => f.direction === 'outbound' && f.text.includes('"tools/call"')).at(-1);
  const exchange = recorded.find((f) => f.http?.requestSeq === request.seq);
  assert.ok(exchange, 'the POST of tools/call is recorded as an exchange');
  assert.equal(exchange.http.method, 'POST');
  assert.equal(exchange.http.status, 200);
  const answer = recorded.find((f) => f.exchange === exchange.seq && f.text.includes('over http'));
  assert.ok(answer, 'the answer is tied to its exchange');
  assert.ok(!JSON.stringify(recorded).includes('sk-very-secret-token'), 'the Authorization value is never recorded');

  await page.click(id('nav-tools'));
  await page.waitForSelector(id('traffic-panel'));
  await page.fill(id('traffic-filter-method'), 'tools/call');
  const row = `${id('traffic-row')}[data-seq="${request.seq}"]`;
  await page.waitForSelector(row);
  await page.click(row);
  const view = page.locator(`${id('frame-detail')}[data-seq="${request.seq}"] ${id('http-exchange')}`);
  await view.waitFor();
  assert.equal(await view.getAttribute('data-seq'), String(exchange.seq));
  assert.equal(await view.locator(id('http-request-line')).innerText(), `POST ${demo.url}`);
  assert.equal(await view.locator(id('http-status')).innerText(), '200');
  const headers = async (which) =>
    Object.fromEntries(await view.locator(`${id(which)} tr`).evaluateAll((trs) => trs.map((tr) => [tr.querySelector('th').textContent, tr.querySelector('td').textContent])));
  const sent = await headers('http-request-headers');
  assert.equal(sent['mcp-protocol-version'], '2025-11-25');
  assert.ok(sent['mcp-session-id'], 'the session header is shown');
  assert.match(sent.authorization, /^Bearer sk-v… \(\d+ chars\)$/);
  const got = await headers('http-response-headers');
  assert.match(got['content-type'], /json|event-stream/);
  assert.ok(!(await page.content()).includes('sk-very-secret-token'), 'the page never shows the secret');

  // The exchange groups the frame it posted and the answer its response carried.
  const members = await view.locator(id('http-exchange-member')).evaluateAll((els) => els.map((e) => Number(e.dataset.seq)));
  assert.ok(members.includes(request.seq) && members.includes(answer.seq), JSON.stringify(members));
  await shot(page, '32-traffic-http-exchange');
  assert.deepEqual(await axeViolations(page), [], 'the exchange view is accessible');

  // "This exchange" shows its record and its frames only.
  await page.fill(id('traffic-filter-method'), '');
  await view.locator(id('http-exchange-only')).click();
  await page.waitForSelector(id('traffic-filter-exchange'));
  let shown = [];
  await waitUntil(async () => {
    shown = await page.locator(id('traffic-row')).evaluateAll((els) => els.map((e) => Number(e.dataset.seq)).sort((a, b) => a - b));
    return shown.length === members.length + 1;
  }, 'the exchange filter to apply').catch((e) => {
    throw new Error(`${e.message}; shown ${JSON.stringify(shown)}`);
  });
  assert.deepEqual(shown, [...members, exchange.seq].sort((a, b) => a - b));
  // Jump to the answer through the group.
  await view.locator(`${id('http-exchange-member')}[data-seq="${answer.seq}"]`).click();
  await page.waitForSelector(`${id('frame-detail')}[data-seq="${answer.seq}"] ${id('http-exchange')}`);
  await page.click(id('traffic-filter-exchange-clear'));
});

test('the standalone GET stream records its exchange too', async () => {
  const recorded = (await mcplab.api('GET', '/api/servers/web/traffic')).body.frames;
  const get = recorded.find((f) => f.http?.method === 'GET' && f.http.purpose === 'stream');
  assert.ok(get, 'the standalone GET is recorded');
  assert.ok(get.http.requestHeaders.some(([k]) => k === 'mcp-session-id'));
  assert.ok(get.http.requestHeaders.some(([k, v]) => k === 'accept' && v.includes('text/event-stream')));
});

test('a 2026-07-28 frame shows the POST that carried it, with its Mcp-* headers', async () => {
  const { page } = app;
  const added = await mcplab.api('POST', '/api/servers', { name: 'modern', type: 'http', url: demo.url });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  assert.equal((await mcplab.api('POST', '/api/servers/modern/connect')).body.status.state, 'connected');
  const call = await mcplab.api('POST', '/api/servers/modern/tools/call', { name: 'echo', arguments: { message: 'modern http' } });
  assert.equal(call.status, 200, JSON.stringify(call.body));
  const recorded = (await mcplab.api('GET', '/api/servers/modern/traffic')).body.frames;
  const request = recorded.filter((f) => f.direction === 'outbound' && f.text.includes('"tools/call"')).at(-1);
  const exchange = recorded.find((f) => f.http?.requestSeq === request.seq);
  assert.ok(exchange, 'the POST is recorded');
  const sent = Object.fromEntries(exchange.http.requestHeaders);
  assert.equal(sent['mcp-method'], 'tools/call');
  assert.equal(sent['mcp-name'], 'echo');
  assert.equal(sent['mcp-session-id'], undefined, '2026-07-28 has no session');

  await page.fill(id('traffic-search'), 'modern http');
  const row = `${id('traffic-row')}[data-seq="${request.seq}"]`;
  await page.waitForSelector(row);
  await page.click(row);
  const view = page.locator(`${id('frame-detail')}[data-seq="${request.seq}"] ${id('http-exchange')}`);
  await view.waitFor();
  assert.match(await view.locator(id('http-request-headers')).innerText(), /mcp-method\s+tools\/call/);
  await page.fill(id('traffic-search'), '');
});

// The refused connection's answer to server/discover is mcplab's own (synthetic) error: an
// error, not a legacy server's "falls back" (auto does not fall back from a transport failure).
test("a refused connection's server/discover error row is an error and truncates its method, never its badges", async () => {
  const { page } = app;
  // A port nobody listens on: bound, then closed.
  const port = await new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = srv.address();
      srv.close(() => resolve(p));
    });
  });
  const added = await mcplab.api('POST', '/api/servers', { name: 'refused', type: 'http', url: `http://127.0.0.1:${port}/mcp` });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  await mcplab.api('POST', '/api/servers/refused/connect');
  await page.click(id('nav-tools'));
  await page.waitForSelector(id('traffic-panel'));
  await page.fill(id('traffic-filter-method'), 'server/discover');
  const row = `${id('traffic-row')}[data-method="server/discover"].t-error`;
  await page.waitForSelector(row, { timeout: 30000 });
  const cells = await page.$$eval(`${row} .c-method`, (methods) =>
    methods.map((m) => {
      const box = m.getBoundingClientRect();
      const badges = [...m.querySelectorAll('.badge')].map((b) => ({ text: b.textContent, right: b.getBoundingClientRect().right, whole: b.scrollWidth <= b.clientWidth + 1 }));
      return { right: box.right, badges };
    }),
  );
  assert.ok(cells.length > 0, 'no error row for server/discover');
  for (const c of cells) assert.deepEqual(c.badges.map((b) => b.text), ['error', 'synthetic']);
  for (const c of cells) for (const b of c.badges) assert.ok(b.whole && b.right <= c.right + 1, `the badge "${b.text}" is cut off: ${JSON.stringify(c)}`);
  await shot(page, 'traffic-http-refused-badges');
  await page.fill(id('traffic-filter-method'), '');
});

// Attacks on the signed-in browser, in real Chromium against the real binary (issue 11,
// review findings 1, 3, 5, 6, 7). Each is judged by what a server saw — the hostile "sink"
// listener's request log, mcplab's own API answers and the MCP traffic log — never by what a
// hostile page says about itself. The sink is a plain loopback listener on another port: the
// same *site* as mcplab's 127.0.0.1 (cookies ignore ports), and reachable as `localhost:<port>`
// when a different site is needed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startMcplab, openApp, shot } from './harness.js';
import { waitConnected } from './ui_helpers.js';

let mcplab;
let app;
let sink;
const id = (name) => `[data-testid="${name}"]`;

const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/** A hostile loopback listener: logs every request with its headers and serves a few pages. */
function startSink() {
  const log = [];
  const waiters = [];
  const pages = {
    // A page that makes the browser send a same-origin subresource request to the sink.
    '/grab.html': '<!doctype html><title>grab</title><img src="/collect.png">',
    // Cookie tossing: cookies ignore ports, so this sets a cookie for mcplab's host too.
    '/toss.html': '<!doctype html><title>toss</title><script>document.cookie = "mcplab_token=x; path=/api; max-age=3600"; document.title = "tossed";</script>',
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://sink');
    log.push({ path: url.pathname, headers: req.headers });
    for (const w of waiters.splice(0)) w();
    if (url.pathname === '/collect.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PIXEL);
    } else if (url.pathname === '/frame.html') {
      // Frames whatever `target` says and notes when the frame's load event fired.
      const target = JSON.stringify(url.searchParams.get('target'));
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>framer</title><iframe id="f" style="opacity:0.01" width="800" height="600"></iframe>
<script>const f = document.getElementById('f'); f.onload = () => { document.title = 'frame-loaded'; }; f.src = ${target};</script>`);
    } else if (url.pathname === '/evil.html') {
      // A cross-site page that sends the tab to a URL of its choice.
      const to = JSON.stringify(url.searchParams.get('to'));
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>evil</title><script>location.href = ${to};</script>`);
    } else if (pages[url.pathname]) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(pages[url.pathname]);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = server.address().port;
      resolve({
        url: `http://127.0.0.1:${port}`,
        // Another site than 127.0.0.1 (same listener).
        otherSite: `http://localhost:${port}`,
        log,
        /** Resolves once the sink has logged a request for `path` (or rejects after 15 s). */
        async waitFor(path) {
          const deadline = Date.now() + 15000;
          while (!log.some((r) => r.path === path)) {
            if (Date.now() > deadline) throw new Error(`the sink never saw ${path}: ${JSON.stringify(log.map((r) => r.path))}`);
            await new Promise((r) => { waiters.push(r); setTimeout(r, 1000); });
          }
        },
        close: () => new Promise((r) => server.close(r)),
      });
    });
  });
}

/** The UI in `page` is signed in: the servers page lists the demo server. */
async function assertSignedIn(page) {
  await page.waitForSelector(id('server-row-demo'), { timeout: 15000 });
  assert.equal(await page.locator(id('unauthorized')).count(), 0);
}

before(async () => {
  sink = await startSink();
  mcplab = await startMcplab();
  app = await openApp(mcplab);
  await waitConnected(mcplab, ['demo']);
  await assertSignedIn(app.page);
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
  await sink?.close();
});

test('no credential reaches another loopback port, and nothing it got opens the API', async () => {
  const { page, context } = app;
  await page.goto(`${sink.url}/grab.html`);
  await sink.waitFor('/collect.png');
  for (const r of sink.log) {
    assert.equal(r.headers.cookie, undefined, `the sink got a cookie on ${r.path}: ${r.headers.cookie}`);
    assert.equal(r.headers.authorization, undefined, `the sink got an Authorization header on ${r.path}`);
  }
  // Replaying everything the sink received (headers of every request) against the API fails.
  for (const r of sink.log) {
    const res = await fetch(`${mcplab.base}/api/servers`, { headers: { ...r.headers, host: new URL(mcplab.base).host } });
    assert.equal(res.status, 401, `replaying ${r.path}'s headers`);
  }
  // Nothing the browser keeps for 127.0.0.1 is a credential: no cookie at all.
  assert.deepEqual((await context.cookies()).map((c) => c.name), []);
  // Back in the same tab, the UI is still signed in.
  await page.goto(`${mcplab.base}/#/servers`);
  await assertSignedIn(page);
});

test('a cookie tossed from another port does not lock the UI out', async () => {
  const { page, context } = app;
  try {
    await page.goto(`${sink.url}/toss.html`);
    await page.waitForFunction(() => document.title === 'tossed');
    // The attack is in place: the browser now sends `mcplab_token=x` to mcplab's /api.
    assert.ok((await context.cookies(`${mcplab.base}/api/servers`)).some((c) => c.name === 'mcplab_token' && c.path === '/api'));
    await page.goto(`${mcplab.base}/#/servers`);
    await assertSignedIn(page);
    const health = await page.evaluate(async () => (await fetch('/api/health')).status);
    assert.equal(health, 401, 'a request with only the tossed cookie is refused');
  } finally {
    await context.clearCookies({ name: 'mcplab_token', path: '/api' });
  }
});

test('another loopback port cannot frame the signed-in UI', async () => {
  const { page } = app;
  // The signed-in tab goes to a page on another port that frames the UI.
  const assetsBefore = sink.log.length;
  await page.goto(`${sink.url}/frame.html?target=${encodeURIComponent(`${mcplab.base}/#/servers`)}`);
  await page.waitForFunction(() => document.title === 'frame-loaded');
  const frame = page.frames().find((f) => f !== page.mainFrame());
  assert.ok(frame, 'the iframe exists');
  // The browser refused to show mcplab in the frame: it holds Chromium's error page, not the UI.
  assert.doesNotMatch(frame.url(), new RegExp(`^${mcplab.base}`), frame.url());
  assert.equal(await frame.locator(id('servers-page')).count(), 0);
  await shot(page, 'security-01-framing-refused');
  assert.ok(sink.log.length > assetsBefore);
  // What the browser was told, on the page and on the API alike.
  for (const p of ['/', '/api/health']) {
    const res = await fetch(`${mcplab.base}${p}`);
    assert.equal(res.headers.get('x-frame-options'), 'DENY', p);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff', p);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /frame-ancestors 'none'/, p);
    // Scripts from mcplab's own files only, nothing inline (eval stays for the schema validator).
    assert.match(csp, /script-src 'self' 'unsafe-eval';/, p);
  }
  await page.goto(`${mcplab.base}/#/servers`);
  await assertSignedIn(page);
});

test('a cross-site deep link to #/render/<spec> calls no tool', async () => {
  const { page } = app;
  const marker = `deep-link-${Date.now()}`;
  const spec = { server: 'demo', tool: 'show_counter_app', arguments: { marker }, conditions: { cspMode: 'permissive' }, width: 400, height: 300 };
  const encoded = Buffer.from(JSON.stringify(spec)).toString('base64url');
  // The old form (the spec itself) and an id-shaped value the server never issued.
  for (const [name, target] of [['spec', encoded], ['forged-id', 'ab'.repeat(16)]]) {
    const callsBefore = await toolCalls();
    // The signed-in tab visits another site, which sends it to the deep link.
    await page.goto(`${sink.otherSite}/evil.html?to=${encodeURIComponent(`${mcplab.base}/#/render/${target}`)}`);
    await page.waitForURL((u) => u.href.startsWith(mcplab.base));
    // The render page settles (the report says what happened) …
    await page.waitForFunction(() => window.__mcplabRenderReport !== undefined, null, { timeout: 15000 });
    const report = await page.evaluate(() => window.__mcplabRenderReport);
    // … and the MCP server never saw a tools/call for it.
    const callsAfter = await toolCalls();
    assert.deepEqual(callsAfter, callsBefore, `${name}: no tools/call reached the server`);
    assert.ok(report.error, `${name}: the page says why it refused: ${JSON.stringify(report)}`);
    await page.waitForSelector(id('render-error'));
    await shot(page, `security-02-deep-link-refused-${name}`);
  }
  await page.goto(`${mcplab.base}/#/servers`);
  await page.reload();
  await assertSignedIn(page);
});

/** The tools/call requests the demo server received, from its traffic log. */
async function toolCalls() {
  const traffic = await mcplab.api('GET', '/api/servers/demo/traffic');
  assert.equal(traffic.status, 200);
  return traffic.body.frames
    .filter((f) => f.direction === 'outbound' && /"method"\s*:\s*"tools\/call"/.test(f.text))
    .map((f) => f.seq);
}

test('a login URL works once; a reload keeps the tab signed in', async () => {
  const first = await app.browser.newContext();
  const second = await app.browser.newContext();
  try {
    const a = await first.newPage();
    await a.goto(mcplab.url);
    await assertSignedIn(a);
    // The address bar no longer shows the code.
    assert.doesNotMatch(a.url(), /code=|token=/);
    await a.reload();
    await assertSignedIn(a);
    const b = await second.newPage();
    await b.goto(mcplab.url);
    await b.waitForSelector(id('login-refused'), { timeout: 15000 });
    const text = await b.locator(id('login-refused')).innerText();
    assert.match(text, /newest/);
    assert.match(text, /mcplab open/);
    await shot(b, 'security-03-code-reused');
    assert.equal(await b.locator(id('server-row-demo')).count(), 0);
  } finally {
    await first.close();
    await second.close();
  }
});

// Browser side of benches/web.sh's "idle with the UI open" rows (run web.sh, not this).
//
// Opens one tool's web UI in Debian's Chromium (headless, through playwright-core from
// tests/browser/node_modules), waits for events that say the UI is up — never a fixed sleep —
// then prints one JSON line `{"ready": true, …}` on stdout and keeps the page open until its
// stdin closes (the harness samples the tool's memory meanwhile), then closes the browser.
//
//   node benches/web_ui.mjs --kind mcplab|inspector|mcpjam --url URL [--chromium PATH]
//
// What "up" means per tool (checked by hand against the versions in BENCHMARKS.md; a newer
// version may need new selectors, and then this fails loudly rather than measuring too early):
// - mcplab: the one-time login URL redirects away from /auth, the host event stream
//   (GET /api/events, SSE) has answered 200, and on the Servers page a server's status badge
//   reads "connected" (with `serve --demo` that is the demo server, listed as "cli").
// - official Inspector 2.x: the page loads with the token URL it prints, its server event
//   stream (GET /api/servers/events, SSE) has answered 200, and the server list has rendered
//   (the "Add Servers" button and a server card's "Disconnected" are visible).
// - MCPJam: the page loads, GET /api/mcp/servers has answered, and after "Or continue as guest"
//   (its sign-in gate; a user clicks it too) the servers page shows "Add Your First Server".
//   It opens no event stream while no server is connected.
// The JSON line also carries the ms from goto to ready and the long-lived requests seen
// (responses of type text/event-stream, and WebSockets), so the report can say what was open,
// and, read in the page from its own clock, the ms from the HTML's arrival (the navigation's
// responseEnd) to the first contentful paint (`paintMs`) and to the server list being shown
// (`listedMs`; MCPJam's includes its guest click).
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../tests/browser/package.json'));
const { chromium } = require('playwright-core');

const { values: args } = parseArgs({
  options: { kind: { type: 'string' }, url: { type: 'string' }, chromium: { type: 'string' }, timeout: { type: 'string' } },
});
const kind = args.kind;
const url = args.url;
const chromiumPath = args.chromium || '/usr/bin/chromium';
const TIMEOUT = Number(args.timeout || 60000);
if (!['mcplab', 'inspector', 'mcpjam'].includes(kind) || !url) {
  console.error('usage: web_ui.mjs --kind mcplab|inspector|mcpjam --url URL [--chromium PATH]');
  process.exit(2);
}

const browser = await chromium.launch({
  executablePath: chromiumPath,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--no-first-run', '--disable-sync'],
});
let finished = false;
const finish = async (code) => {
  if (finished) return;
  finished = true;
  await browser.close().catch(() => {});
  process.exit(code);
};
process.on('SIGTERM', () => void finish(0));

// What "the server list is shown" means per tool, checked in the page every animation frame
// from the document's start (an init script), so the time is the page's own, not the moment
// this driver got round to asking (under load that came hundreds of ms later).
const LISTED = {
  mcplab: () => !!document.querySelector('[data-testid^="status-"][data-state="connected"]'),
  inspector: () => !!document.body && [...document.querySelectorAll('button')].some((b) => b.innerText.includes('Add Servers')) && document.body.innerText.includes('Disconnected'),
  mcpjam: () => !!document.body && document.body.innerText.includes('Add Your First Server'),
};

/** Installs the per-frame check `listed` in every document of `context` (as source text: the
 * pages' CSPs forbid eval, not init scripts); the first frame that passes it reports its time
 * through a CDP binding. Nothing is evaluated in the page until then: a `waitForFunction` would
 * inject Playwright's utility script (~30 ms of the main thread) in the middle of the start-up
 * being measured. */
async function watchListed(context, listed) {
  await context.addInitScript(`(() => {
    const check = ${listed.toString()};
    const frame = () => {
      if (check()) {
        window.__listedAt = performance.now();
        if (typeof window.__benchListed === 'function') window.__benchListed(String(window.__listedAt));
      } else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  })();`);
}

/** Resolves with the page's clock (performance.now) at the first frame the server list was
 * shown, as the init script reports it; call before navigating. */
async function listedReport(page) {
  const cdp = await page.context().newCDPSession(page);
  const at = new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`the server list was not shown within ${TIMEOUT} ms`)), TIMEOUT);
    cdp.on('Runtime.bindingCalled', (e) => {
      if (e.name !== '__benchListed') return;
      clearTimeout(timer);
      ok(Number(e.payload));
    });
  });
  await cdp.send('Runtime.enable');
  await cdp.send('Runtime.addBinding', { name: '__benchListed' });
  return () => at;
}

try {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await watchListed(context, LISTED[kind]);
  const page = await context.newPage();
  const streams = [];
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e).slice(0, 200)));
  page.on('websocket', (ws) => streams.push(`websocket ${new URL(ws.url()).pathname}`));
  page.on('response', (r) => {
    const type = r.headers()['content-type'] || '';
    if (type.startsWith('text/event-stream')) streams.push(`SSE ${new URL(r.url()).pathname} (${r.status()})`);
  });
  const listedTime = await listedReport(page);
  const t0 = performance.now();
  let listedAt = 0;
  if (kind === 'mcplab') {
    const events = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/events' && r.status() === 200, { timeout: TIMEOUT });
    await page.goto(url, { timeout: TIMEOUT });
    await page.waitForURL((u) => u.pathname !== '/auth', { timeout: TIMEOUT });
    await events;
    listedAt = await listedTime();
  } else if (kind === 'inspector') {
    const events = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/servers/events' && r.status() === 200, { timeout: TIMEOUT });
    await page.goto(url, { waitUntil: 'load', timeout: TIMEOUT });
    await events;
    listedAt = await listedTime();
  } else {
    const servers = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/mcp/servers', { timeout: TIMEOUT });
    await page.goto(url, { waitUntil: 'load', timeout: TIMEOUT });
    await servers;
    await page.click('text=Or continue as guest', { timeout: TIMEOUT });
    listedAt = await listedTime();
  }
  const ms = performance.now() - t0;
  const title = await page.title();
  const { paintMs, listedMs } = await page.evaluate((listed) => {
    const nav = performance.getEntriesByType('navigation')[0];
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    const html = nav ? nav.responseEnd : 0;
    return { paintMs: paint ? paint.startTime - html : null, listedMs: listed - html };
  }, listedAt);
  process.stdout.write(JSON.stringify({ ready: true, kind, ms, paintMs, listedMs, title, streams, errors }) + '\n');
  process.stdin.resume();
  process.stdin.on('end', () => void finish(0));
  process.stdin.on('close', () => void finish(0));
} catch (e) {
  process.stdout.write(JSON.stringify({ ready: false, kind, error: String(e).slice(0, 500) }) + '\n');
  await finish(1);
}

// Where mcplab's first screen spends its time: HTML → first paint → servers listed, from
// Chromium's own trace (issue 28 item 4; the figures are in BENCHMARKS.md "UI first screen").
//
//   node benches/web_profile.mjs --bin target/release/mcplab [--bin other/mcplab] [--runs 5]
//     [--ui DIR [--ui DIR]]  # the UI served from this web build (one per --bin, in order;
//                    # `-` = the binary's own): A/B of UI builds without building a binary
//     [--maps DIR]   # also a CPU profile per run: self time by source file, mapped through the
//                    # hidden source maps of the same build in DIR (`npm exec -- vite build
//                    # --sourcemap hidden --outDir DIR` from web/ — same hashes as web/dist)
//
// For each binary and run (binaries interleaved round-robin): starts `BIN serve --demo
// --no-open --port P --data-dir D` (one warm data dir per binary, used once before the runs),
// opens the login URL it prints in headless Chromium (/usr/bin/chromium through playwright-core
// in tests/browser; 1440×900, like benches/web_ui.mjs) with a trace recording, waits until a
// server's status badge reads "connected", and reads, for the document the login redirects to:
// - from the page: the HTML's responseEnd, first contentful paint, "servers listed" (the first
//   animation frame whose DOM shows it), and each request's start/end (scripts, CSS, /api/*);
// - from the trace (renderer main thread, between responseEnd and listed): time busy in tasks
//   and, by the innermost event, script compile, script run, style, layout, paint, HTML parse,
//   GC, other — the rest of the window the thread was idle, waiting on the network.
// With --ui, a proxy in this process serves the build's files (index.html for any page path,
// no compression, assets immutable) and passes /api/ and /oauth/ to the binary with its own
// Host and Origin; measure every variant through a proxy (e.g. `--ui web/dist --ui /tmp/b`)
// so they differ only in the UI.
// Prints one JSON line per run and a Markdown table of medians per binary. Loopback only.
// TIMELINE=1 also prints each main-thread task over 2 ms with its biggest children (stderr);
// TRACE_CATEGORIES=a,b adds trace categories (disabled-by-default-v8.compile shows lazy compile).
// Timing is the machine's: run it quiet, compare binaries in one run.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../tests/browser/package.json'));
const { chromium } = require('playwright-core');
const { TraceMap, originalPositionFor } = createRequire(path.join(here, '../web/package.json'))('@jridgewell/trace-mapping');

const { values: args } = parseArgs({
  options: { bin: { type: 'string', multiple: true }, ui: { type: 'string', multiple: true }, runs: { type: 'string' }, chromium: { type: 'string' }, maps: { type: 'string' } },
});
if (!args.bin?.length) {
  console.error('usage: web_profile.mjs --bin PATH [--bin PATH] [--runs N] [--chromium PATH]');
  process.exit(2);
}
const RUNS = Number(args.runs || 5);
const TIMEOUT = 60000;
const CATEGORIES = (process.env.TRACE_CATEGORIES ? process.env.TRACE_CATEGORIES.split(',') : []).concat(['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'v8', 'blink.user_timing', 'loading', 'toplevel']);

const freePort = () =>
  new Promise((ok, fail) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
    s.on('error', fail);
  });

/** Starts `bin serve --demo` and resolves with its process and the login URL it prints. */
async function startMcplab(bin, dataDir) {
  const port = await freePort();
  const child = spawn(bin, ['serve', '--demo', '--no-open', '--port', String(port), '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise((ok, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`${bin}: no login URL within ${TIMEOUT} ms:\n${out}`)), TIMEOUT);
    const read = (d) => {
      out += d;
      const m = /^open (http:\/\/\S+)$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (c) => fail(new Error(`${bin} exited (${c}) before printing its URL:\n${out}`)));
  });
  return { child, url };
}

const TYPES = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.svg': 'image/svg+xml', '.json': 'application/json', '.woff2': 'font/woff2' };

/** A loopback proxy in front of the binary at `target` (its login URL's origin) serving the web
 * build in `dir`; resolves with the proxy's server and a function mapping the login URL to it. */
async function uiProxy(dir, target) {
  const to = new URL(target);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/oauth/')) {
      const headers = { ...req.headers, host: to.host };
      if (headers.origin) headers.origin = to.origin;
      if (headers.referer) headers.referer = to.origin + new URL(headers.referer).pathname;
      const up = http.request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers }, (r) => {
        res.writeHead(r.statusCode, r.headers);
        r.pipe(res);
      });
      up.on('error', () => res.destroy());
      req.pipe(up);
      res.on('close', () => up.destroy());
      return;
    }
    let file = path.join(dir, path.normalize(url.pathname));
    if (!file.startsWith(dir) || !existsSync(file) || statSync(file).isDirectory()) file = path.join(dir, 'index.html');
    const asset = url.pathname.startsWith('/assets/');
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': asset ? 'public, max-age=31536000, immutable' : 'no-cache' });
    res.end(readFileSync(file));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const via = (login) => {
    const u = new URL(login);
    u.host = `127.0.0.1:${server.address().port}`;
    return u.toString();
  };
  return { server, via };
}

const stop = (child) =>
  new Promise((ok) => {
    if (child.exitCode !== null) return ok();
    child.on('exit', ok);
    child.kill('SIGTERM');
  });

// The same "listed" check as benches/web_ui.mjs, per animation frame from the document's start,
// reporting through a CDP binding (as web_ui.mjs does: no script is evaluated in the page before).
const LISTED = `(() => {
  const frame = () => {
    const any = document.querySelector('[data-testid^="status-"]');
    if (any && !window.__statusAt) window.__statusAt = [performance.now(), any.dataset.state];
    if (document.querySelector('[data-testid^="status-"][data-state="connected"]')) {
      window.__listedAt = performance.now();
      if (typeof window.__benchListed === 'function') window.__benchListed(String(window.__listedAt));
    } else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();`;

/** One traced page load: the page's timings and the trace events. */
async function traceOnce(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript(LISTED);
  const page = await context.newPage();
  const pageCdp = await context.newCDPSession(page);
  const nextListed = () =>
    new Promise((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`not listed within ${TIMEOUT} ms`)), TIMEOUT);
      const on = (e) => {
        if (e.name !== '__benchListed') return;
        clearTimeout(timer);
        pageCdp.off('Runtime.bindingCalled', on);
        ok();
      };
      pageCdp.on('Runtime.bindingCalled', on);
    });
  const listed = nextListed();
  await pageCdp.send('Runtime.enable');
  await pageCdp.send('Runtime.addBinding', { name: '__benchListed' });
  const cdp = await browser.newBrowserCDPSession();
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  const done = new Promise((ok) => cdp.once('Tracing.tracingComplete', ok));
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: CATEGORIES }, transferMode: 'ReportEvents' });
  await page.goto(url, { timeout: TIMEOUT });
  await page.waitForURL((u) => u.pathname !== '/auth', { timeout: TIMEOUT });
  await listed;
  const timings = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    const requests = performance.getEntriesByType('resource').map((r) => ({
      name: new URL(r.name).pathname.replace(/^\/assets\//, ''),
      start: r.startTime,
      sent: r.requestStart,
      first: r.responseStart,
      end: r.responseEnd,
      size: r.transferSize,
      cached: r.transferSize === 0,
    }));
    return { html: nav.responseEnd, fcp: fcp?.startTime ?? null, listed: window.__listedAt, status: window.__statusAt, prof: window.__prof, requests };
  });
  await cdp.send('Tracing.end');
  await done;
  const cpu = args.maps ? await profileReload(page, nextListed) : null;
  await context.close();
  return { timings, events, cpu };
}

/** Self ms per source (file of the source map, or the chunk) in a CPU profile of one reload of
 * the signed-in page, from the reload until the servers are listed. */
async function profileReload(page, nextListed) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  const listed = nextListed();
  await page.reload({ timeout: TIMEOUT });
  await listed;
  const { profile } = await cdp.send('Profiler.stop');
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map();
  const inclusive = new Map();
  for (const [i, id] of profile.samples.entries()) {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const where = source(byId.get(id).callFrame);
    self.set(where, (self.get(where) || 0) + dt);
    // Inclusive time of the app's own files (src/…): each file once per sample on the stack.
    const seen = new Set();
    for (let n = id; n !== undefined; n = parent.get(n)) {
      const f = source(byId.get(n).callFrame);
      if (f.startsWith('src/') && !seen.has(f)) {
        seen.add(f);
        inclusive.set(f, (inclusive.get(f) || 0) + dt);
      }
    }
  }
  const top = (m, n) => Object.fromEntries([...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => [k, Math.round(v * 10) / 10]));
  return { self: top(self, 25), inclusive: top(inclusive, 25) };
}

const traceMaps = new Map();
/** "package or src/dir" of a call frame, through the chunk's hidden source map. */
function source(frame) {
  if (!frame.url) return frame.functionName ? `(${frame.functionName})` : '(native)';
  const file = new URL(frame.url).pathname.replace(/^\//, '');
  if (!file.startsWith('assets/')) return file;
  if (!traceMaps.has(file)) {
    let map = null;
    try {
      map = new TraceMap(readFileSync(path.join(args.maps, `${file}.map`), 'utf8'));
    } catch {
      /* no map: the chunk's name is shown */
    }
    traceMaps.set(file, map);
  }
  const map = traceMaps.get(file);
  const pos = map && frame.lineNumber >= 0 && originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber });
  if (!pos?.source) return file;
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(pos.source);
  return m ? m[1] : pos.source.replace(/^.*?\/web\/src\//, 'src/').replace(/^(\.\.\/)+/, '');
}

const COMPILE = /^(v8\.compile|v8\.compileModule|V8\.CompileCode|v8\.parseOnBackground|CompileCode|CompileModule|v8\.produceCache|v8\.produceModuleCache)$/;
const RUN = /^(v8\.run|v8\.evaluateModule|EvaluateScript|FunctionCall|V8\.Execute|v8\.callFunction|RunMicrotasks|TimerFire|FireAnimationFrame|EventDispatch|XHRReadyStateChange|v8\.newInstance)$/;
const bucket = (name) =>
  COMPILE.test(name) ? 'compile'
  : RUN.test(name) ? 'script'
  : /GC|MinorGC|MajorGC|V8\.GC/.test(name) ? 'gc'
  : /^(UpdateLayoutTree|ParseAuthorStyleSheet|RecalculateStyles|ScheduleStyleRecalculation)$/.test(name) ? 'style'
  : /^(Layout|UpdateLayout)$/.test(name) ? 'layout'
  : /^(Paint|PrePaint|Layerize|Commit|CompositeLayers|UpdateLayer|PaintImage|RasterTask)$/.test(name) ? 'paint'
  : name === 'ParseHTML' ? 'html'
  : 'other';

/** Self time per bucket of the renderer main thread's complete events inside [from, to] (ms
 * on the page's clock), and the time inside top-level tasks. */
function mainThreadBreakdown(events, from, to) {
  const threadName = new Map();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threadName.set(`${e.pid}:${e.tid}`, e.args.name);
  // The page's clock starts at the last main-frame navigationStart of the redirected document.
  const starts = events.filter((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame && /^http/.test(e.args.data.documentLoaderURL || ''));
  const last = starts.filter((e) => new URL(e.args.data.documentLoaderURL).pathname !== '/auth').at(-1);
  if (!last) throw new Error('no navigationStart in the trace');
  const key = `${last.pid}:${last.tid}`;
  if (threadName.get(key) !== 'CrRendererMain') throw new Error(`navigationStart on ${threadName.get(key)}`);
  const t0 = last.ts / 1000;
  const lo = t0 + from;
  const hi = t0 + to;
  const complete = events
    .filter((e) => `${e.pid}:${e.tid}` === key && e.ph === 'X' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const out = { busy: 0, compile: 0, script: 0, gc: 0, style: 0, layout: 0, paint: 0, html: 0, other: 0 };
  const clip = (s, e) => Math.max(0, Math.min(e, hi) - Math.max(s, lo));
  const stack = [];
  const timeline = [];
  // Self time: each event's span minus its children's, attributed to its bucket.
  const self = new Map();
  for (const e of complete) {
    const s = e.ts / 1000;
    const end = s + e.dur / 1000;
    while (stack.length && stack.at(-1).end <= s) stack.pop();
    const parent = stack.at(-1);
    if (parent) self.set(parent.e, (self.get(parent.e) || 0) - clip(s, Math.min(end, parent.end)));
    self.set(e, (self.get(e) || 0) + clip(s, end));
    if (!parent && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask')) {
      out.busy += clip(s, end);
      if (process.env.TIMELINE && clip(s, end) > 2) timeline.push({ at: Math.round(s - lo), ms: Math.round(e.dur / 1000), e });
    }
    stack.push({ e, end });
  }
  if (process.env.TIMELINE) {
    // Each long task with its biggest direct children, for reading the order of the work.
    for (const t of timeline) {
      const s = t.e.ts, end = t.e.ts + t.e.dur;
      const kids = complete.filter((c) => c !== t.e && c.ts >= s && c.ts + c.dur <= end && c.dur > 1000 && !/RunTask/.test(c.name));
      const desc = kids.slice(0, 8).map((c) => `${c.name}${c.args?.data?.url ? '[' + c.args.data.url.split('/').pop() + ']' : ''}${c.args?.data?.functionName ? '{' + c.args.data.functionName + '}' : ''} ${Math.round(c.dur / 1000)}`).join(', ');
      console.error(`  +${t.at} ms: task ${t.ms} ms: ${desc}`);
    }
  }
  const names = new Map();
  for (const [e, ms] of self) {
    if (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') continue;
    out[bucket(e.name)] += ms;
    names.set(e.name, (names.get(e.name) || 0) + ms);
  }
  // The biggest innermost events by name, for a look at what "other" holds.
  out.top = Object.fromEntries([...names].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, v]) => [k, Math.round(v)]));
  return out;
}

const median = (xs) => {
  const s = xs.filter((x) => x != null).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
};

const browser = await chromium.launch({
  executablePath: args.chromium || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
});
const dirs = args.bin.map(() => mkdtempSync(path.join(os.tmpdir(), 'mcplab-profile-')));
const results = args.bin.map(() => []);
const label = (i) => (args.ui?.[i] && args.ui[i] !== '-' ? `${args.bin[i]} + ${args.ui[i]}` : args.bin[i]);
try {
  for (let run = -1; run < RUNS; run++) {
    for (const [i, bin] of args.bin.entries()) {
      const { child, url } = await startMcplab(bin, dirs[i]);
      const ui = args.ui?.[i] && args.ui[i] !== '-' ? await uiProxy(path.resolve(args.ui[i]), url) : null;
      try {
        const { timings, events, cpu } = await traceOnce(browser, ui ? ui.via(url) : url);
        if (run < 0) continue; // the warm-up: creates the data dir, fills the OS caches
        const rel = (t) => (t == null ? null : Math.round(t - timings.html));
        const cpuPaint = mainThreadBreakdown(events, timings.html, timings.fcp);
        const cpuListed = mainThreadBreakdown(events, timings.html, timings.listed);
        const requests = timings.requests.map((r) => ({ ...r, start: rel(r.start), sent: rel(r.sent), first: rel(r.first), end: rel(r.end) }));
        const row = { bin: label(i), run, prof: timings.prof?.map(([id, ph, ms, s, c]) => [id, ph, ms, rel(s), rel(c)]), paint: rel(timings.fcp), listed: rel(timings.listed), firstStatus: [rel(timings.status[0]), timings.status[1]], cpuPaint, cpuListed, requests, cpu };
        results[i].push(row);
        process.stdout.write(JSON.stringify(row) + '\n');
      } finally {
        ui?.server.closeAllConnections();
        ui?.server.close();
        await stop(child);
      }
    }
  }
} finally {
  await browser.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}

const r0 = (x) => (x == null ? '–' : Math.round(x));
console.log('\n| binary | first paint, ms | busy / compile / script / style+layout / paint / gc / other before it | listed, ms | busy / compile / script / style+layout / paint / gc / other before it |');
console.log('|---|---:|---|---:|---|');
for (const [i, bin] of args.bin.entries()) {
  const rs = results[i];
  const m = (f) => r0(median(rs.map(f)));
  const cpu = (k) => `${m((r) => r[k].busy)} / ${m((r) => r[k].compile)} / ${m((r) => r[k].script)} / ${m((r) => r[k].style + r[k].layout)} / ${m((r) => r[k].paint)} / ${m((r) => r[k].gc)} / ${m((r) => r[k].other + r[k].html)}`;
  console.log(`| ${label(i)} | ${m((r) => r.paint)} | ${cpu('cpuPaint')} | ${m((r) => r.listed)} | ${cpu('cpuListed')} |`);
}
console.log('\nRequests of the redirected document (median start → end, ms after the HTML):');
for (const [i, bin] of args.bin.entries()) {
  const names = [...new Set(results[i].flatMap((r) => r.requests.map((q) => q.name)))];
  const line = names.map((n) => {
    const qs = results[i].map((r) => r.requests.find((q) => q.name === n)).filter(Boolean);
    return `${n} ${r0(median(qs.map((q) => q.start)))}→${r0(median(qs.map((q) => q.end)))}${qs.every((q) => q.cached) ? ' (cache)' : ''}`;
  });
  console.log(`- ${label(i)}: ${line.join('; ')}`);
}
if (args.maps) {
  for (const what of ['self', 'inclusive']) {
    console.log(`\nCPU ${what} time of a reload until listed, by source (median ms over the runs):`);
    for (const [i, bin] of args.bin.entries()) {
      const keys = [...new Set(results[i].flatMap((r) => Object.keys(r.cpu[what])))];
      const rows = keys.map((k) => [k, median(results[i].map((r) => r.cpu[what][k] ?? 0))]).sort((a, b) => b[1] - a[1]).slice(0, 20);
      console.log(`- ${label(i)}: ${rows.map(([k, v]) => `${k} ${r0(v)}`).join('; ')}`);
    }
  }
}

// The first screen's byte budget (issue 28 item 4, BENCHMARKS.md "UI first screen"): what
// web/dist/index.html makes the browser fetch, parse and compile before the app can render —
// the entry script, the chunks it modulepreloads and the stylesheets — must stay under the
// budgets below. Run after `vite build` (scripts/test.sh's web stage does):
//
//   node web/scripts/first-screen-budget.mjs [DIST]      # DIST defaults to web/dist
//
// A failure names the files and what to do: move what the first screen does not show behind a
// `React.lazy`/`import()` (App.tsx's pages, TrafficDock's panel), or raise the budget here in
// the same commit, with the reason, after measuring with benches/web.sh.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Raw (not gzipped) bytes. Measured 2026-12-06: JS 424.6 kB, CSS 44.7 kB; 2026-12-07, after the
 * docked traffic split stopped using react-resizable-panels: JS 377.9 kB, CSS 45.3 kB. */
const BUDGET = { js: 400_000, css: 48_000 };

const dist = process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '../dist');
let html;
try {
  html = readFileSync(path.join(dist, 'index.html'), 'utf8');
} catch (e) {
  console.error(`no ${path.join(dist, 'index.html')} (${e.code}): build the UI first (cd web && npm exec -- vite build)`);
  process.exit(2);
}

const refs = { js: [], css: [] };
for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
  const src = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
  if (!src || !src.startsWith('./assets/')) continue;
  if (/^<script\b/.test(tag) || /\brel="modulepreload"/.test(tag)) refs.js.push(src);
  else if (/\brel="stylesheet"/.test(tag)) refs.css.push(src);
}
if (!refs.js.length) {
  console.error(`${dist}/index.html names no entry script under ./assets/: is this a vite build?`);
  process.exit(2);
}

let failed = false;
for (const kind of ['js', 'css']) {
  const files = refs[kind].map((f) => ({ f, size: statSync(path.join(dist, f)).size })).sort((a, b) => b.size - a.size);
  const total = files.reduce((n, x) => n + x.size, 0);
  const over = total > BUDGET[kind];
  failed ||= over;
  console.log(`${over ? 'OVER' : 'ok'}  first-screen ${kind}: ${(total / 1000).toFixed(1)} kB of ${(BUDGET[kind] / 1000).toFixed(1)} kB (${files.length} files)`);
  if (over) {
    for (const { f, size } of files.slice(0, 8)) console.log(`      ${(size / 1000).toFixed(1).padStart(7)} kB  ${f}`);
  }
}
if (failed) {
  console.error(
    'The first screen grew past its budget (web/scripts/first-screen-budget.mjs). Load what the Servers page does not show on demand (React.lazy / import()), or raise the budget in the same commit with the reason and a benches/web.sh measurement.',
  );
  process.exit(1);
}

// Browser test of the Evals page: a suites folder set in the page, a suite saved from the page
// (a malformed one refused with its line), a run launched with repeat 2 against the testkit's
// scripted LLM (real HTTP) and the built-in demo server as a child process, live progress
// over the run's event stream, then the stored run's matrix: one green and one red dot, the
// failing iteration's difference and its trace (tool card, failed check with its reason); a
// second run compared with the first (Fixed) and the suite's pass rate over both runs (chart,
// loaded lazily, and table); a page-started run rendering an app for its appRendered check.
// What the page shows is checked against what the API stored. The first Run lists the command
// the suite starts and asks; later runs of the same list do not ask again. The folder is
// picked under the home (mcplab's HOME is a temporary directory), where a starter suite is
// created too; the editor (CodeMirror, its own chunk, not loaded before it opens) completes
// keys from the suite's JSON Schema (a check's name inside a `checks:` item too, in a flow list
// over several lines as well), marks the server's refusal at its line and passes axe in both
// themes; the selected suite and run are in the URL and survive a reload,
// and the nav's link brings them back; old runs are pruned from the page after a preview;
// a model drafts cases into a suite from the page (one draft cancelled while it writes), shown
// in the editor at once, or after a reload the page offers when the editor holds unsaved edits.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bin, startMcplab, startScriptedLlm, openApp, shot } from './harness.js';
import { axeViolations, chooseServers, id, navTo, waitUntil } from './ui_helpers.js';

let llm;
let mcplab;
let app;
let folder;
let home;

const suite = (cases) => `version: 1
id: page-suite
title: Page suite
models: [openai::gpt-x]
mcpServers:
  demo:
    command: ${bin}
    args: [demo-server]
${cases}`;

const ADD = `cases:
  - id: add
    turns: [What is 2 + 40? Use the add tool.]
    toolCalls:
      expected:
        - { tool: add, arguments: { a: 2, b: 40 } }
    checks:
      - answerContains: "42"
`;

/** A model's reply drafting `cases` (as ```json), each a prompt for one of the demo's tools. */
const drafted = (cases) => '```json\n' + JSON.stringify(cases.map((c) => ({ prompt: `Use ${c.tool}`, server: 'demo', ...c }))) + '\n```';

before(async () => {
  // Concurrency 1: the script answers in order. Iteration 1 passes; iteration 2 calls add
  // with a wrong argument and answers 43, so its arguments and its answer check fail.
  llm = await startScriptedLlm([
    { call: [{ id: 'c1', name: 'demo__add', arguments: { a: 2, b: 40 } }] },
    { reply: ['The sum is 42.'] },
    { call: [{ id: 'c1b', name: 'demo__add', arguments: { a: 2, b: 41 } }] },
    { reply: ['It is 43.'] },
    // The second run: both iterations pass.
    { call: [{ id: 'c2', name: 'demo__add', arguments: { a: 2, b: 40 } }] },
    { reply: ['The sum is 42.'] },
    { call: [{ id: 'c3', name: 'demo__add', arguments: { a: 2, b: 40 } }] },
    { reply: ['The sum is 42.'] },
    // A chat turn, saved as a case.
    { call: [{ id: 'c4', name: 'demo__add', arguments: { a: 7, b: 8 } }] },
    { reply: ['It is 15.'] },
    // A run with an appRendered check.
    { call: [{ id: 'c5', name: 'demo__show_counter_app', arguments: {} }] },
    { reply: ['Here is the counter.'] },
    // Cases drafted from the page: one cancelled while the model writes, then two answers.
    { reply: [drafted([{ id: 'too-late', tool: 'add' }])], delayMs: 600000 },
    { reply: ['Here you go:\n', drafted([{ id: 'add-small', tool: 'add', arguments: { a: 1, b: 2 } }, { id: 'echo-hi', tool: 'echo' }])] },
    { reply: [drafted([{ id: 'add-more', tool: 'add' }])] },
  ]);
  home = mkdtempSync(path.join(tmpdir(), 'mcplab-home-'));
  folder = path.join(home, 'suites');
  mkdirSync(folder);
  mkdirSync(path.join(home, 'fresh'));
  writeFileSync(path.join(folder, 'notes.txt'), 'not a suite');
  mcplab = await startMcplab([], { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: llm.baseUrl, HOME: home });
  app = await openApp(mcplab);
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
  llm?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

test('suites from a folder, saved from the page, run with live progress and shown as a matrix', async () => {
  const { page } = app;
  await page.click(id('nav-evals'));
  await page.waitForSelector(id('evals-page'));

  // A folder that does not exist is refused with a reason.
  await page.fill(id('evals-folder'), path.join(folder, 'missing'));
  await page.click(id('evals-folder-save'));
  await page.waitForSelector(id('evals-folder-error'));
  assert.match(await page.locator(id('evals-folder-error')).innerText(), /not an existing directory/);

  // The picker starts at the home and lists its folders; a starter suite made in one is
  // saved there, loads, and opens in the editor (loaded now: it was not part of the page).
  const editorChunk = () => page.evaluate(() => performance.getEntriesByType('resource').some((e) => /YamlEditor-[^/]*\.js$/.test(e.name)));
  assert.equal(await editorChunk(), false, 'the code editor is not loaded before a suite is opened');
  await page.click(id('evals-folder-browse'));
  await page.waitForSelector(`${id('evals-picker-dir')}[data-name="fresh"]`);
  assert.deepEqual(await page.locator(id('evals-picker-dir')).evaluateAll((b) => b.map((x) => x.dataset.name)), ['fresh', 'suites']);
  await page.click(`${id('evals-picker-dir')}[data-name="fresh"]`);
  await page.waitForSelector(`${id('evals-picker-path')}[data-path$="/fresh"]`);
  assert.match(await page.locator(id('evals-picker-count')).innerText(), /No suite files here/);
  await page.click(id('evals-picker-starter'));
  await page.waitForSelector(id('evals-picker'), { state: 'detached' });
  await page.waitForFunction(() => window.location.hash === '#/evals/starter.yaml');
  await page.waitForSelector(`${id('evals-editor')} .cm-content`);
  assert.ok(await editorChunk());
  assert.match(readFileSync(path.join(home, 'fresh', 'starter.yaml'), 'utf8'), /id: starter[\s\S]*servers: \["demo"\]/);
  assert.equal((await mcplab.api('GET', '/api/evals/suites')).body.find((x) => x.name === 'starter.yaml').error, undefined);
  assert.equal(await page.locator(`${id('evals-editor')} .cm-gutters .cm-lineNumbers`).count(), 1, 'line numbers');
  // Back up to the home, into the suites folder, and use it.
  await page.click(id('evals-folder-browse'));
  await page.waitForSelector(`${id('evals-picker-path')}[data-path$="/fresh"]`);
  await page.click(`${id('evals-picker-path')} button >> nth=0`);
  await page.click(`${id('evals-picker-dir')}[data-name="suites"]`);
  await page.waitForSelector(`${id('evals-picker-path')}[data-path$="/suites"]`);
  await page.click(id('evals-picker-use'));
  await page.waitForSelector(id('evals-picker'), { state: 'detached' });
  assert.equal(await page.locator(id('evals-folder')).inputValue(), folder);
  await page.waitForSelector(id('evals-new-suite') + ':not([disabled])');

  // A malformed suite is refused with its line, marked in the editor at that line; nothing is
  // written.
  const editor = `${id('evals-editor')} .cm-content`;
  await page.click(id('evals-new-suite'));
  // The editor is named for what the file holds (`{}` reads as both: JSON mode's parser logs
  // an error for YAML text, which the end of this test would count).
  await page.fill(editor, '{}');
  await page.fill(id('evals-file-name'), 'page.json');
  await page.waitForSelector(`${editor}[aria-label="Suite JSON"]`);
  await page.fill(id('evals-file-name'), 'page.yaml');
  await page.waitForSelector(`${editor}[aria-label="Suite YAML"]`);
  await page.fill(editor, 'version: 1\nid: bad\nrepeat: many\ncases: []\n');
  await page.click(id('evals-save'));
  await page.waitForSelector(id('evals-save-error'));
  assert.match(await page.locator(id('evals-save-error')).innerText(), /3:/);
  assert.throws(() => readFileSync(path.join(folder, 'page.yaml')));
  const marked = await page.waitForFunction(() => {
    const lines = [...document.querySelectorAll('[data-testid="evals-editor"] .cm-line')];
    const at = lines.findIndex((l) => l.querySelector('.cm-lintRange-error'));
    return at >= 0 ? at + 1 : null;
  });
  assert.equal(await marked.jsonValue(), 3, 'the refusal is marked on line 3');
  // Completion comes from the suite's JSON Schema: a case's key as it is typed, with its doc.
  await page.fill(editor, 'version: 1\nid: c\ncases:\n  - id: a\n    ');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('tur');
  await page.keyboard.press('Control+Space');
  const offered = page.locator('.cm-tooltip-autocomplete li', { hasText: 'turns' });
  await offered.first().waitFor({ timeout: 10000 });
  assert.match(await page.locator('.cm-completionInfo').innerText(), /one turn each/);
  // Inside a `checks:` item: the check names of the same schema, with what each checks.
  await page.fill(editor, 'version: 1\nid: c\ncases:\n  - id: a\n    turns: [hi]\n    checks:\n      - maxR');
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Control+Space');
  await page.locator('.cm-tooltip-autocomplete li', { hasText: 'maxRenderMs' }).first().waitFor({ timeout: 10000 });
  assert.match(await page.locator('.cm-completionInfo').innerText(), /milliseconds/);
  // In a flow list over several lines too (read from the editor's syntax tree).
  await page.keyboard.press('Escape');
  await page.fill(editor, 'version: 1\nid: c\ncases:\n  - id: a\n    turns: [hi]\n    checks: [\n      toolCalled: x,\n      noC');
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Control+Space');
  await page.locator('.cm-tooltip-autocomplete li', { hasText: 'noConsoleErrors' }).first().waitFor({ timeout: 10000 });

  // Readable in both themes, the editor's colours too: keys, comments, line numbers (axe).
  await page.keyboard.press('Escape');
  await page.fill(editor, `# the suite\n${suite(ADD)}`);
  for (const scheme of ['dark', 'light']) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme);
    assert.deepEqual(await axeViolations(page), [], scheme);
  }
  await page.fill(editor, suite(ADD));
  await page.click(id('evals-save'));
  await page.waitForSelector(id('evals-suite-page.yaml'));
  assert.equal(readFileSync(path.join(folder, 'page.yaml'), 'utf8'), suite(ADD));
  assert.equal(await page.locator(id('evals-suite-notes.txt')).count(), 0, 'only suite files are listed');

  const chunks = [];
  page.on('request', (r) => /TrendChart-[^/]*\.js$/.test(r.url()) && chunks.push(r.url()));
  await page.click(id('evals-suite-page.yaml'));
  // No run of the suite yet: no chart, and its code is not loaded.
  await page.waitForSelector(id('evals-trend-empty'));
  assert.deepEqual(chunks, []);
  await page.fill(id('evals-repeat'), '2');
  await page.fill(id('evals-concurrency'), '1');
  // Before anything starts, the page lists the command the suite would start and asks; the
  // server refuses a run nobody agreed to.
  const refused = await mcplab.api('POST', '/api/evals/runs', { suite: 'page.yaml', models: [] });
  assert.equal(refused.status, 409);
  assert.equal(refused.body.code, 'launch_unconfirmed');
  await page.click(id('evals-run'));
  await page.waitForSelector(id('evals-launch'));
  const items = page.locator(id('evals-launch-item'));
  assert.equal(await items.count(), 1);
  assert.equal(await items.first().getAttribute('data-kind'), 'suiteCommand');
  assert.match(await items.first().innerText(), /demo-server/);
  await page.click(id('evals-launch-agree'));
  await page.waitForSelector(`${id('evals-progress')}[data-finished="2"][data-planned="2"]`, { timeout: 60000 });
  await page.waitForSelector(id('evals-ended'), { timeout: 30000 });
  assert.match(await page.locator(id('evals-ended')).innerText(), /finished: failed a gate/);
  assert.doesNotMatch(await page.locator(id('evals-ended')).innerText(), /exit/);

  // The stored run, as the API has it, is what the matrix shows.
  const view = page.locator(id('evals-run-view'));
  await view.waitFor({ timeout: 30000 });
  const runId = await view.getAttribute('data-run');
  assert.match(await view.innerText(), /full · finished/, 'the run says its kind');
  const stored = await mcplab.api('GET', `/api/evals/runs/${runId}`);
  assert.equal(stored.status, 200);
  assert.equal(stored.body.record.iterations.length, 2);
  assert.equal(stored.body.run.status, 'finished');
  const cell = page.locator(`${id('evals-cell')}[data-case="add"][data-model="openai::gpt-x"]`);
  assert.equal(await cell.getAttribute('data-passes'), '1');
  assert.equal(await cell.getAttribute('data-n'), '2');
  assert.equal(await cell.locator('.evals-dot.pass').count(), 1);
  assert.equal(await cell.locator('.evals-dot.fail').count(), 1);
  await cell.click();
  const failed = page.locator(`${id('evals-iteration')}[data-outcome="failed"]`);
  await failed.waitFor();
  assert.match(await failed.innerText(), /Argument mismatch in add/);

  // The failing iteration's trace, fetched only when opened: the tool call the model made
  // (arguments and result, in the chat's tool card), the check that failed and why.
  const traceRequests = [];
  page.on('request', (r) => r.url().includes('/iteration?') && traceRequests.push(r.url()));
  assert.equal(await failed.locator(id('evals-trace')).count(), 0);
  await failed.locator(id('evals-open-trace')).click();
  const trace = failed.locator(id('evals-trace'));
  await trace.waitFor();
  assert.equal(traceRequests.length, 1);
  assert.equal(await trace.getAttribute('data-outcome'), 'failed');
  const card = trace.locator(`${id('tool-card')}[data-tool="add"]`);
  assert.equal(await card.count(), 1);
  assert.match(await card.innerText(), /41/);
  assert.match(await card.locator(id('tool-card-result')).innerText(), /43/);
  const check = trace.locator(`${id('evals-check')}[data-passed="false"]`);
  assert.equal(await check.count(), 1);
  assert.match(await check.innerText(), /answerContains[\s\S]*42/);
  assert.equal(await trace.locator(`${id('evals-call-diff')}[data-kind="argumentMismatch"]`).count(), 1);
  assert.match(await trace.locator(id('evals-trace-clocks')).innerText(), /turn 1: finished[\s\S]*tokens/);
  // What the page shows is what the API stored for that iteration.
  const it = stored.body.record.iterations.find((i) => i.outcome.status === 'failed');
  const api = await mcplab.api('GET', `/api/evals/runs/${runId}/iteration?caseId=add&model=openai%3A%3Agpt-x&iteration=${it.iteration}`);
  assert.equal(api.status, 200);
  assert.deepEqual(api.body.turns[0].toolCalls[0].arguments, { a: 2, b: 41 });
  assert.equal(api.body.checks[0].passed, false);
  await page.waitForSelector(`${id('evals-run-item')}[data-run="${runId}"]`);
  await shot(page, '60-evals');
  // The suite and the run are in the URL: a reload shows both again.
  assert.equal(new URL(page.url()).hash, `#/evals/page.yaml/${runId}`);
  await page.reload();
  await page.waitForSelector(`${id('evals-run-view')}[data-run="${runId}"]`);
  await page.waitForSelector(`${id('evals-suite-page.yaml')}.active`);
  await page.waitForFunction((sel) => document.querySelector(sel)?.textContent.includes('id: page-suite'), editor);
  // The nav's link brings the selection back (remembered, as the other pages do).
  await navTo(page, 'servers');
  await navTo(page, 'evals');
  await page.waitForSelector(`${id('evals-run-view')}[data-run="${runId}"]`);
  assert.equal(new URL(page.url()).hash, `#/evals/page.yaml/${runId}`);
  await page.waitForFunction((sel) => document.querySelector(sel)?.textContent.includes('id: page-suite'), editor);
  // The launcher's fields are the page's, not the URL's.
  await page.fill(id('evals-repeat'), '2');
  await page.fill(id('evals-concurrency'), '1');

  // A second run that passes both times, compared with the first: the cell is Fixed.
  await page.click(id('evals-run'));
  await page.waitForFunction(
    ([sel, first]) => [...document.querySelectorAll(sel)].some((e) => e.getAttribute('data-run') !== first),
    [id('evals-run-item'), runId],
    { timeout: 60000 },
  );
  const runs = (await mcplab.api('GET', '/api/evals/runs')).body;
  assert.equal(runs.length, 2);
  const second = runs.find((r) => r.id !== runId);
  assert.equal(second.status, 'finished');
  for (const r of [runId, second.id]) await page.check(`${id('evals-compare-pick')}[data-run="${r}"]`);
  const row = page.locator(id('evals-compare-row'));
  await row.waitFor();
  assert.equal(await row.getAttribute('data-change'), 'fixed');
  assert.match(await row.innerText(), /1\/2[\s\S]*2\/2/);
  // The suite's pass rate over its two runs: 1/2 then 2/2 on its one model, as a chart (the
  // chart loaded now, in its own chunk) and as a table; the API says the same.
  const trend = page.locator(id('evals-trend'));
  await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 2, `${id('evals-trend-table')} tbody tr`);
  await trend.locator('.trend-line').first().waitFor();
  assert.ok(chunks.length > 0, 'the chart came in its own chunk');
  const cells = await trend.locator(`${id('evals-trend-table')} td[data-model="openai::gpt-x"]`).evaluateAll((tds) => tds.map((td) => td.textContent));
  assert.match(cells[0], /^1\/2 50% \(9%–91%\)$/);
  assert.match(cells[1], /^2\/2 100% \(34%–100%\)$/);
  assert.match(await trend.locator(id('evals-trend-chart')).getAttribute('aria-label'), /over 2 runs.*latest run: openai::gpt-x 100%/);
  // The error bars span the intervals: 9–91 % and 34–100 %, read off the chart's own y axis.
  const bars = await trend.locator(id('evals-trend-chart')).evaluate((el) => {
    const labels = [...el.querySelectorAll('.trend-ytick')];
    const ticks = Object.fromEntries(labels.map((t) => [t.textContent, Number(t.getAttribute('y'))]));
    const at = (y) => Math.round((100 * (ticks['0%'] - y)) / (ticks['0%'] - ticks['100%']));
    return [...el.querySelectorAll('.trend-error')].map((g) => {
      const v = [...g.querySelectorAll('line')].find((l) => l.getAttribute('x1') === l.getAttribute('x2'));
      return [at(Number(v.getAttribute('y1'))), at(Number(v.getAttribute('y2')))].sort((a, b) => a - b);
    });
  });
  assert.deepEqual(bars, [[9, 91], [34, 100]]);
  await trend.scrollIntoViewIfNeeded();
  await shot(page, '61-evals-trend');
  const points = (await mcplab.api('GET', '/api/evals/trend?suiteId=page-suite')).body;
  assert.deepEqual(points.map((p) => [p.runId, p.models[0].passes, p.models[0].n]), [[runId, 1, 2], [second.id, 2, 2]]);
  // The two refusals above are the only failed requests.
  assert.deepEqual(app.errors.filter((e) => !e.includes('status of 400')), []);
  assert.equal(app.errors.length, 2);
});

test('a chat session is saved as a case of a suite from the Chat page', async () => {
  const { page } = app;
  await page.click(id('nav-chat'));
  await page.click(id('chat-new'));
  const model = page.locator(id('chat-model'));
  await model.waitFor();
  const openai = await model.locator('option[value^="openai::"]').first().getAttribute('value');
  await model.selectOption(openai);
  await chooseServers(page, ['demo']);
  await page.fill(id('chat-input'), 'What is 7 + 8? Use the add tool.');
  await page.click(id('chat-send'));
  await page.waitForSelector(`${id('tool-card')}[data-status="ok"]`, { timeout: 30000 });
  await page.click(id('chat-save-case-open'), { timeout: 30000 });
  await page.selectOption(id('chat-save-case-suite'), 'page.yaml');
  await page.click(id('chat-save-case-save'));
  await page.waitForFunction((sel) => /Added case/.test(document.querySelector(sel)?.textContent ?? ''), id('chat-save-case-note'));
  const text = readFileSync(path.join(folder, 'page.yaml'), 'utf8');
  assert.ok(text.startsWith(suite(ADD)), 'the rest of the file is kept');
  assert.match(text, /What is 7 \+ 8\? Use the add tool\./);
  assert.match(text, /tool: add/);
  // The suite still loads, with both cases.
  const listed = (await mcplab.api('GET', '/api/evals/suites')).body;
  assert.deepEqual(listed.find((x) => x.name === 'page.yaml').error, undefined);
});

test('a run started from the page renders apps for its appRendered checks, as the CLI does', async () => {
  const { page } = app;
  writeFileSync(
    path.join(folder, 'app.yaml'),
    suite(`cases:
  - id: app
    turns: [Show the counter.]
    checks: [appRendered: {}]
`),
  );
  const earlier = (await mcplab.api('GET', '/api/evals/runs')).body.map((r) => r.id);
  await page.click(id('nav-evals'));
  await page.click(id('evals-suite-app.yaml'));
  await page.fill(id('evals-repeat'), '1');
  await page.click(id('evals-run'));
  await page.waitForSelector(id('evals-ended'), { timeout: 60000 });
  // The nav brought the last run shown back; the new run replaces it once it ended.
  const view = page.locator(id('evals-run-view'));
  await page.waitForFunction(([sel, old]) => {
    const run = document.querySelector(sel)?.getAttribute('data-run');
    return run && !old.includes(run);
  }, [id('evals-run-view'), earlier], { timeout: 30000 });
  const runId = await view.getAttribute('data-run');
  const it = (await mcplab.api('GET', `/api/evals/runs/${runId}/iteration?caseId=app&model=openai%3A%3Agpt-x&iteration=0`)).body;
  // Rendered in headless Chromium under the host profile: initialized, no errors, no CSP
  // violations; before, a page-started run ended "errored" here.
  assert.equal(it.outcome.status, 'passed', JSON.stringify(it.outcome));
  assert.equal(it.appRenders.length, 1);
  assert.deepEqual(
    [it.appRenders[0].tool, it.appRenders[0].initialized, it.appRenders[0].errors, it.appRenders[0].cspViolations],
    ['show_counter_app', true, [], []],
  );
  assert.match(await page.locator(id('evals-ended')).innerText(), /finished: passed/);
});

test('old runs are pruned from the page after a preview, as `eval runs prune --keep 1` does', async () => {
  const { page } = app;
  const runs = (await mcplab.api('GET', '/api/evals/runs')).body;
  // Keeping the newest run of each suite: every other run of a suite goes.
  const newest = new Map();
  for (const r of runs) if (!newest.has(r.suiteId) || newest.get(r.suiteId).startedMs < r.startedMs) newest.set(r.suiteId, r);
  const doomed = runs.filter((r) => newest.get(r.suiteId) !== r).map((r) => r.id);
  assert.ok(doomed.length >= 1, JSON.stringify(runs));
  await navTo(page, 'evals');
  await page.click(id('evals-prune-open'));
  await page.fill(id('evals-prune-keep'), '1');
  await page.click(id('evals-prune-preview'));
  const plan = page.locator(`${id('evals-prune-plan')}[data-count="${doomed.length}"]`);
  await plan.waitFor();
  for (const r of doomed) assert.match(await plan.innerText(), new RegExp(r));
  // The preview deleted nothing.
  assert.equal((await mcplab.api('GET', '/api/evals/runs')).body.length, runs.length);
  await page.click(id('evals-prune-confirm'));
  const result = page.locator(`${id('evals-prune-result')}[data-count="${doomed.length}"]`);
  await result.waitFor();
  assert.match(await result.innerText(), /^Deleted \d+ runs?; the database went from .+ to .+ \(.+ reclaimed\)\.$/);
  const left = (await mcplab.api('GET', '/api/evals/runs')).body.map((r) => r.id);
  assert.deepEqual([...left].sort(), runs.map((r) => r.id).filter((r) => !doomed.includes(r)).sort());
  // The list shows what is left.
  await page.waitForFunction(([sel, n]) => document.querySelectorAll(sel).length === n, [id('evals-run-item'), left.length]);
});

test('a model drafts cases into a suite from the page; Cancel stops one; unsaved edits are not clobbered', async () => {
  const { page } = app;
  const file = path.join(folder, 'page.yaml');
  const editor = `${id('evals-editor')} .cm-content`;
  const editorHas = (text) => page.waitForFunction(([sel, t]) => {
    document.querySelector('[data-testid="evals-editor"] .cm-scroller')?.scrollTo(0, 1e6);
    return document.querySelector(sel)?.textContent.includes(t);
  }, [editor, text]);
  await navTo(page, 'evals');
  await page.click(id('evals-suite-page.yaml'));
  await editorHas('id: page-suite');
  const before = readFileSync(file, 'utf8');
  await page.click(id('evals-draft-open'));
  const openai = await page.locator(`${id('evals-draft-model')} option[value^="openai::"]`).first().getAttribute('value');
  await page.selectOption(id('evals-draft-model'), openai);
  await page.waitForSelector(`${id('evals-draft-server-demo')}:checked`);
  await page.fill(id('evals-draft-count'), '2');

  // The first answer never comes: Cancel, once the model was asked, ends the wait.
  const asked = (await llm.requests()).length;
  await page.click(id('evals-draft-start'));
  await page.waitForSelector(id('evals-draft-pending'));
  await waitUntil(async () => (await llm.requests()).length > asked, 'the model to be asked');
  assert.match(JSON.stringify((await llm.requests()).at(-1).messages), /Write 2 realistic/);
  await page.click(id('evals-draft-cancel'));
  await page.waitForSelector(id('evals-draft-cancelled'));
  assert.equal(readFileSync(file, 'utf8'), before);

  // The next answer drafts two cases: their ids are shown, the file has them after what was
  // there, and the editor (no unsaved edits) shows the file as it is now.
  await page.click(id('evals-draft-start'));
  const added = page.locator(id('evals-draft-added'));
  await added.waitFor({ timeout: 30000 });
  assert.equal(await added.getAttribute('data-ids'), 'add-small echo-hi');
  assert.match(await added.innerText(), /Added 2 cases to page\.yaml: add-small, echo-hi\./);
  const text = readFileSync(file, 'utf8');
  assert.ok(text.startsWith(before), 'the rest of the file is kept');
  assert.match(text.slice(before.length), /id: add-small[\s\S]*tool: add[\s\S]*id: echo-hi/);
  assert.equal((await mcplab.api('GET', '/api/evals/suites')).body.find((x) => x.name === 'page.yaml').error, undefined, 'the suite still loads');
  await editorHas('id: echo-hi');
  assert.equal(await page.locator(id('evals-draft-unsaved')).count(), 0);

  // With an edit not saved, the editor keeps it: the page says the file has the new case and
  // offers to reload, which shows the file (and drops the edit).
  await page.click(editor);
  await page.keyboard.press('Control+Home');
  await page.keyboard.type('# not saved\n');
  await page.click(id('evals-draft-start'));
  await page.waitForSelector(`${id('evals-draft-added')}[data-ids="add-more"]`, { timeout: 30000 });
  await page.waitForSelector(id('evals-draft-unsaved'));
  await page.locator(id('evals-draft')).scrollIntoViewIfNeeded();
  await shot(page, '62-evals-draft');
  assert.match(readFileSync(file, 'utf8'), /id: add-more/);
  assert.match(await page.locator(editor).textContent(), /# not saved/);
  await page.click(id('evals-draft-reload'));
  await editorHas('id: add-more');
  assert.doesNotMatch(await page.locator(editor).textContent(), /# not saved/);
  assert.equal(await page.locator(id('evals-draft-unsaved')).count(), 0);

  // In a narrower window the form (its model select as wide as its longest option) stays in
  // the suite's column. (The shell lays a narrow window out anew: the form opens again there.)
  await page.setViewportSize({ width: 768, height: 900 });
  if ((await page.locator(id('evals-draft')).count()) === 0) await page.click(id('evals-draft-open'));
  const within = await page.locator(id('evals-draft')).evaluate((el) => el.getBoundingClientRect().right <= window.innerWidth);
  await page.setViewportSize({ width: 1440, height: 900 });
  assert.ok(within, 'the draft form fits a 768 px window');
});

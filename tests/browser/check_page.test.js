// Browser test of the Check page (issue 24 item 8): a raw server that poisons its tools
// (tests/interop/rawsrv.py poison) is checked from #/check with the CLI's options — protocol
// auto, a directory, a host profile — on fresh connections; findings are grouped by rule
// set and era with their source, the servers × hosts matrix shows a verdict, and a finding's
// frame opens in the traffic panel. The web API takes the fuzz options too. A fuzz input that
// broke a tool's outputSchema (rulesrv.py stats) is called again from its finding, and the
// report downloads as the CLI's JUnit, SARIF and Markdown files. The Tools page marks the
// poisoned tools from the same rules (a clean tool unmarked), and a tool's Checks section opens to
// its findings.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startMcplab, openApp, shot, root } from './harness.js';
import { axeViolations } from './ui_helpers.js';

let mcplab;
let app;
const id = (name) => `[data-testid="${name}"]`;
const rawsrv = path.join(root, 'tests/interop/rawsrv.py');
const rulesrv = path.join(root, 'tests/interop/rulesrv.py');

before(async () => {
  mcplab = await startMcplab();
  app = await openApp(mcplab);
  const config = { name: 'poisoned', type: 'stdio', command: 'python3', args: [rawsrv, 'poison'] };
  assert.equal((await mcplab.api('POST', '/api/servers', config)).status, 201);
  const stats = { name: 'stats', type: 'stdio', command: 'python3', args: [rulesrv, 'stats'] };
  assert.equal((await mcplab.api('POST', '/api/servers', stats)).status, 201);
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
});

test('check a configured server from the Check page with hosts and a directory', async () => {
  const { page } = app;
  await page.click(id('nav-check'));
  await page.waitForSelector(id('check-page'));
  await page.selectOption(id('check-server'), 'poisoned');
  await page.selectOption(id('check-era'), 'auto');
  await page.check(id('check-set-readiness-claude'));
  await page.check(id('check-host-claude'));
  assert.match(await page.innerText(id('check-cli')), /mcplab check --server poisoned --readiness claude --host claude/);
  await page.click(id('check-run'));
  await page.waitForSelector(`${id('check-page-finding')}[data-rule="tool-poisoning"]`, { timeout: 30000 });
  const sets = await page.$$eval(id('check-group'), (els) => els.map((e) => e.getAttribute('data-set')));
  for (const set of ['security', 'readiness-claude']) assert.ok(sets.includes(set), sets.join());
  const eras = await page.$$eval(`${id('check-group')}[data-set="security"] ${id('check-era-group')}`, (els) => els.map((e) => e.getAttribute('data-era')));
  assert.deepEqual(eras, ['2025-11-25'], 'rawsrv speaks the 2025 era only');
  const source = await page.getAttribute(`${id('check-page-finding')}[data-rule="tool-poisoning"] ${id('check-source')}`, 'href');
  assert.match(source, /^https:\/\//);
  const verdict = page.locator(`${id('check-verdict')}[data-server="poisoned"][data-host="claude"]`);
  assert.match(await verdict.getAttribute('data-verdict'), /^(works|degraded|blocked|unknown)$/);
  await shot(page, 'check-page-01-report');
  // The finding's frame (the tools/list answer of the check's own connection) opens in the traffic panel.
  const frame = page.locator(`${id('check-page-finding')}[data-rule="tool-poisoning"] ${id('check-frame')}`).first();
  const seq = await frame.getAttribute('data-seq');
  await frame.click();
  await page.waitForSelector(`${id('frame-detail')}[data-seq="${seq}"]`, { timeout: 10000 });
  assert.match(await page.innerText(id('frame-detail')), /IMPORTANT/);
  await shot(page, 'check-page-02-frame');
});

test('the check API takes the fuzz options and refuses unknown hosts', async () => {
  const fuzzed = await mcplab.api('POST', '/api/servers/poisoned/check', {
    calls: [],
    protocol: '2025-11-25',
    fuzz: { perTool: 2, seed: 7, tools: ['add'] },
  });
  assert.equal(fuzzed.status, 200, JSON.stringify(fuzzed.body));
  const rules = fuzzed.body.eras.flatMap((e) => e.rules.map((r) => r.ruleSet));
  assert.ok(rules.includes('fuzz'), JSON.stringify(fuzzed.body.eras));
  // The fresh connection records under a name of its own: its frames never mix with the live ones.
  assert.deepEqual(fuzzed.body.eras.map((e) => e.traffic), ['poisoned (check)']);
  const unknown = await mcplab.api('POST', '/api/servers/poisoned/check', { calls: [], protocol: 'auto', hosts: ['no-such-host'] });
  assert.equal(unknown.status, 400, JSON.stringify(unknown.body));
});

test('a failed fuzz input is called again from its finding, and the report downloads as JUnit, SARIF and Markdown', async () => {
  const { page } = app;
  await page.selectOption(id('check-server'), 'stats');
  await page.selectOption(id('check-era'), '2025-11-25');
  await page.fill(id('check-fuzz'), '12');
  await page.fill(id('check-seed'), '3');
  await page.click(id('check-run'));
  const broke = `${id('check-page-finding')}[data-rule="fuzz-output-schema"]`;
  await page.waitForSelector(broke, { timeout: 30000 });
  await page.locator(`${broke} ${id('check-call-again')}`).first().click();
  const result = page.locator(`${broke} ${id('check-call-result')}`).first();
  await result.waitFor({ timeout: 10000 });
  assert.match(await result.innerText(), /"count": "many"/, 'the same negative n breaks the schema again');
  await shot(page, 'check-page-03-call-again');
  const expect = { junit: [/\.xml$/, /<testsuite[ s>]/], sarif: [/\.sarif$/, /"version": "2\.1\.0"/], markdown: [/\.md$/, /fuzz-output-schema/] };
  for (const [format, [name, body]] of Object.entries(expect)) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(id(`check-export-${format}`))]);
    assert.match(download.suggestedFilename(), name);
    const chunks = [];
    for await (const c of await download.createReadStream()) chunks.push(c);
    assert.match(Buffer.concat(chunks).toString('utf8'), body, format);
  }
});

test('the Tools page marks each tool the rules find fault with, and its Checks section opens to the findings', async () => {
  const { page } = app;
  await page.evaluate(() => (window.location.hash = '#/tools/poisoned'));
  const mark = (tool) => `${id(`tool-item-${tool}`)} ${id('tool-mark')}`;
  await page.waitForSelector(mark('notes'), { timeout: 15000 });
  assert.equal(await page.getAttribute(mark('notes'), 'data-severity'), 'error');
  assert.equal(await page.getAttribute(mark('notes'), 'aria-label'), '1 error, 1 warning');
  assert.equal(await page.getAttribute(mark('fetch'), 'data-severity'), 'error');
  // The mark takes no room in its row: it arriving moves nothing.
  assert.equal(await page.$eval(mark('notes'), (el) => getComputedStyle(el).position), 'absolute');
  await shot(page, 'check-page-04-tool-marks');
  await page.click(id('tool-item-notes'));
  const checks = `${id('tool-checks')}[data-state="ready"]`;
  await page.waitForSelector(checks, { timeout: 10000 });
  assert.equal(await page.innerText(id('tool-checks-summary')), 'Checks: 1 error, 1 warning');
  assert.equal(await page.$eval(id('tool-checks'), (el) => el.open), false, 'folded at first');
  await page.click(id('tool-checks-summary'));
  const rules = await page.$$eval(`${id('tool-checks')} ${id('check-page-finding')}`, (els) => els.map((e) => `${e.dataset.severity} ${e.dataset.rule}`));
  assert.deepEqual(rules, ['error tool-poisoning', 'warning sensitive-file']);
  assert.match(await page.getAttribute(`${id('tool-checks')} ${id('check-source')}`, 'href'), /^https:\/\//);
  assert.match(await page.innerText(id('tool-checks')), /fix: describe what the tool does/);
  assert.deepEqual(await axeViolations(page), []);
  await shot(page, 'check-page-05-tool-checks');
  // Another server's tool of the same name (from the list poisoned's page fetched): a warning.
  const peer = { name: 'peer', type: 'stdio', command: 'python3', args: [rawsrv, 'peer'] };
  assert.equal((await mcplab.api('POST', '/api/servers', peer)).status, 201);
  await page.evaluate(() => (window.location.hash = '#/tools/peer'));
  await page.waitForSelector(mark('send_mail'), { timeout: 15000 });
  assert.equal(await page.getAttribute(mark('send_mail'), 'data-severity'), 'warning');
  assert.equal(await page.getAttribute(mark('send_mail'), 'aria-label'), '1 warning');
  // The marks follow the list: Reload, and a list_changed (the demo's toggle_extra_tool), each
  // fetch them again, after the list.
  const findings = (r) => r.url().endsWith('/api/servers/demo/tools/findings');
  const first = page.waitForResponse(findings, { timeout: 15000 });
  await page.evaluate(() => (window.location.hash = '#/tools/demo'));
  await first;
  let again = page.waitForRequest(findings, { timeout: 15000 });
  await page.click(id('tools-reload'));
  await again;
  again = page.waitForRequest(findings, { timeout: 15000 });
  const toggled = await mcplab.api('POST', '/api/servers/demo/tools/call', { name: 'toggle_extra_tool', arguments: {} });
  assert.equal(toggled.status, 200, JSON.stringify(toggled.body));
  await page.waitForSelector(id('tool-item-extra_tool'), { timeout: 15000 });
  await again;
  // A clean tool: no mark, and its section says so.
  await page.evaluate(() => (window.location.hash = '#/tools/stats/stats'));
  await page.waitForSelector(checks, { timeout: 15000 });
  assert.equal(await page.innerText(id('tool-checks-summary')), 'Checks: no findings');
  assert.equal(await page.$$eval(id('tool-mark'), (els) => els.length), 0);
  await page.click(id('tool-checks-summary'));
  await page.click(id('tool-checks-report'));
  await page.waitForSelector(id('check-page'), { timeout: 10000 });
});

// Interop: MCP App example servers published on npm (written independently of mcplab, on the
// official ext-apps SDK) run over stdio and render offline in mcplab's sandbox, under the
// restrictive default CSP they get for declaring none: their UI initializes, shows the tool's
// result and calls server tools (including app-only ones) through the host.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { frames, sent, waitConnected, waitUntil } from './ui_helpers.js';
import { startMcplab, openApp, shot, root } from './harness.js';

const pkg = (name) => path.join(root, 'tests/npm/node_modules/@modelcontextprotocol', name, 'dist/index.js');
const SERVERS = {
  basic: 'server-basic-vanillajs',
  budget: 'server-budget-allocator',
  monitor: 'server-system-monitor',
  cohort: 'server-cohort-heatmap',
};

let mcplab;
let app;
const id = (name) => `[data-testid="${name}"]`;

before(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcplab-interop-'));
  const config = path.join(dir, 'servers.json');
  const mcpServers = Object.fromEntries(
    Object.entries(SERVERS).map(([name, p]) => [name, { command: process.execPath, args: [pkg(p), '--stdio'] }]),
  );
  writeFileSync(config, JSON.stringify({ mcpServers }));
  mcplab = await startMcplab(['--config', config]);
  app = await openApp(mcplab);
  await waitConnected(mcplab, Object.keys(SERVERS), 60000);
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
});

/** Violations listed for the app: these bundles probe `new Function` (zod does, to pick a
 * fast path) and carry on without it under the spec's default CSP; anything else fails. */
async function onlyEvalProbes(page) {
  const rows = await page.locator(id('app-violation')).allInnerTexts();
  assert.deepEqual(rows.filter((r) => !/^script-src blocked eval$/.test(r.trim())), []);
}

async function render(page, server, tool) {
  await page.click(id('nav-tools'));
  await page.selectOption(id('server-selector'), server);
  await page.click(id(`tool-item-${tool}`));
  await page.click(id('tool-call'));
  await page.waitForSelector(`${id('app-frame')}[data-status="ready"]`, { timeout: 30000 });
  return page.frameLocator(id('app-iframe')).frameLocator('iframe');
}

test('server-basic-vanillajs: the app shows the time and calls get-time itself', async () => {
  const { page, errors } = app;
  const doc = await render(page, 'basic', 'get-time');
  const time = doc.locator('#server-time');
  await time.filter({ hasText: /\d{4}-\d{2}-\d{2}T/ }).waitFor({ timeout: 20000 });
  // The button makes the app call get-time itself: judged on the server's traffic (a new
  // tools/call) and on the app showing that call's answer.
  const calls = async () => (await sent(mcplab, 'basic', 'tools/call')).filter((f) => f.msg.params?.name === 'get-time');
  const before = (await calls()).length;
  await doc.locator('#get-time-btn').click();
  const call = await waitUntil(async () => (await calls())[before], "the app's own get-time call");
  const answer = await waitUntil(
    async () => (await frames(mcplab, 'basic')).find((f) => f.direction !== 'outbound' && f.msg?.id === call.msg.id && f.msg.result),
    'the answer to that call',
  );
  const shown = JSON.stringify(answer.msg.result).match(/\d{4}-\d{2}-\d{2}T[\d:.]+Z?/)?.[0];
  assert.ok(shown, `a time in the answer: ${JSON.stringify(answer.msg.result)}`);
  await time.filter({ hasText: shown }).waitFor({ timeout: 10000 });
  // Its log message reaches the server's log view.
  await doc.locator('#send-log-btn').click();
  await page.click(id('nav-logs'));
  await page.waitForFunction(() => document.body.innerText.includes('basic'));
  await page.click(id('nav-tools'));
  await onlyEvalProbes(page);
  assert.deepEqual(errors.filter((e) => !/favicon/.test(e)), []);
  await shot(page, '50-interop-basic');
});

test('server-budget-allocator renders its chart and sliders', async () => {
  const { page } = app;
  const doc = await render(page, 'budget', 'get-budget-data');
  await doc.locator('#sliders-container input, #sliders-container [role="slider"]').first().waitFor({ timeout: 20000 });
  await doc.locator('#budget-chart').waitFor();
  await onlyEvalProbes(page);
  await shot(page, '51-interop-budget');
});

test('server-system-monitor polls through its app-only tool', async () => {
  const { page } = app;
  const doc = await render(page, 'monitor', 'get-system-info');
  await doc.locator('#info-hostname').filter({ hasText: /\S/ }).waitFor({ timeout: 20000 });
  // poll-system-stats is visible to the app only; the app calls it through the host.
  await doc.locator('#memory-percent').filter({ hasText: /\d/ }).waitFor({ timeout: 20000 });
  const frames = await mcplab.api('GET', '/api/servers/monitor/traffic');
  assert.ok(frames.body.frames.some((f) => f.text.includes('poll-system-stats') && f.direction === 'outbound'), 'the app-only tool was called');
  await shot(page, '52-interop-monitor');
});

test('server-cohort-heatmap renders its React UI', async () => {
  const { page } = app;
  const doc = await render(page, 'cohort', 'get-cohort-data');
  await doc.locator('#root *').first().waitFor({ timeout: 20000 });
  assert.ok((await doc.locator('#root').innerText()).length > 20);
  await onlyEvalProbes(page);
  await shot(page, '53-interop-cohort');
});

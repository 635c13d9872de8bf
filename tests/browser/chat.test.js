// Browser test of the chat playground: the testkit's scripted LLM server (real HTTP, OpenAI
// streaming format) calls a tool of the built-in demo server; the card shows the result, its
// frames appear in the traffic panel, and the session survives a reload.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startMcplab, startScriptedLlm, openApp, shot } from './harness.js';
import { frames, sent, waitConnected } from './ui_helpers.js';

let llm;
let mcplab;
let app;
const id = (name) => `[data-testid="${name}"]`;

before(async () => {
  llm = await startScriptedLlm([
    { call: [{ id: 'call_1', name: 'demo__add', arguments: { a: 2, b: 40 } }] },
    { reply: ['The answer ', 'is **42**.'] },
    { call: [{ id: 'call_2', name: 'demo__add', arguments: { a: 1, b: 1 } }] },
    { reply: ['Approved and done.'] },
  ]);
  mcplab = await startMcplab([], { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: llm.baseUrl });
  app = await openApp(mcplab);
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
  llm?.stop();
});

test('a chat whose model calls a demo tool', async () => {
  const { page } = app;
  // The first run's demo server connects in the background.
  await waitConnected(mcplab, ['demo']);
  await page.click(id('nav-chat'));
  await page.click(id('chat-new'));
  const model = page.locator(id('chat-model'));
  await model.waitFor();
  const openai = await model.locator('option[value^="openai::"]').first().getAttribute('value');
  await model.selectOption(openai);
  await page.check(id('chat-server-demo'));
  await page.fill(id('chat-input'), 'What is 2 + 40? Use the add tool.');
  await page.click(id('chat-send'));

  const card = page.locator(`${id('tool-card')}[data-tool="add"]`);
  await card.waitFor({ timeout: 20000 });
  await page.waitForSelector(`${id('tool-card')}[data-status="ok"]`, { timeout: 20000 });
  assert.equal(await card.getAttribute('data-server'), 'demo');
  assert.match(await card.locator(id('tool-card-result')).innerText(), /42/);
  await page.waitForFunction(
    (sel) => [...document.querySelectorAll(sel)].some((m) => m.innerText.includes('The answer is 42')),
    `${id('chat-message')}[data-role="assistant"]`,
  );
  await page.waitForSelector(id('turn-usage'));
  // Chat needs the width: the traffic panel starts closed here.
  assert.equal(await page.locator(id('traffic-panel')).count(), 0);
  await shot(page, '20-chat');

  // "frames" opens the panel on exactly this call's frames: its request and its response.
  await card.locator(id('tool-card-frames')).click();
  await page.waitForSelector(id('traffic-filter-call'));
  const call = (await sent(mcplab, 'demo', 'tools/call')).at(-1);
  assert.equal(call.msg.params.name, 'add');
  const mine = (await frames(mcplab, 'demo')).filter((f) => f.msg?.id === call.msg.id && (f.direction === 'outbound' ? f.msg.method === 'tools/call' : 'result' in f.msg));
  assert.equal(mine.length, 2);
  await page.waitForFunction(([sel, n]) => document.querySelectorAll(sel).length === n, [id('traffic-row'), 2]);
  const shown = await page.locator(id('traffic-row')).evaluateAll((els) => els.map((e) => Number(e.dataset.seq)).sort((a, b) => a - b));
  assert.deepEqual(shown, mine.map((f) => f.seq));
  await shot(page, '21-chat-frames');
});

test('the session survives a reload', async () => {
  const { page } = app;
  await page.reload();
  await page.waitForSelector(`${id('tool-card')}[data-tool="add"][data-status="ok"]`, { timeout: 20000 });
  await page.waitForFunction(
    (sel) => [...document.querySelectorAll(sel)].some((m) => m.innerText.includes('The answer is 42')),
    `${id('chat-message')}[data-role="assistant"]`,
  );
  const sessions = await mcplab.api('GET', '/api/sessions');
  assert.equal(sessions.body.length, 1);
  const view = await mcplab.api('GET', `/api/sessions/${sessions.body[0].id}`);
  assert.ok(view.body.turns[0].events.some((e) => e.type === 'toolResult' && !e.isError));
  await shot(page, '22-chat-reloaded');
});

test('a tool call waits for approval and runs with edited arguments', async () => {
  const { page } = app;
  await page.click(id('chat-new'));
  const model = page.locator(id('chat-model'));
  const openai = await model.locator('option[value^="openai::"]').first().getAttribute('value');
  await model.selectOption(openai);
  await page.check(id('chat-server-demo'));
  await page.check(id('chat-require-approval'));
  await page.fill(id('chat-input'), 'add one and one');
  await page.click(id('chat-send'));
  const form = page.locator(id('approval-form'));
  await form.waitFor({ timeout: 20000 });
  await page.waitForSelector(`${id('tool-card')}[data-status="approval"]`);
  await form.locator(id('approval-args')).fill('{"a": 20, "b": 22}');
  await shot(page, '23-chat-approval');
  await form.locator(id('approval-allow')).click();
  const card = page.locator(`${id('tool-card')}[data-status="ok"]`).last();
  await card.waitFor({ timeout: 20000 });
  assert.match(await card.locator(id('tool-card-result')).innerText(), /42/);
  await page.waitForFunction(
    (sel) => [...document.querySelectorAll(sel)].some((m) => m.innerText.includes('Approved and done.')),
    `${id('chat-message')}[data-role="assistant"]`,
  );
});

test('no page errors were logged', () => {
  assert.deepEqual(app.errors.filter((e) => !/favicon/.test(e)), []);
});

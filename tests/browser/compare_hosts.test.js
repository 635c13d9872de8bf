// Browser test of compare columns that differ by host, not model (issues 14 and 18): one chat,
// "Compare…" with the same scripted model twice, column 1 as Claude and column 2 as ChatGPT.
// Each column's head names its host and what differs from column 1; each column's session
// stores its profile's HostConfig; and — judged by what the scripted LLM server logged — each
// column's model got the tool result its profile says (ChatGPT: with structuredContent; Claude:
// without, and only after the approval Claude asks for every tool call). The two sessions are
// one compare in the session list, which reopens them side by side after a reload.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startMcplab, startScriptedLlm, openApp, shot } from './harness.js';
import { newChat, waitConnected, waitUntil } from './ui_helpers.js';

let llm;
let mcplab;
let app;
const id = (name) => `[data-testid="${name}"]`;

before(async () => {
  // Rules, not a script: both columns run at once, each turn gets "call add", then a reply.
  llm = await startScriptedLlm(
    [{ variants: [[{ call: [{ id: 'call_a', name: 'demo__add', arguments: { a: 2, b: 40 } }] }, { reply: ['It is 42.'] }], [{ call: [{ id: 'call_b', name: 'demo__add', arguments: { a: 2, b: 40 } }] }, { reply: ['It is 42.'] }]] }],
    { rules: true },
  );
  mcplab = await startMcplab([], { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: llm.baseUrl });
  app = await openApp(mcplab);
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
  llm?.stop();
});

const requestsOf = () => llm.requests();

test('same model, two host profiles, side by side', async () => {
  const { page } = app;
  await waitConnected(mcplab, ['demo']);
  const { model: openai, sessionId } = await newChat(page, mcplab);

  await page.click(id('compare-start'));
  const models = page.locator(id('compare-model'));
  const hosts = page.locator(id('compare-host'));
  await hosts.nth(1).locator('option[value="chatgpt"]').waitFor({ state: 'attached' });
  await models.nth(0).selectOption(openai);
  await models.nth(1).selectOption(openai);
  await hosts.nth(0).selectOption('claude');
  await hosts.nth(1).selectOption('chatgpt');
  await page.click(id('compare-go'));
  const column = (n) => page.locator(`${id('compare-column')}[data-column="${n}"]`);
  await column(2).waitFor();
  await waitUntil(async () => (await column(1).getAttribute('data-host')) === 'claude' && (await column(2).getAttribute('data-host')) === 'chatgpt', 'the columns to name their hosts');
  assert.equal(await column(1).getAttribute('data-model'), openai);
  assert.equal(await column(2).getAttribute('data-model'), openai);

  // Each column's session stores its profile's HostConfig.
  const ids = [await column(1).getAttribute('data-session-id'), await column(2).getAttribute('data-session-id')];
  const configs = await Promise.all(ids.map(async (s) => (await mcplab.api('GET', `/api/sessions/${s}`)).body.summary.hostConfig));
  assert.equal(configs[0].approval?.mode, 'always', 'Claude asks before every tool call');
  assert.equal(configs[1].toolResults?.structuredContent, 'always', 'ChatGPT reads structuredContent');
  assert.ok(configs[0].servers.demo && configs[1].servers.demo, 'both keep the chat servers');

  // Column 2's "what differs" names the profile fields that differ from column 1, not the model.
  const diff = column(2).locator(id('compare-host-diff'));
  await diff.locator('summary').click();
  await diff.locator(`${id('compare-host-diff-row')}[data-field="toolResults.structuredContent"]`).waitFor();
  await diff.locator(`${id('compare-host-diff-row')}[data-field="approval.mode"]`).waitFor();
  assert.equal(await diff.locator(`${id('compare-host-diff-row')}[data-field="model"]`).count(), 0);

  await page.fill(id('chat-input'), 'What is 2 + 40? Use the add tool.');
  await page.click(id('chat-send'));
  // Claude's column waits for approval; ChatGPT's does not ask.
  await column(1).locator(id('approval-allow')).click({ timeout: 20000 });
  await column(1).locator('.chat-turn[data-status="finished"]').waitFor({ timeout: 20000 });
  await column(2).locator('.chat-turn[data-status="finished"]').waitFor({ timeout: 20000 });
  assert.equal(await column(2).locator(id('approval-form')).count(), 0);
  await shot(page, '61-chat-compare-hosts');

  // What the model got back, per column: the LLM request carrying that column's tool call id.
  const callIdOf = async (s) => {
    const view = (await mcplab.api('GET', `/api/sessions/${s}`)).body;
    return JSON.stringify(view.turns).match(/call_[ab]/)[0];
  };
  const requests = await requestsOf();
  const toolMessage = (callId) => {
    const r = requests.find((q) => q.messages.some((m) => m.role === 'tool' && m.tool_call_id === callId));
    assert.ok(r, `a request with the result of ${callId}`);
    const m = r.messages.find((x) => x.role === 'tool');
    return typeof m.content === 'string' ? m.content : JSON.stringify(m.content);
  };
  const claude = toolMessage(await callIdOf(ids[0]));
  const chatgpt = toolMessage(await callIdOf(ids[1]));
  assert.match(claude, /2 \+ 40 = 42/);
  assert.doesNotMatch(claude, /"sum"/, 'Claude (like mcplab) leaves structuredContent out when there is text');
  assert.match(chatgpt, /"sum":42/, 'ChatGPT passes structuredContent to the model');

  // The session list shows the compare as one entry (not its two sessions); it reopens the
  // compare view, also after a reload (the grouping is stored).
  const group = page.locator(id('compare-group'));
  await group.waitFor();
  assert.equal(await group.count(), 1);
  assert.equal(await group.getAttribute('data-columns'), '2');
  for (const s of ids) assert.equal(await page.locator(id(`session-item-${s}`)).count(), 0, 'a column is not listed on its own');
  // The empty chat the compare was started from is not left in the list (T3-15).
  assert.equal(await page.locator(id(`session-item-${sessionId}`)).count(), 0, 'the empty chat the compare started from is still listed');
  await page.evaluate(() => {
    window.location.hash = '#/chat';
  });
  await page.reload();
  await group.locator('button.session-main').click();
  await column(2).locator('.chat-turn[data-status="finished"]').waitFor({ timeout: 20000 });
  assert.equal(await column(1).getAttribute('data-session-id'), ids[0]);
  assert.equal(await column(2).getAttribute('data-session-id'), ids[1]);
  assert.equal(await page.locator(id('compare-group')).count(), 1);
});

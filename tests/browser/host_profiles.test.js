// Browser test of the chat's host picker (issue 18): choosing "ChatGPT (Apps SDK)" saves its host
// sections into the session's HostConfig, the "what differs" table names each changed field with
// its source, and the next turn runs as ChatGPT would — judged on what the scripted LLM server
// logged: the tool result it got back carries structuredContent, which mcplab's own profile
// leaves out when a result has text.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startMcplab, startScriptedLlm, openApp, shot } from './harness.js';
import { newChat, waitConnected, waitUntil } from './ui_helpers.js';

let llm;
let mcplab;
let app;
const id = (name) => `[data-testid="${name}"]`;

before(async () => {
  llm = await startScriptedLlm([
    { call: [{ id: 'call_1', name: 'demo__add', arguments: { a: 2, b: 40 } }] },
    { reply: ['It is 42.'] },
  ]);
  mcplab = await startMcplab([], { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: llm.baseUrl });
  app = await openApp(mcplab);
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
  llm?.stop();
});

test('the chat runs as the host profile picked', async () => {
  const { page } = app;
  await waitConnected(mcplab, ['demo']);
  const { model: openai, hostOf } = await newChat(page, mcplab);

  await page.click(`${id('chat-host-profile')} > summary`);
  const select = page.locator(id('chat-host-profile-select'));
  assert.equal(await select.inputValue(), 'mcplab', 'a new session runs as mcplab');
  await select.selectOption('chatgpt');
  const saved = await waitUntil(async () => {
    const h = await hostOf();
    return h.toolResults?.structuredContent === 'always' && h.appHost.windowOpenai ? h : false;
  }, 'the profile to be saved');
  assert.ok(saved.servers.demo, 'the session keeps its servers');
  assert.equal(saved.model, openai, 'and its model');
  const diff = page.locator(id('chat-host-profile-diff'));
  await diff.waitFor();
  const text = await diff.innerText();
  assert.match(text, /toolResults\.structuredContent/);
  assert.match(text, /developers\.openai\.com/);
  await shot(page, '26-chat-host-profile');

  // The shared demo server was connected with mcplab's declaration: the picker offers to
  // reconnect it as ChatGPT, and the server is then sent ChatGPT's revision and capabilities.
  await page.click(id('chat-host-reconnect-button'));
  await waitUntil(
    async () => (await mcplab.api('GET', '/api/servers/demo')).body.connectedAs === 'chatgpt',
    'the server to be connected as chatgpt',
  );
  await page.locator(id('chat-host-reconnect')).waitFor({ state: 'detached' });
  const traffic = (await mcplab.api('GET', '/api/servers/demo/traffic')).body.frames;
  const inits = traffic
    .filter((f) => f.direction === 'outbound')
    .map((f) => JSON.parse(f.text))
    .filter((m) => m.method === 'initialize');
  const init = inits[inits.length - 1];
  assert.ok(init, 'the reconnect ran an initialize handshake');
  assert.equal(init.params.protocolVersion, '2025-06-18');
  assert.equal(init.params.capabilities.roots, undefined, 'ChatGPT declares no roots');
  assert.equal(init.params.capabilities.sampling, undefined, 'nor sampling');

  await page.fill(id('chat-input'), 'What is 2 + 40? Use the add tool.');
  await page.click(id('chat-send'));
  await page.waitForFunction(
    (sel) => [...document.querySelectorAll(sel)].some((m) => m.innerText.includes('It is 42.')),
    `${id('chat-message')}[data-role="assistant"]`,
  );
  const requests = await llm.requests();
  const last = requests[requests.length - 1];
  const toolMessage = last.messages.find((m) => m.role === 'tool');
  assert.ok(toolMessage, JSON.stringify(last.messages));
  const content = typeof toolMessage.content === 'string' ? toolMessage.content : JSON.stringify(toolMessage.content);
  assert.match(content, /2 \+ 40 = 42/);
  assert.match(content, /"sum":42/, 'ChatGPT reads structuredContent');
});

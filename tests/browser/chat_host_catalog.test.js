// Browser test of a host profile's catalog in the chat (issue 18): a person's own profile that
// does not implement MCP Apps and offers the model at most two tools. Judged on what the scripted
// LLM server logged — the tools it was offered: `add` and the app-only `app_only_increment`
// (a host without MCP Apps never reads `_meta.ui`, visibility included) — and on the conversation
// naming the tools the limit left out.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startMcplab, startScriptedLlm, openApp } from './harness.js';
import { newChat, waitConnected, waitUntil } from './ui_helpers.js';

let llm;
let mcplab;
let app;
const id = (name) => `[data-testid="${name}"]`;

before(async () => {
  llm = await startScriptedLlm([{ reply: ['Two tools here.'] }]);
  mcplab = await startMcplab([], { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: llm.baseUrl });
  mkdirSync(path.join(mcplab.dataDir, 'hosts'), { recursive: true });
  writeFileSync(
    path.join(mcplab.dataDir, 'hosts', 'plain.json'),
    JSON.stringify({ name: 'plain', title: 'Plain host', client: { mcpApps: false }, toolCatalog: { maxTools: 2 } }),
  );
  app = await openApp(mcplab);
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
  llm?.stop();
});

test('the model gets the catalog the host profile makes, and the chat says what was left out', async () => {
  const { page } = app;
  await waitConnected(mcplab, ['demo']);
  const { hostOf } = await newChat(page, mcplab);
  await page.click(`${id('chat-host-profile')} > summary`);
  await page.locator(id('chat-host-profile-select')).selectOption('plain');
  await waitUntil(async () => (await hostOf()).toolCatalog?.maxTools === 2, 'the profile to be saved');

  await page.fill(id('chat-input'), 'Which tools do you have?');
  await page.click(id('chat-send'));
  await page.waitForFunction(
    (sel) => [...document.querySelectorAll(sel)].some((m) => m.innerText.includes('Two tools here.')),
    `${id('chat-message')}[data-role="assistant"]`,
  );
  const requests = await llm.requests();
  const offered = (requests[requests.length - 1].tools ?? []).map((t) => t.function?.name ?? t.name);
  assert.deepEqual(offered, ['demo__add', 'demo__app_only_increment'], JSON.stringify(offered));
  const note = await page.locator(id('chat-tools-left-out')).innerText();
  assert.match(note, /maxTools = 2/);
  assert.match(note, /demo__echo/);
  assert.doesNotMatch(note, /demo__add\b/);
});

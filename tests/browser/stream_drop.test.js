// Browser test of a dropped event stream: while the model's tool call runs, the page's open
// event streams break and the browser goes offline. Chromium's offline mode
// (`context.setOffline`) only fails new requests, so the break itself comes from an init
// script that ties every `text/event-stream` fetch to one AbortController the test fires: the
// reader fails as on a cut connection, and the server sees the connection close. Everything
// else is real. The server finishes the turn meanwhile; the page says it is reconnecting, and
// once back online it shows the tool's result and the model's answer — nothing of the turn is
// lost — without a reload.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startMcplab, startScriptedLlm, openApp, shot } from './harness.js';
import { newChat, waitConnected, waitUntil } from './ui_helpers.js';

let llm;
let mcplab;
let app;
const id = (name) => `[data-testid="${name}"]`;
const ANSWER = 'Finished while you were offline.';

before(async () => {
  llm = await startScriptedLlm([
    { call: [{ id: 'call_slow', name: 'demo__slow_task', arguments: { steps: 10, step_ms: 300 } }] },
    { reply: [ANSWER] },
  ]);
  mcplab = await startMcplab([], { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: llm.baseUrl });
  app = await openApp(mcplab);
  await app.context.addInitScript(() => {
    const real = window.fetch.bind(window);
    let cut = new AbortController();
    window.__dropStreams = () => {
      cut.abort();
      cut = new AbortController();
    };
    window.fetch = (input, init = {}) => {
      const sse = new Headers(init.headers).get('accept') === 'text/event-stream';
      if (!sse) return real(input, init);
      const signal = init.signal ? AbortSignal.any([init.signal, cut.signal]) : cut.signal;
      return real(input, { ...init, signal });
    };
  });
  // The init script applies from the next document on.
  await app.page.reload();
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
  llm?.stop();
});

test('a turn that ends while the event stream is down shows whole once the stream is back', async () => {
  const { page, context } = app;
  await waitConnected(mcplab, ['demo']);
  const { sessionId } = await newChat(page, mcplab);
  await page.fill(id('chat-input'), 'Run the slow task.');
  await page.click(id('chat-send'));
  const card = page.locator(`${id('tool-card')}[data-tool="slow_task"]`);
  await card.waitFor({ timeout: 20000 });

  await context.setOffline(true);
  await page.evaluate(() => window.__dropStreams());
  // The drop is real: both the host stream and the session's stream notice it.
  await page.waitForSelector(id('stream-state'), { timeout: 15000 });
  await page.waitForSelector(id('chat-stream-reconnecting'), { timeout: 15000 });
  // The server finishes the turn without the page.
  await waitUntil(async () => {
    const v = (await mcplab.api('GET', `/api/sessions/${sessionId}`)).body;
    return v.runningTurn === null && v.turns.length === 1;
  }, 'the turn to finish on the server');
  const answered = () => page.evaluate((text) => document.body.innerText.includes(text), ANSWER);
  assert.equal(await answered(), false, 'the answer cannot have reached an offline page');
  await shot(page, 'stream-drop-offline');

  await context.setOffline(false);
  await page.waitForSelector(`${id('tool-card')}[data-tool="slow_task"][data-status="ok"]`, { timeout: 20000 });
  await page.waitForFunction((text) => document.body.innerText.includes(text), ANSWER, { timeout: 20000 });
  await page.waitForSelector(id('chat-stream-reconnecting'), { state: 'detached', timeout: 20000 });
  await page.waitForSelector(id('stream-state'), { state: 'detached', timeout: 20000 });
  // One turn, shown once: the replayed events were not applied twice.
  assert.equal(await page.locator(`${id('tool-card')}[data-tool="slow_task"]`).count(), 1);
  await shot(page, 'stream-drop-recovered');
});

test('no page errors other than the offline requests', () => {
  const real = app.errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch|network/i.test(e));
  assert.deepEqual(real, []);
});

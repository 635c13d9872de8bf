// Browser test of the chat playground: the testkit's scripted LLM server (real HTTP, OpenAI
// streaming format) calls a tool of the built-in demo server; the card shows the result, its
// frames appear in the traffic panel, and the session survives a reload. The HostConfig
// panel's edits reach the provider request the scripted server logged, and the config
// exports and imports as a file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { bin, startMcplab, startScriptedLlm, openApp, shot } from './harness.js';
import { boxesIntersect, chooseServers, controlsOutsideTheirBox, frames, newChat, sent, waitConnected, waitUntil } from './ui_helpers.js';

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
    { reply: ['Arr, hello.'] },
    { call: [{ id: 'call_p', name: 'demo__slow_task', arguments: { steps: 20, step_ms: 150 } }] },
    { reply: ['Slow task done.'] },
    { call: [{ id: 'call_s', name: 'demo__slow_task', arguments: { steps: 100, step_ms: 200 } }] },
    // Retry (T3-06): a turn that fails after a tool call, a later turn, a last turn that fails
    // and its retry.
    { text: ['Let me add those.'], call: [{ id: 'call_r', name: 'demo__add', arguments: { a: 20, b: 22 } }] },
    { fail: { status: 400, message: 'scripted refusal one' } },
    { reply: ['Turn two is fine.'] },
    { fail: { status: 400, message: 'scripted refusal two' } },
    { reply: ['Retried and fine.'] },
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
  await newChat(page, mcplab);
  await page.fill(id('chat-input'), 'What is 2 + 40? Use the add tool.');
  await page.click(id('chat-send'));

  const card = page.locator(`${id('tool-card')}[data-tool="add"]`);
  await card.waitFor({ timeout: 20000 });
  await page.waitForSelector(`${id('tool-card')}[data-status="ok"]`);
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

test('the session survives a reload; its card\'s "frames" stay that call\'s, not a later one\'s with the same arguments', async () => {
  const { page } = app;
  const chatCall = (await sent(mcplab, 'demo', 'tools/call')).at(-1);
  // The same call again, later, from elsewhere (the Tools page's route).
  assert.equal((await mcplab.api('POST', '/api/servers/demo/tools/call', { name: 'add', arguments: { a: 2, b: 40 } })).status, 200);
  const later = (await sent(mcplab, 'demo', 'tools/call')).at(-1);
  assert.notEqual(later.msg.id, chatCall.msg.id);
  await page.reload();
  await page.waitForSelector(`${id('tool-card')}[data-tool="add"][data-status="ok"]`);
  await page.locator(`${id('tool-card')}[data-tool="add"] ${id('tool-card-frames')}`).click();
  await page.waitForSelector(id('traffic-filter-call'));
  const mine = (await frames(mcplab, 'demo')).filter((f) => f.msg?.id === chatCall.msg.id && f.seq >= chatCall.seq && f.seq < later.seq);
  await page.waitForFunction(([sel, n]) => document.querySelectorAll(sel).length === n, [id('traffic-row'), mine.length]);
  const shown = await page.locator(id('traffic-row')).evaluateAll((els) => els.map((e) => Number(e.dataset.seq)).sort((a, b) => a - b));
  assert.deepEqual(shown, mine.map((f) => f.seq));
  await page.click(id('traffic-close'));
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
  await newChat(page, mcplab);
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

test('the HostConfig panel drives the next turn and round-trips as a file', async () => {
  const { page } = app;
  const { sessionId, model: openai } = await newChat(page, mcplab);
  const hostOf = async () => (await mcplab.api('GET', `/api/sessions/${sessionId}`)).body.summary;

  await page.click(`${id('chat-host-config')} > summary`);
  const echo = page.locator(id('chat-tool-demo-echo'));
  await echo.waitFor();
  assert.equal(await echo.isChecked(), true);
  await echo.uncheck();
  await page.selectOption(id('chat-elicitation'), 'decline');
  await page.selectOption(id('chat-app-device'), 'mobile');
  await page.click(`${id('chat-session')} .chat-more > summary >> text=System prompt`);
  await page.fill(id('chat-system-prompt'), 'Reply like a pirate.');
  await page.fill(id('chat-temperature'), '0.3');
  await page.locator(id('chat-temperature')).press('Enter');
  const saved = await waitUntil(async () => {
    const r = await check();
    return r.notYet ? false : r;
  }, 'the edits to be saved').catch(async (e) => {
    throw new Error(`${e.message}; now: ${JSON.stringify((await hostOf()).hostConfig)}`);
  });
  async function check() {
    const s = await hostOf();
    const h = s.hostConfig;
    const done = h.servers.demo?.deny?.includes('echo') && h.systemPrompt === 'Reply like a pirate.' && h.temperature === 0.3 && h.elicitation.mode === 'decline' && h.appHost.device === 'mobile';
    return done ? s : { notYet: h };
  }
  await page.waitForFunction((hash) => document.querySelector('[data-testid="chat-session"]')?.getAttribute('data-host-hash') === hash, saved.hostHash);
  assert.equal(await page.locator(id('chat-host-hash')).innerText(), saved.hostHash.slice(0, 12));
  await shot(page, '24-chat-host-config');

  await page.fill(id('chat-input'), 'hello host');
  await page.click(id('chat-send'));
  await page.waitForFunction(
    (sel) => [...document.querySelectorAll(sel)].some((m) => m.innerText.includes('Arr, hello.')),
    `${id('chat-message')}[data-role="assistant"]`,
  );
  const requests = await llm.requests();
  const last = requests[requests.length - 1];
  const tools = last.tools.map((t) => t.function.name);
  assert.ok(tools.includes('demo__add'), tools.join(', '));
  assert.ok(!tools.includes('demo__echo'), 'the unticked tool is not offered');
  assert.equal(last.temperature, 0.3);
  assert.match(JSON.stringify(last.messages[0]), /Reply like a pirate\./);

  // Export gives the server's config; importing a YAML file replaces it.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(id('chat-host-export'))]);
  const exported = JSON.parse(readFileSync(await download.path(), 'utf8'));
  assert.deepEqual(exported, saved.hostConfig);
  await page.setInputFiles(id('chat-host-import'), { name: 'host.yaml', mimeType: 'text/yaml', buffer: Buffer.from(`model: ${openai}\nstepLimit: 3\nservers:\n  demo: {}\n`) });
  const imported = await waitUntil(async () => {
    const s = await hostOf();
    return s.hostConfig.stepLimit === 3 && s;
  }, 'the imported config');
  assert.deepEqual(imported.hostConfig.servers.demo.deny, []);
  assert.equal(imported.hostConfig.systemPrompt, 'You are a helpful assistant with access to MCP tools.', 'keys the file leaves out take their defaults');
  await page.setInputFiles(id('chat-host-import'), { name: 'bad.yaml', mimeType: 'text/yaml', buffer: Buffer.from('stepLimt: 3\n') });
  await page.waitForSelector(`${id('chat-host-import-error')}:has-text("stepLimt")`);
  assert.equal((await hostOf()).hostConfig.stepLimit, 3, 'a bad file changes nothing');
  // The form shows the imported values, not what was typed before.
  assert.equal(await page.inputValue(id('chat-step-limit')), '3');
  assert.equal(await page.inputValue(id('chat-temperature')), '');
  await page.click(`${id('chat-host-config')} > summary`);
  await page.click(`${id('chat-session')} .chat-more > summary >> text=System prompt`);
});

test('a long tool shows its progress on the card while it runs', async () => {
  const { page } = app;
  await page.fill(id('chat-input'), 'run the slow task');
  await page.click(id('chat-send'));
  const card = page.locator(`${id('tool-card')}[data-tool="slow_task"]`);
  const progress = card.locator(id('tool-card-progress'));
  await progress.waitFor({ timeout: 20000 });
  assert.match(await progress.innerText(), /\/ 20/);
  await shot(page, '25-chat-tool-progress');
  await page.waitForSelector(`${id('tool-card')}[data-tool="slow_task"][data-status="ok"]`);
  assert.equal(await progress.count(), 0, 'the bar goes once the result is in');
});

test('Stop during a tool call shows a neutral "stopped", not a failure', async () => {
  const { page } = app;
  await page.fill(id('chat-input'), 'run it again, slower');
  await page.click(id('chat-send'));
  const card = page.locator(`${id('tool-card')}[data-tool="slow_task"]`).last();
  await card.locator(id('tool-card-progress')).waitFor({ timeout: 20000 });
  await page.click(id('chat-stop'));
  // The server saw the cancellation of the call the card shows.
  await waitUntil(async () => (await sent(mcplab, 'demo', 'notifications/cancelled')).length > 0, 'notifications/cancelled for the slow task');
  await page.waitForSelector(`.chat-turn[data-status="cancelled"]`);
  await waitUntil(async () => (await card.getAttribute('data-status')) !== 'running', 'the card to settle');
  assert.equal(await card.getAttribute('data-status'), 'stopped');
  assert.match(await card.locator('.tool-card-head .badge').innerText(), /^stopped$/);
  assert.equal(await card.locator('.call-error').count(), 0, 'no red failure box');
  assert.equal(await card.locator(id('tool-result')).getAttribute('data-status'), 'cancelled');
  assert.doesNotMatch(await card.innerText(), /Failed|call failed/);
  await shot(page, '26-chat-tool-stopped');
});

test('at 1440×900 the "Compare…" control does not overlap the conversation', async () => {
  const { page } = app;
  assert.deepEqual(page.viewportSize(), { width: 1440, height: 900 });
  const compare = await page.locator(id('compare-start')).boundingBox();
  const settings = await page.locator(`${id('chat-session')} .chat-settings`).boundingBox();
  const conversation = await page.locator(`${id('chat-session')} .chat-scroll`).boundingBox();
  const firstTurn = await page.locator(`${id('chat-session')} .chat-scroll`).evaluate((el) => {
    // What of the conversation shows at its top: its first child as laid out, scrolled home.
    el.scrollTop = 0;
    const r = el.firstElementChild.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });
  // It sits inside the settings bar as a button of its own size, not as a bar of its own
  // flush against (and, scrolled, seemingly over) the conversation's first line.
  const inside = compare.x >= settings.x && compare.y >= settings.y && compare.x + compare.width <= settings.x + settings.width && compare.y + compare.height <= settings.y + settings.height;
  assert.ok(inside, `Compare… ${JSON.stringify(compare)} is outside the settings bar ${JSON.stringify(settings)}`);
  assert.ok(compare.width < 200, `Compare… is ${compare.width} px wide`);
  assert.ok(!boxesIntersect(compare, conversation), `Compare… ${JSON.stringify(compare)} overlaps the conversation ${JSON.stringify(conversation)}`);
  assert.ok(!boxesIntersect(compare, firstTurn), `Compare… ${JSON.stringify(compare)} overlaps the first turn ${JSON.stringify(firstTurn)}`);
  // "Save as eval case" sits in the conversation's column, over the message box, not at the
  // pane's left edge (T3-15).
  const [save, composer] = [await page.locator(id('chat-save-case-open')).boundingBox(), await page.locator(`${id('chat-session')} .chat-composer textarea`).boundingBox()];
  assert.ok(Math.abs(save.x - composer.x) <= 6, `Save as eval case starts at x=${save.x}, the message box at x=${composer.x}`);
  await shot(page, '26b-chat-compare-control');
});

test('at 390×844 the conversation gets the height; the chats and the settings are drawers', async () => {
  const { page } = app;
  const session = await page.locator(id('chat-session')).getAttribute('data-session-id');
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await page.waitForSelector(id('chat-drawer-bar'));
    assert.equal(await page.locator(id('chat-sessions')).count(), 0, 'the chat list is closed');
    assert.equal(await page.locator(`${id('chat-session')} .chat-settings`).count(), 0, 'the settings are closed');
    const scroll = await page.locator(`${id('chat-session')} .chat-scroll`).boundingBox();
    assert.ok(scroll.height > 844 * 0.55, `the conversation is ${scroll.height} px high`);
    // Durations stay whole on a narrow card ("279 / ms" wrapped before).
    const broken = await page.$$eval(`${id('chat-session')} .chat-scroll .muted.small`, (els) =>
      els
        .filter((e) => {
          if (!/^\d+ ms$/.test(e.textContent)) return false;
          const r = document.createRange();
          r.selectNodeContents(e);
          return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1;
        })
        .map((e) => e.textContent),
    );
    assert.deepEqual(broken, [], 'durations broken across lines');
    await shot(page, '26c-chat-390');
    // The settings open above the conversation and close again.
    await page.click(id('chat-settings-open'));
    await page.waitForSelector(`${id('chat-session')} .chat-settings`);
    // Its fields keep inside the drawer (the model select ran past the window's edge).
    assert.deepEqual(await controlsOutsideTheirBox(page, `${id('chat-session')} .chat-settings`), []);
    await shot(page, '26d-chat-390-settings');
    await page.click(id('chat-settings-open'));
    await page.waitForSelector(`${id('chat-session')} .chat-settings`, { state: 'detached' });
    // The chat list slides over it; picking a chat closes it and opens that chat.
    await page.click(id('chat-sessions-open'));
    await page.waitForSelector(id('chat-sessions'));
    await shot(page, '26e-chat-390-list');
    const other = page.locator(`${id('chat-sessions')} .session-row:not(.selected) .session-main`).first();
    await other.click();
    await page.waitForSelector(id('chat-sessions'), { state: 'detached' });
    await page.waitForSelector(`${id('chat-session')}:not([data-session-id="${session}"])`);
  } finally {
    await page.setViewportSize({ width: 1440, height: 900 });
  }
});

test('a failed turn that is no longer the last keeps its place and content, without Retry; the last one retries in place', async () => {
  const { page } = app;
  await newChat(page, mcplab);
  const turns = page.locator(`${id('chat-session')} .chat-turn`);
  const assistantSays = (text) => page.waitForFunction(
    ([sel, t]) => [...document.querySelectorAll(sel)].some((m) => m.innerText.includes(t)),
    [`${id('chat-message')}[data-role="assistant"]`, text],
    { timeout: 20000 },
  );
  await page.fill(id('chat-input'), 'Add 20 and 22.');
  await page.click(id('chat-send'));
  await page.waitForSelector(`${id('chat-session')} .chat-turn[data-status="failed"]`, { timeout: 20000 });
  const first = turns.first();
  const firstId = await first.getAttribute('data-turn-id');
  await first.locator(`${id('tool-card')}[data-tool="add"][data-status="ok"]`).waitFor();
  assert.match(await first.innerText(), /Let me add those\./);
  assert.equal(await first.locator(id('turn-retry')).count(), 1, 'the last turn, failed, offers Retry');

  // A later turn: the failed one stays first, whole, and offers no Retry (it cannot work there).
  await page.fill(id('chat-input'), 'Something else.');
  await page.click(id('chat-send'));
  await assistantSays('Turn two is fine.');
  const firstStays = async () => {
    assert.equal(await turns.nth(0).getAttribute('data-turn-id'), firstId, 'the failed turn moved');
    assert.equal(await turns.nth(0).getAttribute('data-status'), 'failed');
    assert.match(await turns.nth(0).innerText(), /Let me add those\./);
    assert.equal(await turns.nth(0).locator(`${id('tool-card')}[data-tool="add"][data-status="ok"]`).count(), 1, "the failed turn's tool card is gone");
    assert.equal(await turns.nth(0).locator(id('turn-retry')).count(), 0, 'Retry on a turn that is no longer the last');
  };
  await firstStays();

  // The last turn fails; its Retry replaces it in place and the first turn is untouched.
  await page.fill(id('chat-input'), 'One more.');
  await page.click(id('chat-send'));
  await page.waitForSelector(`${id('chat-session')} .chat-turn:nth-child(3)[data-status="failed"]`, { timeout: 20000 });
  await turns.nth(2).locator(id('turn-retry')).click();
  await assistantSays('Retried and fine.');
  assert.equal(await turns.count(), 3);
  assert.equal(await turns.nth(2).getAttribute('data-status'), 'finished');
  await firstStays();
  const body = await page.locator(id('chat-session')).innerText();
  assert.doesNotMatch(body, /Another turn is still running|not the session's last turn/);
  await shot(page, '26f-chat-retry-in-place');
  // The server's order is the page's.
  await page.reload();
  await page.waitForSelector(`${id('chat-session')} .chat-turn:nth-child(3)[data-status="finished"]`, { timeout: 20000 });
  await firstStays();
});

test('with 7 servers "Tools from" is one line opening a checklist; the settings bar stays short at 1440', async () => {
  const { page } = app;
  const extra = ['weather-forecasts', 'github-issues', 'postgres-analytics', 'filesystem-home', 'browser-automation', 'slack-workspace'];
  for (const name of extra) {
    const added = await mcplab.api('POST', '/api/servers', { name, type: 'stdio', command: bin, args: ['demo-server'] });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    await mcplab.api('POST', `/api/servers/${name}/connect`);
  }
  await waitConnected(mcplab, ['demo', ...extra]);
  await newChat(page, mcplab, { servers: ['demo', ...extra] });
  const summary = page.locator(id('chat-servers-summary'));
  await waitUntil(async () => /^7 servers, \d+ tools$/.test(await summary.innerText()), 'the summary to count the tools of 7 servers');
  const settings = await page.locator(`${id('chat-session')} .chat-settings`).boundingBox();
  assert.ok(settings.height <= 150, `the settings bar is ${settings.height} px high`);
  // Model, "Tools from", approval and Compare… share one row.
  const rows = await page.locator(`${id('chat-session')} .chat-settings-row > *`).evaluateAll((els) => new Set(els.map((e) => Math.round(e.getBoundingClientRect().bottom))).size);
  assert.equal(rows, 1, 'the first settings row wraps');
  await shot(page, '26g-chat-7-servers');

  // The checklist opens over the conversation (which keeps its place) and closes with Escape.
  const before = await page.locator(`${id('chat-session')} .chat-scroll`).boundingBox();
  await page.click(id('chat-servers-open'));
  const list = page.locator(id('chat-servers-list'));
  await list.waitFor();
  assert.equal(await list.locator('input[type=checkbox]:checked').count(), 7);
  assert.deepEqual(await page.locator(`${id('chat-session')} .chat-scroll`).boundingBox(), before);
  const box = await list.boundingBox();
  assert.ok(box.y + box.height <= 900 && box.x + box.width <= 1440, `the checklist ${JSON.stringify(box)} leaves the window`);
  await shot(page, '26h-chat-7-servers-open');
  await page.keyboard.press('Escape');
  await list.waitFor({ state: 'detached' });
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'chat-servers-open');
});

test('no page errors were logged', () => {
  const errors = app.errors.filter((e) => !/favicon/.test(e));
  // The one refused import above (400) is expected; nothing else is.
  const refused = errors.findIndex((e) => /status of 400/.test(e));
  if (refused >= 0) errors.splice(refused, 1);
  assert.deepEqual(errors, []);
});

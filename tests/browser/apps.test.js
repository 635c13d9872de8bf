// Browser tests of the apps host: the demo server's MCP App driven by the scripted LLM in a
// chat (input, result, an app-only tool call from a click, a follow-up message that starts a
// turn, model context that reaches the next provider request), the sandbox's security
// (probes from inside an app), CSP violations, an OpenAI Apps SDK widget through the
// `window.openai` shim, and legacy MCP-UI resources with each action type.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startMcplab, startScriptedLlm, openApp, shot } from './harness.js';
import { startProbeServer } from './sinks.js';
import { chooseServers, controlsOutsideTheirBox, frames, waitConnected, waitUntil } from './ui_helpers.js';

let llm;
let mcplab;
let app;
let probe;
const id = (name) => `[data-testid="${name}"]`;

/** The app document inside the sandbox proxy inside `frameSel`. */
function appDoc(page, frameSel = id('app-iframe')) {
  return page.frameLocator(frameSel).last().frameLocator('iframe');
}

const llmRequests = () => llm.requests();

function systemText(body) {
  return (body.messages ?? []).filter((m) => m.role === 'system').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
}

before(async () => {
  probe = await startProbeServer();
  llm = await startScriptedLlm([
    { call: [{ id: 'call_app', name: 'demo__show_counter_app', arguments: {} }] },
    { reply: ['Here is the counter app.'] },
    { reply: ['That number is lovely.'] },
    { call: [{ id: 'call_widget', name: 'demo__show_openai_widget', arguments: { topic: 'cats' } }] },
    { reply: ['Here is the widget.'] },
    { reply: ['Cats are great.'] },
  ]);
  mcplab = await startMcplab([], { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: llm.baseUrl });
  app = await openApp(mcplab);
  await waitConnected(mcplab, ['demo']);
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
  llm?.stop();
  probe?.close();
});

test('the model calls the counter tool, the app renders, calls an app-only tool and talks back', async () => {
  const { page } = app;
  await page.click(id('nav-chat'));
  await page.click(id('chat-new'));
  const model = page.locator(id('chat-model'));
  await model.waitFor();
  await model.selectOption(await model.locator('option[value^="openai::"]').first().getAttribute('value'));
  await chooseServers(page, ['demo']);
  await page.fill(id('chat-input'), 'Show me the counter.');
  await page.click(id('chat-send'));

  const frame = page.locator(`${id('tool-card')}[data-tool="show_counter_app"] ${id('app-frame')}`);
  await frame.waitFor({ timeout: 20000 });
  await page.waitForSelector(`${id('app-frame')}[data-status="ready"]`, { timeout: 20000 });
  const doc = appDoc(page);
  // The app got its input and its result (structuredContent.count).
  await doc.locator('#input').filter({ hasText: '{}' }).waitFor();
  await doc.locator('#result').filter({ hasText: 'structuredContent' }).waitFor();
  const before = Number(await doc.locator('#count').innerText());
  assert.ok(Number.isFinite(before));

  // A click inside the app calls the app-only tool through the host.
  await doc.locator('#increment').click();
  await doc.locator('#count').filter({ hasText: String(before + 1) }).waitFor();
  await doc.locator('#status').filter({ hasText: 'Incremented' }).waitFor();

  // Model context: kept, shown to the user, and given to the model with the next request.
  await doc.locator('#context').click();
  await page.waitForSelector(`${id('chat-app-context-entry')}[data-source="modelContext"]`);
  assert.match(await page.locator(id('chat-app-context')).innerText(), new RegExp(`count of ${before + 1}`));

  // A follow-up message from the app waits for the user: nothing reaches the model until the
  // user says send (judged on the scripted LLM's request log), and the turn says who sent it.
  // Declined first: the app hears isError and the model hears nothing.
  const ask = page.locator(`${id('tool-card')}[data-tool="show_counter_app"] ${id('app-message-ask')}`);
  await doc.locator('#message').click();
  await ask.locator(id('app-message-decline')).click();
  await doc.locator('#status').filter({ hasText: 'did not send the message (isError)' }).waitFor();
  await ask.waitFor({ state: 'detached' });
  assert.equal((await llmRequests()).length, 2, 'a declined app message reached the model');
  await doc.locator('#message').click();
  await ask.waitFor();
  assert.match(await ask.locator(id('app-message-text')).innerText(), new RegExp(`counter is at ${before + 1}`));
  assert.match(await ask.innerText(), /ui:\/\/mcplab-demo\/counter\.html/);
  assert.equal((await llmRequests()).length, 2, 'the app message reached the model before the user agreed');
  await ask.locator(id('app-message-send')).click();
  await page.waitForFunction(
    (sel) => [...document.querySelectorAll(sel)].some((m) => m.innerText.includes('That number is lovely')),
    `${id('chat-message')}[data-role="assistant"]`,
  );
  const bodies = await llmRequests();
  assert.equal(bodies.length, 3);
  const third = bodies[2];
  assert.match(systemText(third), new RegExp(`The counter app shows a count of ${before + 1}`));
  const lastUser = third.messages.filter((m) => m.role === 'user').pop();
  assert.match(JSON.stringify(lastUser.content), new RegExp(`counter is at ${before + 1}`));
  assert.match(JSON.stringify(lastUser.content), /Message from the app ui:\/\/mcplab-demo\/counter\.html of server \\"demo\\"/);
  // The app-only tool is never offered to the model.
  assert.ok(!JSON.stringify(third.tools).includes('app_only_increment'));
  await shot(page, '40-app-in-chat');
});

test("an inline app in the chat grows to its height up to the host's limit; taller, it is cut with a cue", async () => {
  const { page } = app;
  const card = page.locator(`${id('tool-card')}[data-tool="show_counter_app"]`);
  const frame = card.locator(id('app-frame'));
  const iframe = card.locator(id('app-iframe'));
  /** Once the frame settled: the app's asked-for height and the frame's drawn one. */
  const settled = (what, ok) =>
    waitUntil(async () => {
      // What the app asked for (its last size-changed), as the frame records it.
      const asked = Number(await frame.getAttribute('data-app-height'));
      const shown = (await iframe.boundingBox())?.height ?? 0;
      return asked > 0 && ok(asked, shown) && { asked, shown };
    }, what);
  // The default host is a desktop one: inline apps up to its 800 px (the app is told so).
  const whole = await settled('the frame to take the whole app', (asked, shown) => Math.abs(shown - asked) <= 1);
  assert.equal(await frame.getAttribute('data-height-limit'), '800');
  assert.ok(whole.asked > 640, `the counter asks for ${whole.asked} px (more than the old 640 px cap)`);
  assert.equal(await card.locator(id('app-cut')).count(), 0, 'a cue on an app shown whole');

  // In a phone-wide window the counter's rows wrap and it asks for more than 800 px: the frame
  // stops at the limit, its end fades and a line says so, with "Show all" and the Playground.
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    const cut = await settled('the counter to ask for more than 800 px', (asked, shown) => asked > 800 && Math.abs(shown - 800) <= 1);
    const cue = card.locator(id('app-cut'));
    await cue.waitFor();
    // The app may still be settling (its rows wrap in steps: 1118 px, then 1014 px): the cue
    // names the height the app asked for last, whatever that is once both agree.
    await waitUntil(async () => {
      const asked = Number(await frame.getAttribute('data-app-height'));
      return asked > 800 && new RegExp(`${asked} px high.*800 px`).test(await cue.innerText());
    }, 'the cue to name the height the app asks for and the 800 px limit');
    assert.ok(cut.asked > 800);
    assert.equal(await card.locator(id('app-cut-fade')).count(), 1);
    assert.equal(await cue.locator(id('app-cut-playground')).getAttribute('href'), '#/playground/demo/show_counter_app');
    // The card's controls stay inside it at this width (the result's structuredContent Copy
    // stuck out past the card's edge).
    assert.deepEqual(await controlsOutsideTheirBox(page, `${id('tool-card')}[data-tool="show_counter_app"]`), []);
    await cue.scrollIntoViewIfNeeded();
    await shot(page, '40b-app-in-chat-cut-390');
    await cue.locator(id('app-cut-toggle')).click();
    await settled('"Show all" to show the app whole', (asked, shown) => asked > 800 && Math.abs(shown - asked) <= 1);
    assert.equal(await card.locator(id('app-cut-fade')).count(), 0);
    await cue.locator(id('app-cut-toggle')).click();
    await settled('the frame back at the limit', (asked, shown) => Math.abs(shown - 800) <= 1);
  } finally {
    await page.setViewportSize({ width: 1440, height: 900 });
  }
});

test('an OpenAI widget runs on window.openai: globals, widget state, callTool, follow-up', async () => {
  const { page } = app;
  await page.fill(id('chat-input'), 'Show the widget about cats.');
  await page.click(id('chat-send'));
  const sel = `${id('tool-card')}[data-tool="show_openai_widget"] ${id('app-iframe')}`;
  await page.waitForSelector(`${id('tool-card')}[data-tool="show_openai_widget"] ${id('app-frame')}[data-status="ready"]`, { timeout: 20000 });
  const doc = appDoc(page, sel);
  await doc.locator('#g-toolOutput').filter({ hasText: 'alpha' }).waitFor();
  assert.match(await doc.locator('#g-toolInput').innerText(), /cats/);
  assert.match(await doc.locator('#g-toolResponseMetadata').innerText(), /for the widget only/);
  assert.match(await doc.locator('#g-theme').innerText(), /light|dark/);

  await doc.locator('#call').click();
  await doc.locator('#call-result').filter({ hasText: 'count' }).waitFor();
  await doc.locator('#call-forbidden').click();
  await doc.locator('#call-forbidden-result').filter({ hasText: /widget|not/i }).waitFor();

  await doc.locator('#set-state').click();
  await page.waitForSelector(`${id('chat-app-context-entry')}[data-source="widgetState"]`);
  await doc.locator('#follow-up').click();
  const widgetAsk = page.locator(`${id('tool-card')}[data-tool="show_openai_widget"] ${id('app-message-ask')}`);
  await widgetAsk.locator(id('app-message-always')).click();
  await page.waitForFunction(
    (s) => [...document.querySelectorAll(s)].some((m) => m.innerText.includes('Cats are great')),
    `${id('chat-message')}[data-role="assistant"]`,
  );
  const bodies = await llmRequests();
  const last = bodies[bodies.length - 1];
  assert.match(systemText(last), /widget state/i);
  assert.match(systemText(last), /clicks/);
  await shot(page, '41-openai-widget');
});

async function callOnToolsPage(page, tool, args = {}) {
  await page.click(id('nav-tools'));
  await page.click(id(`tool-item-${tool}`));
  await page.locator(id('tool-form')).waitFor();
  for (const [k, v] of Object.entries(args)) await page.fill(`#root_${k}`, String(v));
  await page.click(id('tool-call'));
}

test('display modes, links, logging, host context and teardown of an MCP App', async () => {
  const { page } = app;
  await callOnToolsPage(page, 'show_counter_app');
  const frame = page.locator(id('app-frame'));
  await page.waitForSelector(`${id('app-frame')}[data-status="ready"]`, { timeout: 20000 });
  const doc = appDoc(page);
  // The app was told the full host context in ui/initialize.
  const told = JSON.parse(await doc.locator('#host-context').innerText());
  for (const key of ['theme', 'styles', 'displayMode', 'availableDisplayModes', 'containerDimensions', 'locale', 'timeZone', 'platform', 'deviceCapabilities', 'safeAreaInsets', 'userAgent', 'toolInfo']) {
    assert.ok(key in told, `hostContext.${key}`);
  }
  assert.equal(told.toolInfo.tool.name, 'show_counter_app');

  // Display mode requests are honoured and announced with host-context-changed.
  await doc.locator('#fullscreen').click();
  await doc.locator('#display-mode-answer').filter({ hasText: 'fullscreen' }).waitFor();
  assert.equal(await frame.getAttribute('data-display-mode'), 'fullscreen');
  await doc.locator('#display-mode').filter({ hasText: 'fullscreen' }).waitFor();
  await doc.locator('#pip').click();
  await doc.locator('#display-mode-answer').filter({ hasText: 'pip' }).waitFor();
  assert.equal(await frame.getAttribute('data-display-mode'), 'pip');
  await doc.locator('#inline').click();
  await doc.locator('#display-mode').filter({ hasText: 'inline' }).waitFor();
  assert.equal(await frame.getAttribute('data-display-mode'), 'inline');

  // A link opens only after the user confirms; declining tells the app so.
  await doc.locator('#open-link').click();
  await page.locator(id('app-confirm-detail')).filter({ hasText: 'https://modelcontextprotocol.io/' }).waitFor();
  await page.click(id('app-confirm-cancel'));
  await doc.locator('#status').filter({ hasText: 'isError' }).waitFor();

  // mcplab's own theme switch reaches the app as host-context-changed.
  for (let i = 0; i < 3 && (await page.locator('html').getAttribute('data-theme')) !== 'dark'; i++) await page.click(id('theme-toggle'));
  await doc.locator('html[data-theme="dark"]').waitFor();
  for (let i = 0; i < 3 && (await page.locator('html').getAttribute('data-theme')) !== 'light'; i++) await page.click(id('theme-toggle'));
  await doc.locator('html[data-theme="light"]').waitFor();

  // The app may list the server tools it can call: app-only ones yes, model-only ones no.
  await doc.locator('#list-tools').click();
  await doc.locator('#status').filter({ hasText: 'tools/list:' }).waitFor();
  const listed = await doc.locator('#status').innerText();
  assert.match(listed, /app_only_increment/);
  assert.doesNotMatch(listed, /secret_model_only/);

  // A download is saved only after the user confirms it, under the resource's last path segment.
  await doc.locator('#download').click();
  await page.locator(id('app-confirm-detail')).filter({ hasText: 'count.txt' }).waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(id('app-confirm-ok'))]);
  assert.equal(download.suggestedFilename(), 'count.txt');
  const { readFileSync } = await import('node:fs');
  assert.match(readFileSync(await download.path(), 'utf8'), /^count=\d+/);
  await doc.locator('#status').filter({ hasText: 'ui/download-file answered: {}' }).waitFor();
  await doc.locator('#download').click();
  await page.click(id('app-confirm-cancel'));
  await doc.locator('#status').filter({ hasText: 'isError' }).waitFor();

  // App log messages land in the server's log view.
  await doc.locator('#log').click();
  await doc.locator('#status').filter({ hasText: 'Sent a log message' }).waitFor();

  // Closing sends ui/resource-teardown first; the app answers and the frame goes away.
  await page.click(id('app-close'));
  await page.waitForSelector(id('app-closed'));
  await page.click(id('nav-logs'));
  await page.waitForFunction(() => document.body.innerText.includes('hello from the counter app'));
});

test('the sandbox keeps an app away from the host, the API, other tools and undeclared origins', async () => {
  const { page } = app;
  await callOnToolsPage(page, 'show_probe_app', { hostOrigin: mcplab.base, probeUrl: probe.url, otherTool: 'list_files' });
  await page.waitForSelector(`${id('app-frame')}[data-status="ready"]`, { timeout: 20000 });
  const doc = appDoc(page);
  await doc.locator('#probes-done').filter({ hasText: 'done' }).waitFor({ timeout: 20000 });
  // The app's own verdicts (a probe with no answer says null, which fails here)…
  for (const name of ['cookie', 'storage', 'top', 'api', 'external', 'img', 'modelOnly', 'otherServer']) {
    const verdict = JSON.parse(await doc.locator(`#probe-${name}`).innerText());
    assert.equal(verdict.blocked, true, `${name}: ${verdict.detail}`);
  }
  // …and what the other side saw: the undeclared origin got no request, and the server got
  // no call of the model-only tool or of the other server's tool.
  assert.deepEqual(probe.hits, [], 'the undeclared origin was never reached');
  // Frames that are not JSON-RPC (notes on the wire) carry no call.
  const called = (await frames(mcplab, 'demo'))
    .map((f) => f.msg)
    .filter((m) => m?.method === 'tools/call')
    .map((m) => m.params.name);
  assert.ok(called.includes('show_probe_app'), `the probe app's own call is in the traffic: ${called}`);
  assert.ok(!called.includes('secret_model_only') && !called.includes('list_files'), `refused calls reached the server: ${called}`);
  await page.waitForSelector(`${id('app-violation')}[data-directive="connect-src"]`);
  await shot(page, '42-app-probes');
});

test('CSP violations of an app are listed with directive and URL', async () => {
  const { page } = app;
  await callOnToolsPage(page, 'show_csp_breaker', { probeUrl: probe.url });
  await page.waitForSelector(`${id('app-violation')}[data-directive="connect-src"]`, { timeout: 20000 });
  await page.waitForSelector(`${id('app-violation')}[data-directive="img-src"]`);
  assert.match(await page.locator(id('app-violations')).innerText(), new RegExp(probe.url.replace(/[.:/]/g, '\\$&')));
  assert.deepEqual(probe.hits, []);
});

test('MCP-UI resources render through the proxy and every action type works', async () => {
  const { page } = app;
  await callOnToolsPage(page, 'show_mcp_ui');
  const html = page.locator(`${id('mcp-ui-resource')}[data-mime="text/html"]`);
  await html.waitFor({ timeout: 20000 });
  const doc = page.frameLocator(`${id('mcp-ui-resource')}[data-mime="text/html"] iframe`).frameLocator('iframe');
  await doc.locator('#act-tool').click();
  await doc.locator('#responses').filter({ hasText: 'count' }).waitFor();
  await doc.locator('#act-notify').click();
  await page.locator(id('mcp-ui-notification')).filter({ hasText: 'Saved!' }).waitFor();
  await doc.locator('#act-prompt').click();
  await page.locator(id('mcp-ui-note')).filter({ hasText: 'Summarize the counter' }).waitFor();
  await doc.locator('#act-intent').click();
  await page.locator(id('mcp-ui-note')).filter({ hasText: 'add_to_cart' }).waitFor();
  await doc.locator('#act-link').click();
  await page.locator(id('app-confirm-detail')).filter({ hasText: 'https://example.com/docs' }).waitFor();
  await page.click(id('app-confirm-cancel'));
  await doc.locator('#responses').filter({ hasText: 'opened' }).waitFor();
  // The Remote DOM resource renders host components.
  await page.locator(id('mcp-ui-resource')).filter({ hasText: 'Remote DOM says hi' }).waitFor({ timeout: 10000 }).catch(async () => {
    const remote = page.frameLocator(`${id('mcp-ui-resource')}[data-mime^="application/vnd.mcp-ui.remote-dom"] iframe`);
    await remote.locator('text=Remote DOM says hi').waitFor({ timeout: 10000 });
  });
  await shot(page, '43-mcp-ui');
});

test('an MCP-UI text/uri-list resource is framed through the proxy', async () => {
  const { page } = app;
  const before = probe.hits.length;
  await callOnToolsPage(page, 'show_mcp_ui_url', { url: `${probe.url}/widget` });
  await page.waitForSelector(`${id('mcp-ui-resource')}[data-mime="text/uri-list"]`, { timeout: 20000 });
  const inner = page.frameLocator(`${id('mcp-ui-resource')}[data-mime="text/uri-list"] iframe`).frameLocator('iframe');
  await inner.locator('body').filter({ hasText: 'reachable' }).waitFor({ timeout: 10000 });
  assert.ok(probe.hits.slice(before).includes('/widget'));
  // The URL is framed from the sandbox origin, never from the host page.
  const src = await page.locator(`${id('mcp-ui-resource')}[data-mime="text/uri-list"] iframe`).first().getAttribute('src');
  assert.ok(!src.startsWith(mcplab.base), src);
});

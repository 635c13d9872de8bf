// The inspector keeps what a person is working on: a running call survives switching tool and
// page (progress, cancel and result are there on return), selection, form values and the last
// result survive a reload, URLs are deep links that only select (judged by what the server
// received), history keeps results, saved requests rerun, a call's frames can be isolated, and
// the keyboard reaches everything (`/`, arrows, Ctrl+K, focus back after a dialog), and a
// server deleted in the background leaves every open page; one imported or removed with
// `mcplab servers` in a terminal shows there at once. The servers keep the order a person puts
// them in (a row's handle, dragged with the mouse or moved with the arrow keys), across a reload
// and live in another tab's server selector.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { startMcplab, openApp, shot, bin } from './harness.js';
import { frames, id, navTo, sent, waitConnected, waitUntil } from './ui_helpers.js';

let mcplab;
let app;

before(async () => {
  mcplab = await startMcplab();
  app = await openApp(mcplab);
  await waitConnected(mcplab, ['demo']);
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
});

const go = (page, hash) => page.evaluate((h) => { window.location.hash = h; }, hash);
const heading = (page) => page.locator(`${id('tool-detail')} h2`).innerText();

async function setArgs(page, json) {
  if (!(await page.isChecked(id('tool-form-raw-toggle')))) await page.click(id('tool-form-raw-toggle'));
  await page.fill(id('tool-form-raw'), json);
}

/** The id of the newest tools/call request we sent for `tool`, and whether it was answered. */
async function lastCall(tool) {
  const all = await frames(mcplab, 'demo');
  const req = all.filter((f) => f.direction === 'outbound' && f.msg?.method === 'tools/call' && f.msg.params?.name === tool).pop();
  const answered = !!req && all.some((f) => f.direction === 'inbound' && f.msg && f.msg.id === req.msg.id && ('result' in f.msg || 'error' in f.msg));
  return { req, answered };
}

test('a deep link only selects; a running call survives switching tool and page', async () => {
  const { page } = app;
  const callsBefore = (await sent(mcplab, 'demo', 'tools/call')).length;
  await go(page, '#/tools/demo/slow_task');
  await page.waitForSelector(id('tool-detail'));
  assert.equal(await heading(page), 'slow_task');
  await setArgs(page, '{"steps": 10, "step_ms": 600}');
  assert.equal((await sent(mcplab, 'demo', 'tools/call')).length, callsBefore, 'opening the URL called nothing');

  await page.click(id('tool-call'));
  await page.waitForFunction((sel) => /\d+ \/ 10/.test(document.querySelector(sel)?.textContent ?? ''), id('tool-progress'));
  await page.click(id('tool-item-echo'));
  await page.waitForFunction(() => document.querySelector('[data-testid="tool-detail"] h2')?.textContent === 'echo');
  await page.waitForSelector(id('tool-running-slow_task'));
  await navTo(page, 'resources');
  await page.waitForSelector(id('resources-page'));
  await navTo(page, 'tools');
  // Back on Tools: the remembered tool, and the running call with its progress and Cancel.
  await page.waitForFunction(() => document.querySelector('[data-testid="tool-detail"] h2')?.textContent === 'echo');
  assert.match(page.url(), /#\/tools\/demo\/echo$/);
  await page.click(id('tool-item-slow_task'));
  await page.waitForSelector(id('tool-cancel'));
  await page.waitForSelector(id('tool-progress'));
  await shot(page, 'state-01-running-call-after-navigation');

  // It finishes while another page is shown; its result is there on return.
  await navTo(page, 'prompts');
  await page.waitForSelector(id('prompts-page'));
  await waitUntil(async () => (await lastCall('slow_task')).answered, 'the server to answer slow_task');
  await navTo(page, 'tools');
  await page.waitForFunction((sel) => document.querySelector(sel)?.textContent.includes('Finished all 10 steps'), id('tool-result'));
  assert.equal(await page.locator(id('tool-cancel')).count(), 0);
});

test('a reload during a call re-attaches to it (progress, Cancel, the result in History); another tab sees and cancels a call', async () => {
  const { page, context } = app;
  await go(page, '#/tools/demo/slow_task');
  await page.waitForFunction(() => document.querySelector('[data-testid="tool-detail"] h2')?.textContent === 'slow_task');
  await setArgs(page, '{"steps": 8, "step_ms": 500}');
  const historyBefore = (await mcplab.api('GET', '/api/prefs')).body['toolHistory.demo']?.length ?? 0;
  await page.click(id('tool-call'));
  await page.waitForFunction((sel) => /\d+ \/ 8/.test(document.querySelector(sel)?.textContent ?? ''), id('tool-progress'));
  const { req } = await lastCall('slow_task');
  await page.reload();
  await page.waitForSelector(id('tool-detail'));
  // The running call is back, with Cancel and a running badge; then its result arrives.
  await page.waitForSelector(`${id('tool-cancel')}, ${id('tool-result')}`);
  await page.waitForFunction((sel) => document.querySelector(sel)?.textContent.includes('Finished all 8 steps'), id('tool-result'), { timeout: 20000 });
  assert.equal((await lastCall('slow_task')).req.msg.id, req.msg.id, 'no second call was made');
  // The reloaded tab put the result into History, once.
  const history = await waitUntil(async () => {
    const h = (await mcplab.api('GET', '/api/prefs')).body['toolHistory.demo'] ?? [];
    return h.length > historyBefore && h;
  }, 'the call in the history');
  assert.equal(history.length, historyBefore + 1);
  assert.equal(history[0].tool, 'slow_task');
  assert.equal(history[0].status, 'ok');

  // A second tab (signed in on its own) shows a call this tab runs, and can cancel it.
  await setArgs(page, '{"steps": 60, "step_ms": 500}');
  await page.click(id('tool-call'));
  await page.waitForSelector(id('tool-progress'));
  const other = await context.newPage();
  await other.goto(await mcplab.loginUrl());
  await other.waitForURL((u) => u.pathname !== '/auth');
  await go(other, '#/tools/demo/slow_task');
  await other.waitForSelector(id('tool-progress'));
  await shot(other, 'state-01b-call-in-another-tab');
  await other.click(id('tool-cancel'));
  await other.waitForSelector(`${id('tool-result')}[data-status="cancelled"]`);
  await page.waitForSelector(`${id('tool-result')}[data-status="cancelled"]`);
  await other.close();
  await setArgs(page, '{"steps": 10, "step_ms": 600}');
});

test('a call cancelled after coming back to it ends as a neutral "cancelled"', async () => {
  const { page } = app;
  const cancelsBefore = (await sent(mcplab, 'demo', 'notifications/cancelled')).length;
  await page.click(id('tool-call'));
  await page.waitForSelector(id('tool-progress'));
  await navTo(page, 'logs');
  await page.waitForSelector(id('logs-page'));
  await navTo(page, 'tools');
  await page.click(id('tool-cancel'));
  await page.waitForSelector(`${id('tool-result')}[data-status="cancelled"]`);
  assert.equal(await page.getAttribute(id('tool-result'), 'data-error'), 'false');
  const cancels = await sent(mcplab, 'demo', 'notifications/cancelled');
  assert.equal(cancels.length, cancelsBefore + 1);
  assert.equal(cancels.at(-1).msg.params.requestId, (await lastCall('slow_task')).req.msg.id);
  await shot(page, 'state-02-cancelled');
});

test('a reload keeps the selection, the form values and the last result; history keeps results; saved requests rerun', async () => {
  const { page } = app;
  // Drafts are written after a pause in typing: wait until the server has them.
  await waitUntil(async () => {
    const prefs = (await mcplab.api('GET', '/api/prefs')).body;
    return prefs['drafts.tool.demo']?.slow_task?.steps === 10 && prefs['toolLast.demo']?.slow_task;
  }, 'the draft and the last call in prefs');
  await page.reload();
  await page.waitForSelector(id('tool-detail'));
  assert.equal(await heading(page), 'slow_task');
  await page.waitForSelector(id('tool-last-call'));
  assert.equal(await page.getAttribute(id('tool-result'), 'data-status'), 'cancelled');
  assert.equal(await page.inputValue('#root_steps'), '10');
  assert.equal(await page.inputValue('#root_step_ms'), '600');

  await page.click(`${id('tool-history')} summary`);
  const rows = page.locator(id('history-row'));
  assert.ok((await rows.count()) >= 2);
  await rows.first().locator(id('history-show')).click();
  await rows.first().locator(id('tool-result')).waitFor();
  assert.equal(await rows.first().getAttribute('data-status'), 'cancelled');
  assert.match(await rows.nth(1).locator(id('history-show')).evaluate((b) => String(!b.disabled)), /true/);

  await page.click(id('tool-save'));
  await page.fill(id('tool-save-name'), 'ten steps');
  await page.click(id('tool-save-confirm'));
  await page.waitForSelector(`${id('saved-row')}[data-name="ten steps"]`);
  await waitUntil(async () => (await mcplab.api('GET', '/api/prefs')).body['savedRequests.demo']?.[0]?.name === 'ten steps', 'the saved request in prefs');
  const before = (await sent(mcplab, 'demo', 'tools/call')).length;
  await page.click(`${id('saved-row')}[data-name="ten steps"] ${id('saved-run')}`);
  const calls = await waitUntil(async () => {
    const c = await sent(mcplab, 'demo', 'tools/call');
    return c.length === before + 1 && c;
  }, 'the saved request to be sent');
  assert.deepEqual(calls.at(-1).msg.params.arguments, { steps: 10, step_ms: 600 });
  await page.click(id('tool-cancel'));
  await page.waitForSelector(`${id('tool-result')}[data-status="cancelled"]`);
  await shot(page, 'state-03-history-saved');
});

test('send anyway sends arguments the schema rejects', async () => {
  const { page } = app;
  await go(page, '#/tools/demo/add');
  await page.waitForFunction(() => document.querySelector('[data-testid="tool-detail"] h2')?.textContent === 'add');
  await setArgs(page, '{"a": "x", "b": 3}');
  const before = (await sent(mcplab, 'demo', 'tools/call')).length;
  await page.click(id('tool-call'));
  await page.waitForSelector(id('tool-rejected'));
  assert.equal((await sent(mcplab, 'demo', 'tools/call')).length, before, 'nothing sent without consent');
  await page.click(id('tool-send-anyway'));
  await page.waitForSelector(id('tool-result'));
  const calls = await sent(mcplab, 'demo', 'tools/call');
  assert.equal(calls.length, before + 1);
  assert.deepEqual(calls.at(-1).msg.params.arguments, { a: 'x', b: 3 });
  await page.waitForSelector(id('tool-unchecked'));
});

test('a resource URL shows without reading; a click reads; a result\'s resource link opens in Resources', async () => {
  const { page } = app;
  const before = (await sent(mcplab, 'demo', 'resources/read')).length;
  await go(page, '#/resources/demo/demo%3A%2F%2Fconfig.json');
  await page.reload();
  await page.waitForSelector(id('resource-unread'));
  assert.equal((await sent(mcplab, 'demo', 'resources/read')).length, before, 'the URL read nothing');
  await page.click(id('resource-read'));
  await page.waitForSelector(id('resource-content'));
  assert.equal((await sent(mcplab, 'demo', 'resources/read')).length, before + 1);

  await go(page, '#/tools/demo/get_resource_link');
  await page.waitForFunction(() => document.querySelector('[data-testid="tool-detail"] h2')?.textContent === 'get_resource_link');
  await page.click(id('tool-call'));
  await page.click(id('resource-link-open'));
  await page.waitForSelector(id('resource-content'));
  assert.match(page.url(), /#\/resources\/demo\/demo%3A%2F%2Freadme$/);
  const reads = await sent(mcplab, 'demo', 'resources/read');
  assert.equal(reads.at(-1).msg.params.uri, 'demo://readme');
});

test('"Frames" shows exactly the frames of that call', async () => {
  const { page } = app;
  await go(page, '#/tools/demo/add');
  await page.waitForFunction(() => document.querySelector('[data-testid="tool-detail"] h2')?.textContent === 'add');
  for (const args of ['{"a": 1, "b": 2}', '{"a": 30, "b": 12}', '{"a": 5, "b": 5}']) {
    await setArgs(page, args);
    const before = (await sent(mcplab, 'demo', 'tools/call')).length;
    await page.click(id('tool-call'));
    await waitUntil(async () => (await sent(mcplab, 'demo', 'tools/call')).length === before + 1 && (await lastCall('add')).answered, `add ${args} to be answered`);
    await page.waitForSelector(`${id('tool-call')}:not([aria-busy])`);
  }
  await setArgs(page, '{"a": 30, "b": 12}');
  // The form now says 30 + 12; "Frames" follows the call shown, the last one (5 + 5).
  await page.click(id('tool-frames'));
  await page.waitForSelector(id('traffic-filter-call'));
  const call = (await frames(mcplab, 'demo')).filter((f) => f.direction === 'outbound' && f.msg?.method === 'tools/call').at(-1);
  assert.deepEqual(call.msg.params.arguments, { a: 5, b: 5 });
  await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 2, id('traffic-row'));
  const rows = await page.locator(id('traffic-row')).evaluateAll((els) => els.map((e) => Number(e.dataset.seq)));
  const mine = (await frames(mcplab, 'demo')).filter((f) => f.msg?.id === call.msg.id && (f.direction === 'outbound' ? f.msg.method === 'tools/call' : 'result' in f.msg));
  assert.deepEqual(rows.sort((a, b) => a - b), mine.map((f) => f.seq));
  // Request ↔ response: the detail jumps to the pair and keeps it in view.
  await page.click(`${id('traffic-row')}[data-seq="${rows[0]}"]`);
  await page.click(id('frame-jump-pair'));
  await page.waitForSelector(`${id('frame-detail')}[data-seq="${rows[1]}"]`);
  assert.match(await page.innerText(id('frame-body')), /structuredContent/);
  await shot(page, 'state-04-frames-of-call');
  await page.click(id('traffic-filter-call-clear'));
});

test('keyboard: / searches, arrows move through the list, Ctrl+K jumps anywhere, focus comes back', async () => {
  const { page } = app;
  await go(page, '#/tools/demo/add');
  await page.waitForSelector(id('tool-detail'));
  await page.click(`${id('tool-detail')} h2`);
  await page.keyboard.press('/');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'tool-search');
  await page.keyboard.press('Escape');
  await page.focus(id('tool-item-add'));
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => /#\/tools\/demo\/app_only_increment$/.test(location.hash));
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'tool-item-app_only_increment');

  await page.keyboard.press('Control+k');
  await page.waitForSelector(id('command-palette'));
  await page.keyboard.type('greeting');
  await page.waitForSelector(`${id('palette-item')}[data-id="prompt:demo:greeting"]`);
  await page.keyboard.press('Enter');
  await page.waitForSelector(id('prompts-page'));
  assert.match(page.url(), /#\/prompts\/demo\/greeting$/);

  await page.click(id('palette-open'));
  await page.waitForSelector(id('command-palette'));
  // Every kind is there: pages, servers, tools, resources, prompts.
  for (const [text, entry] of [['logs', 'page:logs'], ['demo', 'server:demo'], ['create_order', 'tool:demo:create_order'], ['demo://readme', 'resource:demo:demo://readme'], ['code_review', 'prompt:demo:code_review']]) {
    await page.fill(`${id('command-palette')} input`, text);
    await page.waitForSelector(`${id('palette-item')}[data-id="${entry}"]`);
  }
  await page.keyboard.press('Escape');
  await page.waitForSelector(id('command-palette'), { state: 'detached' });
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'palette-open');

  // A dialog closed with Escape gives the focus back to the button that opened it.
  await go(page, '#/servers');
  await page.click(id('server-add'));
  await page.waitForSelector(id('server-form'));
  await page.keyboard.press('Escape');
  await page.waitForSelector(id('server-form'), { state: 'detached' });
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'server-add');
});

test('a page on its way out does not move the URL back: a re-render before the hashchange keeps the new page', async () => {
  // A link sets the hash at once and its hashchange event runs later; a server's status event
  // in between re-renders the Tools page while the URL already shows Resources. CI hit this
  // (clicking Resources stayed on Tools twice); pushState stands for the click's first half.
  const { page } = app;
  assert.equal((await mcplab.api('POST', '/api/servers', { name: 'other', type: 'stdio', command: bin, args: ['demo-server'] })).status, 201);
  await go(page, '#/tools/demo/echo');
  await page.waitForFunction(() => document.querySelector('[data-testid="tool-detail"] h2')?.textContent === 'echo');
  await page.evaluate(() => history.pushState(null, '', '#/resources'));
  await mcplab.api('POST', '/api/servers/other/connect');
  await page.waitForFunction(() => document.querySelector('[data-testid="server-selector"] option[value="other"]')?.dataset.state === 'connected');
  assert.equal(await page.evaluate(() => window.location.hash), '#/resources');
  await page.evaluate(() => window.dispatchEvent(new HashChangeEvent('hashchange')));
  await page.waitForSelector(id('resources-page'));
  const remembered = (await mcplab.api('GET', '/api/prefs')).body.inspectorSelection?.tools?.demo;
  assert.equal(remembered, 'echo', 'the Tools page remembered no item of the Resources URL');
});

test('a server deleted in the background leaves every open page: its Servers row goes, Tools falls back to another server; one imported or removed in a terminal shows at once', async () => {
  const { page, context } = app;
  // `other` (added above) is connected: this tab works on it, a second one shows the Servers page.
  await go(page, '#/tools/other/echo');
  await page.waitForFunction(() => document.querySelector('[data-testid="tool-detail"] h2')?.textContent === 'echo');
  const servers = await context.newPage();
  await servers.goto(await mcplab.loginUrl());
  await servers.waitForURL((u) => u.pathname !== '/auth');
  await go(servers, '#/servers');
  await servers.waitForSelector(id('server-row-other'));
  // Imported from a terminal (not connected, so no status event follows): the row comes all
  // the same, and goes with `servers remove`.
  const file = path.join(mcplab.dataDir, 'import.json');
  writeFileSync(file, JSON.stringify({ mcpServers: { imported: { url: 'http://127.0.0.1:9/mcp' } } }));
  const cli = (...args) => promisify(execFile)(bin, ['--data-dir', mcplab.dataDir, 'servers', ...args], { timeout: 30_000 });
  assert.match((await cli('import', file)).stderr, /the running inspector at \S+ was updated/);
  await servers.waitForSelector(id('server-row-imported'));
  await cli('remove', 'imported');
  await servers.waitForSelector(id('server-row-imported'), { state: 'detached' });
  assert.equal((await mcplab.api('DELETE', '/api/servers/other')).status, 204);
  await servers.waitForSelector(id('server-row-other'), { state: 'detached' });
  assert.equal(await servers.locator(id('server-row-demo')).count(), 1, 'the others stay');
  await page.waitForFunction(() => window.location.hash.startsWith('#/tools/demo'));
  await page.waitForFunction(() => document.querySelector('[data-testid="server-selector"]')?.value === 'demo');
  assert.equal(await page.locator(`${id('server-selector')} option[value="other"]`).count(), 0);
  await shot(servers, 'state-06-removed-elsewhere');
  await servers.close();
});

test('servers are put in order by dragging a handle or with the arrow keys; the order survives a reload and another tab follows it live', async () => {
  const { page, context } = app;
  await go(page, '#/servers');
  // Added elsewhere one after the other: listed in that order, whichever view this page gets first.
  for (const name of ['alpha', 'beta']) {
    const r = await mcplab.api('POST', '/api/servers?connect=false', { name, type: 'http', url: 'http://127.0.0.1:9/mcp' });
    assert.equal(r.status, 201, JSON.stringify(r.body));
  }
  await page.waitForSelector(id('server-row-alpha'));
  await page.waitForSelector(id('server-row-beta'));
  const rows = (p) => p.$$eval('[data-testid="server-list"] > li', (ls) => ls.map((l) => l.dataset.dragRow));
  const stored = async () => (await mcplab.api('GET', '/api/servers')).body.map((v) => v.config.name);
  assert.deepEqual(await rows(page), ['demo', 'alpha', 'beta']);
  // A second tab on the Tools page: its server selector follows the order live.
  const tools = await context.newPage();
  await tools.goto(await mcplab.loginUrl());
  await tools.waitForURL((u) => u.pathname !== '/auth');
  await go(tools, '#/tools/demo');
  await tools.waitForSelector(`${id('server-selector')} option[value="beta"]`, { state: 'attached' });
  const options = () => tools.$$eval(`[data-testid="server-selector"] option`, (os) => os.map((o) => o.value));
  await page.bringToFront();

  // The mouse: beta's handle dragged above demo, in steps so the list shows where it lands.
  const from = await page.locator(id('server-move-beta')).boundingBox();
  const onto = await page.locator(id('server-row-demo')).boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, onto.y + 4, { steps: 8 });
  await page.waitForFunction(() => document.querySelector('[data-testid="server-list"] > li')?.dataset.dragRow === 'beta');
  await page.mouse.up();
  await waitUntil(async () => (await stored()).join() === 'beta,demo,alpha', 'the dragged order saved');
  await waitUntil(async () => (await options()).join() === 'beta,demo,alpha', "the other tab's selector in the new order");

  // The keyboard: demo's handle, Arrow Down moves it one place; the move is announced and the
  // handle keeps the focus for the next press.
  await page.focus(id('server-move-demo'));
  await page.waitForFunction(() => document.activeElement?.dataset.dragHandle === 'demo');
  await page.keyboard.press('ArrowDown');
  await waitUntil(async () => (await stored()).join() === 'beta,alpha,demo', 'the keyboard move saved');
  assert.equal(await page.locator(id('server-order-status')).innerText(), 'demo moved to place 3 of 3.');
  await page.waitForFunction(() => document.activeElement?.dataset.dragHandle === 'demo');
  await page.keyboard.press('Home');
  await waitUntil(async () => (await stored()).join() === 'demo,beta,alpha', 'Home moved it to the top');
  await waitUntil(async () => (await options()).join() === 'demo,beta,alpha', 'the other tab followed the keyboard moves');
  await shot(page, 'state-07-servers-ordered');

  await page.reload();
  await page.waitForSelector(id('server-row-alpha'));
  assert.deepEqual(await rows(page), ['demo', 'beta', 'alpha'], 'the order survives a reload');
  await tools.close();
  for (const name of ['alpha', 'beta']) await mcplab.api('DELETE', `/api/servers/${name}`);
});

test('no page errors', () => {
  assert.deepEqual(app.errors.filter((e) => !/favicon/.test(e)), []);
});

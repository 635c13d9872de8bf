// Browser tests of the inspector: the real mcplab binary, Debian's Chromium, real clicks.
// Each flow saves screenshots into tests/browser/output/ for a person to look at.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startMcplab, openApp, shot, bin } from './harness.js';
import { axeViolations } from './ui_helpers.js';

let mcplab;
let app;

before(async () => {
  mcplab = await startMcplab();
  app = await openApp(mcplab);
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
});

const id = (name) => `[data-testid="${name}"]`;

test('a server added through the form connects at once, without a Connect click', async () => {
  const { page } = app;
  await page.click(id('nav-servers'));
  await page.click(id('server-add'));
  // An empty form says what is missing; each message goes as soon as its field is edited.
  await page.click(id('server-form-save'));
  await page.waitForSelector(id('server-form-error-name'));
  await page.waitForSelector(id('server-form-error-command'));
  await page.fill(id('server-form-name'), 'fixture');
  await page.waitForSelector(id('server-form-error-name'), { state: 'detached' });
  assert.equal(await page.locator(id('server-form-error-command')).count(), 1, 'only the edited field is cleared');
  await page.click(id('server-form-type-stdio'));
  await page.fill(id('server-form-command'), bin);
  await page.fill(id('server-form-args'), 'demo-server');
  await page.click(id('server-form-save'));
  await page.waitForSelector(id('server-row-fixture'));
  // Nobody clicks Connect: adding connects.
  await page.waitForSelector(`${id('status-fixture')}[data-state="connected"]`, { timeout: 30000 });
  await page.click(`${id('server-row-fixture')} >> text=fixture`);
  await page.waitForSelector(id('server-instructions'));
  await shot(page, '01-servers');
  const listed = await mcplab.api('GET', '/api/servers/fixture');
  assert.equal(listed.body.status.state, 'connected');
  assert.deepEqual(listed.body.config.args, ['demo-server']);
});

test('an imported server connects at once too, "Connect them now" being ticked by default (T3-17)', async () => {
  const { page } = app;
  await page.click(id('server-import'));
  assert.equal(await page.locator(`${id('import-connect')} input`).isChecked(), true);
  await page.fill(id('import-text'), JSON.stringify({ mcpServers: { imported: { command: bin, args: ['demo-server'] } } }));
  await page.click(id('import-submit'));
  await page.click(id('import-done'));
  await page.waitForSelector(`${id('status-imported')}[data-state="connected"]`, { timeout: 30000 });
  assert.equal((await mcplab.api('GET', '/api/servers/imported')).body.status.state, 'connected');
});

test('Clone opens the Add form filled with the server under a new name; nothing is saved until Add', async () => {
  const { page } = app;
  await page.click(id('clone-fixture'));
  await page.waitForSelector(id('server-form'));
  assert.equal(await page.inputValue(id('server-form-name')), 'fixture-copy');
  assert.equal(await page.inputValue(id('server-form-command')), bin);
  assert.equal(await page.inputValue(id('server-form-args')), 'demo-server');
  assert.equal((await mcplab.api('GET', '/api/servers/fixture-copy')).status, 404, 'cloning alone saves nothing');
  await page.uncheck(`${id('server-form-connect')} input`);
  await page.click(id('server-form-save'));
  await page.waitForSelector(id('server-row-fixture-copy'));
  const copy = await mcplab.api('GET', '/api/servers/fixture-copy');
  assert.equal(copy.body.config.command, bin);
  assert.deepEqual(copy.body.config.args, ['demo-server']);
  await page.click(id('delete-fixture-copy'));
  await page.click(id('delete-confirm-fixture-copy'));
  await page.waitForSelector(id('server-row-fixture-copy'), { state: 'detached' });
});

test('fill a tool form, see the result and its frames in the traffic panel', async () => {
  const { page } = app;
  await page.click(id('nav-tools'));
  await page.selectOption(id('server-selector'), 'fixture');
  await page.click(id('tool-item-add'));
  await page.fill('#root_a', '40');
  await page.fill('#root_b', '2');
  await page.click(id('tool-call'));
  const result = page.locator(id('tool-result'));
  await result.waitFor();
  assert.match(await result.innerText(), /42/);
  assert.notEqual(await result.getAttribute('data-error'), 'true');
  await page.waitForSelector(id('schema-valid'));
  // The request and its response are in the traffic panel.
  await page.waitForSelector(`${id('traffic-row')}[data-method="tools/call"]`);
  await page.click(`${id('traffic-row')}[data-method="tools/call"] >> nth=0`);
  await page.waitForSelector(id('frame-detail'));
  await shot(page, '02-tools');

  // An isError result is shown as an error.
  await page.click(id('tool-item-fail'));
  await page.click(id('tool-call'));
  await page.waitForSelector(`${id('tool-result')}[data-error="true"]`);
  await shot(page, '03-tool-error');

  // A long text argument: Enlarge gives a tall editor, and the line breaks reach the server.
  await page.click(id('tool-item-echo'));
  await page.fill('#root_message', 'first line');
  await page.click(`${id('tool-form')} ${id('text-field-size')}`);
  const editor = page.locator('textarea#root_message');
  assert.equal(await editor.inputValue(), 'first line');
  await editor.fill('first line\nsecond line');
  await page.click(id('tool-call'));
  await page.waitForSelector(`${id('tool-result')} >> text=second line`, { timeout: 15000 }).catch(async (e) => {
    throw new Error(`${e.message}: ${await page.locator(id('tool-result')).innerText().catch(() => 'no result')}`);
  });
  // The result is drawn as Markdown (a single line break is a space there); as plain text it keeps the break.
  await page.click(`${id('tool-result')} ${id('block-raw')}`);
  assert.equal(await page.locator(`${id('tool-result')} pre`).first().innerText(), 'Echo: first line\nsecond line');
});

test('answer an elicitation dialog', async () => {
  const { page } = app;
  await page.click(id('nav-tools'));
  await page.click(id('tool-item-elicit_form'));
  await page.click(id('tool-call'));
  const dialog = page.locator(id('elicitation-dialog'));
  await dialog.waitFor({ timeout: 15000 });
  await dialog.locator('#root_name').fill('Grace Hopper');
  await shot(page, '04-elicitation');
  await page.click(id('elicitation-accept'));
  await dialog.waitFor({ state: 'detached' });
  const result = page.locator(id('tool-result'));
  await page.waitForFunction(
    (sel) => document.querySelector(sel)?.innerText.includes('Grace Hopper'),
    id('tool-result'),
  );
  assert.match(await result.innerText(), /accept/i);
});

test('read a resource', async () => {
  const { page } = app;
  await page.click(id('nav-resources'));
  await page.click(id('resource-item-demo://readme'));
  const content = page.locator(id('resource-content'));
  await content.waitFor();
  assert.match(await content.innerText(), /mcplab/i);
  await shot(page, '05-resources');
});

test('get a prompt with arguments', async () => {
  const { page } = app;
  await page.click(id('nav-prompts'));
  await page.click(id('prompt-item-greeting'));
  await page.fill(id('prompt-arg-name'), 'Ada');
  await page.click(id('prompt-get'));
  const messages = page.locator(id('prompt-messages'));
  await messages.waitFor();
  assert.match(await messages.innerText(), /Ada/);
  assert.ok(await page.locator(`${id('prompt-message')}[data-role="user"]`).count() >= 1);
  await shot(page, '06-prompts');
});

test('logs, settings and the dark theme', async () => {
  const { page } = app;
  await page.click(id('nav-tools'));
  await page.click(id('tool-item-log_all_levels'));
  await page.click(id('tool-call'));
  await page.locator(id('tool-result')).waitFor();
  await page.click(id('nav-logs'));
  await page.waitForSelector(id('log-row'));
  await shot(page, '07-logs');
  await page.click(id('nav-settings'));
  // The Settings page does not send the user to Settings: unusable providers say "below".
  await page.waitForFunction(() => /OpenAI/.test(document.querySelector('[data-testid="settings-page"]')?.innerText ?? ''));
  // A provider row that is not configured starts folded: opening it shows why and its form.
  await page.click(id('provider-toggle-openai'));
  await page.waitForSelector(id('provider-reason-openai'));
  const settingsText = await page.innerText(id('settings-page'));
  assert.doesNotMatch(settingsText, /add a key in Settings/);
  assert.match(settingsText, /set OPENAI_API_KEY or add a key below/);
  await page.click(id('theme-dark'));
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  await shot(page, '08-settings-dark');
  await page.click(id('nav-tools'));
  await page.click(id('tool-item-create_order'));
  await page.waitForSelector('#root_customer_name');
  // The dark palette is in effect, and its text is readable (axe: contrast included).
  const luminance = await page.evaluate(() => {
    const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/\d+/g).map(Number);
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  });
  assert.ok(luminance < 0.2, `dark background (luminance ${luminance})`);
  assert.deepEqual(await axeViolations(page), []);
  await shot(page, '09-tools-dark');
  await page.click(id('nav-servers'));
  await page.waitForSelector(id('server-detail-fixture'));
  assert.deepEqual(await axeViolations(page), []);
  await shot(page, '10-servers-dark');
});

test('a command line pasted into Command is split at once, a typed one on request; a failed start reads as words; fixing the command reconnects', async () => {
  const { page } = app;
  // A server whose command cannot start: its failure names the command as code, not `backticks`.
  assert.equal((await mcplab.api('POST', '/api/servers', { name: 'nostart', type: 'stdio', command: '/nonexistent/mcp-server', args: [] })).status, 201);
  await mcplab.api('POST', '/api/servers/nostart/connect');
  await page.click(id('nav-servers'));
  await page.waitForSelector(id('failure-nostart'), { timeout: 15000 });
  const failure = await page.locator(id('failure-nostart')).evaluate((d) => ({ text: d.textContent, code: d.querySelector('code')?.textContent }));
  assert.doesNotMatch(failure.text, /`/, `raw backticks in the failure: ${failure.text}`);
  assert.equal(failure.code, '/nonexistent/mcp-server');
  // Edit it: a typed whole line is flagged and split on request (nothing saved yet).
  await page.click(id('edit-nostart'));
  await page.fill(id('server-form-command'), `${bin} demo-server`);
  await page.click(id('server-form-command-apply'));
  assert.equal(await page.inputValue(id('server-form-command')), bin);
  assert.equal(await page.inputValue(id('server-form-args')), 'demo-server');
  // A pasted line is split at once, with Undo.
  await page.fill(id('server-form-command'), '');
  await page.fill(id('server-form-args'), '');
  await page.locator(id('server-form-command')).evaluate((input, line) => {
    const data = new DataTransfer();
    data.setData('text', line);
    input.focus();
    input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, `${bin} demo-server`);
  await page.waitForSelector(id('server-form-command-split'));
  assert.equal(await page.inputValue(id('server-form-command')), bin);
  assert.equal(await page.inputValue(id('server-form-args')), 'demo-server');
  // Saving the fixed command reconnects the failed server: no Connect click.
  await page.click(id('server-form-save'));
  await page.waitForSelector(`${id('status-nostart')}[data-state="connected"]`, { timeout: 30000 });
  await page.waitForSelector(id('failure-nostart'), { state: 'detached' });
  await shot(page, '01b-servers-fixed');
});

test('no page errors were logged', () => {
  assert.deepEqual(app.errors.filter((e) => !/favicon/.test(e)), []);
});

test('without the token the UI says how to sign in', async () => {
  const context = await app.browser.newContext();
  const page = await context.newPage();
  await page.goto(mcplab.base + '/');
  await page.waitForSelector(id('unauthorized'));
  await shot(page, '11-unauthorized');
  await context.close();
});

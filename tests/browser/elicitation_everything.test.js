// server-everything's elicitation showcase (trigger-elicitation-request, every field type the
// 2025-11-25 spec allows) renders as a proper form — checkbox groups for multi-select enums,
// titled options, formats — and answers correctly, judged by what the server got: the tool's
// result echoes the answer it received. An answer the schema refuses can be sent anyway.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startMcplab, openApp, shot, root } from './harness.js';
import { frames, id, waitConnected, waitUntil } from './ui_helpers.js';

let mcplab;
let app;
const everything = path.join(root, 'tests/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js');

before(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcplab-everything-'));
  const config = path.join(dir, 'servers.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } }));
  mcplab = await startMcplab(['--config', config]);
  app = await openApp(mcplab);
  await waitConnected(mcplab, ['everything'], 60000);
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
});

/** The answer the server received, from the "Raw result" its tool result echoes. */
async function echoedAnswer(callCountBefore) {
  const result = await waitUntil(async () => {
    const all = await frames(mcplab, 'everything');
    const calls = all.filter((f) => f.direction === 'outbound' && f.msg?.method === 'tools/call');
    if (calls.length <= callCountBefore) return null;
    const req = calls.at(-1);
    return all.find((f) => f.direction === 'inbound' && f.msg?.id === req.msg.id && f.msg.result)?.msg.result;
  }, 'the tool result');
  const raw = result.content.map((c) => c.text).find((t) => t.includes('Raw result:'));
  return JSON.parse(raw.slice(raw.indexOf('{')));
}

async function trigger(page) {
  const before = (await frames(mcplab, 'everything')).filter((f) => f.direction === 'outbound' && f.msg?.method === 'tools/call').length;
  await page.evaluate(() => { window.location.hash = '#/tools/everything/trigger-elicitation-request'; });
  await page.waitForFunction(() => document.querySelector('[data-testid="tool-detail"] h2')?.textContent === 'trigger-elicitation-request');
  await page.click(id('tool-call'));
  await page.waitForSelector(id('elicitation-dialog'));
  return before;
}

test('the showcase renders every field type and the server gets exactly the answer', async () => {
  const { page } = app;
  const before = await trigger(page);
  const dialog = page.locator(id('elicitation-dialog'));
  const text = await dialog.innerText();
  assert.doesNotMatch(text, /Unsupported field schema|Unknown field type/);
  assert.doesNotMatch(text, /Enum-1/);
  assert.equal(await dialog.locator(id('form-unsupported')).count(), 0);
  // Multi-selects are checkbox groups, titled options show their titles.
  for (const label of ['Tuna', 'Salmon', 'Trout', 'Guitar', 'Piano']) assert.equal(await dialog.getByLabel(label, { exact: true }).getAttribute('type'), 'checkbox', label);
  assert.equal(await dialog.locator('#root_email').getAttribute('type'), 'email');
  assert.equal(await dialog.locator('#root_birthdate').getAttribute('type'), 'date');
  assert.equal(await dialog.locator('#root_homepage').getAttribute('type'), 'url');
  assert.equal(await dialog.locator('#root_firstLine').inputValue(), 'It was a dark and stormy night.');

  await dialog.locator('#root_name').fill('Ada Lovelace');
  await dialog.locator('#root_email').fill('ada@example.com');
  await dialog.locator('#root_birthdate').fill('1815-12-10');
  await dialog.getByLabel('Salmon', { exact: true }).check();
  await dialog.getByLabel('Piano', { exact: true }).check();
  await dialog.locator('#root_titledSingleSelectEnum').selectOption({ label: 'Wonder Woman' });
  await dialog.locator('#root_legacyTitledEnum').selectOption({ label: 'Dogs' });
  await dialog.locator('#root_check').check();
  await shot(page, 'elicitation-everything-form');
  await page.click(id('elicitation-accept'));
  await dialog.waitFor({ state: 'detached' });

  const answer = await echoedAnswer(before);
  assert.equal(answer.action, 'accept');
  assert.deepEqual(answer.content, {
    name: 'Ada Lovelace',
    check: true,
    firstLine: 'It was a dark and stormy night.',
    email: 'ada@example.com',
    birthdate: '1815-12-10',
    integer: 42,
    number: 3.14,
    untitledSingleSelectEnum: 'Monica',
    untitledMultipleSelectEnum: ['Guitar', 'Piano'],
    titledSingleSelectEnum: 'hero-3',
    titledMultipleSelectEnum: ['fish-1', 'fish-2'],
    legacyTitledEnum: 'pet-2',
  });
  await page.waitForFunction((sel) => document.querySelector(sel)?.innerText.includes('User provided the requested information'), id('tool-result'));
  await shot(page, 'elicitation-everything-result');
});

test('an answer the schema refuses is held back, and sent as typed on "Send anyway"', async () => {
  const { page } = app;
  const before = await trigger(page);
  const dialog = page.locator(id('elicitation-dialog'));
  // name is required: the form refuses, nothing is sent yet.
  await page.click(id('elicitation-accept'));
  await page.waitForSelector(id('elicitation-send-anyway'));
  const answered = (await frames(mcplab, 'everything')).filter((f) => f.direction === 'outbound' && f.msg?.result?.action).length;
  await page.click(id('elicitation-send-anyway'));
  await dialog.waitFor({ state: 'detached' });
  const replies = await waitUntil(async () => {
    const r = (await frames(mcplab, 'everything')).filter((f) => f.direction === 'outbound' && f.msg?.result?.action);
    return r.length > answered && r;
  }, 'the elicitation answer');
  const reply = replies.at(-1).msg.result;
  assert.equal(reply.action, 'accept');
  assert.equal(reply.content.name, undefined);
  assert.deepEqual(reply.content.titledMultipleSelectEnum, ['fish-1']);
  // Whatever the server made of it, the call ends with a result shown.
  await waitUntil(async () => (await frames(mcplab, 'everything')).filter((f) => f.direction === 'outbound' && f.msg?.method === 'tools/call').length > before, 'the call');
  await page.waitForSelector(id('tool-result'));
});

test('a -32042 URL elicitation error offers to open the URL, after a confirmation; focus comes back to the trigger', async () => {
  const { page } = app;
  await page.evaluate(() => { window.location.hash = '#/tools/everything/trigger-url-elicitation'; });
  await page.waitForFunction(() => document.querySelector('[data-testid="tool-detail"] h2')?.textContent === 'trigger-url-elicitation');
  if (!(await page.isChecked(id('tool-form-raw-toggle')))) await page.click(id('tool-form-raw-toggle'));
  // Nothing is opened by this test (it cancels the confirmation).
  await page.fill(id('tool-form-raw'), JSON.stringify({ url: 'http://127.0.0.1:9/consent', errorPath: true }));
  await page.click(id('tool-call'));
  const offer = page.locator(id('url-elicitations'));
  await offer.waitFor({ timeout: 15000 });
  // What the server said, judged on the wire: a -32042 error carrying that URL.
  const error = await waitUntil(async () => (await frames(mcplab, 'everything')).find((f) => f.direction === 'inbound' && f.msg?.error?.code === -32042)?.msg.error, 'the -32042 error');
  // (server-everything names its own prerequisite page, whatever URL the call asked for.)
  const wanted = new URL(error.data.elicitations[0].url);
  assert.ok((await offer.innerText()).includes(error.data.elicitations[0].message));
  assert.ok((await offer.innerText()).includes(wanted.href), 'the URL is shown whole');
  const pagesBefore = app.context.pages().length;
  await page.click(id('url-elicitation-open'));
  const confirm = page.locator(id('url-elicitation-confirm'));
  await confirm.waitFor();
  assert.ok((await confirm.innerText()).includes(wanted.host), 'the confirmation names the host');
  await shot(page, 'elicitation-everything-url-error');
  await page.keyboard.press('Escape');
  await confirm.waitFor({ state: 'detached' });
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'url-elicitation-open');
  assert.equal(app.context.pages().length, pagesBefore, 'nothing opened without the confirmation');
});

test("a Markdown resource's relative links resolve against its URI and open in the Resources view", async () => {
  const { page } = app;
  const base = 'demo://resource/static/document/architecture.md';
  await page.evaluate((h) => { window.location.hash = h; }, `#/resources/everything/${encodeURIComponent(base)}`);
  await page.click(id('resource-read'));
  const link = page.locator(`${id('resource-content')} a`, { hasText: 'Project Structure' }).first();
  await link.waitFor({ timeout: 15000 });
  assert.equal(await link.getAttribute('href'), 'demo://resource/static/document/structure.md');
  const reads = () => frames(mcplab, 'everything').then((all) => all.filter((f) => f.direction === 'outbound' && f.msg?.method === 'resources/read').map((f) => f.msg.params.uri));
  await link.click();
  await page.waitForFunction(() => /#\/resources\/everything\/demo%3A%2F%2Fresource%2Fstatic%2Fdocument%2Fstructure\.md$/.test(location.hash));
  await waitUntil(async () => (await reads()).includes('demo://resource/static/document/structure.md'), 'structure.md to be read');
  await shot(page, 'elicitation-everything-markdown-link');
});

test('no page errors', () => {
  assert.deepEqual(app.errors.filter((e) => !/favicon/.test(e)), []);
});

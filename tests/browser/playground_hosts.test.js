// Browser test of the playground's host picker (issue 18): the demo counter app is rendered as
// mcplab and then as a person's own profile (a file in the data directory's hosts/), and the
// host context the app itself received (its #host-context, merged from ui/initialize and every
// host-context-changed) follows each profile's app host: platform, device capabilities and the
// display modes offered. Then the same app under an own profile without `openLinks`: the
// ui/initialize answer the host sent (the playground's bridge messages, raw) leaves it out, and
// the app's ui/open-link is answered with the spec's -32000 error — no confirmation, no window.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { waitConnected, waitUntil } from './ui_helpers.js';
import { startMcplab, openApp } from './harness.js';

let mcplab;
let app;
const id = (name) => `[data-testid="${name}"]`;

before(async () => {
  mcplab = await startMcplab();
  mkdirSync(path.join(mcplab.dataDir, 'hosts'), { recursive: true });
  writeFileSync(
    path.join(mcplab.dataDir, 'hosts', 'narrow.json'),
    JSON.stringify({ name: 'narrow', title: 'Narrow phone host', appHost: { device: 'mobile', displayModes: ['inline'] } }),
  );
  writeFileSync(
    path.join(mcplab.dataDir, 'hosts', 'nolinks.json'),
    JSON.stringify({ name: 'nolinks', appHost: { hostCapabilities: { openLinks: false, downloadFile: false } } }),
  );
  app = await openApp(mcplab);
  await waitConnected(mcplab, ['demo']);
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
});

const told = async () => JSON.parse(await app.page.frameLocator(id('app-iframe')).frameLocator('iframe').locator('#host-context').innerText());

async function renderAs(host) {
  const { page } = app;
  await page.selectOption(id('pg-host-select'), host);
  await page.selectOption(id('pg-tool'), 'show_counter_app');
  await page.click(id('pg-run'));
  await page.waitForSelector(`${id('app-frame')}[data-status="ready"]`, { timeout: 20000 });
}

test('an app rendered as two hosts gets the host context each declares', async () => {
  const { page } = app;
  await page.click(id('nav-playground'));
  await page.waitForSelector(id('pg-host-select'));
  await renderAs('mcplab');
  const asMcplab = await waitUntil(async () => {
    const c = await told().catch(() => null);
    return c?.platform === 'web' && c;
  }, 'the app to be told the mcplab host');
  assert.deepEqual([...asMcplab.availableDisplayModes].sort(), ['fullscreen', 'inline', 'pip']);
  assert.equal(asMcplab.deviceCapabilities.hover, true);

  await renderAs('narrow');
  const asNarrow = await waitUntil(async () => {
    const c = await told().catch(() => null);
    return c?.platform === 'mobile' && c;
  }, 'the app to be told the narrow host');
  assert.deepEqual(asNarrow.availableDisplayModes, ['inline']);
  assert.equal(asNarrow.deviceType, 'mobile');
  assert.equal(asNarrow.deviceCapabilities.touch, true);
  assert.equal(await page.locator(id('pg-host-select')).inputValue(), 'narrow');
  // The choice says what it changed, in words (T3-14: it was silent).
  const changes = await page.locator(id('pg-host-changes')).innerText();
  assert.match(changes, /^Narrow phone host set: .*device 430×932.*offers inline/, changes);
  // A hand change to what the profile decides makes the emulation custom (the locale, which
  // this profile leaves to the viewer, would not).
  await page.check(id('emu-offer-pip'));
  await waitUntil(async () => (await page.locator(id('pg-host-select')).inputValue()) === '', 'the picker to say custom');
});

/**
 * One bridge message of the debug panel as sent (raw JSON). Every step is scoped to that
 * message's own row, so a message arriving meanwhile cannot make the toggles open another.
 */
async function rawOf(row) {
  if (!(await row.locator(id('debug-message-raw-toggle')).count())) await row.locator('button.debug-message-head').click();
  if (!(await row.locator(id('debug-message-raw')).count())) await row.locator(id('debug-message-raw-toggle')).click();
  return JSON.parse(await row.locator(id('debug-message-raw')).innerText());
}

/** The host's answers to the app (`toApp` responses), oldest first, as a stable locator list. */
async function answerRows() {
  const { page } = app;
  await page.click(id('debug-tab-messages'));
  await page.fill(id('debug-messages-filter'), 'response');
  return page.locator(`${id('debug-message')}[data-dir="toApp"]`);
}

/** The first host → app answer on the bridge (the ui/initialize result), as sent. */
async function initializeAnswer() {
  return rawOf((await answerRows()).first());
}

/** The newest error the host answered the app with (among its last five answers), or null. */
async function errorAnswered() {
  const rows = await answerRows();
  const n = await rows.count();
  for (let i = n - 1; i >= Math.max(0, n - 5); i--) {
    const answer = await rawOf(rows.nth(i));
    if (answer.error) return answer;
  }
  return null;
}

test('an app is told exactly the profile host capabilities, and a refused open-link opens nothing', async () => {
  const { page } = app;
  const windows = [];
  page.on('popup', (p) => windows.push(p.url()));
  page.context().on('page', (p) => windows.push(p.url()));
  const appFrame = () => page.frameLocator(id('app-iframe')).frameLocator('iframe');
  await page.click(id('nav-playground'));
  await page.waitForSelector(id('pg-host-select'));
  // At 100 % the app's buttons are where the page says they are (no zoom transform).
  await page.selectOption(id('pg-zoom'), '1');
  await renderAs('mcplab');
  const own = await initializeAnswer();
  assert.deepEqual(Object.keys(own.result.hostCapabilities).sort(), ['downloadFile', 'logging', 'message', 'openLinks', 'sandbox', 'serverResources', 'serverTools', 'updateModelContext']);
  // mcplab serves links: the app's request reaches the person (who says no here).
  await appFrame().locator('#open-link:not([disabled])').click();
  await page.waitForSelector(id('app-confirm'));
  await page.click(id('app-confirm-cancel'));

  await renderAs('nolinks');
  const told = await initializeAnswer();
  const caps = told.result.hostCapabilities;
  assert.equal(caps.openLinks, undefined, JSON.stringify(caps));
  assert.equal(caps.downloadFile, undefined, JSON.stringify(caps));
  assert.deepEqual(caps.serverTools, { listChanged: true });
  await appFrame().locator('#open-link:not([disabled])').click();
  const refused = await waitUntil(() => errorAnswered(), 'the host to answer ui/open-link with an error');
  assert.equal(refused.error.code, -32000);
  assert.match(refused.error.message, /openLinks/);
  assert.match(await page.locator(id('app-notice')).innerText(), /ui\/open-link.*refused/);
  assert.equal(await page.locator(id('app-confirm')).count(), 0, 'nobody was asked to open it');
  assert.deepEqual(windows, [], 'no window was opened');
});

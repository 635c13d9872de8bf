// Browser test of the playground's host picker (issue 18): the demo counter app is rendered as
// mcplab and then as a person's own profile (a file in the data directory's hosts/), and the
// host context the app itself received (its #host-context, merged from ui/initialize and every
// host-context-changed) follows each profile's app host: platform, device capabilities and the
// display modes offered.
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
  // A hand change to what the profile decides makes the emulation custom (the locale, which
  // this profile leaves to the viewer, would not).
  await page.check(id('emu-offer-pip'));
  await waitUntil(async () => (await page.locator(id('pg-host-select')).inputValue()) === '', 'the picker to say custom');
});

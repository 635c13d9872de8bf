// Browser tests of the app playground: run a tool's app directly, change every emulation
// control and check the app was told (the demo counter app shows the host context it got,
// merged from ui/initialize and every host-context-changed), display-mode requests honoured
// and refused, CSP violations listed (and gone in permissive mode), scenarios saved and
// reopened, and a screenshot rendered headless.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { waitConnected } from './ui_helpers.js';
import { startMcplab, openApp, shot } from './harness.js';

let mcplab;
let app;
let probe;
const id = (name) => `[data-testid="${name}"]`;

before(async () => {
  probe = await new Promise((resolve) => {
    const hits = [];
    const server = http.createServer((req, res) => {
      hits.push(req.url);
      res.writeHead(200, { 'access-control-allow-origin': '*' });
      res.end('ok');
    });
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}`, hits, close: () => server.close() }));
  });
  mcplab = await startMcplab();
  app = await openApp(mcplab);
  await waitConnected(mcplab, ['demo']);
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
  probe?.close();
});

const doc = () => app.page.frameLocator(id('app-iframe')).frameLocator('iframe');

/** The host context the counter app says it was told. */
async function told() {
  return JSON.parse(await doc().locator('#host-context').innerText());
}

/** Waits until what the app was told satisfies `check`. */
async function waitTold(check, what) {
  for (let i = 0; i < 100; i++) {
    const ctx = await told().catch(() => null);
    if (ctx && check(ctx)) return ctx;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the app was never told ${what}: ${JSON.stringify(await told().catch(() => null))}`);
}

async function runTool(tool, args = {}) {
  const { page } = app;
  await page.selectOption(id('pg-tool'), tool);
  for (const [k, v] of Object.entries(args)) await page.fill(`${id('pg-form')} #root_${k}`, String(v));
  await page.click(id('pg-run'));
  await page.waitForSelector(`${id('app-frame')}[data-status="ready"]`, { timeout: 20000 });
}

test('every emulation control reaches the app live, without a reload', async () => {
  const { page } = app;
  await page.click(id('nav-playground'));
  await page.waitForSelector(id('pg-tool'));
  await page.selectOption(id('emu-device'), 'mobile');
  await runTool('show_counter_app');
  let ctx = await waitTold((c) => c.platform === 'mobile', 'the mobile platform');
  assert.equal(ctx.deviceType, 'mobile');
  assert.deepEqual(ctx.deviceCapabilities, { touch: true, hover: false });
  assert.equal(ctx.containerDimensions.width, 430);
  const changes = () => doc().locator('#context-changes').innerText().then(Number);
  const before = await changes();

  await page.selectOption(id('emu-device'), 'tablet');
  await waitTold((c) => c.deviceType === 'tablet' && c.containerDimensions.width === 820, 'the tablet size');
  await page.click(id('emu-rotate'));
  await waitTold((c) => c.containerDimensions.width === 1180 && c.containerDimensions.maxHeight === 820, 'the rotated size');
  await page.selectOption(id('emu-device'), 'desktop');
  await waitTold((c) => c.platform === 'web' && c.deviceCapabilities.hover === true && c.deviceCapabilities.touch === false, 'the desktop');

  await page.selectOption(id('emu-theme'), 'dark');
  await waitTold((c) => c.theme === 'dark' && c.styles.variables['--color-background-primary'] === '#16181d', 'the dark theme');
  assert.equal(await doc().locator('html').getAttribute('data-theme'), 'dark');

  await page.selectOption(id('emu-locale'), 'ar-SA');
  await waitTold((c) => c.locale === 'ar-SA', 'ar-SA');
  assert.equal(await doc().locator('html').getAttribute('dir'), 'rtl');
  await page.selectOption(id('emu-locale'), 'ja-JP');
  await waitTold((c) => c.locale === 'ja-JP', 'ja-JP');
  await page.selectOption(id('emu-timezone'), 'Asia/Tokyo');
  await waitTold((c) => c.timeZone === 'Asia/Tokyo', 'the time zone');

  await page.uncheck(id('emu-hover'));
  await page.check(id('emu-touch'));
  await waitTold((c) => c.deviceCapabilities.hover === false && c.deviceCapabilities.touch === true, 'touch without hover');

  await page.selectOption(id('emu-safe-area'), 'notch');
  await waitTold((c) => c.safeAreaInsets.top === 44 && c.safeAreaInsets.bottom === 34, 'the notch insets');
  await page.fill(id('emu-inset-left'), '12');
  await waitTold((c) => c.safeAreaInsets.left === 12, 'a custom inset');

  await page.fill(id('emu-max-height'), '500');
  await waitTold((c) => c.containerDimensions.maxHeight === 500, 'the max height');

  await page.click('.emu-styles summary');
  await page.fill(id('emu-styles'), '{"--color-background-primary": "#fffbe6"}');
  await waitTold((c) => c.styles.variables['--color-background-primary'] === '#fffbe6', 'a style variable');

  await page.selectOption(id('emu-display-mode'), 'fullscreen');
  await waitTold((c) => c.displayMode === 'fullscreen', 'fullscreen');
  await page.selectOption(id('emu-display-mode'), 'inline');
  await waitTold((c) => c.displayMode === 'inline', 'inline');

  assert.ok((await changes()) > before + 10, 'each change arrived as host-context-changed');
  assert.equal(await page.locator(`${id('app-frame')}[data-status="ready"]`).count(), 1, 'the app was never reloaded');
  await page.click(id('debug-tab-host'));
  await shot(page, '60-playground-emulation');
});

/** Clicks inside the app need the device at 100 %: Playwright maps a click into nested
 * cross-origin frames without the stage's CSS scale (a person's pointer is hit-tested by the
 * browser and needs nothing). */
async function actualSize() {
  await app.page.selectOption(id('pg-zoom'), '1');
  await app.page.waitForSelector(`${id('pg-zoom-box')}[data-scale="1"]`);
}

test('display mode requests are honoured when offered and refused when not', async () => {
  const { page } = app;
  await actualSize();
  await doc().locator('#pip').click();
  await doc().locator('#display-mode-answer').filter({ hasText: 'pip' }).waitFor();
  await waitTold((c) => c.displayMode === 'pip', 'pip');
  await doc().locator('#inline').click();
  await waitTold((c) => c.displayMode === 'inline', 'inline again');
  // The host stops offering picture-in-picture: the request is answered with the mode in effect.
  await page.uncheck(id('emu-offer-pip'));
  await waitTold((c) => !c.availableDisplayModes.includes('pip'), 'pip no longer offered');
  await doc().locator('#pip').click();
  await doc().locator('#display-mode-answer').filter({ hasText: 'inline' }).waitFor();
  assert.equal(await page.locator(id('app-frame')).getAttribute('data-display-mode'), 'inline');
  await page.check(id('emu-offer-pip'));
  // The debug panel shows the exchange with its timing.
  await page.click(id('debug-tab-messages'));
  await page.fill(id('debug-messages-filter'), 'request-display-mode');
  assert.ok((await page.locator(id('debug-message')).count()) >= 3);
  await page.fill(id('debug-messages-filter'), '');
});

test('a scenario is saved in SQLite and reopens input and emulation', async () => {
  const { page } = app;
  await page.selectOption(id('emu-theme'), 'dark');
  await page.selectOption(id('emu-locale'), 'de-DE');
  await page.fill(id('pg-scenario-name'), 'dark de-DE');
  await page.click(id('pg-scenario-save'));
  await page.waitForSelector(`${id('pg-scenario')}[data-name="dark de-DE"]`);
  const stored = await mcplab.api('GET', '/api/app-scenarios');
  assert.equal(stored.body.length, 1);
  assert.equal(stored.body[0].conditions.conditions.locale, 'de-DE');

  await page.selectOption(id('emu-theme'), 'light');
  await page.selectOption(id('emu-locale'), 'en-US');
  await page.click(`${id('pg-scenario')}[data-name="dark de-DE"] ${id('pg-scenario-load')}`);
  await page.waitForSelector(`${id('app-frame')}[data-status="ready"]`, { timeout: 20000 });
  await waitTold((c) => c.theme === 'dark' && c.locale === 'de-DE', 'the scenario conditions');
  assert.equal(await page.locator(id('emu-locale')).inputValue(), 'de-DE');
});

test('CSP violations are listed; permissive mode is labelled and lifts them', async () => {
  const { page } = app;
  await runTool('show_csp_breaker', { probeUrl: probe.url });
  await page.click(id('debug-tab-problems'));
  await page.waitForSelector(`${id('debug-violation')}[data-directive="connect-src"]`, { timeout: 20000 });
  assert.deepEqual(probe.hits, []);
  await page.selectOption(id('emu-csp'), 'permissive');
  await page.waitForSelector(id('pg-csp-permissive'));
  await page.click(id('pg-run'));
  await page.waitForSelector(`${id('app-frame')}[data-status="ready"]`, { timeout: 20000 });
  await doc().locator('#fetch-outcome').filter({ hasText: 'resolved' }).waitFor({ timeout: 10000 });
  assert.ok(probe.hits.length > 0, 'permissive mode let the app reach the origin');
  assert.equal(await page.locator(id('debug-violation')).count(), 0);
  await page.selectOption(id('emu-csp'), 'declared');
});

test('the screenshot button saves a PNG of the app at the device width', async () => {
  const { page } = app;
  await page.selectOption(id('emu-device'), 'mobile');
  await runTool('show_counter_app');
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60000 }), page.click(id('pg-screenshot'))]);
  const path = await download.path();
  const { readFileSync } = await import('node:fs');
  const png = readFileSync(path);
  assert.equal(png.subarray(1, 4).toString(), 'PNG');
  assert.equal(png.readUInt32BE(16), 430, 'PNG width');
  assert.ok(png.readUInt32BE(20) > 50 && png.readUInt32BE(20) <= 932, 'PNG height');
});

test('a window.openai widget gets openai:set_globals for each emulation change', async () => {
  const { page } = app;
  await page.selectOption(id('emu-theme'), 'light');
  await runTool('show_openai_widget', { topic: 'emulation' });
  const widget = doc();
  await widget.locator('#g-toolOutput').filter({ hasText: 'alpha' }).waitFor();
  const events = async () => Number(await widget.locator('#globals-events').innerText());
  const before = await events();
  await page.selectOption(id('emu-theme'), 'dark');
  await widget.locator('#g-theme').filter({ hasText: 'dark' }).waitFor();
  await page.selectOption(id('emu-locale'), 'fr-FR');
  await widget.locator('#g-locale').filter({ hasText: 'fr-FR' }).waitFor();
  await page.fill(id('emu-max-height'), '420');
  await widget.locator('#g-maxHeight').filter({ hasText: '420' }).waitFor();
  await page.selectOption(id('emu-safe-area'), 'android-gesture');
  await widget.locator('#g-safeArea').filter({ hasText: '48' }).waitFor();
  await page.selectOption(id('emu-device'), 'tablet');
  await widget.locator('#g-userAgent').filter({ hasText: 'tablet' }).waitFor();
  assert.ok((await events()) >= before + 5, 'one openai:set_globals per change at least');
  // Widget state shows in its panel with the time it changed.
  await actualSize();
  await widget.locator('#set-state').click();
  await page.click(id('debug-tab-state'));
  await page.waitForSelector(id('debug-widget-state-at'));
  assert.match(await page.locator(id('debug-state')).innerText(), /clicks/);
});

test('the running app, its state and its bridge log are still there after a visit to another page', async () => {
  const { page } = app;
  await runTool('show_counter_app');
  await doc().locator('#increment').click();
  await doc().locator('#status').filter({ hasText: 'Incremented' }).waitFor();
  const count = await doc().locator('#count').innerText();
  // Marks this very iframe: a page that was rebuilt would have a new one, and a new app.
  await page.$eval(id('app-iframe'), (el) => {
    el.dataset.kept = 'yes';
  });
  await page.evaluate(() => {
    window.location.hash = '#/tools';
  });
  await page.waitForSelector(id('tools-page'));
  assert.equal(await page.locator(id('playground-page')).isVisible(), false);
  await page.evaluate(() => {
    window.location.hash = '#/playground';
  });
  await page.waitForSelector(`${id('app-iframe')}[data-kept="yes"]`, { state: 'visible' });
  assert.equal(await doc().locator('#count').innerText(), count);
  assert.match(await doc().locator('#status').innerText(), /Incremented/);
  // The URL names what is shown: server, tool, device and theme.
  await page.waitForFunction(() => /^#\/playground\/demo\/show_counter_app\/device%3D\w+\/theme%3D(light|dark)/.test(window.location.hash));
});

test('a playground URL opens that tool on that device in that theme, running nothing', async () => {
  const { page } = app;
  await page.evaluate(() => {
    window.location.hash = '#/tools';
  });
  await page.waitForSelector(id('tools-page'));
  await page.evaluate(() => {
    window.location.hash = '#/playground/demo/show_probe_app/device%3Ddesktop/theme%3Ddark';
  });
  await page.waitForFunction((sel) => document.querySelector(sel)?.value === 'show_probe_app', id('pg-tool'));
  await page.waitForFunction((sel) => document.querySelector(sel)?.value === 'desktop', id('emu-device'));
  assert.equal(await page.locator(id('emu-theme')).inputValue(), 'dark');
  assert.match(await page.evaluate(() => window.location.hash), /device%3Ddesktop\/theme%3Ddark/);
});

test('a tool with an app opens in the Playground from the Tools page; a tool without one offers no link', async () => {
  const { page } = app;
  await page.evaluate(() => {
    window.location.hash = '#/tools/demo/echo';
  });
  await page.waitForSelector(id('tool-detail'));
  assert.equal(await page.locator(id('tool-open-playground')).count(), 0, 'echo has no app');
  await page.evaluate(() => {
    window.location.hash = '#/tools/demo/show_counter_app';
  });
  await page.click(id('tool-open-playground'));
  await page.waitForFunction((sel) => document.querySelector(sel)?.value === 'show_counter_app', id('pg-tool'));
  assert.match(await page.evaluate(() => window.location.hash), /^#\/playground\/demo\/show_counter_app/);
});

test('a playground URL naming a host profile, device and theme applies them on a fresh load and on reload', async () => {
  const { page } = app;
  const hosts = (await mcplab.api('GET', '/api/hosts')).body;
  // A profile whose device differs from the one left by the test above (desktop, dark).
  const host = hosts.find((h) => h.hostConfig.appHost.device === 'mobile') ?? hosts[0];
  const device = host.hostConfig.appHost.device;
  const theme = host.hostConfig.appHost.theme === 'dark' ? 'dark' : 'light';
  const hash = `#/playground/demo/show_counter_app/device%3D${device}/theme%3D${theme}/host%3D${encodeURIComponent(host.name)}`;
  const applied = async (when) => {
    await page.waitForFunction(([sel, v]) => document.querySelector(sel)?.value === v, [id('pg-host-select'), host.name], { timeout: 15000 });
    assert.equal(await page.locator(id('emu-device')).inputValue(), device, `${when}: device`);
    assert.equal(await page.locator(id('emu-theme')).inputValue(), theme, `${when}: theme`);
    assert.equal(await page.evaluate(() => window.location.hash), hash, `${when}: the URL is kept as it was`);
  };
  await page.goto('about:blank');
  await page.goto(mcplab.base + '/' + hash);
  await applied('fresh load');
  await page.reload();
  await applied('reload');
});

test('the Apps page (in the navigation, linked from the Playground) lists every app tool as a card, filters them by text, and a card opens its tool in the Playground', async () => {
  const { page } = app;
  const { tools } = (await mcplab.api('GET', '/api/servers/demo/tools')).body;
  const hasApp = (t) => t._meta?.ui?.resourceUri || t._meta?.['ui/resourceUri'] || t._meta?.['openai/outputTemplate'];
  const expected = tools.filter(hasApp).map((t) => `app-card-demo-${t.name}`).sort();
  assert.ok(expected.length >= 3, `the demo has app tools: ${expected}`);
  await page.evaluate(() => {
    window.location.hash = '#/tools';
  });
  await page.waitForSelector(id('tools-page'));
  await page.click(id('nav-apps'));
  await page.waitForSelector(id('app-card-demo-show_counter_app'));
  // The Playground links to it too.
  await page.evaluate(() => {
    window.location.hash = '#/playground';
  });
  await page.click(id('pg-all-apps'));
  await page.waitForSelector(id('app-card-demo-show_counter_app'));
  const cards = () => page.$$eval('.app-card', (cs) => cs.map((c) => c.dataset.testid).sort());
  assert.deepEqual(await cards(), expected, 'exactly the tools with a UI resource');
  const widget = page.locator(id('app-card-demo-show_openai_widget'));
  assert.match(await widget.innerText(), /OpenAI Apps SDK/);
  assert.match(await page.locator(id('app-card-demo-show_counter_app')).innerText(), /MCP App[\s\S]*ui:\/\//);
  await page.fill(id('apps-filter'), 'openai');
  await page.waitForFunction(() => document.querySelectorAll('.app-card').length === 1);
  assert.deepEqual(await cards(), ['app-card-demo-show_openai_widget']);
  await page.fill(id('apps-filter'), 'no such app');
  await page.waitForSelector(id('apps-no-match'));
  await page.fill(id('apps-filter'), '');
  await page.waitForSelector(id('app-card-demo-show_counter_app'));
  await shot(page, 'playground-apps-overview');
  await page.click(id('app-card-demo-show_counter_app'));
  await page.waitForFunction((sel) => document.querySelector(sel)?.value === 'show_counter_app', id('pg-tool'));
  assert.match(await page.evaluate(() => window.location.hash), /^#\/playground\/demo\/show_counter_app/);
});

// The playground's emulation is pixel-honest: the live preview and `mcplab apps render` of the
// same spec agree on what the app itself reports (the demo's environment app measures its own
// document: innerWidth/innerHeight, `matchMedia('(prefers-color-scheme: dark)')`, its computed
// background, direction and language, the browser locale and time zone) and on the pixels (the PNG's and the live frame's
// background colour). The browser here has no colour-scheme emulation of its own (as a
// person's browser: the system says light), so only the playground can make the app dark.
// Also: the device's bezel lies outside the emulated screen, large devices are scaled to fit
// with the app still at its emulated size, and host dialogs keep the host's direction.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bin, openApp, shot, startMcplab } from './harness.js';
import { id, waitConnected, waitUntil } from './ui_helpers.js';

let mcplab;
let app;
const scratch = mkdtempSync(path.join(tmpdir(), 'mcplab-honest-'));

before(async () => {
  mcplab = await startMcplab();
  // `null`: no emulated colour scheme, the browser's own (light) preference applies.
  app = await openApp(mcplab, { colorScheme: null });
  await waitConnected(mcplab, ['demo']);
  await app.page.click(id('nav-playground'));
  await app.page.waitForSelector(id('pg-tool'));
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const doc = () => app.page.frameLocator(id('app-iframe')).frameLocator('iframe');

/** What the environment app reports of itself in the live playground, once it is stable: the
 * frame has taken the height the app asked for and two readings agree. */
async function liveEnv() {
  let previous = null;
  return waitUntil(async () => {
    const env = JSON.parse(await doc().locator('#env').textContent());
    const frameHeight = await app.page.locator(id('app-iframe')).evaluate((el) => el.clientHeight);
    const same = previous !== null && JSON.stringify(previous) === JSON.stringify(env);
    previous = env;
    return same && env.hostTheme && env.innerHeight === frameHeight ? env : null;
  }, 'the environment app to report a stable environment');
}

/** `mcplab apps render` of the demo's environment app; resolves with its report and PNG path. */
async function renderHeadless(args) {
  const dir = mkdtempSync(path.join(scratch, 'render-'));
  const out = path.join(dir, 'env.png');
  const child = spawn(bin, ['apps', 'render', '--demo', '--tool', 'show_env_app', '--timeout', '60', '--data-dir', dir, '--out', out, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  assert.equal(code, 0, `apps render failed:\n${stderr}`);
  const report = JSON.parse(readFileSync(`${out}.json`, 'utf8'));
  return { report, png: out };
}

/** The last environment the app logged in a headless report. */
function reportedEnv(report) {
  const logs = (report.appLogs ?? []).filter((l) => l.logger === 'env-app');
  assert.ok(logs.length > 0, `the headless app logged no environment: ${JSON.stringify(report).slice(0, 400)}`);
  return logs[logs.length - 1].data;
}

/** Size and one pixel's colour of a PNG, decoded by the browser. */
async function pngPixel(bytes, x, y) {
  const dataUrl = `data:image/png;base64,${bytes.toString('base64')}`;
  const page = await app.context.newPage();
  try {
    return await page.evaluate(
      async ({ dataUrl, x, y }) => {
        const img = new Image();
        img.src = dataUrl;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.width;
        c.height = img.height;
        const g = c.getContext('2d');
        g.drawImage(img, 0, 0);
        const [r, gr, b] = g.getImageData(x, y, 1, 1).data;
        return { width: img.width, height: img.height, rgb: `rgb(${r}, ${gr}, ${b})` };
      },
      { dataUrl, x, y },
    );
  } finally {
    await page.close();
  }
}

async function emulate({ device, theme, locale, timeZone }) {
  const { page } = app;
  await page.selectOption(id('emu-device'), device);
  await page.selectOption(id('emu-theme'), theme);
  await page.selectOption(id('emu-locale'), locale);
  await page.selectOption(id('emu-timezone'), timeZone);
  await page.selectOption(id('pg-zoom'), '1');
}

async function runEnvApp() {
  const { page } = app;
  await page.selectOption(id('pg-tool'), 'show_env_app');
  await page.click(id('pg-run'));
  await page.waitForSelector(`${id('app-frame')}[data-status="ready"]`, { timeout: 20000 });
}

test('the live preview and the headless PNG agree: viewport, colour scheme, background, locale, direction', async () => {
  await emulate({ device: 'mobile', theme: 'dark', locale: 'ar-SA', timeZone: 'Asia/Tokyo' });
  await runEnvApp();
  const live = await liveEnv();
  const { report, png } = await renderHeadless(['--device', 'mobile', '--theme', 'dark', '--locale', 'ar-SA', '--timezone', 'Asia/Tokyo']);
  const headless = reportedEnv(report);

  // The app's viewport is the emulated width, in both.
  assert.equal(live.innerWidth, 430, `live innerWidth ${JSON.stringify(live)}`);
  const keys = ['innerWidth', 'innerHeight', 'prefersDark', 'background', 'dir', 'lang', 'language', 'timeZone', 'hostTheme', 'hostLocale'];
  const pick = (e) => Object.fromEntries(keys.map((k) => [k, e[k]]));
  assert.deepEqual(pick(live), pick(headless), 'what the app reports live and headless');
  assert.equal(live.prefersDark, true, 'the app prefers the emulated dark scheme although the browser prefers light');
  // …and it has the emulated locale and time zone, not the browser's (en-US, the machine's).
  assert.deepEqual([live.language, live.timeZone, live.dir], ['ar-SA', 'Asia/Tokyo', 'rtl']);

  // The pixels agree too: the PNG is the app's viewport, painted in the app's background.
  const headlessPixel = await pngPixel(readFileSync(png), 4, 4);
  assert.deepEqual([headlessPixel.width, headlessPixel.height], [live.innerWidth, live.innerHeight], 'PNG size = the app viewport');
  assert.equal(headlessPixel.rgb, live.background, 'PNG background = the app background');
  const livePixel = await pngPixel(await app.page.locator(id('app-iframe')).screenshot(), 4, 4);
  assert.equal(livePixel.rgb, headlessPixel.rgb, 'live frame pixels = PNG pixels');
  await shot(app.page, '63-playground-honest-dark-rtl');
});

test('switching the emulated theme live changes what the app prefers, without a reload', async () => {
  const { page } = app;
  await page.selectOption(id('emu-theme'), 'light');
  await waitUntil(async () => {
    const env = JSON.parse(await doc().locator('#env').textContent());
    return env.prefersDark === false && env.background === 'rgb(255, 255, 255)';
  }, 'the app to prefer light');
  await page.selectOption(id('emu-theme'), 'dark');
  await waitUntil(async () => JSON.parse(await doc().locator('#env').textContent()).prefersDark === true, 'the app to prefer dark again');
  assert.equal(await page.locator(`${id('app-frame')}[data-status="ready"]`).count(), 1);
});

test('the bezel is outside the screen; a large device is scaled to fit and the app keeps its size', async () => {
  const { page } = app;
  await page.selectOption(id('pg-zoom'), 'fit');
  await page.selectOption(id('emu-device'), 'desktop');
  const box = await waitUntil(async () => {
    const b = await page.locator(id('pg-zoom-box')).evaluate((el) => ({ scale: Number(el.dataset.scale), rect: el.getBoundingClientRect().toJSON() }));
    return b.scale < 1 ? b : null;
  }, 'the desktop device to be scaled down');
  const stage = await page.locator(id('pg-stage')).evaluate((el) => el.getBoundingClientRect().toJSON());
  assert.ok(box.rect.right <= stage.right + 0.5 && box.rect.bottom <= stage.bottom + 0.5, `the device fits the stage: ${JSON.stringify({ box, stage })}`);
  // The screen is exactly the emulated size before scaling, the app as wide as the screen.
  const screen = await page.locator(id('pg-screen')).evaluate((el) => ({ w: el.offsetWidth, h: el.offsetHeight }));
  assert.deepEqual(screen, { w: 1280, h: 800 });
  const env = await waitUntil(async () => {
    const e = JSON.parse(await doc().locator('#env').textContent());
    return e.innerWidth === 1280 ? e : null;
  }, 'the app to be 1280 px wide while scaled');
  assert.equal(env.innerWidth, 1280);
  await page.selectOption(id('pg-zoom'), '2');
  await page.waitForSelector(`${id('pg-zoom-box')}[data-scale="2"]`);
  assert.equal(JSON.parse(await doc().locator('#env').textContent()).innerWidth, 1280, 'zoom does not change the app viewport');
  await page.selectOption(id('pg-zoom'), 'fit');
  await shot(page, '64-playground-desktop-fit');
});

test('host dialogs keep the host direction under an RTL locale', async () => {
  const { page } = app;
  await page.selectOption(id('pg-zoom'), '1');
  await page.selectOption(id('emu-device'), 'mobile');
  await page.selectOption(id('emu-locale'), 'ar-SA');
  await page.selectOption(id('pg-tool'), 'show_counter_app');
  await page.click(id('pg-run'));
  await page.waitForSelector(`${id('app-frame')}[data-status="ready"]`, { timeout: 20000 });
  await page.frameLocator(id('app-iframe')).frameLocator('iframe').locator('#open-link').click();
  const dialog = page.locator(id('app-confirm'));
  await dialog.waitFor();
  assert.equal(await dialog.evaluate((el) => getComputedStyle(el).direction), 'ltr');
  assert.equal(await dialog.evaluate((el) => el.closest('[data-testid="pg-device"]') === null), true, 'the dialog is outside the emulated device');
  assert.equal(await page.locator(id('app-confirm-detail')).innerText(), 'https://modelcontextprotocol.io/');
  await shot(page, '65-playground-rtl-host-dialog');
  await page.click(id('app-confirm-cancel'));
});

// Dev helper: drives the UI in headless Chromium against a running mcplab and saves
// screenshots. Usage: node scripts/shots.mjs <auth-url> <out-dir>
import { chromium } from 'playwright-core';

const [authUrl, out = '/tmp/shots'] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: process.env.SCHEME || 'light' });
const page = await ctx.newPage();
const logs = [];
page.on('console', (m) => logs.push(`[${m.type()}] ${m.text()}`));
page.on('pageerror', (e) => logs.push(`[pageerror] ${e.message}`));
await page.goto(authUrl);
await page.waitForTimeout(1500);
const shot = async (name) => {
  await page.screenshot({ path: `${out}/${name}.png` });
  console.log('shot', name);
};
const steps = (process.env.STEPS || 'servers').split(',');
for (const step of steps) {
  try {
    const mod = await import(`./steps/${step}.mjs`);
    await mod.default(page, shot);
  } catch (e) {
    console.log('step failed', step, e.message);
    await shot(`fail-${step}`);
  }
}
console.log(logs.join('\n'));
await browser.close();

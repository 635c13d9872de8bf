export default async function (page, shot) {
  await page.click('[data-testid=nav-resources]');
  await page.waitForSelector('[data-testid^=resource-item-]');
  await page.locator('[data-testid^=resource-item-]').first().click();
  await page.waitForSelector('[data-testid=resource-content]');
  await shot('resources');
  const tpl = page.locator('[data-testid^=template-item-]');
  if (await tpl.count()) {
    await tpl.first().click();
    await page.waitForTimeout(300);
    const inp = page.locator('[data-testid^=template-arg-]').first();
    await inp.fill('');
    await page.waitForTimeout(800);
    await shot('resources-template');
  }
  await page.click('[data-testid=nav-prompts]');
  await page.waitForSelector('[data-testid^=prompt-item-]');
  await page.locator('[data-testid^=prompt-item-]').first().click();
  await page.waitForTimeout(300);
  const args = page.locator('[data-testid^=prompt-arg-]');
  for (let i = 0; i < (await args.count()); i++) {
    const el = args.nth(i);
    if ((await el.evaluate((e) => e.tagName)) === 'INPUT') await el.fill('Ada');
  }
  await page.waitForTimeout(600);
  await shot('prompts-args');
  await page.click('[data-testid=prompt-get]');
  await page.waitForSelector('[data-testid=prompt-messages]');
  await shot('prompts');
  await page.click('[data-testid=nav-logs]');
  await page.waitForTimeout(500);
  await shot('logs');
  await page.click('[data-testid=nav-settings]');
  await page.waitForTimeout(500);
  await shot('settings');
  await page.click('[data-testid=theme-toggle]');
  await page.click('[data-testid=theme-toggle]');
  await page.click('[data-testid=nav-tools]');
  await page.waitForTimeout(500);
  await page.locator('[data-testid=traffic-row]').nth(3).click();
  await page.waitForTimeout(300);
  await shot('dark-tools');
}

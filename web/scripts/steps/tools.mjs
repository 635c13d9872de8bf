export default async function (page, shot) {
  await page.click('[data-testid=nav-tools]');
  await page.waitForSelector('[data-testid^=tool-item-]');
  await shot('tools-list');
  await page.click('[data-testid=tool-item-create_order]');
  await page.waitForTimeout(300);
  await shot('tools-create-order');
  await page.click('[data-testid=tool-call]');
  await page.waitForTimeout(300);
  await shot('tools-create-order-invalid');
  await page.click('[data-testid=tool-item-echo]');
  await page.waitForTimeout(300);
  const input = page.locator('#root_message');
  await input.fill('hello **world**');
  await page.click('[data-testid=tool-call]');
  await page.waitForSelector('[data-testid=tool-result]');
  await shot('tools-echo-result');
  await page.click('[data-testid=tool-item-slow_task]');
  await page.waitForTimeout(300);
  await page.click('[data-testid=tool-call]');
  await page.waitForTimeout(1200);
  await shot('tools-slow-progress');
  if (await page.locator('[data-testid=tool-cancel]').count()) await page.click('[data-testid=tool-cancel]');
  await page.waitForSelector('[data-testid=tool-result]', { timeout: 15000 });
  await shot('tools-slow-cancelled');
}

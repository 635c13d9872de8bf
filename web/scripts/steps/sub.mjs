export default async function (page, shot) {
  await page.click('[data-testid=nav-resources]');
  await page.selectOption('[data-testid=server-selector]', 'demo');
  await page.click('[data-testid="resource-item-demo://counter"]');
  await page.waitForSelector('[data-testid=resource-content]');
  await page.click('[data-testid=resource-subscribe]');
  await page.waitForTimeout(500);
  await page.click('[data-testid=nav-tools]');
  await page.click('[data-testid=tool-item-bump_counter]');
  await page.waitForTimeout(300);
  await page.click('[data-testid=tool-call]');
  await page.waitForSelector('[data-testid=tool-result]');
  await page.click('[data-testid=nav-resources]');
  await page.click('[data-testid="resource-item-demo://counter"]');
  await page.waitForSelector('[data-testid=resource-content]');
  await page.click('[data-testid=nav-tools]');
  await page.click('[data-testid=tool-item-bump_counter]');
  await page.click('[data-testid=tool-call]');
  await page.click('[data-testid=nav-resources]');
  await page.click('[data-testid="resource-item-demo://counter"]');
  await page.waitForTimeout(800);
  await shot('subscribed');
}

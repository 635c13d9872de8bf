export default async function (page, shot) {
  await page.click('[data-testid=nav-tools]');
  await page.selectOption('[data-testid=server-selector]', 'demo');
  await page.click('[data-testid=tool-item-slow_task]');
  await page.fill('#root_steps', '20');
  await page.click('[data-testid=tool-call]');
  await page.waitForTimeout(1500);
  await shot('progress');
  await page.click('[data-testid=tool-cancel]');
  await page.waitForSelector('[data-testid=tool-result]');
  await shot('cancelled');
  await page.click('[data-testid=tool-form-raw-toggle]');
  await page.fill('[data-testid=tool-form-raw]', '{"steps": "x"}');
  await page.click('[data-testid=tool-call]');
  await page.waitForTimeout(300);
  await shot('raw-invalid');
}

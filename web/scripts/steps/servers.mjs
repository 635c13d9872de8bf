export default async function (page, shot) {
  await page.click('[data-testid=nav-servers]');
  await page.waitForTimeout(500);
  await shot('servers');
}

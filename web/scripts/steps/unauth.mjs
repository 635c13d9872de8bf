export default async function (page, shot) {
  await page.context().clearCookies();
  await page.goto(page.url().split('#')[0]);
  await page.waitForTimeout(1500);
  await shot('unauthorized');
}

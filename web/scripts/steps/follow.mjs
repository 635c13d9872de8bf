export default async function (page) {
  await page.click('[data-testid=nav-tools]');
  await page.waitForTimeout(800);
  const gap = () => page.$eval('[data-testid=traffic-list]', (el) => el.scrollHeight - el.scrollTop - el.clientHeight);
  console.log('gap at start', await gap());
  await page.click('[data-testid=tool-item-echo]');
  await page.fill('#root_message', 'x');
  await page.click('[data-testid=tool-call]');
  await page.waitForTimeout(800);
  console.log('gap after call', await gap());
}

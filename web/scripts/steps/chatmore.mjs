// More chat: a tool that reports isError, an elicitation during a chat tool call, the step
// limit, rename, reload (history from the store), settings, and Settings → Model providers.
const send = async (page, text) => {
  await page.fill('[data-testid=chat-input]', text);
  await page.click('[data-testid=chat-send]');
};
const lastTurnDone = (page) =>
  page.waitForFunction(() => {
    const turns = document.querySelectorAll('.chat-turn');
    const t = turns[turns.length - 1];
    return t && t.getAttribute('data-status') !== 'running';
  }, null, { timeout: 30000 });

export default async function (page, shot) {
  await page.click('[data-testid=nav-chat]');
  await page.click('[data-testid=chat-new]');
  await page.waitForSelector('[data-testid=chat-input]');
  await send(page, 'use fail {}');
  await lastTurnDone(page);
  await shot('chatmore-tool-iserror');

  await send(page, 'use elicit_form {}');
  await page.waitForSelector('[data-testid=tool-card-waiting]', { timeout: 10000 });
  await page.waitForSelector('[data-testid=elicitation-dialog]');
  await shot('chatmore-elicit-dialog');
  await page.click('[data-testid=elicitation-cancel]');
  await lastTurnDone(page);
  await shot('chatmore-elicit-done');

  await page.click('summary:has-text("System prompt")');
  await page.fill('[data-testid=chat-step-limit]', '2');
  await page.press('[data-testid=chat-step-limit]', 'Tab');
  await page.waitForTimeout(300);
  await send(page, 'loop use echo {"message":"again"}');
  await lastTurnDone(page);
  await shot('chatmore-step-limit');

  const id = await page.getAttribute('[data-testid=chat-session]', 'data-session-id');
  await page.click(`[data-testid=session-rename-${id}]`);
  await page.fill(`[data-testid=session-rename-input-${id}]`, 'Renamed chat');
  await page.press(`[data-testid=session-rename-input-${id}]`, 'Enter');
  await page.waitForTimeout(300);
  await page.reload();
  await page.waitForSelector('[data-testid=tool-card]');
  await page.waitForTimeout(500);
  await shot('chatmore-reloaded');

  await page.click('[data-testid=nav-settings]');
  await page.waitForSelector('[data-testid^=provider-row-]');
  await shot('chatmore-settings');
}

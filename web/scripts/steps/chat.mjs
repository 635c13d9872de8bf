// Chat playground. Needs the scripted model (scripts/fake-openai.mjs as the OpenAI provider,
// see its header) and the demo server connected.
const send = async (page, text) => {
  await page.fill('[data-testid=chat-input]', text);
  await page.keyboard.press('Enter');
};
const lastTurnDone = (page) =>
  page.waitForFunction(() => {
    const turns = document.querySelectorAll('.chat-turn');
    const t = turns[turns.length - 1];
    return t && t.getAttribute('data-status') !== 'running';
  }, null, { timeout: 20000 });

export default async function (page, shot) {
  await page.click('[data-testid=nav-chat]');
  await page.waitForTimeout(500);
  await shot('chat-empty');
  await page.click('[data-testid=chat-new]');
  await page.waitForSelector('[data-testid=chat-input]');
  await page.waitForTimeout(300);
  await shot('chat-new');
  await send(page, 'hello there');
  await lastTurnDone(page);
  await shot('chat-hello');
  await send(page, 'please use echo {"message":"hi from **chat**"}');
  await page.waitForSelector('[data-testid=tool-card]');
  await lastTurnDone(page);
  await page.waitForTimeout(200);
  await shot('chat-tool');
  await page.click('[data-testid=tool-card-frames] >> nth=-1');
  await page.waitForTimeout(400);
  await shot('chat-frames');
  await send(page, 'use fail {}');
  await lastTurnDone(page);
  await shot('chat-tool-error');
  await send(page, 'fail now');
  await page.waitForSelector('[data-testid=turn-error]', { timeout: 20000 });
  await shot('chat-failed');
  await send(page, 'slow answer please');
  await page.waitForSelector('[data-testid=chat-stop]');
  await page.waitForTimeout(700);
  await shot('chat-streaming');
  await page.click('[data-testid=chat-stop]');
  await lastTurnDone(page);
  await shot('chat-stopped');
}

// Browser test of compare mode: two scripted LLM servers play two "models" (OpenAI format:
// the right arguments; Anthropic format: the wrong ones). One message from the one composer
// reaches both columns; each column streams its own answer; the aligned comparison marks the
// differing call; the x-ray panel shows the request the provider received (judged against
// the scripted server's own log); the compare view survives a reload, and its x-ray bodies,
// no longer in the session's view, are fetched when the panel opens.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startMcplab, startScriptedLlm, openApp, shot } from './harness.js';
import { horizontalOverflow, newChat, unreachableControls, waitConnected } from './ui_helpers.js';

let right;
let wrong;
let mcplab;
let app;
const id = (name) => `[data-testid="${name}"]`;

before(async () => {
  right = await startScriptedLlm([{ call: [{ id: 'c1', name: 'demo__add', arguments: { a: 2, b: 40 } }] }, { reply: ['Right: 42.'] }]);
  wrong = await startScriptedLlm([{ call: [{ id: 'c1', name: 'demo__add', arguments: { a: 2, b: 41 } }] }, { reply: ['Wrong: 43.'] }]);
  mcplab = await startMcplab([], {
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: right.baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-test',
    ANTHROPIC_BASE_URL: wrong.baseUrl,
  });
  app = await openApp(mcplab);
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
  right?.stop();
  wrong?.stop();
});

const requestsOf = (llm) => llm.requests();

test('two models side by side from one composer, compared and x-rayed', async () => {
  const { page } = app;
  await waitConnected(mcplab, ['demo']);
  const { model: openai, select: model } = await newChat(page, mcplab);
  const anthropic = await model.locator('option[value^="anthropic::"]').first().getAttribute('value');

  const fresh = await page.locator(id('chat-session')).getAttribute('data-session-id');
  await page.click(id('compare-start'));
  const selects = page.locator(id('compare-model'));
  await selects.nth(1).waitFor();
  // Each column's two selects carry a visible label, not only an aria-label (T3-15).
  assert.deepEqual(await page.locator(`${id('compare-start-column')} .compare-start-label`).allInnerTexts(), ['Column 1', 'Column 2']);
  await selects.nth(0).selectOption(openai);
  await selects.nth(1).selectOption(anthropic);
  await page.click(id('compare-go'));
  await page.waitForSelector(`${id('compare-column')}[data-column="2"]`);
  assert.equal(await page.locator(id('compare-column')).count(), 2);
  // The fresh chat the compare was started from had no turns: it is not left behind as an
  // empty "New chat" in the list (T3-15).
  assert.ok(!(await mcplab.api('GET', '/api/sessions')).body.some((x) => x.id === fresh), 'the empty chat the compare started from is still stored');
  await page.waitForSelector(id(`session-item-${fresh}`), { state: 'detached', timeout: 10000 });

  await page.fill(id('chat-input'), 'What is 2 + 40? Use the add tool.');
  await page.click(id('chat-send'));
  const column = (n) => page.locator(`${id('compare-column')}[data-column="${n}"]`);
  await column(1).locator('.chat-turn[data-status="finished"]').waitFor({ timeout: 20000 });
  await column(2).locator('.chat-turn[data-status="finished"]').waitFor({ timeout: 20000 });
  assert.match(await column(1).innerText(), /Right: 42\./);
  assert.match(await column(2).innerText(), /Wrong: 43\./);
  assert.doesNotMatch(await column(1).innerText(), /Wrong: 43/);

  // The aligned comparison: the one call differs (other arguments), both completed in 2 steps.
  const turn = page.locator(`${id('compare-turn')}[data-turn="1"]`);
  await turn.waitFor();
  const calls = turn.locator(id('compare-call'));
  assert.equal(await calls.count(), 2);
  assert.equal(await calls.nth(0).getAttribute('data-differs'), 'true');
  assert.equal(await calls.nth(1).getAttribute('data-differs'), 'true');
  assert.match(await calls.nth(1).innerText(), /"b":41/);
  assert.equal(await turn.locator(`${id('compare-ended')} td`).allInnerTexts().then((t) => t.join('|')), 'completed|completed');
  assert.equal(await turn.locator(`${id('compare-steps')} td`).allInnerTexts().then((t) => t.join('|')), '2|2');
  // Test providers are not in the price table under these ids? They are: openai::/anthropic::
  // models listed by the scripted server may or may not be priced; either way never blank.
  for (const cost of await turn.locator(`${id('compare-cost')} td`).allInnerTexts()) assert.match(cost, /^(\$\d+\.\d{6}|no price)$/);
  await shot(page, '60-chat-compare');

  // The x-ray of column 1's first step is the request the OpenAI-format server logged.
  const xray = column(1).locator(id('turn-xray'));
  await xray.locator('summary').first().click();
  const shown = await column(1).locator(`${id('xray-step')}[data-step="1"] ${id('xray-request')}`).textContent();
  const logged = (await requestsOf(right))[0];
  assert.deepEqual(JSON.parse(shown), logged);
  assert.ok(!(await xray.innerText()).includes('sk-test'), 'the key is masked');
  await column(1).locator(id('xray-diff')).first().waitFor();

  // "Save as eval case" sits over the message box, in its column, like the single chat's
  // (T3-15), not under the comparison table at the pane's left edge.
  const [save, box] = [await page.locator(id('compare-save-eval')).boundingBox(), await page.locator(`${id('chat-compare')} .chat-composer textarea`).boundingBox()];
  assert.ok(Math.abs(save.x - box.x) <= 6 && save.y + save.height <= box.y, `Save as eval case at ${JSON.stringify(save)}, the message box at ${JSON.stringify(box)}`);
  // The compared turn saved as an eval suite: one case, run on both models.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(id('compare-save-eval'))]);
  const suite = JSON.parse(readFileSync(await download.path(), 'utf8'));
  assert.deepEqual(suite.models, [openai, anthropic]);
  assert.equal(suite.cases.length, 1);
  assert.match(JSON.stringify(suite.cases[0]), /What is 2 \+ 40\?/);
  assert.match(JSON.stringify(suite.cases[0]), /"b":40/);

  // Reloaded, the compare view comes back with both columns and their turns.
  await page.reload();
  await page.waitForSelector(`${id('compare-column')}[data-column="2"] .chat-turn[data-status="finished"]`, { timeout: 20000 });
  assert.match(await column(2).innerText(), /Wrong: 43\./);

  // Reloaded, the session carries no x-ray bodies; opening the panel fetches the step's, and
  // it is still exactly the request the server logged.
  const reloaded = column(1).locator(id('turn-xray'));
  await reloaded.locator('summary').first().click();
  const request = column(1).locator(`${id('xray-step')}[data-step="1"] ${id('xray-request')}`);
  await page.waitForFunction((el) => el && el.textContent.length > 0, await request.elementHandle());
  assert.deepEqual(JSON.parse(await request.textContent()), logged);

  // At 768 and 390 the columns are tabs, one shown at a time; nothing scrolls sideways and every
  // control can be reached (T3-03).
  try {
    for (const [width, height] of [[768, 1024], [390, 844]]) {
      await page.setViewportSize({ width, height });
      await page.waitForSelector('.compare-tab');
      assert.equal(await page.locator('.compare-tab').count(), 2, `tabs at ${width}`);
      assert.equal(await page.locator(`${id('compare-column')}:visible`).count(), 1, `one column shown at ${width}`);
      assert.equal(await horizontalOverflow(page), null, `sideways scroll at ${width}`);
      assert.deepEqual(await unreachableControls(page, 'main'), [], `controls out of reach at ${width}`);
      await page.locator('.compare-tab').nth(1).click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="compare-column"]:not([hidden])').length === 1 && !document.querySelector('[data-testid="compare-column"][data-column="2"]')?.hidden);
      await shot(page, `61-chat-compare-${width}`);
      await page.locator('.compare-tab').nth(0).click();
    }
  } finally {
    await page.setViewportSize({ width: 1440, height: 900 });
  }
});

// Every page at phone, laptop and desktop widths, in both themes (the chat with one finished
// turn): nothing scrolls sideways,
// every visible control can be reached (inside the viewport, not covered), the page menu
// works where the navigation collapses, no date breaks across lines, the Playground's controls
// stay in their column and its placeholder is readable at any zoom, axe-core finds no serious
// or critical violation (colour contrast included), and a screenshot of each state lands in
// output/layout-*.png. The top bar keeps to one row at 390 and 1440, the traffic list shows
// method names whole, and the Settings provider fields carry visible labels, aligned. Selects
// are styled like the other controls and wide enough for their value; a server's card shows its
// command whole; the phone-width traffic panel keeps times, methods and its close button whole.
// A page whose code chunk does not load shows an error with Reload in the shell, not a blank app.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startMcplab, startScriptedLlm, openApp, shot, root } from './harness.js';
import { axeViolations, horizontalOverflow, id, newChat, unreachableControls, waitConnected } from './ui_helpers.js';

let mcplab;
let app;
let llm;

const SIZES = [
  { name: '390', width: 390, height: 844 },
  { name: '768', width: 768, height: 1024 },
  { name: '1440', width: 1440, height: 900 },
];

// Each route with what shows that it rendered.
const ROUTES = [
  { name: 'servers', hash: '#/servers/demo', ready: 'servers-page' },
  { name: 'tools-list', hash: '#/tools/demo', ready: 'tools-page' },
  { name: 'tools-detail', hash: '#/tools/demo/create_order', ready: 'tool-detail' },
  { name: 'resources', hash: '#/resources/demo/demo%3A%2F%2Freadme', ready: 'resource-viewer' },
  { name: 'prompts', hash: '#/prompts/demo/greeting', ready: 'prompts-page' },
  { name: 'tasks', hash: '#/tasks', ready: 'tasks-page' },
  { name: 'skills', hash: '#/skills', ready: 'skills-page' },
  { name: 'playground', hash: '#/playground', ready: 'playground-page' },
  { name: 'apps', hash: '#/apps', ready: 'apps-page' },
  { name: 'chat', hash: '#/chat', ready: 'chat-page' },
  { name: 'evals', hash: '#/evals', ready: 'evals-page' },
  { name: 'logs', hash: '#/logs', ready: 'logs-page' },
  { name: 'oauth', hash: '#/oauth', ready: 'oauth-page' },
  { name: 'settings', hash: '#/settings', ready: 'settings-page' },
];

before(async () => {
  llm = await startScriptedLlm([
    { text: ['Adding them with the demo tool.'], call: [{ id: 'c1', name: 'demo__add', arguments: { a: 2, b: 40 } }] },
    { reply: ['The sum is **42**.'] },
  ]);
  mcplab = await startMcplab();
  app = await openApp(mcplab);
  await waitConnected(mcplab, ['demo']);
  // One finished chat turn (a tool card, an answer, the settings bar), then the provider goes
  // again: the chat page shows that conversation under its "no model" note.
  const put = await mcplab.api('PUT', '/api/llm/providers/openai', { kind: 'openai', baseUrl: llm.baseUrl, apiKey: 'sk-test', models: ['gpt-4o-mini'] });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  await newChat(app.page, mcplab);
  await app.page.fill(id('chat-input'), 'What is 2 + 40?');
  await app.page.click(id('chat-send'));
  await app.page.waitForSelector(`${id('chat-session')} .chat-turn[data-status="finished"]`, { timeout: 20000 });
  assert.equal((await mcplab.api('DELETE', '/api/llm/providers/openai')).status, 204);
  await app.page.reload();
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
  llm?.stop();
});

async function show(page, route) {
  await page.evaluate((h) => {
    window.location.hash = h;
  }, route.hash);
  await page.waitForSelector(id(route.ready), { timeout: 15000 });
  if (route.loaded) await page.waitForSelector(route.loaded, { timeout: 15000 });
  // A folded section shown open (<details> to open).
  if (route.unfold) await page.$eval(route.unfold, (d) => (d.open = true));
  // No provider is configured here: the chat's first screen is its "no model" note, which comes
  // with the providers list (the first 390 shot was taken before it arrived), over the chat
  // made in before().
  if (route.name === 'chat') {
    await page.waitForSelector(id('chat-no-model'), { timeout: 15000 });
    await page.waitForSelector(`${id('tool-card')}[data-status="ok"]`, { timeout: 15000 });
  }
  // Let lists that load after the page settle (no spinner left in the main area).
  await page.waitForFunction(() => !document.querySelector('main [data-testid="spinner"]'), null, { timeout: 15000 });
  // A docked traffic panel renders after the page's first frame: the shot shows it, not its empty place.
  await page.waitForFunction(() => !document.querySelector('.dock-side') || document.querySelector('.dock-side [data-testid="traffic-panel"]'), null, { timeout: 15000 });
}

/** Chips (badges) whose text is cut off: wider than their box, or running past the window or
 * past a pane that clips its overflow. */
async function chipsCut(page) {
  return page.evaluate(() => {
    const cut = (b) => {
      const r = b.getBoundingClientRect();
      if (b.scrollWidth > b.clientWidth + 1 || r.right > window.innerWidth + 1) return true;
      for (let p = b.parentElement; p; p = p.parentElement) {
        if (getComputedStyle(p).overflowX !== 'visible' && r.right > p.getBoundingClientRect().right + 1) return true;
      }
      return false;
    };
    return [...document.querySelectorAll('main .badge')]
      .filter((b) => b.getClientRects().length && cut(b))
      .map((b) => `chip "${b.textContent.slice(0, 40)}" is cut off (right edge ${Math.round(b.getBoundingClientRect().right)}, window ${window.innerWidth})`);
  });
}

/** Revision dates (2026-07-28) broken across two lines ("2026-" / "07-28"). */
async function datesBroken(page) {
  return page.evaluate(() => {
    const out = [];
    const walker = document.createTreeWalker(document.querySelector('main') ?? document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      // A clamped one-line summary hides its second line: not a break anyone sees.
      if (n.parentElement && getComputedStyle(n.parentElement.closest('.item-desc') ?? n.parentElement).webkitLineClamp !== 'none') continue;
      for (const m of n.data.matchAll(/\d{4}-\d{2}-\d{2}/g)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        if (new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1) out.push(`the date ${m[0]} in "${n.data.slice(0, 50)}" breaks across lines`);
      }
    }
    return out;
  });
}

/** Selects drawn as the native grey box (every select is styled like the other controls), and
 * selects too narrow for the value they show ("demo (connect", "en-US · Eng"). */
async function selectsOff(page) {
  return page.evaluate(() => {
    const ctx = document.createElement('canvas').getContext('2d');
    const out = [];
    for (const sel of document.querySelectorAll('select:not([multiple]):not([size])')) {
      if (!sel.getClientRects().length || sel.closest('[hidden]')) continue;
      const cs = getComputedStyle(sel);
      const name = sel.dataset.testid ?? sel.getAttribute('aria-label') ?? sel.name ?? 'select';
      if (cs.appearance !== 'none') out.push(`${name} is a native select (appearance ${cs.appearance})`);
      const text = sel.selectedOptions[0]?.textContent ?? '';
      ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      const need = ctx.measureText(text).width;
      if (need > room + 1) out.push(`${name} shows "${text}" in ${Math.round(room)} px (needs ${Math.round(need)})`);
    }
    return out;
  });
}

/** Settings: opens every folded provider row (they start folded unless configured). */
async function openProviderRows(page) {
  const folded = await page.$$eval('[data-testid^="provider-toggle-"][aria-expanded="false"]', (bs) => bs.map((b) => b.dataset.testid));
  for (const toggle of folded) await page.click(id(toggle));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid^="provider-toggle-"][aria-expanded="false"]').length === 0, null, { timeout: 10000 });
}

/** Settings: in a provider row laid out as one line, the labels share a top, the fields a top
 * and a height, and Save meets them (the "API key" label sat 2–8 px above the others). Opens
 * the rows first. */
async function providerRowsMisaligned(page) {
  await openProviderRows(page);
  return page.evaluate(() => {
    const out = [];
    for (const form of document.querySelectorAll('[data-testid^="provider-row-"] .provider-form')) {
      const inputs = [...form.querySelectorAll('input')].map((i) => i.getBoundingClientRect());
      if (inputs.length < 2 || Math.max(...inputs.map((r) => r.top)) - Math.min(...inputs.map((r) => r.top)) > 20) continue;
      const labels = [...form.querySelectorAll('.field-label')].map((l) => l.getBoundingClientRect().top);
      const save = form.querySelector('button[type="submit"]').getBoundingClientRect();
      const row = form.closest('[data-testid^="provider-row-"]').dataset.testid;
      const spread = (xs) => Math.max(...xs) - Math.min(...xs);
      if (spread(labels) > 1) out.push(`${row}: label tops differ by ${spread(labels).toFixed(1)} px`);
      if (spread(inputs.map((r) => r.top)) > 1 || spread(inputs.map((r) => r.height)) > 1) out.push(`${row}: fields differ in top or height (${inputs.map((r) => `${r.top.toFixed(1)}+${r.height.toFixed(1)}`).join(', ')})`);
      if (Math.abs(save.bottom - inputs[0].bottom) > 1) out.push(`${row}: Save ends at ${save.bottom.toFixed(1)}, the fields at ${inputs[0].bottom.toFixed(1)}`);
    }
    return out;
  });
}

/** The Playground's controls column: controls running past it, and the placeholder's text
 * drawn smaller than 11 px by the device's zoom. */
async function playgroundCramped(page) {
  return page.evaluate(() => {
    const out = [];
    const pane = document.querySelector('.pg-left');
    const edge = pane ? pane.getBoundingClientRect().right - parseFloat(getComputedStyle(pane).paddingRight) : Infinity;
    for (const c of document.querySelectorAll('.pg-left select, .pg-left input, .pg-left button')) {
      const r = c.getBoundingClientRect();
      if (r.width && r.right > edge + 1) out.push(`${c.dataset.testid ?? c.tagName} ends at ${Math.round(r.right)}, past the controls column (${Math.round(edge)})`);
    }
    const ph = document.querySelector('[data-testid="pg-placeholder"]');
    if (ph) {
      const scale = Number(document.querySelector('[data-testid="pg-zoom-box"]')?.dataset.scale ?? 1);
      const px = parseFloat(getComputedStyle(ph).fontSize) * scale;
      if (px < 11) out.push(`the placeholder's text is drawn at ${px.toFixed(1)} px`);
    }
    return out;
  });
}

/** Shows `routes` at `size` in both themes, with a shot of each: what is wrong with them. */
async function pageProblems(page, size, routes) {
  await page.setViewportSize({ width: size.width, height: size.height });
  const problems = [];
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme);
    for (const route of routes) {
      await show(page, route);
      const where = `${route.name} @${size.name} ${scheme}`;
      // The shot shows the page's top, not where the other theme's pass left its panes scrolled
      // (the conversation stays at its end).
      await page.evaluate(() => {
        for (const e of document.querySelectorAll('main, main *')) if (e.scrollTop > 0 && !e.matches('.chat-scroll')) e.scrollTop = 0;
      });
      await shot(page, `layout-${size.name}-${scheme}-${route.name}`);
      const overflow = await horizontalOverflow(page);
      if (overflow) problems.push(`${where}: scrolls sideways (${JSON.stringify(overflow)})`);
      for (const p of await unreachableControls(page)) problems.push(`${where}: ${p}`);
      for (const p of await chipsCut(page)) problems.push(`${where}: ${p}`);
      for (const p of await datesBroken(page)) problems.push(`${where}: ${p}`);
      if (route.name === 'playground') for (const p of await playgroundCramped(page)) problems.push(`${where}: ${p}`);
      if (route.name === 'settings') for (const p of await providerRowsMisaligned(page)) problems.push(`${where}: ${p}`);
      for (const p of await selectsOff(page)) problems.push(`${where}: ${p}`);
      for (const v of await axeViolations(page)) problems.push(`${where}: ${v}`);
    }
  }
  return problems;
}

for (const size of SIZES) {
  test(`every page at ${size.width}×${size.height}, light and dark: no sideways scroll, every control reachable, accessible`, async () => {
    assert.deepEqual(await pageProblems(app.page, size, ROUTES), []);
  });
}

test('narrow windows: the page menu reaches every page, the traffic panel is an overlay closed by default', async () => {
  const { page } = app;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'light' });
  await show(page, ROUTES[0]);
  assert.equal(await page.locator(`nav ${id('nav-tools')}`).count(), 0, 'the links are in the menu');
  // The top bar stays one row at phone width, the server selector and its buttons included.
  for (const r of ROUTES.filter((x) => ['tools-detail', 'tasks', 'servers'].includes(x.name))) {
    await show(page, r);
    const [menu, theme, bar] = [await page.locator(id('nav-menu')).boundingBox(), await page.locator(id('theme-toggle')).boundingBox(), await page.locator('header.topbar').boundingBox()];
    assert.ok(Math.abs(menu.y + menu.height / 2 - (theme.y + theme.height / 2)) < 4 && bar.height < 56, `${r.name} @390: the top bar wraps (${bar.height} px tall; menu at y=${menu.y}, theme button at y=${theme.y})`);
  }
  await show(page, ROUTES[0]);
  // A long capability chip wraps inside the server's details instead of running out of them.
  await page.waitForSelector(id('capability-extensions'));
  assert.deepEqual(await chipsCut(page), []);
  const chip = await page.locator(id('capability-extensions')).evaluate((b) => ({ right: b.getBoundingClientRect().right, pane: b.closest('dd').getBoundingClientRect().right }));
  assert.ok(chip.right <= chip.pane + 1, `the extensions chip ends at ${chip.right}, its pane at ${chip.pane}`);
  // The server's card shows its command line whole, as the official Inspector does.
  const desc = await page.locator(`${id('server-row-demo')} .server-desc`).evaluate((d) => ({ text: d.textContent, cut: d.scrollHeight > d.clientHeight + 1 || d.scrollWidth > d.clientWidth + 1 }));
  assert.match(desc.text, /mcplab demo-server$/);
  assert.equal(desc.cut, false, `the command line is cut: ${desc.text}`);
  // Fields and panes keep a usable width instead of being squeezed beside others.
  await show(page, ROUTES.find((r) => r.name === 'oauth'));
  const url = await page.locator(id('oauth-url')).boundingBox();
  assert.ok(url.width >= 250, `the OAuth URL field is ${url.width} px wide`);
  await show(page, ROUTES.find((r) => r.name === 'evals'));
  const pane = await page.locator(`${id('evals-page')} .evals-main > :last-child`).boundingBox();
  assert.ok(pane.width >= 300, `the Evals suite pane is ${pane.width} px wide`);
  // Under the "no model" note the conversation keeps most of the height: the per-provider
  // reasons fold away at this width (they took it down to a 320 px strip).
  await show(page, ROUTES.find((r) => r.name === 'chat'));
  const conversation = await page.locator(`${id('chat-session')} .chat-scroll`).boundingBox();
  assert.ok(conversation.height >= 844 * 0.5, `the conversation under the note is ${conversation.height} px high`);
  // The Playground stacks its stage below ~1000 px of controls: Run brings the stage into view.
  await show(page, ROUTES.find((r) => r.name === 'playground'));
  await page.click(id('pg-run'));
  await page.waitForFunction(() => {
    const r = document.querySelector('.pg-center').getBoundingClientRect();
    return r.top >= -1 && r.top < window.innerHeight / 2;
  }, null, { timeout: 10000 }).catch(async () => {
    const top = await page.locator('.pg-center').evaluate((e) => e.getBoundingClientRect().top);
    assert.fail(`after Run at 390 the stage starts at y=${Math.round(top)} of an 844 px window`);
  });
  await show(page, ROUTES[0]);
  await page.click(id('nav-menu'));
  assert.deepEqual(await unreachableControls(page, '.nav-popover'), []);
  await page.click(id('nav-tools'));
  await page.waitForSelector(id('tools-page'));
  assert.equal(await page.locator(id('traffic-panel')).count(), 0, 'closed by default');
  await page.click(id('traffic-toggle'));
  await page.waitForSelector(id('traffic-overlay'));
  assert.equal(await horizontalOverflow(page), null);
  // Phone-width traffic: the close button on the title's row, times and methods whole.
  const [title, close] = [await page.locator(`${id('traffic-overlay')} .panel-title`).boundingBox(), await page.locator(id('traffic-close')).boundingBox()];
  assert.ok(Math.abs(title.y + title.height / 2 - (close.y + close.height / 2)) < 6, `the close button sits on another row (title y=${title.y}, close y=${close.y})`);
  // (A note is prose, not a method: it takes the rest of its row instead, its whole text in
  // its title.)
  const clipped = await page.$$eval(`${id('traffic-overlay')} ${id('traffic-row')}:not(.t-note) > :is(.c-time, .c-method), ${id('traffic-overlay')} ${id('traffic-row')}:not(.t-note) > .c-method > .c-label`, (cells) =>
    cells.filter((c) => c.getClientRects().length && c.scrollWidth > c.clientWidth + 1).map((c) => `"${c.textContent}" (${c.scrollWidth} px in ${c.clientWidth})`),
  );
  assert.deepEqual(clipped, [], 'traffic cells cut off at 390');
  const notes = await page.$$eval(`${id('traffic-overlay')} ${id('traffic-row')}.t-note > .c-method`, (cells) =>
    cells.map((c) => {
      const row = c.parentElement.getBoundingClientRect();
      return { text: c.textContent, title: c.title, gap: Math.round(row.right - parseFloat(getComputedStyle(c.parentElement).paddingRight) - c.getBoundingClientRect().right) };
    }),
  );
  assert.ok(notes.length > 0, 'the chat made in before() leaves cache notes in the traffic');
  for (const n of notes) {
    assert.ok(n.gap <= 1, `the note "${n.text.slice(0, 40)}…" stops ${n.gap} px before the row's end`);
    assert.equal(n.title, n.text);
  }
  await shot(page, 'layout-390-traffic-overlay');
  await page.click(id('traffic-close'));
  await page.waitForSelector(id('traffic-overlay'), { state: 'detached' });
  // Stacked panes: Tools remembers create_order (shown above), so the detail comes first with a
  // way back to the list; picking another tool shows its detail alone.
  await page.waitForSelector(id('tool-detail'));
  assert.match(page.url(), /#\/tools\/demo\/create_order$/);
  await page.click(id('detail-back'));
  await page.waitForSelector(id('tool-search'));
  await page.click(id('tool-item-echo'));
  await page.waitForSelector(id('tool-detail'));
  assert.equal(await page.locator(id('tool-search')).isVisible(), false);
  await page.click(id('detail-back'));
  await page.waitForSelector(id('tool-search'));
  assert.match(page.url(), /#\/tools\/demo$/);
});

test('wide windows: traffic docked, open by default on Tools, closed by default on Playground, Apps, Chat, OAuth, Evals, Settings and Logs', async () => {
  const { page } = app;
  await page.setViewportSize({ width: 1440, height: 900 });
  await show(page, ROUTES[1]);
  await page.waitForSelector(id('traffic-panel'));
  assert.equal(await page.locator(id('traffic-overlay')).count(), 0);
  // The top bar is one row, the server selector and the buttons included, down to the
  // narrowest width that shows the links (1181 px), without scrolling sideways.
  for (const r of ROUTES.filter((x) => ['tools-detail', 'resources', 'prompts', 'tasks', 'servers'].includes(x.name))) {
    await show(page, r);
    const [first, last] = [await page.locator(id('nav-servers')).boundingBox(), await page.locator(id('theme-toggle')).boundingBox()];
    assert.ok(Math.abs(first.y + first.height / 2 - (last.y + last.height / 2)) < 4, `${r.name}: the top bar wraps (first link at y=${first.y}, theme button at y=${last.y})`);
  }
  await page.setViewportSize({ width: 1181, height: 900 });
  await show(page, ROUTES.find((r) => r.name === 'tools-detail'));
  const [first, last] = [await page.locator(id('nav-servers')).boundingBox(), await page.locator(id('theme-toggle')).boundingBox()];
  assert.ok(Math.abs(first.y + first.height / 2 - (last.y + last.height / 2)) < 4, `tools @1181: the top bar wraps (first link at y=${first.y}, theme button at y=${last.y})`);
  assert.equal(await horizontalOverflow(page), null, 'tools @1181: scrolls sideways');
  await page.setViewportSize({ width: 1440, height: 900 });
  // Every page link says its page in words at laptop widths, not only the current one (T3-04).
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    const unlabelled = await page.$$eval('header.topbar nav a[data-testid^="nav-"]', (links) => links.filter((a) => !a.checkVisibility() || !a.innerText.trim()).map((a) => a.dataset.testid));
    assert.deepEqual(unlabelled, [], `page links without a visible label at ${width}`);
  }
  // The traffic list shows every method whole (a notification's across the id column, its
  // prefix a bell), the full name in its tooltip.
  await show(page, ROUTES[1]);
  await page.waitForSelector(`${id('traffic-row')}[data-method="notifications/subscriptions/acknowledged"]`);
  const cut = await page.$$eval(`${id('traffic-row')}:not(.t-note) :is(.c-method, .c-label)`, (cells) =>
    cells.filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => `${c.title || c.textContent} (${c.scrollWidth} px in ${c.clientWidth})`),
  );
  assert.deepEqual(cut, [], 'method names cut off in the traffic list');
  // Settings: provider rows start folded, showing name and state, unless configured; a link
  // `#/settings/<id>` opens that row; a provider configured here starts open next time.
  const settings = ROUTES.find((r) => r.name === 'settings');
  const openRows = () => page.$$eval('[data-testid^="provider-toggle-"][aria-expanded="true"]', (bs) => bs.map((b) => b.dataset.testid));
  await show(page, settings);
  assert.deepEqual(await openRows(), [], 'no provider is configured here: every row folded');
  assert.equal(await page.locator('[data-testid^="provider-row-"] input').count(), 0);
  assert.match(await page.innerText(id('provider-state-anthropic')), /^not configured$/);
  await page.evaluate(() => (window.location.hash = '#/settings/anthropic'));
  await page.fill(id('provider-key-anthropic'), 'sk-ant-test');
  await page.click(id('provider-save-anthropic'));
  await page.waitForSelector(id('provider-delete-anthropic'));
  await show(page, ROUTES[1]);
  await show(page, settings);
  assert.deepEqual(await openRows(), ['provider-toggle-anthropic'], 'the configured row starts open');
  await page.click(id('provider-delete-anthropic'));
  await page.waitForSelector(id('provider-delete-anthropic'), { state: 'detached' });
  // Every provider field on Settings has a visible label bound to it, not only a placeholder.
  await openProviderRows(page);
  const unlabelled = await page.$$eval('[data-testid^="provider-row-"] input', (inputs) =>
    inputs.filter((i) => ![...i.labels].some((l) => l.offsetHeight > 0 && l.innerText.replace(i.value, '').trim())).map((i) => i.dataset.testid),
  );
  assert.ok((await page.locator('[data-testid^="provider-row-"] input').count()) > 0);
  assert.deepEqual(unlabelled, [], 'provider fields without a visible label');
  // A form's array items are full-width rows, not narrow cards side by side (T3-13).
  await show(page, ROUTES.find((r) => r.name === 'tools-detail'));
  const [form, item] = [await page.locator('.schema-form').first().boundingBox(), await page.locator('.schema-form .array-item').first().boundingBox()];
  assert.ok(item.width >= form.width * 0.9, `the first array item is ${item.width} px wide in a ${form.width} px form`);
  // An object item's fields use the item's width (its Remove goes under them, not beside).
  const field = await page.locator('.schema-form .array-item input').first().boundingBox();
  assert.ok(item.x + item.width - (field.x + field.width) <= 16, `the first item's field ends ${Math.round(item.x + item.width - field.x - field.width)} px before the item's right edge`);
  // A resource's heading names it as the list does (its title), beside the URI and type, as
  // MCPJam and the official inspector head theirs.
  await show(page, ROUTES.find((r) => r.name === 'resources'));
  assert.equal(await page.locator(`${id('resource-viewer')} ${id('resource-title')}`).innerText({ timeout: 10000 }), 'About mcplab-demo');
  // With no usable model the note stays short at 1440 too (the per-provider reasons folded),
  // so the conversation under it keeps at least half the window.
  await show(page, ROUTES.find((r) => r.name === 'chat'));
  assert.equal(await page.locator(id('chat-no-model-reasons')).evaluate((d) => d.open), false);
  const conversation = await page.locator(`${id('chat-session')} .chat-scroll`).boundingBox();
  assert.ok(conversation.height >= 900 * 0.5, `the conversation under the note is ${conversation.height} px high`);
  // Each reason links to its provider's row in Settings, which opens there.
  await page.locator(`${id('chat-no-model-reasons')} summary`).click();
  const provider = page.locator(`${id('chat-no-model-reasons')} a`).first();
  const href = await provider.getAttribute('href');
  await provider.click();
  const row = page.locator(id(`provider-row-${decodeURIComponent(href.slice('#/settings/'.length))}`));
  await row.and(page.locator('[data-open="true"]')).waitFor({ timeout: 15000 });
  // The Playground's side panels are told apart by name, and its debug headings follow the
  // page's outline (axe's moderate landmark-unique and heading-order, which the review saw).
  await show(page, ROUTES.find((r) => r.name === 'playground'));
  await axeViolations(page);
  const outline = await page.evaluate(async () => (await window.axe.run(document, { runOnly: ['landmark-unique', 'heading-order'] })).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 60)).join(', ')}`));
  assert.deepEqual(outline, []);
  await show(page, ROUTES[1]);
  // Beside the docked traffic panel all of the page is in a landmark, its separator included.
  await page.waitForSelector(id('traffic-panel'));
  assert.deepEqual(await page.evaluate(async () => (await window.axe.run(document, { runOnly: ['region'] })).violations.flatMap((v) => v.nodes.map((n) => n.html.slice(0, 60)))), []);
  for (const r of ROUTES.filter((x) => ['playground', 'apps', 'chat', 'oauth', 'evals', 'settings', 'logs'].includes(x.name))) {
    await show(page, r);
    assert.equal(await page.locator(id('traffic-panel')).count(), 0, `${r.name}: closed by default`);
  }
});

test('wide windows: the docked traffic panel resizes by drag and by keys, within 20–70 % of the width, and keeps its width after a reload', async () => {
  const { page } = app;
  await page.setViewportSize({ width: 1440, height: 900 });
  await show(page, ROUTES[1]);
  await page.waitForSelector(id('traffic-panel'));
  const share = async () => {
    const [row, side] = await Promise.all([page.locator('.main-split').boundingBox(), page.locator('.dock-side').boundingBox()]);
    return Math.round((side.width / row.width) * 100);
  };
  const drag = async (toShare) => {
    const [row, h] = await Promise.all([page.locator('.main-split').boundingBox(), page.locator(id('traffic-resize')).boundingBox()]);
    await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
    await page.mouse.down();
    await page.mouse.move(row.x + row.width * (1 - toShare / 100), h.y + h.height / 2, { steps: 4 });
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/prefs/layout.trafficShare') && r.request().method() === 'PUT');
    await page.mouse.up();
    assert.equal((await saved).status(), 204);
  };
  assert.equal(await share(), 38, 'the default share');
  await drag(50);
  assert.ok(Math.abs((await share()) - 50) <= 1, `dragged to half: ${await share()} %`);
  await drag(95);
  assert.equal(await share(), 70, 'the page keeps 30 %');
  await drag(2);
  assert.equal(await share(), 20, 'the panel keeps 20 %');
  // Keys: the separator is focusable; ArrowLeft widens the panel, Home/End go to the limits.
  await page.focus(id('traffic-resize'));
  // A held key moves the panel on each repeat and saves once, when it is released.
  const puts = [];
  const countPuts = (r) => r.url().endsWith('/api/prefs/layout.trafficShare') && r.method() === 'PUT' && puts.push(r);
  page.on('request', countPuts);
  await page.keyboard.down('ArrowLeft');
  await page.keyboard.down('ArrowLeft');
  assert.equal(await share(), 24);
  const heldSaved = page.waitForResponse((r) => r.url().endsWith('/api/prefs/layout.trafficShare') && r.request().method() === 'PUT');
  await page.keyboard.up('ArrowLeft');
  await heldSaved;
  page.off('request', countPuts);
  assert.equal(puts.length, 1, 'one write for the held key');
  assert.equal(await page.getAttribute(id('traffic-resize'), 'aria-valuenow'), '76');
  await page.keyboard.press('Home');
  assert.equal(await share(), 70);
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/prefs/layout.trafficShare') && r.request().method() === 'PUT');
  await page.keyboard.press('End');
  await saved;
  assert.equal(await share(), 20);
  await page.reload();
  await page.waitForSelector(id('traffic-panel'), { timeout: 15000 });
  assert.equal(await share(), 20, 'the width survives a reload');
  assert.equal((await mcplab.api('PUT', '/api/prefs/layout.trafficShare', 38)).status, 204);
  await page.reload();
  await page.waitForSelector(id('traffic-panel'), { timeout: 15000 });
  assert.equal(await share(), 38);
});

test('a window crossing the traffic overlay breakpoint keeps the page mounted: an open form keeps what was typed', async () => {
  const { page } = app;
  await page.setViewportSize({ width: 1440, height: 900 });
  await show(page, ROUTES[0]);
  await page.click(id('server-add'));
  await page.fill(id('server-form-name'), 'half-typed');
  for (const width of [900, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForFunction((w) => window.innerWidth === w, width);
    assert.equal(await page.locator(id('server-form-name')).count(), 1, `the form closed when the window became ${width} px wide`);
    assert.equal(await page.inputValue(id('server-form-name')), 'half-typed', `after resizing to ${width}`);
  }
  await page.click(`${id('server-form')} button:has-text("Cancel")`);
  await page.waitForSelector(id('server-form'), { state: 'detached' });
});

test('a page whose code does not load says so with Reload, the shell keeps working, and Reload brings the page', async () => {
  // A tab of its own: the failed fetch's console error stays out of this file's page errors.
  const context = await app.browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    const chunk = /\/assets\/TasksPage-[^/]+\.js$/;
    const fail = (route) => route.abort();
    await page.route(chunk, fail);
    await page.goto(await mcplab.loginUrl());
    await page.waitForURL((u) => u.pathname !== '/auth', { timeout: 15000 });
    await page.waitForSelector(id('servers-page'), { timeout: 15000 });
    await page.click(id('nav-tasks'));
    const failed = await page.waitForSelector(id('page-failed'), { timeout: 15000 });
    assert.match(await failed.innerText(), /The Tasks page's code did not load/);
    assert.equal((await page.innerText(`${id('page-failed')} ${id('retry')}`)).trim(), 'Reload');
    await page.click(id('nav-servers'));
    await page.waitForSelector(id('servers-page'), { timeout: 15000 });
    await page.click(id('nav-tasks'));
    await page.waitForSelector(id('page-failed'), { timeout: 15000 });
    await page.unroute(chunk, fail);
    await page.click(`${id('page-failed')} ${id('retry')}`);
    await page.waitForSelector(id('tasks-page'), { timeout: 15000 });
  } finally {
    await context.close();
  }
});

test('tools marked by check rules, and a tool’s open Checks section, at every width in both themes', async () => {
  // Added last and removed after, so the other tests see the demo server alone.
  const poisoned = { name: 'poisoned', type: 'stdio', command: 'python3', args: [path.join(root, 'tests/interop/rawsrv.py'), 'poison'] };
  assert.equal((await mcplab.api('POST', '/api/servers', poisoned)).status, 201);
  await waitConnected(mcplab, ['poisoned']);
  // A legacy server's refused server/discover (rawsrv falls back) shows its method whole beside
  // the fallback badge in the docked traffic list.
  await app.page.setViewportSize({ width: 1440, height: 900 });
  await show(app.page, ROUTES[1]);
  const fallback = `${id('traffic-row')}:has(${id('traffic-discover-fallback')})`;
  await app.page.waitForSelector(fallback, { timeout: 15000 });
  const cut = await app.page.$$eval(`${fallback} :is(.c-method, .c-label, .badge)`, (cells) =>
    cells.filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => `${c.title || c.textContent} (${c.scrollWidth} px in ${c.clientWidth})`),
  );
  assert.deepEqual(cut, [], 'cut off in the fallback row');
  // The list's marks beside the detail's Checks section, opened (its folded line is the same row).
  const marked = { name: 'tools-marked', hash: '#/tools/poisoned/notes', ready: 'tool-detail', loaded: `${id('tool-checks')}[data-state="ready"]`, unfold: id('tool-checks') };
  const problems = [];
  for (const size of SIZES) problems.push(...(await pageProblems(app.page, size, [marked])));
  assert.deepEqual(problems, []);
  assert.equal((await mcplab.api('DELETE', '/api/servers/poisoned')).status, 204);
});

test('no page errors', () => {
  assert.deepEqual(app.errors.filter((e) => !/favicon/.test(e)), []);
});

// Helpers for the web UI's browser tests: throwing waits (a readiness loop that runs out says
// what it waited for instead of falling through), what the server recorded (traffic), and
// page checks — horizontal overflow, controls out of reach, and axe-core's accessibility
// rules (colour contrast included) run inside the page.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const id = (name) => `[data-testid="${name}"]`;

/** Polls `check` until it returns a truthy value; throws naming `what` after `timeout` ms. */
export async function waitUntil(check, what, { timeout = 30000, interval = 100 } = {}) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}${last ? ` (last error: ${last.message})` : ''}`);
    await new Promise((r) => setTimeout(r, interval));
  }
}

/**
 * Clicks the top bar's link to `target` and waits until that page is shown (its link marked
 * current and the hash on it). A click that did not navigate (a layout shift under the pointer
 * between Playwright's hit test and the click) is clicked once more; a second miss throws with
 * the URL and the page's visible text, so a CI log says where the page was instead.
 */
export async function navTo(page, target, { timeout = 10000 } = {}) {
  const shown = () =>
    page
      .waitForFunction(
        (t) => window.location.hash.startsWith(`#/${t}`) && document.querySelector(`[data-testid="nav-${t}"]`)?.getAttribute('aria-current') === 'page',
        target,
        { timeout },
      )
      .then(() => true, () => false);
  for (let attempt = 0; attempt < 2; attempt++) {
    await page.click(id(`nav-${target}`));
    if (await shown()) return;
  }
  const text = await page.evaluate(() => document.body.innerText.replace(/\s+/g, ' ').slice(0, 400)).catch(() => '?');
  throw new Error(`the ${target} page did not show after clicking its link twice; at ${page.url()}: ${text}`);
}

/** Waits until every named server is connected; throws with their states otherwise. */
export async function waitConnected(mcplab, names, timeout = 30000) {
  let states = {};
  await waitUntil(async () => {
    const r = await mcplab.api('GET', '/api/servers');
    states = Object.fromEntries(r.body.map((s) => [s.config.name, s.status.state]));
    return names.every((n) => states[n] === 'connected');
  }, `servers ${names.join(', ')} to connect`, { timeout }).catch((e) => {
    throw new Error(`${e.message}; states: ${JSON.stringify(states)}`);
  });
}

/**
 * Starts a new chat: opens the chat page if needed, clicks "New", waits for the new session (a
 * different id from the one shown before), picks the first model of `provider`, ticks
 * `servers` and waits until the session has saved them. Returns the session id, the model
 * chosen, the model select and `hostOf()`, which reads the session's saved HostConfig.
 */
export async function newChat(page, mcplab, { provider = 'openai', servers = ['demo'] } = {}) {
  if (!new URL(page.url()).hash.startsWith('#/chat')) await navTo(page, 'chat');
  const shown = page.locator(id('chat-session'));
  const before = (await shown.count()) ? await shown.getAttribute('data-session-id') : null;
  await page.click(id('chat-new'));
  const session = page.locator(before ? `${id('chat-session')}:not([data-session-id="${before}"])` : id('chat-session'));
  await session.waitFor();
  const sessionId = await session.getAttribute('data-session-id');
  const select = page.locator(id('chat-model'));
  const model = await select.locator(`option[value^="${provider}::"]`).first().getAttribute('value');
  await select.selectOption(model);
  await chooseServers(page, servers);
  const hostOf = async () => (await mcplab.api('GET', `/api/sessions/${sessionId}`)).body.summary.hostConfig;
  await waitUntil(async () => {
    const h = await hostOf();
    return h.model === model && servers.every((s) => h.servers[s]);
  }, `the new chat's model and servers (${servers.join(', ')}) to be saved`);
  return { sessionId, model, select, hostOf };
}

/**
 * Ticks `servers` under the chat settings' "Tools from": opens its checklist (a popover), ticks
 * each, and closes it again with Escape.
 */
export async function chooseServers(page, servers) {
  if ((await page.locator(id('chat-servers-list')).count()) === 0) await page.click(id('chat-servers-open'));
  for (const s of servers) await page.check(id(`chat-server-${s}`));
  await page.keyboard.press('Escape');
  await page.waitForSelector(id('chat-servers-list'), { state: 'detached' });
}

/** Every frame the server recorded for `server`, parsed where it parses. */
export async function frames(mcplab, server) {
  const r = await mcplab.api('GET', `/api/servers/${encodeURIComponent(server)}/traffic`);
  if (r.status !== 200) throw new Error(`traffic of ${server}: HTTP ${r.status}`);
  return r.body.frames.map((f) => {
    try {
      return { ...f, msg: JSON.parse(f.text) };
    } catch {
      return { ...f, msg: null };
    }
  });
}

/** The requests we sent to `server` with `method`. */
export async function sent(mcplab, server, method) {
  return (await frames(mcplab, server)).filter((f) => f.direction === 'outbound' && f.msg?.method === method);
}

/** scrollWidth beyond the viewport: the page scrolls sideways. */
export async function horizontalOverflow(page) {
  return page.evaluate(() => {
    const el = document.scrollingElement;
    return el.scrollWidth > window.innerWidth ? { scrollWidth: el.scrollWidth, innerWidth: window.innerWidth } : null;
  });
}

/**
 * Visible controls (buttons, links, fields) that a person cannot reach: outside the viewport
 * horizontally once scrolled into view, or covered by something else at their centre.
 */
export async function unreachableControls(page, scope = 'body') {
  return page.evaluate((scopeSel) => {
    const root = document.querySelector(scopeSel) ?? document.body;
    const out = [];
    const controls = [...root.querySelectorAll('button, a[href], input:not([type=hidden]), select, textarea, [role=option]')];
    for (const el of controls) {
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: false })) continue;
      if (el.closest('[aria-hidden="true"]')) continue;
      const name = `${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ''} "${(el.innerText || el.getAttribute('aria-label') || el.getAttribute('placeholder') || '').trim().slice(0, 40)}"`;
      el.scrollIntoView({ block: 'center', inline: 'center' });
      const r = el.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) continue;
      if (r.left < -1 || r.right > window.innerWidth + 1) {
        out.push(`${name} is outside the viewport (${Math.round(r.left)}..${Math.round(r.right)} of ${window.innerWidth})`);
        continue;
      }
      const x = Math.min(window.innerWidth - 1, Math.max(0, r.left + Math.min(r.width / 2, 20)));
      const y = Math.min(window.innerHeight - 1, Math.max(0, r.top + r.height / 2));
      const hit = document.elementFromPoint(x, y);
      if (hit && !el.contains(hit) && !hit.contains(el) && !(el.labels && [...el.labels].some((l) => l.contains(hit)))) {
        out.push(`${name} is covered by ${hit.tagName.toLowerCase()}.${[...hit.classList].join('.')}`);
      }
    }
    window.scrollTo(0, 0);
    return out;
  }, scope);
}

const require = createRequire(import.meta.url);
let axeSource;

/** axe-core's serious and critical violations on the page, as readable lines. */
export async function axeViolations(page) {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // evaluate() runs through the DevTools protocol, so the page's CSP does not block it.
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')}${n.any?.[0]?.message ? ` — ${n.any[0].message}` : ''}`) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.join('\n    ')}`);
}

/** Visible controls (buttons, links, fields) inside `boxSel` elements that stick out of their
 * box sideways (drawn over its border or past it, though the window has room), as readable
 * lines. */
export async function controlsOutsideTheirBox(page, boxSel) {
  return page.evaluate((sel) => {
    const out = [];
    for (const box of document.querySelectorAll(sel)) {
      const b = box.getBoundingClientRect();
      for (const el of box.querySelectorAll('button, a[href], select, input:not([type=hidden]), textarea')) {
        const r = el.getBoundingClientRect();
        if (r.width < 1 || !el.checkVisibility()) continue;
        const name = el.dataset.testid ?? (el.innerText || el.getAttribute('aria-label') || '').trim().slice(0, 30);
        if (r.right > b.right + 1 || r.left < b.left - 1) out.push(`"${name}" spans ${Math.round(r.left)}..${Math.round(r.right)}, its ${sel} ${Math.round(b.left)}..${Math.round(b.right)}`);
      }
    }
    return out;
  }, boxSel);
}

/** Whether two bounding boxes (`{x, y, width, height}`, as from `locator.boundingBox()`) overlap. */
export function boxesIntersect(a, b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

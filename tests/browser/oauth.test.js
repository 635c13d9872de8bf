// Browser tests of OAuth (issue 7): the OAuth debugger page against the testkit's loopback
// authorization server (non-interactive, interactive through a real sign-in tab and mcplab's
// /oauth/callback, a broken setup with its fix), and signing in to a server on the Servers
// page through the same redirect. Screenshots land in tests/browser/output/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startMcplab, openApp, shot, startOAuthServer } from './harness.js';

let mcplab;
let app;
let dcr;
let broken;
let open;

const id = (name) => `[data-testid="${name}"]`;
const PHASES = ['probe', 'resourceMetadata', 'authServerMetadata', 'registration', 'authorization', 'token', 'verify'];

before(async () => {
  [dcr, broken, open] = await Promise.all([startOAuthServer('dcr'), startOAuthServer('broken-resource'), startOAuthServer('open')]);
  mcplab = await startMcplab();
  app = await openApp(mcplab);
  // More room for the page: the traffic panel is not what these tests look at.
  const { page } = app;
  await page.click(id('nav-oauth'));
  await page.waitForSelector(id('traffic-toggle'));
  if ((await page.getAttribute(id('traffic-toggle'), 'aria-pressed')) === 'true') await page.click(id('traffic-toggle'));
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
  dcr?.stop();
  broken?.stop();
  open?.stop();
});

/** The run id from `#/oauth/<runId>`. */
function runIdOf(url) {
  const m = new URL(url).hash.match(/^#\/oauth\/([^/]+)$/);
  assert.ok(m, `expected #/oauth/<runId>, got ${url}`);
  return decodeURIComponent(m[1]);
}

async function startRun(page, url, { interactive }) {
  await page.click(id('nav-oauth'));
  await page.waitForSelector(id('oauth-page'));
  await page.fill(id('oauth-url'), url);
  await page.click(id(interactive ? 'oauth-mode-interactive' : 'oauth-mode-noninteractive'));
  await page.click(id('oauth-start'));
}

test('non-interactive debugger run against a DCR server: every step, the diagram and a masked token', async () => {
  const { page } = app;
  await startRun(page, dcr.url, { interactive: false });
  await page.waitForSelector(`${id('oauth-run')}[data-state="succeeded"]`, { timeout: 30000 });
  const runId = runIdOf(page.url());
  assert.equal(await page.getAttribute(id('oauth-run'), 'data-run-id'), runId);

  // The steps, in order, cover the whole flow.
  const steps = await page.$$eval(id('oauth-step'), (els) => els.map((e) => ({ seq: Number(e.dataset.seq), kind: e.dataset.kind, phase: e.dataset.phase })));
  assert.ok(steps.length >= 10, `only ${steps.length} steps`);
  const phases = new Set(steps.map((s) => s.phase));
  for (const p of PHASES) assert.ok(phases.has(p), `a ${p} step`);
  // The HTTP exchanges happen phase by phase, in the flow's order.
  const httpPhases = steps.filter((s) => s.kind === 'http').map((s) => s.phase);
  assert.deepEqual(httpPhases.filter((p, i) => p !== httpPhases[i - 1]), PHASES);
  assert.equal(steps.at(-1).kind, 'done');

  // The sequence diagram: one arrow per step, HTTP arrows between the right parties.
  const arrows = await page.$$eval(id('oauth-arrow'), (els) =>
    els.map((e) => ({ seq: Number(e.dataset.seq), from: e.dataset.from, to: e.dataset.to, kind: e.dataset.kind, status: e.dataset.status ?? null, text: e.textContent })),
  );
  assert.equal(arrows.length, steps.length);
  const probe = arrows.find((a) => a.kind === 'http');
  assert.deepEqual([probe.from, probe.to, probe.status], ['client', 'mcpServer', '401']);
  assert.match(probe.text, /POST \/mcp/);
  const httpTo = (to, re) => arrows.find((a) => a.kind === 'http' && a.to === to && re.test(a.text));
  assert.ok(httpTo('mcpServer', /GET \/\.well-known\/oauth-protected-resource/), 'resource metadata arrow');
  assert.ok(httpTo('authorizationServer', /GET \/\.well-known\/oauth-authorization-server/), 'AS metadata arrow');
  const register = httpTo('authorizationServer', /POST \/register/);
  assert.equal(register?.status, '201');
  const tokenArrow = httpTo('authorizationServer', /POST \/token/);
  assert.equal(tokenArrow?.status, '200');
  const verify = arrows.filter((a) => a.kind === 'http' && a.to === 'mcpServer').at(-1);
  assert.equal(verify.status, '200');
  for (const lane of ['client', 'mcpServer', 'authorizationServer']) await page.waitForSelector(id(`oauth-lane-${lane}`));

  // A masked token in the summary, the same the API reports.
  const token = await page.innerText(id('oauth-result-token'));
  assert.match(token, /^Bearer \S{0,4}… \(\d+ chars\)$/);
  const apiRun = await mcplab.api('GET', `/api/oauth/debug/${runId}`);
  assert.equal(apiRun.body.state, 'succeeded');
  assert.equal(token, `Bearer ${apiRun.body.result.accessToken}`);

  // The probe's exchange, collapsed at first, shows the 401 with its JSON body pretty-printed.
  const first = page.locator(`${id('oauth-step')}[data-kind="http"]`).first();
  const exchange = first.locator(id('oauth-step-http'));
  assert.equal(await exchange.evaluate((d) => d.open), false);
  await exchange.locator('summary').click();
  const response = first.locator(id('oauth-http-response'));
  assert.match(await response.innerText(), /401/);
  assert.match(await response.innerText(), /\n\s+"error": "invalid_token"/);

  // The diagram's step number selects the step in the list and opens its exchange.
  await page.click(`${id('oauth-diagram-step')}[data-seq="${tokenArrow.seq}"]`);
  const tokenStep = page.locator(`${id('oauth-step')}[data-seq="${tokenArrow.seq}"]`);
  await page.waitForSelector(`${id('oauth-step')}.focused[data-seq="${tokenArrow.seq}"]`);
  assert.equal(await tokenStep.locator(id('oauth-step-http')).evaluate((d) => d.open), true);
  // The token endpoint's response is masked on the way (no token in full on the page).
  assert.match(await tokenStep.locator(id('oauth-http-response')).innerText(), /"access_token": "\S{0,4}… \(\d+ chars\)"/);

  // The run is listed under recent runs.
  await page.waitForSelector(`${id(`oauth-recent-${runId}`)}[data-state="succeeded"]`);
  await page.evaluate(() => document.querySelector('.page-wrap').scrollTo(0, 0));
  await shot(page, 'oauth-01-debugger-succeeded');
});

test('interactive debugger run: the sign-in tab goes through the authorization server and back to #/oauth/<runId>', async () => {
  const { page, context } = app;
  // The Start click opens the sign-in tab at once; the run sends it to the authorization page.
  const popupOpened = context.waitForEvent('page');
  await startRun(page, dcr.url, { interactive: true });
  const popup = await popupOpened;
  await page.waitForSelector(`${id('oauth-run')}[data-state="succeeded"]`, { timeout: 30000 });
  const runId = runIdOf(page.url());
  // The authorization server redirected the tab to /oauth/callback, which sent it to the run.
  await popup.waitForURL((u) => u.hash === `#/oauth/${runId}`, { timeout: 30000 });
  await popup.waitForSelector(`${id('oauth-run')}[data-state="succeeded"][data-run-id="${runId}"]`, { timeout: 30000 });
  const kinds = await popup.$$eval(id('oauth-step'), (els) => els.map((e) => e.dataset.kind));
  assert.ok(kinds.filter((k) => k === 'browser').length >= 2, 'the browser step and the redirect');
  await shot(popup, 'oauth-02-interactive-landed');
  await popup.close();

  // When the browser refuses to open a tab, the page offers the authorization page as a link.
  await page.evaluate(() => {
    window.__realOpen = window.open;
    window.open = () => null;
  });
  try {
    await startRun(page, dcr.url, { interactive: true });
    await page.waitForSelector(id('oauth-awaiting-browser'), { timeout: 30000 });
    const runId2 = runIdOf(page.url());
    assert.notEqual(runId2, runId);
    await page.waitForSelector(`${id('oauth-run')}[data-state="running"]`);
    await page.evaluate(() => document.querySelector('.page-wrap').scrollTo(0, 0));
    await shot(page, 'oauth-03-waiting-for-browser');
    const tab = context.waitForEvent('page');
    await page.click(id('oauth-open-authorization'));
    const signIn = await tab;
    await page.waitForSelector(`${id('oauth-run')}[data-state="succeeded"][data-run-id="${runId2}"]`, { timeout: 30000 });
    assert.equal(await page.locator(id('oauth-awaiting-browser')).count(), 0);
    await signIn.waitForURL((u) => u.hash === `#/oauth/${runId2}`, { timeout: 30000 });
    // Opened by a plain link (no opener, so no copy of this tab's sign-in): it says where the
    // result is instead of showing mcplab.
    await signIn.waitForSelector(id('unauthorized'));
    assert.match(await signIn.innerText(id('unauthorized')), /tab that started the sign-in/);
    await signIn.close();
  } finally {
    await page.evaluate(() => {
      window.open = window.__realOpen;
    });
  }
});

test('a broken setup shows the failing step with the fix in plain words', async () => {
  const { page, context } = app;
  // Interactive: the tab the Start click opened is closed again when the run fails first.
  const popupOpened = context.waitForEvent('page');
  await startRun(page, broken.url, { interactive: true });
  const popup = await popupOpened;
  await page.waitForSelector(`${id('oauth-run')}[data-state="failed"]`, { timeout: 30000 });
  if (!popup.isClosed()) await popup.waitForEvent('close', { timeout: 10000 });

  const message = await page.innerText(id('oauth-failure-message'));
  assert.match(message, /`resource` \(https:\/\/other\.example\.com\/mcp\) does not match the server URL/);
  const fix = await page.innerText(id('oauth-failure-fix'));
  assert.match(fix, /How to fix/i);
  assert.ok(fix.includes(`"resource": "${broken.url}"`), fix);

  const failed = page.locator(`${id('oauth-step')}[data-kind="failed"]`);
  assert.equal(await failed.count(), 1);
  assert.equal(await failed.getAttribute('data-phase'), 'resourceMetadata');
  assert.match(await failed.locator(id('oauth-step-fix')).innerText(), /protected resource metadata/);
  const seq = await failed.getAttribute('data-seq');
  assert.equal(await page.getAttribute(`${id('oauth-arrow')}[data-seq="${seq}"]`, 'data-kind'), 'failed');
  // No authorization server was contacted.
  assert.equal(await page.locator(id('oauth-lane-authorizationServer')).count(), 0);
  await page.click(id('oauth-failure-step'));
  await page.waitForSelector(`${id('oauth-step')}.focused[data-seq="${seq}"]`);
  await page.evaluate(() => document.querySelector('.page-wrap').scrollTo(0, 0));
  await shot(page, 'oauth-04-broken-resource');
});

test('a server that asks for no authorization is reported as not required, not failed', async () => {
  const { page } = app;
  await startRun(page, open.url, { interactive: false });
  await page.waitForSelector(`${id('oauth-run')}[data-state="notRequired"]`, { timeout: 30000 });
  await page.waitForSelector(id('oauth-not-required'));
  assert.equal(await page.locator(`${id('oauth-step')}[data-kind="failed"]`).count(), 0);
  assert.equal(await page.locator(id('oauth-failure-message')).count(), 0);
  // Nothing was registered or authorized: the authorization server never saw the client.
  assert.equal(await page.locator(`${id('oauth-step')}[data-phase="registration"]`).count(), 0);
  assert.equal(await page.locator(`${id('oauth-step')}[data-phase="authorization"]`).count(), 0);
  await shot(page, 'oauth-05-not-required');
});

test('Servers page: an OAuth server asks for a sign-in, signs in through the callback, and signs out', async () => {
  const { page, context } = app;
  await page.click(id('nav-servers'));
  await page.click(id('server-add'));
  await page.fill(id('server-form-name'), 'remote');
  await page.click(id('server-form-type-http'));
  await page.fill(id('server-form-url'), dcr.url);
  await page.click(id('server-form-oauth'));
  await page.selectOption(id('server-form-oauth-registration'), 'dcr');
  await page.fill(id('server-form-oauth-scope'), 'mcp:basic');
  await shot(page, 'oauth-05-server-form');
  await page.click(id('server-form-save'));
  await page.waitForSelector(id('server-row-remote'));
  const saved = await mcplab.api('GET', '/api/servers/remote');
  assert.deepEqual(saved.body.config.oauth, { registration: 'dcr', scope: 'mcp:basic' });

  await page.click(`${id('server-row-remote')} >> text=remote`);
  await page.waitForSelector(`${id('server-oauth')}[data-state="signedOut"]`);
  // Adding connects other servers at once; one with OAuth settings waits for the user to
  // start the sign-in (no registration or sign-in nobody asked for yet).
  assert.equal(saved.body.status.state, 'disconnected');
  assert.equal(await page.getAttribute(id('status-remote'), 'data-state'), 'disconnected');
  assert.equal(await page.locator(id('signin-required-remote')).count(), 0);

  // Connecting needs a sign-in: the row says so.
  await page.click(id('connect-remote'));
  await page.waitForSelector(id('signin-required-remote'), { timeout: 30000 });
  await page.waitForSelector(`${id('server-oauth')}[data-state="required"]`);
  await shot(page, 'oauth-06-signin-required');

  // Sign in: a tab goes to the authorization server, which redirects to mcplab's callback,
  // which sends it to #/servers/remote; the connection goes on by itself.
  const popupOpened = context.waitForEvent('page');
  await page.click(id('signin-remote'));
  const popup = await popupOpened;
  await page.waitForSelector(`${id('status-remote')}[data-state="connected"]`, { timeout: 30000 });
  await popup.waitForURL((u) => u.hash === '#/servers/remote', { timeout: 30000 });
  await popup.waitForSelector(`${id('server-detail-remote')} ${id('server-oauth')}[data-state="signedIn"]`, { timeout: 30000 });
  await popup.close();
  assert.equal(await page.locator(id('signin-required-remote')).count(), 0);

  await page.waitForSelector(`${id('server-oauth')}[data-state="signedIn"]`, { timeout: 30000 });
  const token = await page.innerText(id('server-oauth-token'));
  assert.match(token, /^\S{0,4}… \(\d+ chars\)$/);
  const status = await mcplab.api('GET', '/api/servers/remote/oauth');
  assert.equal(status.body.signedIn, true);
  assert.equal(token, status.body.accessToken);
  assert.match(await page.innerText(id('server-oauth-scope')), /mcp:basic/);
  assert.match(await page.innerText(id('server-oauth-registration')), /dcr/);
  assert.match(await page.innerText(id('server-oauth-expiry')), /in \d+ (s|min|h)/);
  assert.equal(await page.innerText(id('server-oauth-issuer')), dcr.issuer);
  await page.click(`${id('server-oauth-steps')} summary`);
  await page.waitForSelector(`${id('server-oauth-steps')} ${id('oauth-step')}[data-kind="done"], ${id('server-oauth-steps')} ${id('oauth-step')}[data-phase="token"]`);
  await shot(page, 'oauth-07-signed-in');

  // Sign out: tokens and registration forgotten, the server disconnected.
  await page.click(id('server-oauth-signout'));
  await page.waitForSelector(`${id('server-oauth')}[data-state="signedOut"]`, { timeout: 30000 });
  await page.waitForSelector(`${id('status-remote')}[data-state="disconnected"]`, { timeout: 30000 });
  const after = await mcplab.api('GET', '/api/servers/remote/oauth');
  assert.equal(after.body.signedIn, false);
  assert.equal(after.body.clientId, null);
  await shot(page, 'oauth-08-signed-out');

  // The edit dialog keeps the OAuth settings.
  await page.click(id('edit-remote'));
  assert.equal(await page.inputValue(id('server-form-oauth-registration')), 'dcr');
  assert.equal(await page.inputValue(id('server-form-oauth-scope')), 'mcp:basic');
  await page.keyboard.press('Escape');
  await page.waitForSelector(id('server-form'), { state: 'detached' });

  // "Open in the OAuth debugger" hands the server's URL and settings to the debugger's form.
  await page.click(id('server-oauth-debug'));
  await page.waitForSelector(id('oauth-page'));
  assert.equal(await page.inputValue(id('oauth-url')), dcr.url);
  assert.equal(await page.inputValue(id('oauth-registration')), 'dcr');
  assert.equal(await page.inputValue(id('oauth-scope')), 'mcp:basic');
});

test('no page errors', () => {
  assert.deepEqual(app.errors, []);
});

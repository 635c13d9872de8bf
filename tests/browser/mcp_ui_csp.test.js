// An MCP-UI Remote DOM resource renders and acts under the strict CSP of mcplab's page
// (`script-src 'self'`: no inline script, no eval). @mcp-ui/client's own Remote DOM renderer
// runs an inline script in a srcdoc frame inside the page, which that policy stops; mcplab
// runs the script on the sandbox origin instead and only mirrors what it builds. The test
// puts the policy on the page's documents itself when the server does not send one yet (the
// same policy as mcplab's own), and judges by what the demo server got: the Remote DOM
// button's `tool` action must arrive as a `tools/call` of `bump_counter`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { openApp, shot, startMcplab } from './harness.js';
import { id, sent, waitConnected, waitUntil } from './ui_helpers.js';

let mcplab;
let app;
const violations = [];

/** The main origin's policy (what the server sends on every response of that origin). */
function strictCsp(frameSrc) {
  return (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; " +
    `font-src 'self' data:; connect-src 'self'; frame-src ${frameSrc}; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`
  );
}

/** A browser whose mcplab documents carry `policy` (added by the test, on document responses
 * only). A document the test fulfils has no IP address space, so Chromium's Local Network
 * Access checks would refuse its loopback frames; they are off in this browser only. */
async function browserWithPolicy(policy) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-features=LocalNetworkAccessChecks'],
  });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
  await context.route(`${mcplab.base}/**`, async (route) => {
    if (route.request().resourceType() !== 'document') return route.continue();
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': policy } });
  });
  const page = await context.newPage();
  await page.goto(mcplab.url);
  return { browser, context, page };
}

before(async () => {
  mcplab = await startMcplab();
  const host = await mcplab.api('GET', '/api/host');
  const template = host.body.sandboxOriginTemplate;
  assert.ok(template, 'the sandbox runs');
  // The server's own policy when it sends one (it must not allow inline script), else ours.
  const sentCsp = (await fetch(`${mcplab.base}/`)).headers.get('content-security-policy');
  if (sentCsp) {
    // 'unsafe-eval' is there for the schema validator (Ajv); nothing inline, by hash or nonce.
    assert.match(sentCsp, /script-src 'self'( 'unsafe-eval')?;/, `the server's policy allows inline script: ${sentCsp}`);
    app = await openApp(mcplab);
  } else {
    app = await browserWithPolicy(strictCsp(template.replace('{label}', '*')));
  }
  const { page } = app;
  // Violations in mcplab's own document (the apps' documents report their own).
  await page.exposeFunction('__cspViolation', (v) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => window.__cspViolation?.({ directive: e.effectiveDirective, blocked: e.blockedURI }));
  });
  // Reload (signed in already) so the listener is in place from the start.
  await page.goto(`${mcplab.base}/`);
  await waitConnected(mcplab, ['demo']);
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
});

test('a Remote DOM resource renders and its button calls the tool under script-src self', async () => {
  const { page } = app;
  // The policy is in force in this page: an inline script does not run.
  assert.equal(
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inlineRan = true';
      document.head.append(s);
      return window.__inlineRan === true;
    }),
    false,
  );
  // …and reports reach the test (the probe's own report), so silence below means something.
  await waitUntil(() => violations.some((v) => v.blocked === 'inline'), 'the probe to be reported');
  const seen = violations.length;
  await page.click(id('nav-tools'));
  await page.click(id('tool-item-show_mcp_ui'));
  await page.locator(id('tool-form')).waitFor();
  await page.click(id('tool-call'));
  const remote = page.locator(`${id('mcp-ui-resource')}[data-mime^="application/vnd.mcp-ui.remote-dom"]`);
  await remote.getByText('Remote DOM says hi').waitFor({ timeout: 20000 });

  const before = (await sent(mcplab, 'demo', 'tools/call')).filter((f) => f.msg.params?.name === 'bump_counter').length;
  await remote.getByRole('button', { name: 'Remote button' }).click();
  await waitUntil(
    async () => (await sent(mcplab, 'demo', 'tools/call')).filter((f) => f.msg.params?.name === 'bump_counter').length > before,
    'the Remote DOM button to call bump_counter on the server',
  );
  // The script ran on the sandbox origin: mcplab's page blocked no inline script and no frame
  // for it. (Bundled libraries probing for eval, e.g. zod, are refused and fall back.)
  assert.deepEqual(violations.slice(seen).filter((v) => v.blocked !== 'eval'), []);
  await shot(page, '44-mcp-ui-remote-dom-strict-csp');
});

// Browser tests of app isolation, judged by what the servers saw (their traffic, a loopback hit
// counter, the responses the browser received) and by what the host did, never by what a
// hostile page says about itself. Two hostile apps of two servers ("demo" and "evil", both the
// fixture) share one chat and attack each other: read the other's frame, inject a script into
// the other's proxy that calls a tool as the other, spoof their own proxy (no nonce, a wrong
// nonce, reserved sandbox-* notifications, a second ready). A hostile app that declares
// mcplab's own origins gets them dropped and its requests there get nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { bin, startMcplab, startScriptedLlm, openApp, shot } from './harness.js';
import { startProbeServer, waitFor } from './sinks.js';
import { chooseServers } from './ui_helpers.js';

const id = (name) => `[data-testid="${name}"]`;
const SECRET_A = `secret-of-A-${Math.random().toString(36).slice(2)}`;
const SECRET_B = `secret-of-B-${Math.random().toString(36).slice(2)}`;
const OTHER_LABEL = 'abcdefghij0123456789';

let llm;
let mcplab;
let app;
let probe;
let sandboxPort;
const responses = [];

async function connected(name) {
  await waitFor(`server ${name} to connect`, async () => {
    const servers = await mcplab.api('GET', '/api/servers');
    const s = servers.body.find((x) => x.config.name === name);
    if (s?.status.state === 'failed') throw new Error(`${name} failed: ${s.status.message}`);
    return s?.status.state === 'connected';
  });
}

/** Every JSON-RPC frame text of `server`'s traffic. */
async function traffic(server) {
  const res = await mcplab.api('GET', `/api/servers/${server}/traffic`);
  return res.body.frames.map((f) => f.text);
}

/** The `echo` messages `server` received in tools/call requests. */
async function echoed(server) {
  return (await traffic(server))
    .map((t) => {
      try {
        const m = JSON.parse(t);
        return m.method === 'tools/call' && m.params?.name === 'echo' ? String(m.params.arguments?.message) : null;
      } catch {
        return null;
      }
    })
    .filter((m) => m !== null);
}

const llmRequests = () => llm.requests();

async function chat(text) {
  const { page } = app;
  await page.fill(id('chat-input'), text);
  await page.click(id('chat-send'));
}

before(async () => {
  probe = await startProbeServer();
  llm = await startScriptedLlm([
    {
      call: [
        { id: 'call_a', name: 'evil__show_hostile_app', arguments: { marker: 'A', secret: SECRET_A } },
        { id: 'call_b', name: 'demo__show_hostile_app', arguments: { marker: 'B', secret: SECRET_B } },
      ],
    },
    { reply: ['Both apps are shown.'] },
    {
      call: [
        {
          id: 'call_c',
          name: 'evil__show_hostile_app',
          // The app fills in `{ui}` and `{sandboxPort}`: mcplab's UI and another app's origin.
          arguments: {
            marker: 'C',
            siblings: 0,
            images: ['{ui}/__own-ui-C.png', `http://${OTHER_LABEL}.localhost:{sandboxPort}/__own-app-C.png`, `${probe.url}/declared-C.png`],
            frames: ['{ui}/__own-frame-C', `http://${OTHER_LABEL}.localhost:{sandboxPort}/__own-appframe-C`, `${probe.url}/framed-C`],
          },
        },
      ],
    },
    { reply: ['App C is shown.'] },
  ]);
  mcplab = await startMcplab([], { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: llm.baseUrl });
  const added = await mcplab.api('POST', '/api/servers', { name: 'evil', type: 'stdio', command: bin, args: ['demo-server'] });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  await mcplab.api('POST', '/api/servers/evil/connect');
  await connected('demo');
  await connected('evil');
  const host = await mcplab.api('GET', '/api/host');
  sandboxPort = Number(new URL(host.body.sandboxOriginTemplate.replace('{label}', 'x')).port);
  assert.equal(host.body.sandboxPerApp, true);
  app = await openApp(mcplab);
  app.context.on('response', (r) => responses.push(r.url()));
  const { page } = app;
  await page.click(id('nav-chat'));
  await page.click(id('chat-new'));
  const model = page.locator(id('chat-model'));
  await model.waitFor();
  await model.selectOption(await model.locator('option[value^="openai::"]').first().getAttribute('value'));
  await chooseServers(page, ['demo', 'evil']);
});

after(async () => {
  await app?.browser.close();
  await mcplab?.stop();
  llm?.stop();
  probe?.close();
});

test('two apps of two servers on one page can neither read nor act as each other', async () => {
  const { page } = app;
  await chat('Show both apps.');
  await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 2, `${id('app-frame')}[data-status="ready"]`, { timeout: 30000 });

  // Each app has an origin of its own, on *.localhost (another site than the UI's 127.0.0.1).
  const hosts = await page.locator(id('app-iframe')).evaluateAll((fs) => fs.map((f) => new URL(f.src).host));
  assert.equal(hosts.length, 2);
  for (const h of hosts) assert.match(h, new RegExp(`^[a-z0-9]{16,32}\\.localhost:${sandboxPort}$`));
  assert.notEqual(hosts[0], hosts[1]);

  // Both attacks ran to the end (each app's last call reached its own server).
  await waitFor('both apps to finish', async () => (await echoed('evil')).includes('DONE-A') && (await echoed('demo')).includes('DONE-B'), 30000);
  const evil = await echoed('evil');
  const demo = await echoed('demo');

  // No call reached a server on behalf of the other app.
  assert.ok(!demo.some((m) => m.includes('HIJACK')), `server demo got a call injected by app A: ${demo}`);
  assert.ok(!evil.some((m) => m.includes('HIJACK')), `server evil got a call injected by app B: ${evil}`);
  // What each app could read of the other reached its own server: not the other's secret.
  const leakA = evil.find((m) => m.startsWith('LEAK-by-A:'));
  const leakB = demo.find((m) => m.startsWith('LEAK-by-B:'));
  assert.ok(leakA !== undefined && leakB !== undefined, 'each app reported through its own server');
  assert.ok(!leakA.includes(SECRET_B), `app A read app B: ${leakA}`);
  assert.ok(!leakB.includes(SECRET_A), `app B read app A: ${leakB}`);
  // Messages that do not carry the frame's nonce, or do not come from its proxy, did nothing.
  for (const [server, marker, got] of [['evil', 'A', evil], ['demo', 'B', demo]]) {
    for (const kind of ['NONCELESS', 'WRONGNONCE', 'NULLNONCE', 'DIRECT']) {
      assert.ok(!got.includes(`${kind}-${marker}`), `server ${server} ran ${kind}-${marker}: ${got}`);
    }
  }
  // Reserved sandbox-* notifications count only from the proxy: the app's own (a real CSP
  // violation of its undeclared fetch) shows, none of the spoofed ones.
  const directives = await page.locator(id('app-violation')).evaluateAll((rows) => rows.map((r) => r.getAttribute('data-directive')));
  assert.ok(directives.includes('connect-src'), `the real violation is listed: ${directives}`);
  assert.deepEqual(directives.filter((d) => d.startsWith('spoofed')), []);
  // Both apps still work after the spoofs (a second proxy-ready did not restart anything).
  assert.equal(await page.locator(`${id('app-frame')}[data-status="ready"]`).count(), 2);
  await shot(page, '44-two-hostile-apps');
});

test("declared origins naming mcplab are dropped and the app's requests there get nothing", async () => {
  const { page } = app;
  const ui = mcplab.base;
  const declared = await mcplab.api('POST', '/api/servers/evil/tools/call', {
    name: 'declare_hostile_csp',
    arguments: {
      csp: {
        resourceDomains: [ui, `http://*.localhost:${sandboxPort}`, probe.url],
        frameDomains: [ui, `http://${OTHER_LABEL}.localhost:${sandboxPort}`, probe.url],
        connectDomains: [ui],
      },
    },
  });
  assert.equal(declared.body.error, null, JSON.stringify(declared.body));
  const before = probe.hits.length;
  await chat('Show app C.');
  await waitFor('app C to report', async () => (await echoed('evil')).includes('DONE-C'), 30000);
  // The control: the declared loopback origin was reached, as image and as frame…
  await waitFor('the declared origin to be reached', () => {
    const hits = probe.hits.slice(before);
    return hits.includes('/declared-C.png') && hits.includes('/framed-C');
  });
  // An app's request to another loopback port is cross-site (the app is on *.localhost), so it
  // carries none of mcplab's cookies (review finding 1, attack B).
  for (const r of probe.requests.filter((x) => x.url.endsWith('-C.png') || x.url.endsWith('framed-C'))) {
    assert.ok(!/mcplab/i.test(r.cookie), `the app handed ${r.url} a cookie: ${r.cookie}`);
  }
  // (the browser's response log sees the app frame's requests at all)…
  await waitFor('the response log to show the app frame', () => responses.some((u) => u.endsWith('/declared-C.png')));
  // …mcplab's own origins were not: the browser got no response from them for the app.
  const own = responses.filter((u) => u.includes('__own-'));
  assert.deepEqual(own, [], 'mcplab answered requests of the app');
  // And the user is told which entries were dropped and why.
  const note = await page.locator(id('app-csp-rejected')).last().innerText();
  assert.ok(note.includes(ui), note);
  assert.ok(note.includes(`*.localhost:${sandboxPort}`), note);
  assert.ok(note.includes(`${OTHER_LABEL}.localhost`), note);
  assert.match(note, /may not load from, connect to or frame mcplab/);
  await shot(page, '45-hostile-declares-mcplab');
});

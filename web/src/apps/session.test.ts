// @vitest-environment jsdom
// AppSession against a fake proxy frame: the real AppBridge and ProxyTransport, messages
// posted as the proxy and the app would post them (envelopes with the frame's nonce), and a
// fake host that records what the app asked for. Covers the handshake, delivery order, link
// and download confirmation, display-mode negotiation, and the bridge's binding to its frame
// (wrong window, origin or nonce are ignored).
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppResourceView } from '../api/types.gen';
import type { HostConditions } from './host';
import { AppSession, type AppHost, type ConfirmQuestion } from './session';

const ORIGIN = 'http://abcdefghijklmnopqrst.localhost:4000';

function conditions(patch: Partial<HostConditions> = {}): HostConditions {
  return {
    theme: 'light',
    locale: 'en-US',
    timeZone: 'UTC',
    platform: 'web',
    deviceType: 'desktop',
    hover: true,
    touch: false,
    safeArea: { top: 0, right: 0, bottom: 0, left: 0 },
    availableDisplayModes: ['inline', 'fullscreen'],
    cspMode: 'declared',
    openaiShim: false,
    ...patch,
  };
}

const resource = { html: '<p>app</p>', kind: 'mcpApp', declaredCsp: null, uiMeta: null, csp: '', allow: '', rejected: [], prefersBorder: true } as unknown as AppResourceView;

type Msg = Record<string, any>;

/** The proxy frame and the app inside it, as seen from the host page. */
class FakeFrame {
  readonly iframe = document.body.appendChild(document.createElement('iframe'));
  readonly win = this.iframe.contentWindow as Window;
  /** What the host posted to the frame. */
  readonly received: Msg[] = [];
  nonce: string | null = null;
  session: AppSession | null = null;
  private nextId = 100;

  constructor() {
    vi.spyOn(this.win, 'postMessage').mockImplementation((m: unknown, target?: unknown) => {
      expect(target).toBe(ORIGIN);
      const msg = m as Msg;
      this.received.push(msg);
      if (msg.method === 'ui/notifications/sandbox-resource-ready') this.nonce = msg.params.mcplabNonce;
    });
  }

  /** Posts `data` to the host page as `source` from `origin` (the real frame by default). */
  raw(data: unknown, { source = this.win as unknown, origin = ORIGIN } = {}) {
    window.dispatchEvent(new MessageEvent('message', { data, origin, source: source as Window }));
  }

  fromProxy(message: Msg, nonce: string | null = this.nonce) {
    this.raw({ mcplabProxy: nonce, from: 'proxy', message: { jsonrpc: '2.0', ...message } });
  }

  fromApp(message: Msg, nonce: string | null = this.nonce) {
    this.raw({ mcplabProxy: nonce, from: 'app', message: { jsonrpc: '2.0', ...message } });
  }

  /** Sends a request as the app; resolves with the host's response. */
  async request(method: string, params: Msg = {}): Promise<Msg> {
    const id = this.nextId++;
    this.fromApp({ id, method, params });
    return vi.waitFor(() => {
      const r = this.received.find((m) => m.id === id && !m.method);
      if (!r) throw new Error(`no answer to ${method}`);
      return r;
    });
  }

  sent(method: string): Msg[] {
    return this.received.filter((m) => m.method === method);
  }

  /** Proxy ready → resource → ui/initialize → initialized, until the session is ready. */
  async handshake(appCapabilities: Msg = { availableDisplayModes: ['inline', 'fullscreen', 'pip'] }) {
    const session = this.session;
    if (!session) throw new Error('start a session on this frame first');
    this.fromProxy({ method: 'ui/notifications/sandbox-proxy-ready', params: {} }, null);
    await vi.waitFor(() => expect(this.nonce).toMatch(/^[0-9a-f]{32}$/));
    const init = await this.request('ui/initialize', { appInfo: { name: 'test', version: '1' }, appCapabilities, protocolVersion: '2026-01-26' });
    this.fromApp({ method: 'ui/notifications/initialized', params: {} });
    await vi.waitFor(() => expect(session.getSnapshot().status).toBe('ready'));
    return init;
  }
}

function fakeHost(answer = true) {
  const asked: ConfirmQuestion[] = [];
  const opened: string[] = [];
  const saved: string[] = [];
  const calls: string[] = [];
  const host: AppHost = {
    callTool: async (name) => {
      calls.push(name);
      return { content: [{ type: 'text', text: 'ok' }] };
    },
    readResource: async () => ({ contents: [] }),
    listResources: async () => ({ resources: [] }),
    listResourceTemplates: async () => ({ resourceTemplates: [] }),
    listPrompts: async () => ({ prompts: [] }),
    listTools: async () => [],
    confirm: async (q) => {
      asked.push(q);
      return answer;
    },
    sendMessage: () => null,
    openUrl: (href) => void opened.push(href),
    saveFiles: (files) => files.forEach((f) => saved.push(f.name)),
    log: () => undefined,
    onListChanged: () => () => undefined,
  };
  return { host, asked, opened, saved, calls };
}

const sessions: AppSession[] = [];
function start(frame: FakeFrame, host: AppHost, c = conditions()) {
  const s = new AppSession({ server: 'demo', uri: 'ui://demo/app.html', kind: 'mcpApp', frame: frame.win, origin: ORIGIN, resource, toolInfo: { id: 'c1', tool: { name: 'show' } }, conditions: c }, host);
  sessions.push(s);
  frame.session = s;
  s.start();
  return s;
}

afterEach(() => {
  sessions.splice(0).forEach((s) => s.dispose());
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('AppSession', () => {
  it('sends the resource with a nonce once the proxy is ready, and is ready after initialize', async () => {
    const frame = new FakeFrame();
    const s = start(frame, fakeHost().host);
    const init = await frame.handshake();
    expect(frame.sent('ui/notifications/sandbox-resource-ready')[0].params.html).toContain('<p>app</p>');
    expect(init.result.hostContext).toMatchObject({ theme: 'light', locale: 'en-US', toolInfo: { id: 'c1' } });
    await vi.waitFor(() => expect(s.getSnapshot().status).toBe('ready'));
  });

  it('delivers partial input, input, then result, each once and in that order; nothing after a cancel', async () => {
    const frame = new FakeFrame();
    const s = start(frame, fakeHost().host);
    s.update({ partialArgs: '{"a": 1' });
    await frame.handshake();
    s.update({ partialArgs: '{"a": 1, "b"' });
    s.update({ partialArgs: '{"a": 1, "b": 2}', args: { a: 1, b: 2 } });
    s.update({ args: { a: 1, b: 2 }, result: { content: [], structuredContent: { n: 1 } } });
    s.update({ args: { a: 1, b: 2 }, result: { content: [], structuredContent: { n: 1 } }, cancelled: 'late' });
    await vi.waitFor(() => expect(s.getSnapshot().delivered).toBe(true));
    const order = frame.received.filter((m) => String(m.method).startsWith('ui/notifications/tool-')).map((m) => m.method);
    const partials = order.filter((m) => m === 'ui/notifications/tool-input-partial').length;
    expect(partials).toBeGreaterThanOrEqual(1);
    expect(order).toEqual([...Array(partials).fill('ui/notifications/tool-input-partial'), 'ui/notifications/tool-input', 'ui/notifications/tool-result']);
    expect(frame.sent('ui/notifications/tool-input-partial')[0].params.arguments).toEqual({ a: 1 });
    expect(frame.sent('ui/notifications/tool-input')[0].params.arguments).toEqual({ a: 1, b: 2 });

    const frame2 = new FakeFrame();
    const s2 = start(frame2, fakeHost().host);
    await frame2.handshake();
    s2.update({ args: {}, cancelled: 'the user stopped it' });
    s2.update({ args: {}, cancelled: 'the user stopped it', result: { content: [] } });
    await vi.waitFor(() => expect(s2.getSnapshot().delivered).toBe(true));
    expect(frame2.sent('ui/notifications/tool-cancelled').map((m) => m.params.reason)).toEqual(['the user stopped it']);
    expect(frame2.sent('ui/notifications/tool-result')).toEqual([]);
  });

  it('opens a link only after the user agrees, and never a non-http link', async () => {
    const frame = new FakeFrame();
    const yes = fakeHost(true);
    start(frame, yes.host);
    await frame.handshake();
    expect((await frame.request('ui/open-link', { url: 'https://example.com/a' })).result).toEqual({});
    expect(yes.asked).toEqual([{ kind: 'link', title: 'Open a link from the app?', detail: 'https://example.com/a' }]);
    expect(yes.opened).toEqual(['https://example.com/a']);
    expect((await frame.request('ui/open-link', { url: 'javascript:alert(1)' })).result).toEqual({ isError: true });
    expect(yes.asked).toHaveLength(1);

    const frame2 = new FakeFrame();
    const no = fakeHost(false);
    start(frame2, no.host);
    await frame2.handshake();
    expect((await frame2.request('ui/open-link', { url: 'https://example.com/b' })).result).toEqual({ isError: true });
    expect(no.opened).toEqual([]);
  });

  it('advertises exactly the profile host capabilities and refuses the rest with the spec errors', async () => {
    const frame = new FakeFrame();
    const mine = fakeHost(true);
    start(frame, mine.host);
    const full = await frame.handshake();
    expect(Object.keys(full.result.hostCapabilities).sort()).toEqual(['downloadFile', 'logging', 'message', 'openLinks', 'sandbox', 'serverResources', 'serverTools', 'updateModelContext']);
    expect(full.result.hostCapabilities.serverTools).toEqual({ listChanged: true });

    const frame2 = new FakeFrame();
    const narrow = fakeHost(true);
    const hostCapabilities = { openLinks: false, downloadFile: false, serverTools: 'off' as const, serverResources: 'on' as const, logging: true, message: null, updateModelContext: ['text' as const] };
    const s = start(frame2, narrow.host, conditions({ hostCapabilities }));
    const init = await frame2.handshake();
    expect(init.result.hostCapabilities).toEqual({ sandbox: {}, serverResources: {}, logging: {}, updateModelContext: { text: {} } });
    const link = await frame2.request('ui/open-link', { url: 'https://example.com/a' });
    expect(link.error).toMatchObject({ code: -32000 });
    expect(link.error.message).toContain('openLinks');
    expect(narrow.asked).toEqual([]);
    expect(narrow.opened).toEqual([]);
    expect(s.getSnapshot().notice).toContain('ui/open-link');
    expect((await frame2.request('tools/call', { name: 'add', arguments: {} })).error).toMatchObject({ code: -32601 });
    expect(narrow.calls).toEqual([]);
    expect((await frame2.request('ui/message', { role: 'user', content: [{ type: 'text', text: 'hi' }] })).error).toMatchObject({ code: -32000 });
    const ctx = await frame2.request('ui/update-model-context', { content: [{ type: 'text', text: 'x' }], structuredContent: { a: 1 } });
    expect(ctx.error.message).toContain('structuredContent');
    expect((await frame2.request('ui/update-model-context', { content: [{ type: 'text', text: 'x' }] })).result).toEqual({});
    expect((await frame2.request('resources/read', { uri: 'ui://x' })).result).toEqual({ contents: [] });
  });

  it('saves downloads only after the user agrees, named from the URI', async () => {
    const frame = new FakeFrame();
    const no = fakeHost(false);
    start(frame, no.host);
    await frame.handshake();
    const contents = [{ type: 'resource', resource: { uri: 'file:///x/../report <1>.txt', mimeType: 'text/plain', text: 'hi' } }];
    expect((await frame.request('ui/download-file', { contents })).result).toEqual({ isError: true });
    expect(no.asked[0]).toMatchObject({ kind: 'download', detail: 'report _1_.txt' });
    expect(no.saved).toEqual([]);

    const frame2 = new FakeFrame();
    const yes = fakeHost(true);
    start(frame2, yes.host);
    await frame2.handshake();
    expect((await frame2.request('ui/download-file', { contents })).result).toEqual({});
    expect(yes.saved).toEqual(['report _1_.txt']);
  });

  it('grants a display mode only when the host offers it and the app declared it', async () => {
    const frame = new FakeFrame();
    const s = start(frame, fakeHost().host, conditions({ availableDisplayModes: ['inline', 'fullscreen'] }));
    await frame.handshake({ availableDisplayModes: ['inline', 'fullscreen', 'pip'] });
    expect((await frame.request('ui/request-display-mode', { mode: 'pip' })).result).toEqual({ mode: 'inline' });
    expect((await frame.request('ui/request-display-mode', { mode: 'fullscreen' })).result).toEqual({ mode: 'fullscreen' });
    expect(s.getSnapshot().mode).toBe('fullscreen');
    await vi.waitFor(() => expect(frame.sent('ui/notifications/host-context-changed').some((m) => m.params.displayMode === 'fullscreen')).toBe(true));

    const frame2 = new FakeFrame();
    const s2 = start(frame2, fakeHost().host);
    await frame2.handshake({ availableDisplayModes: ['inline'] });
    expect((await frame2.request('ui/request-display-mode', { mode: 'fullscreen' })).result).toEqual({ mode: 'inline' });
    // The host changing the mode wins over what the app asked for.
    s2.setConditions(conditions({ displayMode: 'fullscreen' }));
    expect(s2.getSnapshot().mode).toBe('fullscreen');
  });

  it('ignores messages from another window, another origin, without or with a wrong nonce', async () => {
    const frame = new FakeFrame();
    const host = fakeHost(true);
    const s = start(frame, host.host);
    const other = new FakeFrame();
    // A proxy-ready from the wrong window or origin is dropped where it arrives (synchronously).
    const ready = { mcplabProxy: null, from: 'proxy', message: { jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} } };
    frame.raw(ready, { source: other.win });
    frame.raw(ready, { origin: 'http://evil.localhost:4000' });
    // Not from our window or origin at all: not even counted as an attempt on this frame.
    expect(s.dropped).toBe(0);
    await frame.handshake();

    const forged = (nonce: string | null, source: unknown = frame.win, origin = ORIGIN) =>
      frame.raw({ mcplabProxy: nonce, from: 'app', message: { jsonrpc: '2.0', id: 900, method: 'tools/call', params: { name: 'steal', arguments: {} } } }, { source, origin });
    forged(null);
    forged('0'.repeat(32));
    forged(frame.nonce, other.win);
    forged(frame.nonce, frame.win, 'http://zzzzzzzzzzzzzzzzzzzz.localhost:4000');
    // A bare JSON-RPC message (what the app could post past the proxy) is not an envelope.
    frame.raw({ jsonrpc: '2.0', id: 901, method: 'tools/call', params: { name: 'steal', arguments: {} } });
    // Reserved sandbox methods count only from the proxy, never relayed from the app.
    frame.fromApp({ method: 'ui/notifications/sandbox-csp-violation', params: { directive: 'spoofed', blockedUri: 'x' } });
    // A second proxy-ready does not make the host send the resource (or a nonce) again.
    frame.fromProxy({ method: 'ui/notifications/sandbox-proxy-ready', params: {} }, null);
    frame.fromProxy({ method: 'ui/notifications/sandbox-proxy-ready', params: {} });
    // The real frame with the right nonce still works; nothing forged reached the host.
    const ok = await frame.request('tools/call', { name: 'allowed', arguments: {} });
    expect(ok.result.content[0].text).toBe('ok');
    expect(host.calls).toEqual(['allowed']);
    expect(frame.received.some((m) => m.id === 900 || m.id === 901)).toBe(false);
    expect(frame.sent('ui/notifications/sandbox-resource-ready')).toHaveLength(1);
    // Everything from our frame's window and origin that failed the binding was counted.
    expect(s.dropped).toBe(6);
  });
});

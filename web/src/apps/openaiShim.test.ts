// Tests for src/apps/openaiShim.ts: the generated window.openai shim, evaluated in a fake window.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openaiShimSource, type ShimInit } from './openaiShim';

type Msg = Record<string, any>;

function boot(init: ShimInit) {
  const sent: Msg[] = [];
  const targets: string[] = [];
  const parent = { postMessage: (m: Msg, t: string) => { sent.push(m); targets.push(t); } };
  const win = Object.assign(new EventTarget(), { parent, CustomEvent }) as any;
  const events: { type: string; detail: any }[] = [];
  for (const type of ['openai:set_globals', 'openai:tool_response']) {
    win.addEventListener(type, (e: CustomEvent) => events.push({ type, detail: e.detail }));
  }
  new Function('window', openaiShimSource(init))(win);
  const deliver = (data: unknown, source: unknown = parent) =>
    win.dispatchEvent(Object.assign(new Event('message'), { data, source }));
  const flush = () => new Promise((r) => setTimeout(r, 0));
  return { win, sent, targets, events, deliver, flush, openai: win.openai as any };
}

afterEach(() => { vi.useRealTimers(); });

describe('openaiShimSource', () => {
  it('performs the MCP Apps handshake, then flushes queued messages', async () => {
    const t = boot({ performHandshake: true });
    expect(t.sent).toEqual([{ jsonrpc: '2.0', id: 'openai-shim-1', method: 'ui/initialize', params: {
      appInfo: { name: 'openai-apps-sdk-shim', version: '1' },
      appCapabilities: { availableDisplayModes: ['inline', 'fullscreen', 'pip'] },
      protocolVersion: '2026-01-26',
    } }]);
    expect(t.targets).toEqual(['*']);
    t.openai.setWidgetState({ a: 1 }); // queued until initialized
    expect(t.sent).toHaveLength(1);
    t.deliver({ jsonrpc: '2.0', id: 'openai-shim-1', result: {
      protocolVersion: '2026-01-26', hostCapabilities: {}, hostInfo: { name: 'h', version: '1' },
      hostContext: { theme: 'dark', locale: 'fr-FR' },
    } });
    await t.flush();
    expect(t.sent.slice(1)).toEqual([
      { jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} },
      { jsonrpc: '2.0', method: 'openai/setWidgetState', params: { state: { a: 1 } } },
    ]);
    expect(t.openai.theme).toBe('dark');
    expect(t.openai.locale).toBe('fr-FR');
  });

  it('sends nothing without the handshake and leaves pings to the app', () => {
    const t = boot({ performHandshake: false });
    expect(t.sent).toEqual([]);
    t.deliver({ jsonrpc: '2.0', id: 7, method: 'ping', params: {} });
    t.deliver({ jsonrpc: '2.0', id: 8, method: 'ui/resource-teardown', params: {} });
    expect(t.sent).toEqual([]);
  });

  it('answers ping and teardown when it owns the handshake', () => {
    const t = boot({ performHandshake: true });
    t.deliver({ jsonrpc: '2.0', id: 7, method: 'ping', params: {} });
    t.deliver({ jsonrpc: '2.0', id: 'x', method: 'ui/resource-teardown', params: { reason: 'bye' } });
    expect(t.sent.slice(1)).toEqual([{ jsonrpc: '2.0', id: 7, result: {} }, { jsonrpc: '2.0', id: 'x', result: {} }]);
  });

  it('defines window.openai (non-writable, non-configurable) with defaults, init and the webplus alias', () => {
    const t = boot({ performHandshake: false, toolInput: { q: 1 }, widgetState: { s: 2 }, globals: { theme: 'dark', maxHeight: 400 } });
    const d = Object.getOwnPropertyDescriptor(t.win, 'openai')!;
    expect(d.writable).toBe(false);
    expect(d.configurable).toBe(false);
    expect(t.win.webplus).toBe(t.openai);
    expect(t.openai).toMatchObject({
      toolInput: { q: 1 }, toolOutput: null, toolResponseMetadata: null, widgetState: { s: 2 },
      theme: 'dark', locale: 'en-US', displayMode: 'inline', maxHeight: 400,
      safeArea: { insets: { top: 0, right: 0, bottom: 0, left: 0 } },
      view: { mode: 'inline', params: null },
    });
    for (const k of ['uploadFile', 'getFileDownloadUrl', 'requestCheckout', 'setOpenInAppUrl']) {
      expect(t.openai[k]).toBeUndefined();
    }
  });

  it('maps host-context-changed onto globals and fires set_globals with changed keys only', () => {
    const t = boot({ performHandshake: false });
    t.deliver({ jsonrpc: '2.0', method: 'ui/notifications/host-context-changed', params: {
      theme: 'dark', locale: 'de-DE', displayMode: 'fullscreen', containerDimensions: { maxHeight: 640 },
      safeAreaInsets: { top: 1, right: 2, bottom: 3, left: 4 }, platform: 'mobile',
      deviceCapabilities: { touch: true, hover: false },
    } });
    expect(t.events).toHaveLength(1);
    expect(t.events[0].detail.globals).toEqual({
      theme: 'dark', locale: 'de-DE', displayMode: 'fullscreen', maxHeight: 640,
      safeArea: { insets: { top: 1, right: 2, bottom: 3, left: 4 } },
      userAgent: { device: { type: 'mobile' }, capabilities: { hover: false, touch: true } },
    });
    // A partial update merges: only the changed keys are reported.
    t.deliver({ jsonrpc: '2.0', method: 'ui/notifications/host-context-changed', params: { theme: 'light', containerDimensions: { height: 300 } } });
    expect(t.events[1].detail.globals).toEqual({ theme: 'light', maxHeight: 300 });
    t.deliver({ jsonrpc: '2.0', method: 'ui/notifications/host-context-changed', params: { deviceType: 'tablet' } });
    expect(t.events[2].detail.globals).toEqual({ userAgent: { device: { type: 'tablet' }, capabilities: { hover: false, touch: true } } });
    t.deliver({ jsonrpc: '2.0', method: 'ui/notifications/host-context-changed', params: { theme: 'light' } });
    expect(t.events).toHaveLength(3);
    t.deliver({ jsonrpc: '2.0', method: 'ui/notifications/host-context-changed', params: { platform: 'web', deviceType: null } });
    expect(t.openai.userAgent.device.type).toBe('desktop');
  });

  it('maps tool-input, tool-input-partial and tool-result', () => {
    const t = boot({ performHandshake: false });
    t.deliver({ jsonrpc: '2.0', method: 'ui/notifications/tool-input-partial', params: { arguments: { city: 'Pa' } } });
    t.deliver({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: { city: 'Paris' } } });
    expect(t.openai.toolInput).toEqual({ city: 'Paris' });
    t.deliver({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: {
      content: [{ type: 'text', text: 'ok' }], structuredContent: { temp: 21 }, _meta: { secret: 1 },
    } });
    expect(t.openai.toolOutput).toEqual({ temp: 21 });
    expect(t.openai.toolResponseMetadata).toEqual({ secret: 1 });
    expect(t.events.map((e) => e.detail.globals)).toEqual([
      { toolInput: { city: 'Pa' } },
      { toolInput: { city: 'Paris' } },
      { toolOutput: { temp: 21 }, toolResponseMetadata: { secret: 1 } },
    ]);
    // Same result again: nothing changed, no event; a result without structuredContent → null.
    t.deliver({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: { content: [], structuredContent: { temp: 21 }, _meta: { secret: 1 } } });
    expect(t.events).toHaveLength(3);
    t.deliver({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: { content: [], _meta: { secret: 1 } } });
    expect(t.events[3].detail.globals).toEqual({ toolOutput: null });
  });

  it('ignores messages not from the parent and non-JSON-RPC data', () => {
    const t = boot({ performHandshake: false });
    const n = { jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: { a: 1 } } };
    t.deliver(n, {});
    t.deliver({ ...n, jsonrpc: '1.0' });
    t.deliver(JSON.stringify(n));
    expect(t.events).toEqual([]);
  });

  it('routes callTool replies by string id and fires tool_response', async () => {
    const t = boot({ performHandshake: false });
    const ok = t.openai.callTool('weather', { city: 'Paris' });
    const bad = t.openai.callTool('broken');
    expect(t.sent).toEqual([
      { jsonrpc: '2.0', id: 'openai-shim-1', method: 'tools/call', params: { name: 'weather', arguments: { city: 'Paris' } } },
      { jsonrpc: '2.0', id: 'openai-shim-2', method: 'tools/call', params: { name: 'broken', arguments: {} } },
    ]);
    const result = { content: [{ type: 'text', text: 'sunny' }], isError: true };
    t.deliver({ jsonrpc: '2.0', id: 1, result: { wrong: true } }); // the page's own numeric id
    t.deliver({ jsonrpc: '2.0', id: 'openai-shim-2', error: { code: -32000, message: 'tool exploded' } });
    t.deliver({ jsonrpc: '2.0', id: 'openai-shim-1', result });
    await expect(ok).resolves.toEqual(result);
    await expect(bad).rejects.toThrow('tool exploded');
    expect(t.events).toEqual([{ type: 'openai:tool_response', detail: { tool: { name: 'weather', args: { city: 'Paris' } }, result } }]);
  });

  it('times out a call after 30 s', async () => {
    vi.useFakeTimers();
    const t = boot({ performHandshake: false });
    const p = t.openai.callTool('slow', {});
    const check = expect(p).rejects.toThrow(/timed out/);
    vi.advanceTimersByTime(30_000);
    await check;
    t.deliver({ jsonrpc: '2.0', id: 'openai-shim-1', result: {} }); // late reply is ignored
  });

  it('maps messages, links, display mode, height, widget state, modal and close', async () => {
    const t = boot({ performHandshake: false });
    const follow = t.openai.sendFollowUpMessage({ prompt: 'hi' });
    const link = t.openai.openExternal({ href: 'https://example.com' });
    const legacyLink = t.openai.openExternal('https://old.example');
    const mode = t.openai.requestDisplayMode({ mode: 'pip' });
    expect(t.openai.sendFollowupTurn).toBe(t.openai.sendFollowUpMessage);
    expect(t.sent.map((m) => [m.id, m.method, m.params])).toEqual([
      ['openai-shim-1', 'ui/message', { role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      ['openai-shim-2', 'ui/open-link', { url: 'https://example.com' }],
      ['openai-shim-3', 'ui/open-link', { url: 'https://old.example' }],
      ['openai-shim-4', 'ui/request-display-mode', { mode: 'pip' }],
    ]);
    for (let i = 1; i <= 3; i++) t.deliver({ jsonrpc: '2.0', id: `openai-shim-${i}`, result: {} });
    t.deliver({ jsonrpc: '2.0', id: 'openai-shim-4', result: { mode: 'fullscreen' } });
    await expect(follow).resolves.toBeUndefined();
    await expect(link).resolves.toBeUndefined();
    await expect(legacyLink).resolves.toBeUndefined();
    await expect(mode).resolves.toEqual({ mode: 'fullscreen' });
    expect(t.openai.displayMode).toBe('fullscreen');
    expect(t.events.at(-1)!.detail.globals).toEqual({ displayMode: 'fullscreen' });

    t.sent.length = 0;
    t.openai.notifyIntrinsicHeight(321.4);
    await expect(t.openai.setWidgetState({ page: 2 })).resolves.toBeUndefined();
    t.openai.requestModal({ title: 'T', params: { x: 1 } });
    t.openai.requestClose();
    expect(t.sent).toEqual([
      { jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 322 } },
      { jsonrpc: '2.0', method: 'openai/setWidgetState', params: { state: { page: 2 } } },
      { jsonrpc: '2.0', method: 'openai/requestModal', params: { title: 'T', params: { x: 1 } } },
      { jsonrpc: '2.0', method: 'openai/requestClose', params: {} },
    ]);
    expect(t.openai.widgetState).toEqual({ page: 2 });
    expect(t.events.at(-1)!.detail.globals).toEqual({ widgetState: { page: 2 } });
  });

  it('escapes </script>, U+2028 and U+2029 in the serialized init', () => {
    const evil = '</script><script>alert(1)</script>\u2028\u2029';
    const src = openaiShimSource({ performHandshake: false, toolOutput: { evil } });
    expect(src).not.toMatch(/<\/|<script|<!--/i);
    expect(src).toContain('\\u003c/script\\u003e');
    expect(src).not.toContain('\u2028');
    expect(src).not.toContain('\u2029');
    const t = boot({ performHandshake: false, toolOutput: { evil } });
    expect(t.openai.toolOutput).toEqual({ evil });
  });

  it('emits ES2019 syntax', async () => {
    const acorn = await import('acorn');
    const src = openaiShimSource({ performHandshake: true, globals: { theme: 'dark' } });
    expect(() => acorn.parse(src, { ecmaVersion: 2019, sourceType: 'script' })).not.toThrow();
  });
});

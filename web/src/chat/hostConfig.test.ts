import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEVICE_PRESETS, type AppHostProfile, type HostConditions, type HostConfig, type Viewer } from '../api/types.gen';
import { DESKTOP_HEIGHT } from '../apps/host';
import { DEFAULT_APP_HOST, appConditions, exportFile, inChat, isDefaultAppHost, linkForHost, modelVisible, offers, serverNames, serversSummary, toggleServer, toggleTool } from './hostConfig';

const viewer = { theme: 'dark' as const, locale: 'de-DE', timeZone: 'Europe/Berlin' };

describe('tool filters', () => {
  it('offers by allow then deny, like core', () => {
    const f = { allow: ['a', 'b'], deny: ['b'] };
    expect(['a', 'b', 'c'].map((t) => offers(f, t))).toEqual([true, false, false]);
    expect(offers(undefined, 'x')).toBe(true);
  });
  it('toggles a tool off with deny and back on, adding it to an allow list if needed', () => {
    const off = toggleTool(undefined, 'echo', false);
    expect(off).toEqual({ allow: null, deny: ['echo'] });
    expect(toggleTool(off, 'echo', true)).toEqual({ allow: null, deny: [] });
    const allowOnly = { allow: ['add'], deny: [] };
    expect(toggleTool(allowOnly, 'echo', true)).toEqual({ allow: ['add', 'echo'], deny: [] });
    expect(offers(toggleTool(allowOnly, 'echo', true), 'echo')).toBe(true);
  });
  it('adds and removes servers', () => {
    const c = { servers: { a: { allow: null, deny: ['x'] } } } as unknown as HostConfig;
    expect(Object.keys(toggleServer(c, 'b', true).servers)).toEqual(['a', 'b']);
    expect(toggleServer(c, 'a', true).servers.a.deny, 'an existing filter stays').toEqual(['x']);
    expect(toggleServer(c, 'a', false).servers).toEqual({});
  });
  it("lists the chosen servers in the user's order, any no longer configured after, by name", () => {
    const c = { servers: { a: {}, zed: {}, b: {}, gone: {} } } as unknown as HostConfig;
    expect(serverNames(c, ['zed', 'b', 'a'])).toEqual(['zed', 'b', 'a', 'gone']);
    expect(serverNames(c)).toEqual(['a', 'b', 'gone', 'zed']);
  });
});

// Core's `HostConditions::for_app_host` runs the same vectors, so the two cannot drift apart.
const vectors: { name: string; profile: AppHostProfile; viewer: Viewer; conditions: HostConditions }[] = JSON.parse(
  readFileSync(new URL('../../../crates/mcplab-protocol/tests/vectors/host_conditions.json', import.meta.url), 'utf8'),
);

describe('host conditions: shared vectors', () => {
  it('has cases to run', () => expect(vectors.length).toBeGreaterThan(2));
  for (const c of vectors) {
    it(c.name, () => expect(appConditions(c.profile, c.viewer)).toStrictEqual(c.conditions));
  }
});

describe('app host profile', () => {
  it("renders inline in a chat at the column width, at most its device's height", () => {
    const c = inChat(appConditions({ ...DEFAULT_APP_HOST, device: 'mobile' }, viewer));
    expect([c.width, c.maxHeight, c.deviceType, c.touch]).toEqual([undefined, 932, 'mobile', true]);
    expect(inChat(appConditions(DEFAULT_APP_HOST, viewer)).maxHeight).toBe(DESKTOP_HEIGHT);
    expect(DEVICE_PRESETS.find((d) => d.kind === 'desktop')?.height).toBe(DESKTOP_HEIGHT);
    expect('width' in c).toBe(false);
  });
  it('leaves system values to the viewer', () => {
    const c = appConditions(DEFAULT_APP_HOST, viewer);
    expect([c.theme, c.locale, c.timeZone, c.deviceType, c.cspMode, c.openaiShim]).toEqual(['dark', 'de-DE', 'Europe/Berlin', 'desktop', 'declared', false]);
    expect(isDefaultAppHost(DEFAULT_APP_HOST)).toBe(true);
  });
  it('emulates what the profile sets', () => {
    const p = { ...DEFAULT_APP_HOST, device: 'mobile' as const, theme: 'light' as const, locale: 'ja-JP', displayModes: ['inline' as const], windowOpenai: true };
    const c = appConditions(p, viewer);
    expect([c.theme, c.locale, c.platform, c.touch, c.availableDisplayModes, c.openaiShim]).toEqual(['light', 'ja-JP', 'mobile', true, ['inline'], true]);
    expect(isDefaultAppHost(p)).toBe(false);
  });
  it('exports under a name with the hash', () => {
    const f = exportFile({ model: 'a::b' } as HostConfig, '0123456789abcdef');
    expect(f.name).toBe('host-config-0123456789ab.json');
    expect(JSON.parse(f.text)).toEqual({ model: 'a::b' });
  });
});

describe('the UI a host renders', () => {
  const app = { name: 'a', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: 'ui://a' } } } as never;
  const both = { name: 'b', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: 'ui://b' }, 'openai/outputTemplate': 'ui://w' } } as never;
  it('renders MCP Apps only where the host implements them', () => {
    expect(linkForHost(app, { mcpApps: true, windowOpenai: false })).toEqual({ uri: 'ui://a', kind: 'mcpApp' });
    expect(linkForHost(app, { mcpApps: false, windowOpenai: false })).toBeNull();
    expect(linkForHost(app, { mcpApps: false, windowOpenai: true })).toBeNull();
  });
  it('keeps an OpenAI widget template for a widget host without MCP Apps', () => {
    expect(linkForHost(both, { mcpApps: false, windowOpenai: true })).toEqual({ uri: 'ui://w', kind: 'openaiWidget' });
    expect(linkForHost(both, { mcpApps: false, windowOpenai: false })).toBeNull();
  });
});

describe('what a model sees under a host without MCP Apps', () => {
  const appOnly = { _meta: { ui: { visibility: ['app'] } } };
  const privateTool = { _meta: { 'openai/visibility': 'private' } };
  it('hides app-only tools from the model only where MCP Apps run', () => {
    expect(modelVisible(appOnly)).toBe(false);
    expect(modelVisible(appOnly, { mcpApps: true })).toBe(false);
    expect(modelVisible(appOnly, { mcpApps: false })).toBe(true);
  });
  it('keeps openai/visibility: private hidden either way', () => {
    expect(modelVisible(privateTool, { mcpApps: true })).toBe(false);
    expect(modelVisible(privateTool, { mcpApps: false })).toBe(false);
    expect(modelVisible({}, { mcpApps: false })).toBe(true);
  });
});

describe('"Tools from" in one line', () => {
  const tool = (name: string, meta?: Record<string, unknown>) => ({ name, inputSchema: { type: 'object' as const }, ...(meta ? { _meta: meta } : {}) });
  const config = { servers: { a: { allow: null, deny: ['x'] }, b: { allow: null, deny: [] }, c: { allow: null, deny: [] } } } as unknown as HostConfig;
  it('counts the tools the model gets: filters and visibility applied', () => {
    const a = { name: 'a', connected: true, tools: [tool('x'), tool('y'), tool('app', { ui: { visibility: ['app'] } })] };
    const b = { name: 'b', connected: true, tools: [tool('z')] };
    expect(serversSummary(config, [a, b])).toBe('2 servers, 2 tools');
    expect(serversSummary(config, [b])).toBe('b, 1 tool');
  });
  it('says which are not connected, and that counts are still loading', () => {
    const c = { name: 'c', connected: false, tools: null };
    expect(serversSummary(config, [c])).toBe('c (not connected)');
    expect(serversSummary(config, [{ name: 'b', connected: true, tools: null }, c])).toBe('2 servers, … tools (1 not connected)');
    expect(serversSummary(config, [])).toBe('no servers');
  });
});

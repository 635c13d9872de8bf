import { describe, expect, it } from 'vitest';
import type { HostConfig, HostProfile } from '../api/types.gen';
import { applyProfile, matchingProfile, sourceText } from './hostProfiles';

const base: HostConfig = {
  version: 1,
  model: 'openai::gpt-4.1-mini',
  systemPrompt: 'p',
  temperature: null,
  maxTokens: null,
  stepLimit: 10,
  servers: { demo: { allow: null, deny: ['echo'] } },
  approval: { mode: 'never', timeoutSecs: 300 },
  elicitation: { mode: 'ask' },
  appHost: { device: 'desktop', theme: 'system', locale: null, timeZone: null, displayModes: ['inline', 'fullscreen', 'pip'], cspMode: 'declared', windowOpenai: false },
};

const profile = (name: string, hostConfig: Partial<HostConfig>): HostProfile => ({
  name,
  title: name,
  description: '',
  profileVersion: 1,
  builtin: true,
  origin: null,
  hostConfig: { ...base, model: '', servers: {}, ...hostConfig },
  sources: {},
  hash: name,
});

const mcplab = profile('mcplab', {});
const chatgpt = profile('chatgpt', {
  toolResults: { text: true, structuredContent: 'always', images: true, resources: true },
  appHost: { ...base.appHost, windowOpenai: true },
});

describe('host profiles', () => {
  it('apply the host sections and keep the session own settings', () => {
    const c = applyProfile(base, chatgpt);
    expect(c.toolResults?.structuredContent).toBe('always');
    expect(c.appHost.windowOpenai).toBe(true);
    expect(c.model).toBe(base.model);
    expect(c.servers).toEqual(base.servers);
    // Back to mcplab: the section chatgpt added goes away again.
    const back = applyProfile(c, mcplab);
    expect(back.toolResults).toBeUndefined();
    expect(back).toEqual(base);
  });

  it('recognise the profile a config runs as', () => {
    expect(matchingProfile(base, [mcplab, chatgpt])?.name).toBe('mcplab');
    expect(matchingProfile(applyProfile(base, chatgpt), [mcplab, chatgpt])?.name).toBe('chatgpt');
    const custom = { ...base, approval: { mode: 'always' as const, timeoutSecs: 300 } };
    expect(matchingProfile(custom, [mcplab, chatgpt])).toBeNull();
  });

  it('say where a value comes from', () => {
    expect(sourceText('unknown')).toContain('unknown');
    expect(sourceText({ url: 'https://x', read: '2026-12-02', note: 'n' })).toBe('https://x (read 2026-12-02) — n');
  });
});

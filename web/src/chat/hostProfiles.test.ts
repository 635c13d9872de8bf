import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { HostConfig, HostProfile, ServerView } from '../api/types.gen';
import { applyProfile, matchingProfile, serversDeclaredOtherwise, sourceText } from './hostProfiles';

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

describe('servers declared otherwise', () => {
  const claudeClient = { protocol: '2025-06-18', roots: false, sampling: false, elicitationForm: false, elicitationUrl: false, tasks: false, mcpApps: true, skills: true } as const;
  const claude = profile('claude', { client: claudeClient });
  const server = (name: string, connectedAs?: string, state: 'connected' | 'disconnected' = 'connected'): ServerView =>
    ({ config: { name, type: 'stdio', command: 'x' }, status: { state }, info: null, stderr: [], connectedAs }) as ServerView;
  const profiles = [mcplab, chatgpt, claude];

  it('names the session servers connected with another declaration', () => {
    const asClaude = applyProfile(base, claude);
    const found = serversDeclaredOtherwise(asClaude, [server('demo'), server('other')], profiles);
    expect(found.map((v) => v.config.name)).toEqual(['demo']);
    expect(serversDeclaredOtherwise(asClaude, [server('demo', 'claude')], profiles)).toEqual([]);
    expect(serversDeclaredOtherwise(asClaude, [server('demo', undefined, 'disconnected')], profiles)).toEqual([]);
  });

  it('takes hosts that declare what mcplab declares as matching', () => {
    // chatgpt's profile here leaves `client` at mcplab's default.
    expect(serversDeclaredOtherwise(applyProfile(base, chatgpt), [server('demo')], profiles)).toEqual([]);
    expect(serversDeclaredOtherwise(base, [server('demo', 'claude')], profiles).length).toBe(1);
  });
});

// Applying a profile against the vectors core's `profiles::apply_profile` runs too
// (crates/mcplab-core/tests/vectors/host_profiles.json), so a chat session and an eval's `hosts:` agree.
const vectors: { cases: { name: string; base: HostConfig; profile: HostConfig; applied: HostConfig }[] } = JSON.parse(
  readFileSync(new URL('../../../crates/mcplab-core/tests/vectors/host_profiles.json', import.meta.url), 'utf8'),
);

describe('shared host profile vectors', () => {
  it('are there', () => expect(vectors.cases.length).toBeGreaterThan(2));
  for (const c of vectors.cases) {
    it(c.name, () => {
      expect(applyProfile(c.base, { ...profile('p', {}), hostConfig: c.profile })).toEqual(c.applied);
    });
  }
});

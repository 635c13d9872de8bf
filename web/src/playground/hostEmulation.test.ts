import { describe, expect, it } from 'vitest';
import type { HostProfile } from '../api/types.gen';
import { DEVICES, emulationFor } from './devices';
import { emulatesProfile, emulationChanges, emulationForProfile } from './hostEmulation';
import { defaultConditionsForTest } from './testConditions';

const profile = (name: string, appHost: Partial<HostProfile['hostConfig']['appHost']>): HostProfile =>
  ({
    name,
    title: name,
    description: '',
    profileVersion: 1,
    builtin: false,
    origin: null,
    hostConfig: {
      appHost: { device: 'desktop', theme: 'system', locale: null, timeZone: null, displayModes: ['inline', 'fullscreen', 'pip'], cspMode: 'declared', windowOpenai: false, ...appHost },
    },
    sources: {},
    hash: name,
  }) as unknown as HostProfile;

const start = emulationFor(DEVICES[2], { ...defaultConditionsForTest(), theme: 'dark', locale: 'fr-FR' });

describe('the playground as a host', () => {
  it('takes the profile app host and keeps what it leaves to the viewer', () => {
    const narrow = profile('narrow', { device: 'mobile', displayModes: ['inline'], windowOpenai: true, cspMode: 'permissive' });
    const e = emulationForProfile(narrow, start);
    expect(e.host).toBe('narrow');
    expect(e.device).toBe('mobile');
    expect(e.conditions.platform).toBe('mobile');
    expect(e.conditions.touch).toBe(true);
    expect(e.conditions.availableDisplayModes).toEqual(['inline']);
    expect(e.conditions.openaiShim).toBe(true);
    expect(e.conditions.cspMode).toBe('permissive');
    expect(e.conditions.theme).toBe('dark');
    expect(e.conditions.locale).toBe('fr-FR');
  });

  it('stays the profile until changed by hand', () => {
    const p = profile('fixed', { theme: 'light', locale: 'de-DE' });
    const e = emulationForProfile(p, start);
    expect(e.conditions.theme).toBe('light');
    expect(emulatesProfile(p, e)).toBe(true);
    expect(emulatesProfile(p, JSON.parse(JSON.stringify(e)))).toBe(true);
    expect(emulatesProfile(p, { ...e, conditions: { ...e.conditions, locale: 'ja-JP' } })).toBe(false);
  });

  it('says what a profile changed, in words, and nothing for what it kept', () => {
    const narrow = profile('narrow', { device: 'mobile', displayModes: ['inline'], windowOpenai: true });
    const changes = emulationChanges(start, emulationForProfile(narrow, start));
    expect(changes[0]).toMatch(/^device \d+×\d+$/);
    expect(changes).toContain('offers inline');
    expect(changes.join('; ')).not.toMatch(/theme|locale/);
    expect(emulationChanges(start, start)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { HostProfile } from '../api/types.gen';
import { DEVICES, emulationFor, type Emulation } from './devices';
import { emulatesProfile } from './hostEmulation';
import { defaultConditionsForTest } from './testConditions';
import { emulationFromUrl, parsePlaygroundArgs, playgroundArgs } from './usePlaygroundRoute';

const phoneHost = {
  name: 'phone-host',
  title: 'Phone host',
  builtin: false,
  hostConfig: { appHost: { device: 'mobile', theme: 'system', locale: 'de-DE', timeZone: null, displayModes: ['inline'], cspMode: 'declared', windowOpenai: true } },
} as unknown as HostProfile;

describe('the playground URL', () => {
  it('names server, tool, device, theme and host, and reads them back', () => {
    const e = { device: 'mobile', width: 430, height: 932, host: 'claude-ai', conditions: { theme: 'dark' } } as unknown as Emulation;
    const args = playgroundArgs('demo', 'show_counter_app', e);
    expect(args).toEqual(['demo', 'show_counter_app', 'device=mobile', 'theme=dark', 'host=claude-ai']);
    expect(parsePlaygroundArgs(args)).toEqual({ server: 'demo', tool: 'show_counter_app', device: 'mobile', theme: 'dark', host: 'claude-ai' });
  });

  it('takes a URL with only a server, or a value holding "="', () => {
    expect(parsePlaygroundArgs(['demo'])).toEqual({ server: 'demo', tool: undefined, device: undefined, theme: undefined, host: undefined });
    expect(parsePlaygroundArgs(['demo', 't', 'device=a=b', 'junk'])).toMatchObject({ device: 'a=b' });
  });

  it('applies the host profile it names, then its device and theme', () => {
    const desktop = emulationFor(DEVICES.find((d) => d.id === 'desktop')!, { ...defaultConditionsForTest(), theme: 'light' });
    const e = emulationFromUrl(desktop, { device: 'mobile', theme: 'dark' }, phoneHost);
    expect(e.host).toBe('phone-host');
    expect(e.device).toBe('mobile');
    expect(e.conditions.theme).toBe('dark');
    expect(e.conditions.locale).toBe('de-DE');
    expect(e.conditions.openaiShim).toBe(true);
    expect(emulatesProfile(phoneHost, e)).toBe(true);
    // Already that: unchanged (same object, so nothing is written back).
    expect(emulationFromUrl(e, { device: 'mobile', theme: 'dark' }, phoneHost)).toBe(e);
    // Another device than the profile's: still named after it ("custom (from …)").
    const wide = emulationFromUrl(desktop, { device: 'desktop' }, phoneHost);
    expect(wide).toMatchObject({ device: 'desktop', host: 'phone-host' });
  });
});

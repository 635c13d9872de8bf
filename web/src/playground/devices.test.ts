import { describe, expect, it } from 'vitest';
import { defaultConditionsForTest } from './testConditions';
import { DEVICES, LOCALES, emulationFor, isRtl, rotate, safeAreaPreset, toggleMode } from './devices';

describe('playground presets', () => {
  it('has the devices and locales the issue asks for', () => {
    expect(DEVICES.map((d) => `${d.width}x${d.height}`)).toEqual(['430x932', '820x1180', '1280x800']);
    for (const l of ['en-US', 'en-GB', 'es-ES', 'es-MX', 'fr-FR', 'de-DE', 'it-IT', 'pt-BR', 'ja-JP', 'zh-CN', 'zh-TW', 'ko-KR', 'hi-IN', 'ar-SA', 'ru-RU', 'nl-NL']) {
      expect(LOCALES.some((x) => x.id === l)).toBe(true);
    }
    expect(isRtl('ar-SA')).toBe(true);
    expect(isRtl('en-US')).toBe(false);
  });
  it('a device sets platform, inputs and size; rotating swaps them', () => {
    const e = emulationFor(DEVICES[0], defaultConditionsForTest());
    expect(e.conditions).toMatchObject({ platform: 'mobile', deviceType: 'mobile', touch: true, hover: false, width: 430, maxHeight: 932 });
    const r = rotate(e);
    expect([r.width, r.height, r.conditions.width, r.conditions.maxHeight]).toEqual([932, 430, 932, 430]);
  });
  it('names safe-area presets and keeps inline offered', () => {
    expect(safeAreaPreset({ top: 59, right: 0, bottom: 34, left: 0 })).toBe('dynamic-island');
    expect(safeAreaPreset({ top: 1, right: 2, bottom: 3, left: 4 })).toBe('custom');
    expect(toggleMode(['inline', 'fullscreen', 'pip'], 'pip', false)).toEqual(['inline', 'fullscreen']);
    expect(toggleMode(['fullscreen'], 'inline', false)).toEqual(['inline', 'fullscreen']);
  });
});

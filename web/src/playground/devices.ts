// The emulation presets of the app playground: devices (core's table, generated), locales,
// time zones and safe areas, and how a preset becomes host conditions. Pure data and functions (unit-tested).
import { DEVICE_PRESETS } from '../api/types.gen';
import type { DisplayMode, HostConditions, SafeArea } from '../apps/host';

export interface DevicePreset {
  id: 'mobile' | 'tablet' | 'desktop';
  label: string;
  width: number;
  height: number;
  platform: HostConditions['platform'];
  deviceType: HostConditions['deviceType'];
  hover: boolean;
  touch: boolean;
}

const DEVICE_NAMES = { mobile: 'Mobile', tablet: 'Tablet', desktop: 'Desktop' } as const;

/** The presets of core's `DeviceKind::preset` (the generated table), labelled. */
export const DEVICES: DevicePreset[] = DEVICE_PRESETS.map((p) => ({
  id: p.kind,
  label: `${DEVICE_NAMES[p.kind]} ${p.width}×${p.height}`,
  width: p.width,
  height: p.height,
  platform: p.platform,
  deviceType: p.kind,
  hover: p.hover,
  touch: p.touch,
}));

export const LOCALES: { id: string; label: string; rtl?: boolean }[] = [
  { id: 'en-US', label: 'English (US)' },
  { id: 'en-GB', label: 'English (UK)' },
  { id: 'es-ES', label: 'Español (España)' },
  { id: 'es-MX', label: 'Español (México)' },
  { id: 'fr-FR', label: 'Français' },
  { id: 'de-DE', label: 'Deutsch' },
  { id: 'it-IT', label: 'Italiano' },
  { id: 'pt-BR', label: 'Português (Brasil)' },
  { id: 'ja-JP', label: '日本語' },
  { id: 'zh-CN', label: '中文 (简体)' },
  { id: 'zh-TW', label: '中文 (繁體)' },
  { id: 'ko-KR', label: '한국어' },
  { id: 'hi-IN', label: 'हिन्दी' },
  { id: 'ar-SA', label: 'العربية (right-to-left)', rtl: true },
  { id: 'ru-RU', label: 'Русский' },
  { id: 'nl-NL', label: 'Nederlands' },
];

export const TIME_ZONES = [
  'UTC',
  'America/Los_Angeles',
  'America/New_York',
  'America/Mexico_City',
  'America/Sao_Paulo',
  'Europe/London',
  'Europe/Madrid',
  'Europe/Paris',
  'Europe/Berlin',
  'Europe/Moscow',
  'Asia/Riyadh',
  'Asia/Kolkata',
  'Asia/Shanghai',
  'Asia/Taipei',
  'Asia/Seoul',
  'Asia/Tokyo',
  'Australia/Sydney',
];

export const SAFE_AREAS: { id: string; label: string; insets: SafeArea }[] = [
  { id: 'none', label: 'None', insets: { top: 0, right: 0, bottom: 0, left: 0 } },
  { id: 'notch', label: 'Notch', insets: { top: 44, right: 0, bottom: 34, left: 0 } },
  { id: 'dynamic-island', label: 'Dynamic Island', insets: { top: 59, right: 0, bottom: 34, left: 0 } },
  { id: 'android-gesture', label: 'Android gesture bar', insets: { top: 24, right: 0, bottom: 48, left: 0 } },
];

/** The safe-area preset matching `insets`, or `custom`. */
export function safeAreaPreset(insets: SafeArea): string {
  const same = (a: SafeArea, b: SafeArea) => a.top === b.top && a.right === b.right && a.bottom === b.bottom && a.left === b.left;
  return SAFE_AREAS.find((p) => same(p.insets, insets))?.id ?? 'custom';
}

/** Writing direction of a locale. */
export function isRtl(locale: string): boolean {
  return ['ar', 'he', 'fa', 'ur'].includes(locale.split('-')[0].toLowerCase());
}

/** The playground's state of the emulated host: conditions plus the device viewport. */
export interface Emulation {
  device: DevicePreset['id'] | 'custom';
  /** The host profile the emulation was set from (changed by hand since: still named). */
  host?: string;
  width: number;
  height: number;
  conditions: HostConditions;
}

export function emulationFor(device: DevicePreset, base: HostConditions): Emulation {
  return {
    device: device.id,
    width: device.width,
    height: device.height,
    conditions: {
      ...base,
      platform: device.platform,
      deviceType: device.deviceType,
      hover: device.hover,
      touch: device.touch,
      width: device.width,
      maxHeight: device.height,
    },
  };
}

/** Portrait ↔ landscape: width and height (and the height limit) swap. */
export function rotate(e: Emulation): Emulation {
  const { width, height } = { width: e.height, height: e.width };
  return { ...e, width, height, conditions: { ...e.conditions, width, maxHeight: Math.min(e.conditions.maxHeight ?? height, height) } };
}

export function toggleMode(modes: DisplayMode[], mode: DisplayMode, on: boolean): DisplayMode[] {
  const set = new Set(modes);
  if (on) set.add(mode);
  else set.delete(mode);
  // Inline is where every app starts: the host always offers it.
  set.add('inline');
  return (['inline', 'fullscreen', 'pip'] as DisplayMode[]).filter((m) => set.has(m));
}

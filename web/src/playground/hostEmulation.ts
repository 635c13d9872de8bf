// The playground rendered "as a host": a host profile's app host section (MCP Apps or the
// `window.openai` widget runtime, display modes offered, CSP mode, device — hence platform and
// device capabilities —, theme, locale, time zone) turned into the playground's emulation. What
// the profile leaves to the viewer (`system` theme, no locale or time zone) keeps the current
// emulation's value. Pure (unit-tested); the picker lives in `HostPicker.tsx`.
import type { HostProfile } from '../api/types.gen';
import { appConditions } from '../chat/hostConfig';
import { DEVICES, emulationFor, type Emulation } from './devices';

/** `current` re-emulated as `profile`'s app host. */
export function emulationForProfile(profile: HostProfile, current: Emulation): Emulation {
  const app = profile.hostConfig.appHost;
  const c = current.conditions;
  const conditions = appConditions(app, { theme: c.theme, locale: c.locale, timeZone: c.timeZone });
  const device = DEVICES.find((d) => d.id === app.device) ?? DEVICES[DEVICES.length - 1];
  const next = emulationFor(device, { ...c, ...conditions, safeArea: c.safeArea, styleOverrides: c.styleOverrides });
  return { ...next, host: profile.name };
}

/** Sorted-key JSON, so two emulations compare however their keys were written (a saved one). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    return `{${entries.sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/** Whether `e` still is what `profile` sets (a hand change since makes it "custom"). */
export function emulatesProfile(profile: HostProfile, e: Emulation): boolean {
  return canonical(emulationForProfile(profile, e)) === canonical({ ...e, host: profile.name });
}

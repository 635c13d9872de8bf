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

/** Words for the emulation fields a host profile sets (others keep their key). */
const FIELD_WORDS: Record<string, string> = {
  theme: 'theme',
  locale: 'locale',
  timeZone: 'time zone',
  platform: 'platform',
  deviceType: 'device type',
  hover: 'hover',
  touch: 'touch',
  displayMode: 'display mode',
  availableDisplayModes: 'offers',
  maxHeight: 'max height',
  openai: 'window.openai',
  csp: 'CSP',
};

function shown(v: unknown): string {
  if (typeof v === 'boolean') return v ? 'on' : 'off';
  if (Array.isArray(v)) return v.map(shown).join(', ') || 'none';
  if (v && typeof v === 'object') return 'changed';
  return String(v);
}

/** What choosing a profile changed, in words ("device 1280×800", "offers inline, fullscreen"):
 * the Playground says it under the picker, so a choice is not silent. */
export function emulationChanges(before: Emulation, after: Emulation): string[] {
  const out: string[] = [];
  if (before.width !== after.width || before.height !== after.height) out.push(`device ${after.width}×${after.height}`);
  const [b, a] = [before.conditions as unknown as Record<string, unknown>, after.conditions as unknown as Record<string, unknown>];
  for (const key of Object.keys(a)) {
    if (key === 'width' || canonical(a[key]) === canonical(b[key])) continue;
    out.push(`${FIELD_WORDS[key] ?? key} ${shown(a[key])}`);
  }
  return out;
}

// The playground's emulated host (device size and host conditions), kept in prefs so the page
// reopens as it was left. A saved emulation (prefs, a scenario) may be older than the current
// conditions: the current defaults fill what it lacks. Must not render.
import { useState } from 'react';
import { defaultConditions } from '../apps/host';
import { getPref, setPref } from '../settings/prefs';
import { DEVICES, emulationFor, type Emulation } from './devices';

const PREF = 'playgroundEmulation';

/** The emulation saved in prefs (older conditions filled with the defaults), else the first
 * device under the default conditions. */
export function restoredEmulation(saved: Partial<Emulation> | null): Emulation {
  if (saved && saved.conditions && typeof saved.width === 'number') return { ...saved, conditions: { ...defaultConditions(), ...saved.conditions } } as Emulation;
  return emulationFor(DEVICES[0], defaultConditions());
}

/** `current` with a scenario's saved emulation over it; unchanged when the scenario saved
 * no conditions. */
export function scenarioEmulation(current: Emulation, saved: Partial<Emulation> | null | undefined): Emulation {
  if (!saved || !saved.conditions) return current;
  return { ...current, ...saved, conditions: { ...defaultConditions(), ...saved.conditions } } as Emulation;
}

/** The emulation and a setter that also remembers it. */
export function useEmulation(): [Emulation, (e: Emulation) => void] {
  const [emulation, setState] = useState<Emulation>(() => restoredEmulation(getPref<Partial<Emulation> | null>(PREF, null)));
  const set = (e: Emulation) => {
    setState(e);
    setPref(PREF, e);
  };
  return [emulation, set];
}

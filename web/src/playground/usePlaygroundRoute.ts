// The playground's URL names what it shows: `#/playground/<server>/<tool>/device=<id>/
// theme=<light|dark>[/host=<profile>]`. Opened, typed or reloaded, such a URL picks that
// server, tool, host profile, then device and theme over the profile's; nothing runs because
// of it. A URL naming a host waits for the profile list (`/api/hosts`) before the URL is
// rewritten, so a slow list does not drop the host. Changing them rewrites the URL in place
// (no history entry). Only while the page is shown (it stays mounted behind others). Must not
// render.
import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { request } from '../api/client';
import type { HostProfile } from '../api/types.gen';
import { replaceRoute, useRouteArgs } from '../ui/route';
import { DEVICES, emulationFor, type Emulation } from './devices';
import { emulatesProfile, emulationForProfile } from './hostEmulation';

interface Choice {
  active: boolean;
  server: string;
  tool: string | null;
  emulation: Emulation;
  setServer: (s: string) => void;
  choose: (tool: string) => void;
  setEmulation: (e: Emulation) => void;
}

/** The URL's segments after the page: server, tool, and `key=value` options. */
export function parsePlaygroundArgs(args: string[]): { server?: string; tool?: string; device?: string; theme?: string; host?: string } {
  const [server, tool, ...rest] = args;
  const opts = Object.fromEntries(rest.map((s) => [s.slice(0, s.indexOf('=')), s.slice(s.indexOf('=') + 1)]).filter(([k]) => k));
  return { server: server || undefined, tool: tool || undefined, device: opts.device, theme: opts.theme, host: opts.host || undefined };
}

/** `current` as the URL asks: the named host profile (when it is not already what `current`
 * renders as), then the named device and theme over it. `current` itself when nothing
 * changes. */
export function emulationFromUrl(current: Emulation, want: { device?: string; theme?: string }, profile: HostProfile | undefined): Emulation {
  let e = current;
  if (profile && !(e.host === profile.name && emulatesProfile(profile, e))) e = emulationForProfile(profile, e);
  const device = DEVICES.find((d) => d.id === want.device);
  if (device && device.id !== e.device) e = { ...emulationFor(device, e.conditions), ...(e.host ? { host: e.host } : {}) };
  if ((want.theme === 'light' || want.theme === 'dark') && want.theme !== e.conditions.theme) e = { ...e, conditions: { ...e.conditions, theme: want.theme } };
  return e;
}

export function playgroundArgs(server: string, tool: string | null, e: Emulation): string[] {
  return [server, tool ?? '', `device=${e.device}`, `theme=${e.conditions.theme}`, ...(e.host ? [`host=${e.host}`] : [])];
}

export function usePlaygroundRoute({ active, server, tool, emulation, setServer, choose, setEmulation }: Choice): void {
  const args = useRouteArgs();
  const hosts = useQuery({ queryKey: ['hosts'], queryFn: () => request<HostProfile[]>('GET', '/api/hosts') });
  const profiles = hosts.data ?? (hosts.isError ? [] : undefined);
  const written = useRef<string | null>(null);
  const reading = useRef(false);
  // A URL naming a host profile, read before the profiles arrived: not rewritten until then.
  const waiting = useRef(false);
  // Read a URL this hook did not write.
  useEffect(() => {
    if (!active || !args.length || args.join('/') === written.current) return;
    const want = parsePlaygroundArgs(args);
    waiting.current = Boolean(want.host) && !profiles;
    let changed = false;
    if (want.server && want.server !== server) {
      setServer(want.server);
      changed = true;
    }
    if (want.tool && want.tool !== tool) {
      choose(want.tool);
      changed = true;
    }
    const e = emulationFromUrl(emulation, want, profiles?.find((p) => p.name === want.host));
    if (e !== emulation) {
      setEmulation(e);
      changed = true;
    }
    // The state catches up on the next render: write the URL from it then, not from the old one.
    reading.current = changed;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new URL (or the profiles it waited for) is read
  }, [active, args, profiles]);
  // Write the state as the URL.
  useEffect(() => {
    if (!active || !server || waiting.current) return;
    if (reading.current) {
      reading.current = false;
      return;
    }
    const next = playgroundArgs(server, tool, emulation);
    written.current = next.join('/');
    replaceRoute('playground', ...next);
  }, [active, server, tool, emulation]);
}

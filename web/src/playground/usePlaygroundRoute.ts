// The playground's URL names what it shows: `#/playground/<server>/<tool>/device=<id>/
// theme=<light|dark>[/host=<profile>]`. Opened (or typed), such a URL picks that server, tool,
// device and theme; nothing runs because of it. Changing them rewrites the URL in place (no
// history entry). Only while the page is shown (it stays mounted behind others). The host
// profile is named for the reader; choosing it stays the Host picker's. Must not render.
import { useEffect, useRef } from 'react';
import { replaceRoute, useRouteArgs } from '../ui/route';
import { DEVICES, emulationFor, type Emulation } from './devices';

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
export function parsePlaygroundArgs(args: string[]): { server?: string; tool?: string; device?: string; theme?: string } {
  const [server, tool, ...rest] = args;
  const opts = Object.fromEntries(rest.map((s) => [s.slice(0, s.indexOf('=')), s.slice(s.indexOf('=') + 1)]).filter(([k]) => k));
  return { server: server || undefined, tool: tool || undefined, device: opts.device, theme: opts.theme };
}

export function playgroundArgs(server: string, tool: string | null, e: Emulation): string[] {
  return [server, tool ?? '', `device=${e.device}`, `theme=${e.conditions.theme}`, ...(e.host ? [`host=${e.host}`] : [])];
}

export function usePlaygroundRoute({ active, server, tool, emulation, setServer, choose, setEmulation }: Choice): void {
  const args = useRouteArgs();
  const written = useRef<string | null>(null);
  const reading = useRef(false);
  // Read a URL this hook did not write.
  useEffect(() => {
    if (!active || !args.length || args.join('/') === written.current) return;
    const want = parsePlaygroundArgs(args);
    let changed = false;
    if (want.server && want.server !== server) {
      setServer(want.server);
      changed = true;
    }
    if (want.tool && want.tool !== tool) {
      choose(want.tool);
      changed = true;
    }
    let e = emulation;
    const device = DEVICES.find((d) => d.id === want.device);
    if (device && device.id !== e.device) e = emulationFor(device, e.conditions);
    if ((want.theme === 'light' || want.theme === 'dark') && want.theme !== e.conditions.theme) e = { ...e, conditions: { ...e.conditions, theme: want.theme } };
    if (e !== emulation) {
      setEmulation(e);
      changed = true;
    }
    // The state catches up on the next render: write the URL from it then, not from the old one.
    reading.current = changed;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new URL is read
  }, [active, args]);
  // Write the state as the URL.
  useEffect(() => {
    if (!active || !server) return;
    if (reading.current) {
      reading.current = false;
      return;
    }
    const next = playgroundArgs(server, tool, emulation);
    written.current = next.join('/');
    replaceRoute('playground', ...next);
  }, [active, server, tool, emulation]);
}

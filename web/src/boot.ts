// The first screen's requests, sent while the entry module is still evaluating rather than after
// React's first render: the prefs (the app waits for them), the servers list (the Servers page's
// data, so the first frame shows it) and the host event stream, opened first as before — it is
// held until the stores listen (`events.release`), so nothing that happens between the list's
// snapshot and the stores starting is lost. A Retry after a failed boot asks again.
import { api } from './api/client';
import { sessionSecret } from './api/auth';
import { events } from './api/events';
import type { ServerView } from './api/types.gen';
import { loadPrefs } from './settings/prefs';

export interface Boot {
  prefs: Promise<void>;
  /** The servers list, or null when it could not be had (the page's query asks again). */
  servers: Promise<ServerView[] | null>;
}

let early: Boot | null = null;

function ask(): Boot {
  const prefs = loadPrefs();
  // Handled when the app takes it; until then a failure is not an "unhandled rejection".
  prefs.catch(() => undefined);
  return { prefs, servers: api.servers().catch(() => null) };
}

/** Sends the first requests now (the app's entry calls it once, before rendering). */
export function startBoot(): void {
  // Not signed in: the prefs will say so; no stream to open before the sign-in.
  if (sessionSecret()) events.startHeld();
  early = ask();
}

/** The boot's requests: the early ones the first time, new ones after that (Retry). */
export function takeBoot(): Boot {
  const b = early ?? ask();
  early = null;
  return b;
}

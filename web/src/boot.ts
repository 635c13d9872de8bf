// The first screen's requests, sent while the entry module is still evaluating rather than after
// React's first render: the prefs (the app waits for them), the servers list (through its query,
// so every `useServers` shares that one request and the first full frame shows the list) and the
// host event stream, opened first as before — it is held until the stores listen
// (`events.release`), so nothing that happens between the list's snapshot and the stores starting
// is lost. A Retry after a failed boot asks for the prefs again.
import type { QueryClient } from '@tanstack/react-query';
import { sessionSecret } from './api/auth';
import { events } from './api/events';
import { createQueryClient } from './api/queries';
import { prefetchServers } from './servers/store';
import { loadPrefs } from './settings/prefs';

let earlyPrefs: Promise<void> | null = null;
// Settles (never fails) when the list's first request has: the page then renders with it.
let serversAsked: Promise<void> = Promise.resolve();
let earlyClient: QueryClient | null = null;

function askPrefs(): Promise<void> {
  const prefs = loadPrefs();
  // Handled when the app takes it; until then a failure is not an "unhandled rejection".
  prefs.catch(() => undefined);
  return prefs;
}

/** Sends the first requests now (the app's entry calls it once, before rendering). */
export function startBoot(): void {
  const queryClient = createQueryClient();
  // Not signed in: the prefs will say so; no stream to open before the sign-in.
  if (sessionSecret()) {
    events.startHeld();
    serversAsked = prefetchServers(queryClient);
  }
  earlyPrefs = askPrefs();
  earlyClient = queryClient;
}

/** The app's query client: the boot's (holding the servers list on its way), else a new one. */
export function bootQueryClient(): QueryClient {
  return earlyClient ?? createQueryClient();
}

/** The prefs (the boot's request the first time, a new one after that: Retry), once the
 * servers list's first request has settled too. */
export function takeBoot(): Promise<void> {
  const prefs = earlyPrefs ?? askPrefs();
  earlyPrefs = null;
  return Promise.all([prefs, serversAsked]).then(() => undefined);
}

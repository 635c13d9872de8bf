// Whether the traffic panel is shown. Docked beside the page (wide windows) it is remembered
// per page in prefs. It starts closed where it needs the width (Playground, Apps, Chat) or shows
// nothing the page does (OAuth's debugger and the eval runs talk to their own servers,
// Settings talks to none, Logs is a log of its own), open elsewhere. As an overlay (narrow
// windows) it starts closed and closes when the page changes.
import { setPref, usePref, getPref } from '../settings/prefs';
import { createStore, useStore } from '../ui/store';
import type { Page } from '../ui/route';

const KEY = 'trafficPanel';
const CLOSED_BY_DEFAULT: ReadonlySet<string> = new Set(['playground', 'apps', 'chat', 'oauth', 'evals', 'settings', 'logs']);
export const overlayStore = createStore<boolean>(false);

export function useTrafficOpen(page: Page, overlay: boolean): boolean {
  const docked = usePref<Record<string, boolean>>(KEY, {});
  const over = useStore(overlayStore);
  return overlay ? over : (docked[page] ?? !CLOSED_BY_DEFAULT.has(page));
}

export function setTrafficOpen(page: Page, open: boolean, overlay: boolean): void {
  if (overlay) overlayStore.set(open);
  else setPref(KEY, { ...getPref<Record<string, boolean>>(KEY, {}), [page]: open });
}

/** Opens the panel on the current page, docked or as the overlay (a "frames" link). */
export function showTraffic(): void {
  const page = (window.location.hash.replace(/^#\/?/, '').split('/')[0] || 'servers') as Page;
  setPref(KEY, { ...getPref<Record<string, boolean>>(KEY, {}), [page]: true });
  overlayStore.set(true);
}

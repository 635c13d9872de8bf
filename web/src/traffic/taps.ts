// Host sessions seen through `mcplab tap`: their frames are recorded under keys like `tap:3`
// (a server name no configured server can have), and this store knows what to call them — the
// host from its clientInfo, the HTTP session, the tap's target. Refreshed when a frame of a
// key it does not know yet (or knows without a host) arrives, at most once a second.
import { api } from '../api/client';
import type { TapSessionView } from '../api/types.gen';
import { createStore, useStore } from '../ui/store';

export const tapStore = createStore<TapSessionView[]>([]);

/** Whether `server` names a tapped session rather than a configured server. */
export function isTapKey(server: string): boolean {
  return server.startsWith('tap:');
}

export async function refreshTaps(): Promise<TapSessionView[]> {
  const list = await api.taps();
  tapStore.set(list);
  return list;
}

let last = 0;
/** A frame of `server` arrived: learn its label if it is a tap key not labelled yet. */
export function noticeTapFrame(server: string): void {
  if (!isTapKey(server)) return;
  const known = tapStore.get().find((t) => t.key === server);
  if (known?.host || Date.now() - last < 1000) return;
  last = Date.now();
  void refreshTaps().catch(() => undefined);
}

/** Short: `claude-ai · tap:3`; the key alone until the host introduced itself. */
export function tapShort(t: TapSessionView | undefined, key: string): string {
  return t?.host ? `${t.host.name} · ${key}` : key;
}

/** Everything known: host and version, session, target, whether it ended. */
export function tapTitle(t: TapSessionView): string {
  const host = t.host ? `${t.host.title ?? t.host.name}${t.host.version ? ` ${t.host.version}` : ''}` : 'host not introduced yet';
  const parts = [`${t.key}: ${host}`, t.protocolVersion && `protocol ${t.protocolVersion}`, t.sessionId && `session ${t.sessionId}`, `${t.transport} tap of ${t.target}`, t.source === 'file' ? 'opened recording' : t.ended ? `ended (${t.ended.how})` : 'live'];
  return parts.filter(Boolean).join(' · ');
}

export function useTaps(): TapSessionView[] {
  return useStore(tapStore);
}

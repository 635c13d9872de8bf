// The configured servers and their live status. Loaded from `/api/servers`, kept current by
// `status` and `stderr` events, reloaded on resync. Also holds the server the inspector
// pages work on (persisted in prefs), and the sign-ins waiting for the browser
// (`authorizationRequired` events, until the connection is no longer `connecting`).
import { useEffect } from 'react';
import { api, errorMessage } from '../api/client';
import { events } from '../api/events';
import type { ServerEvent, ServerView } from '../api/types.gen';
import { oauthApi } from '../oauth/api';
import { createStore, useStore } from '../ui/store';
import { getPref, setPref, usePref } from '../settings/prefs';

export interface ServersState {
  list: ServerView[] | null;
  error: string | null;
  loading: boolean;
}

export const serversStore = createStore<ServersState>({ list: null, error: null, loading: false });

/** A connection waiting for its sign-in: the authorization URL, and whether a tab was opened for it. */
export interface PendingSignIn {
  url: string;
  opened: boolean;
}

export const signInStore = createStore<Record<string, PendingSignIn>>({});

export function setPendingSignIn(name: string, p: PendingSignIn | null): void {
  signInStore.set((m) => {
    if (!p) {
      if (!(name in m)) return m;
      const { [name]: _gone, ...rest } = m;
      return rest;
    }
    return { ...m, [name]: p };
  });
}

export function usePendingSignIn(name: string): PendingSignIn | undefined {
  return useStore(signInStore)[name];
}

/** After a (re)load: connections that wait for a sign-in since before this page listened. */
function findPendingSignIns(list: ServerView[]): void {
  for (const v of list) {
    if (v.config.type === 'stdio') continue;
    if (v.status.state !== 'connecting') {
      setPendingSignIn(v.config.name, null);
      continue;
    }
    oauthApi.status(v.config.name).then(
      (st) => {
        if (st.pendingAuthorizationUrl && !signInStore.get()[v.config.name]) setPendingSignIn(v.config.name, { url: st.pendingAuthorizationUrl, opened: false });
      },
      () => undefined,
    );
  }
}

const STDERR_KEEP = 500;

export async function reloadServers(): Promise<void> {
  serversStore.set((s) => ({ ...s, loading: true }));
  try {
    const list = await api.servers();
    serversStore.set({ list, error: null, loading: false });
    findPendingSignIns(list);
  } catch (e) {
    serversStore.set((s) => ({ ...s, error: errorMessage(e), loading: false }));
  }
}

/** Replaces one server's view (after connect, edit…). */
export function upsertServer(view: ServerView, previousName?: string): void {
  serversStore.set((s) => {
    const list = [...(s.list ?? [])];
    const i = list.findIndex((v) => v.config.name === (previousName ?? view.config.name));
    if (i >= 0) {
      // Lines that came as events may be newer than the reply's snapshot of stderr.
      const prev = list[i];
      list[i] = prev.stderr.length > view.stderr.length && prev.config.name === view.config.name ? { ...view, stderr: prev.stderr } : view;
    } else list.push(view);
    return { ...s, list };
  });
}

export function removeServer(name: string): void {
  serversStore.set((s) => ({ ...s, list: (s.list ?? []).filter((v) => v.config.name !== name) }));
}

function patch(name: string, f: (v: ServerView) => ServerView): void {
  serversStore.set((s) => {
    if (!s.list) return s;
    const i = s.list.findIndex((v) => v.config.name === name);
    if (i < 0) return s;
    const list = [...s.list];
    list[i] = f(list[i]);
    return { ...s, list };
  });
}

const refreshing = new Set<string>();
function refreshOne(name: string): void {
  if (refreshing.has(name)) return;
  refreshing.add(name);
  api
    .server(name)
    .then((v) => upsertServer(v))
    .catch(() => undefined)
    .finally(() => refreshing.delete(name));
}

function onEvent(e: ServerEvent): void {
  if (e.type === 'authorizationRequired') {
    const had = signInStore.get()[e.server];
    setPendingSignIn(e.server, { url: e.url, opened: had?.opened ?? false });
    return;
  }
  if (e.type === 'status') {
    if (e.status.state !== 'connecting') setPendingSignIn(e.server, null);
    const known = serversStore.get().list?.some((v) => v.config.name === e.server);
    if (!known) {
      refreshOne(e.server);
      return;
    }
    patch(e.server, (v) => ({ ...v, status: e.status, info: e.status.state === 'connected' ? v.info : null }));
    // The initialize result comes with the view, not the event.
    if (e.status.state === 'connected') refreshOne(e.server);
  } else if (e.type === 'stderr') {
    patch(e.server, (v) => ({ ...v, stderr: [...v.stderr.slice(-(STDERR_KEEP - 1)), e.line] }));
  }
}

let started = false;
export function startServersStore(): void {
  if (started) return;
  started = true;
  events.onServerEvent(onEvent);
  events.onResync(() => void reloadServers());
  void reloadServers();
}

export function useServers(): ServersState {
  return useStore(serversStore);
}

export function useServer(name: string | null): ServerView | undefined {
  const { list } = useServers();
  return name ? list?.find((v) => v.config.name === name) : undefined;
}

/** The server the inspector pages work on: the chosen one if it still exists, else the first. */
export function useSelectedServer(): string | null {
  const chosen = usePref<string | null>('selectedServer', null);
  const { list } = useServers();
  useEffect(() => {
    if (list && list.length && !list.some((v) => v.config.name === chosen)) {
      // Prefer a connected server when the remembered one is gone.
      const connected = list.find((v) => v.status.state === 'connected');
      if (getPref('selectedServer', null) !== (connected ?? list[0]).config.name) {
        setPref('selectedServer', (connected ?? list[0]).config.name);
      }
    }
  }, [list, chosen]);
  if (!list) return null;
  if (chosen && list.some((v) => v.config.name === chosen)) return chosen;
  return list.find((v) => v.status.state === 'connected')?.config.name ?? list[0]?.config.name ?? null;
}

export function selectServer(name: string): void {
  setPref('selectedServer', name);
}

// The configured servers and their live status: the `['servers']` query of the app's query
// cache, loaded from `/api/servers` in the user's order, patched by `status` and `stderr` events
// (no refetch per event), a row fetched on `added` and `updated` and dropped on `removed` (from
// this page, another, or `mcplab servers` in a terminal), put in order on `reordered`, refetched
// on resync. Also holds the server the inspector pages work on (persisted
// in prefs), and the sign-ins waiting for the browser (`authorizationRequired` events, until
// the connection is no longer `connecting`).
import { useEffect } from 'react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
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

export const SERVERS_KEY = ['servers'] as const;

// The app's query cache, handed over by `startServersStore` (the app creates it).
let cache: QueryClient | null = null;

function list(): ServerView[] | undefined {
  return cache?.getQueryData<ServerView[]>(SERVERS_KEY);
}

function setList(f: (l: ServerView[]) => ServerView[]): void {
  cache?.setQueryData<ServerView[]>(SERVERS_KEY, (l) => (l ? f(l) : l));
}

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

async function loadServers(): Promise<ServerView[]> {
  const l = await api.servers();
  findPendingSignIns(l);
  return l;
}

/** Asks for the list now, beside the prefs (`boot.ts`): `useServers` then shares that request. */
export function prefetchServers(queryClient: QueryClient): Promise<void> {
  return queryClient.prefetchQuery({ queryKey: SERVERS_KEY, queryFn: loadServers, gcTime: Infinity });
}

/** The names of the servers in the cached list (the boot's), or null before it is in. */
export function cachedServerNames(): string[] | null {
  return list()?.map((v) => v.config.name) ?? null;
}

export async function reloadServers(): Promise<void> {
  await cache?.invalidateQueries({ queryKey: SERVERS_KEY, refetchType: 'all' });
}

/** When each server was told `added` on this page: new servers go last, in that order. */
const addedAt = new Map<string, number>();
let addedCount = 0;

/** Where a new row goes: before the rows told `added` after it (their views came first), else last. */
function newRowIndex(l: ServerView[], name: string): number {
  const at = addedAt.get(name);
  if (at === undefined) return l.length;
  const later = l.findIndex((v) => (addedAt.get(v.config.name) ?? -1) > at);
  return later < 0 ? l.length : later;
}

/** Replaces one server's view (after connect, edit…). */
export function upsertServer(view: ServerView, previousName?: string): void {
  if (!list()) {
    cache?.setQueryData<ServerView[]>(SERVERS_KEY, [view]);
    return;
  }
  setList((l) => {
    const next = [...l];
    const i = next.findIndex((v) => v.config.name === (previousName ?? view.config.name));
    if (i >= 0) {
      // Lines that came as events may be newer than the reply's snapshot of stderr.
      const prev = next[i];
      next[i] = prev.stderr.length > view.stderr.length && prev.config.name === view.config.name ? { ...view, stderr: prev.stderr } : view;
    } else next.splice(newRowIndex(next, view.config.name), 0, view);
    return next;
  });
}

/**
 * A server just added: its view unless events already brought a newer one (adding connects in
 * the background, so `connected` may come before the reply that says `connecting`).
 */
export function addServerView(view: ServerView): void {
  if (list()?.some((v) => v.config.name === view.config.name)) return;
  upsertServer(view);
}

/** Whether `name` was removed (a `removed` event on this page) and is not configured again. */
export function wasRemoved(name: string): boolean {
  return (removals.get(name) ?? 0) > 0 && !list()?.some((v) => v.config.name === name);
}

/** `l` in the order of `names`; rows `names` does not mention keep their order, after them. */
export function inOrder(l: ServerView[], names: readonly string[]): ServerView[] {
  const place = new Map(names.map((n, i) => [n, i]));
  const at = (v: ServerView) => place.get(v.config.name) ?? names.length;
  return l.map((v, i) => ({ v, i })).sort((a, b) => at(a.v) - at(b.v) || a.i - b.i).map((x) => x.v);
}

/** Shows the servers in the order of `names` at once (every list follows it). */
export function orderServers(names: readonly string[]): void {
  setList((l) => inOrder(l, names));
}

/**
 * Saves a new order: shown at once, and put back as it was, with the reason thrown, when the
 * server refuses it (a server added or removed in another tab meanwhile: the list is reloaded).
 */
export async function saveServerOrder(names: string[]): Promise<void> {
  const before = list()?.map((v) => v.config.name) ?? [];
  orderServers(names);
  try {
    await api.setServerOrder(names);
  } catch (e) {
    orderServers(before);
    void reloadServers();
    throw e;
  }
}

export function removeServer(name: string): void {
  setList((l) => l.filter((v) => v.config.name !== name));
}

function patch(name: string, f: (v: ServerView) => ServerView): void {
  setList((l) => {
    const i = l.findIndex((v) => v.config.name === name);
    if (i < 0) return l;
    const next = [...l];
    next[i] = f(next[i]);
    return next;
  });
}

/** Servers with a view request in flight, and whether another was asked for meanwhile. */
const refreshing = new Map<string, boolean>();
/** Removals seen per name: a view fetched before one is stale and not shown. */
const removals = new Map<string, number>();
/**
 * Fetches one server's view. An ask while a request is in flight is not dropped: that reply may
 * predate the event that asked (an added server's `connected` arriving while the view fetched on
 * its `connecting` is on its way), so one more request follows it.
 */
function refreshOne(name: string): void {
  if (refreshing.has(name)) {
    refreshing.set(name, true);
    return;
  }
  refreshing.set(name, false);
  const removed = removals.get(name) ?? 0;
  api
    .server(name)
    .then((v) => {
      if ((removals.get(name) ?? 0) === removed) upsertServer(v);
    })
    .catch(() => undefined)
    .finally(() => {
      const again = refreshing.get(name);
      refreshing.delete(name);
      if (again) refreshOne(name);
    });
}

function onEvent(e: ServerEvent): void {
  if (e.type === 'authorizationRequired') {
    const had = signInStore.get()[e.server];
    setPendingSignIn(e.server, { url: e.url, opened: had?.opened ?? false });
    return;
  }
  if (e.type === 'removed') {
    removals.set(e.server, (removals.get(e.server) ?? 0) + 1);
    setPendingSignIn(e.server, null);
    removeServer(e.server);
    return;
  }
  if (e.type === 'reordered') {
    orderServers(e.servers);
    return;
  }
  if (e.type === 'added' || e.type === 'updated') {
    if (e.type === 'added') addedAt.set(e.server, ++addedCount);
    refreshOne(e.server);
    return;
  }
  if (e.type === 'status') {
    if (e.status.state !== 'connecting') setPendingSignIn(e.server, null);
    const known = list()?.some((v) => v.config.name === e.server);
    if (!known) {
      refreshOne(e.server);
      return;
    }
    patch(e.server, (v) => ({ ...v, status: e.status, info: e.status.state === 'connected' ? v.info : null }));
    // A row being fetched (after `added`) may have been read before this change: its answer
    // would put the older status back, so it is fetched once more after it.
    if (refreshing.has(e.server)) refreshing.set(e.server, true);
    // The initialize result comes with the view, not the event.
    else if (e.status.state === 'connected') refreshOne(e.server);
  } else if (e.type === 'stderr') {
    patch(e.server, (v) => ({ ...v, stderr: [...v.stderr.slice(-(STDERR_KEEP - 1)), e.line] }));
  }
}

let started = false;
export function startServersStore(queryClient: QueryClient): void {
  cache = queryClient;
  if (started) return;
  started = true;
  events.onServerEvent(onEvent);
  events.onResync(() => void reloadServers());
}

export function useServers(): ServersState {
  // Kept for the app's life: events patch it even while no page shows it.
  const q = useQuery({ queryKey: SERVERS_KEY, queryFn: loadServers, gcTime: Infinity });
  return { list: q.data ?? null, error: q.error ? errorMessage(q.error) : null, loading: q.isFetching };
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

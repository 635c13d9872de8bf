// The last cache facts per server and list, written by the list loaders and read by the
// list headers; plus a one-shot "next load bypasses the cache" flag per list.
import { useSyncExternalStore } from 'react';
import { cacheInfo, modernApi, type CacheInfo } from './api';

const infos = new Map<string, CacheInfo>();
const bypass = new Set<string>();
const listeners = new Set<() => void>();
const key = (server: string, list: string) => `${server}\u0000${list}`;

export function noteCacheInfo(server: string, list: string, info: CacheInfo): void {
  infos.set(key(server, list), info);
  listeners.forEach((l) => l());
}

/** Marks the next load of this list as "bypass the cache". */
export function requestBypass(server: string, list: string): void {
  bypass.add(key(server, list));
}

/** Whether this load should bypass the cache (clears the flag). */
export function takeBypass(server: string, list: string): boolean {
  return bypass.delete(key(server, list));
}

export function useCacheInfo(server: string, list: string): CacheInfo | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => infos.get(key(server, list)) ?? null,
  );
}

/** A list loader that asks with or without the cache and keeps the list's cache facts. */
export function cachedLoader<T>(path: string, key: string, list: string) {
  return async (server: string): Promise<T[]> => {
    const r = await modernApi.list<Record<string, unknown>>(server, path, takeBypass(server, list));
    noteCacheInfo(server, list, cacheInfo(r));
    return (r[key] as T[] | undefined) ?? [];
  };
}

// Server data the inspector reads (a server's tools, resources, resource templates, prompts),
// cached by TanStack Query, and the one place the event stream marks queries stale
// (`useQueryInvalidation`). Nothing here polls: a list is stale on `listChanged`, the server
// connecting again or a `resync`; a server's sign-in status on its `status` and
// `authorizationRequired` events or a `resync`; a `task` event patches its server's tasks.
// Must not hold call state or client preferences (those live in their feature stores).
import { QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, errorMessage, type Prompt, type Resource, type ResourceTemplate, type Tool } from './client';
import { events } from './events';
import { cachedLoader } from '../modern/cacheInfo';
import { invalidateOAuthStatus } from '../servers/oauthStatus';
import { useServer } from '../servers/store';
import { patchTask } from '../tasks/queries';

export type ListKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

type ItemOf<K extends ListKind> = K extends 'tools' ? Tool : K extends 'resources' ? Resource : K extends 'resourceTemplates' ? ResourceTemplate : Prompt;

// Tools, resources and prompts go through the 2026-07-28 cache hints (`cachedLoader` keeps
// each list's `ttlMs`/`cacheScope` for its header and honours a one-shot "bypass cache").
const loaders: { [K in ListKind]: (server: string) => Promise<ItemOf<K>[]> } = {
  tools: cachedLoader<Tool>('tools', 'tools', 'tools'),
  resources: cachedLoader<Resource>('resources', 'resources', 'resources'),
  resourceTemplates: (s) => api.resourceTemplates(s).then((r) => r.resourceTemplates ?? []),
  prompts: cachedLoader<Prompt>('prompts', 'prompts', 'prompts'),
};

export const listKey = (kind: ListKind, server: string) => ['list', server, kind] as const;

/** The query for one of a server's lists (shared by hooks and `fetchQuery` outside React). */
export function listQuery<K extends ListKind>(kind: K, server: string) {
  return { queryKey: listKey(kind, server), queryFn: () => loaders[kind](server) as Promise<ItemOf<K>[]> };
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Lists change only when the server says so (events invalidate them); a failure is shown
      // with a Retry at once instead of being retried behind a spinner.
      queries: { staleTime: Infinity, retry: false, refetchOnWindowFocus: false },
    },
  });
}

export interface ListState<T> {
  data: T[] | null;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

/** One of a connected server's lists. Never spins forever: it ends in data or an error. */
export function useServerList<K extends ListKind>(server: string | null, kind: K): ListState<ItemOf<K>> {
  const view = useServer(server);
  const connected = view?.status.state === 'connected';
  const q = useQuery({ ...listQuery(kind, server ?? ''), enabled: !!server && connected });
  return {
    data: q.data ?? null,
    error: q.error ? errorMessage(q.error) : null,
    loading: q.isFetching || (connected && q.isPending),
    reload: () => void q.refetch(),
  };
}

/** `listChanged`'s `list` names (`tools`, `resources`, `prompts`) → the cached lists it covers. */
function kindsFor(list: string): ListKind[] {
  if (list.startsWith('tools')) return ['tools'];
  if (list.startsWith('resources')) return ['resources', 'resourceTemplates'];
  if (list.startsWith('prompts')) return ['prompts'];
  return [];
}

/** Subscribes the query cache to the event stream (mounted once, in the shell). */
export function useQueryInvalidation(): void {
  const qc = useQueryClient();
  useEffect(() => {
    const offEvents = events.onServerEvent((e) => {
      if (e.type === 'listChanged') {
        for (const k of kindsFor(e.list)) void qc.invalidateQueries({ queryKey: listKey(k, e.server) });
      } else if (e.type === 'removed') {
        // A server added again under this name must not show these.
        qc.removeQueries({ queryKey: ['list', e.server] });
      } else if (e.type === 'task') {
        patchTask(qc, e.task);
      } else if (e.type === 'status' || e.type === 'authorizationRequired') {
        // A connection that changes state or waits for a sign-in may have signed in or out.
        void invalidateOAuthStatus(qc, e.server);
        // A new connection may serve different lists.
        if (e.type === 'status' && e.status.state === 'connected') void qc.invalidateQueries({ queryKey: ['list', e.server] });
      }
    });
    // A resync means events were missed: every list may be out of date (the servers list
    // reloads itself, see `servers/store.ts`).
    const offResync = events.onResync(() => {
      for (const key of [['list'], ['sessions'], ['providers'], ['tasks']]) void qc.invalidateQueries({ queryKey: key });
      void invalidateOAuthStatus(qc);
    });
    return () => {
      offEvents();
      offResync();
    };
  }, [qc]);
}

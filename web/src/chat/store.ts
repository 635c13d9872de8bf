// Chat state shared across components: the model providers (also edited on the Settings
// page) and the list of chat sessions, as the `['providers']` and `['sessions']` queries of the
// app's query cache. Every change made here goes through the API first and then writes its
// reply into the cache. Both lists are refetched when a page that shows them mounts — the CLI
// (`mcplab chat --save`) and other tabs change them without an event on the host stream — and
// on the host stream's `resync` (`useQueryInvalidation`); a session's list entry is refreshed
// when one of its turns ends (`useChatSession`). Must not hold one session's turns: those come
// from the session's own stream.
import { useMemo } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api, errorMessage } from '../api/client';
import type { HostConfig, ProviderInput, ProviderView, SessionSummary } from '../api/types.gen';

export const PROVIDERS_KEY = ['providers'] as const;
export const SESSIONS_KEY = ['sessions'] as const;

export interface Loadable<T> {
  list: T[] | null;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

function useList<T>(queryKey: readonly string[], queryFn: () => Promise<T[]>): Loadable<T> {
  const q = useQuery({ queryKey, queryFn, refetchOnMount: 'always' });
  return { list: q.data ?? null, error: q.error ? errorMessage(q.error) : null, loading: q.isFetching, reload: () => void q.refetch() };
}

export function useProviders(): Loadable<ProviderView> {
  return useList(PROVIDERS_KEY, api.providers);
}

export function useSessions(): Loadable<SessionSummary> {
  return useList(SESSIONS_KEY, api.sessions);
}

/** The chat's writes, bound to a query cache (`useChatCache` in components). */
export function chatCache(qc: QueryClient) {
  const setSessions = (f: (l: SessionSummary[]) => SessionSummary[]) => {
    // Not loaded yet: the fetch under way (or the next mount's) brings the change.
    if (!qc.getQueryData(SESSIONS_KEY)) return void qc.invalidateQueries({ queryKey: SESSIONS_KEY });
    qc.setQueryData<SessionSummary[]>(SESSIONS_KEY, (l) => (l ? f(l) : l));
  };
  const upsertSession = (summary: SessionSummary) =>
    setSessions((list) => {
      const i = list.findIndex((x) => x.id === summary.id);
      if (i < 0) return [summary, ...list];
      const next = list.slice();
      next[i] = summary;
      return next;
    });
  return {
    upsertSession,
    removeSession: (id: string) => setSessions((list) => list.filter((x) => x.id !== id)),
    reloadSessions: () => qc.invalidateQueries({ queryKey: SESSIONS_KEY }),
    async renameSession(id: string, title: string): Promise<void> {
      upsertSession(await api.patchSession(id, { title }));
    },
    async updateHostConfig(id: string, hostConfig: HostConfig): Promise<SessionSummary> {
      const summary = await api.patchSession(id, { hostConfig });
      upsertSession(summary);
      return summary;
    },
    /** Stores a provider's settings; the server answers with every provider, so the list is
     * replaced from the reply. Returns the provider's new view. */
    async saveProvider(id: string, input: ProviderInput): Promise<ProviderView | undefined> {
      const list = await api.setProvider(id, input);
      qc.setQueryData(PROVIDERS_KEY, list);
      return list.find((p) => p.id === id);
    },
    async deleteProvider(id: string): Promise<void> {
      await api.deleteProvider(id);
      await qc.invalidateQueries({ queryKey: PROVIDERS_KEY });
    },
  };
}

export type ChatCache = ReturnType<typeof chatCache>;

export function useChatCache(): ChatCache {
  const qc = useQueryClient();
  return useMemo(() => chatCache(qc), [qc]);
}

/** `provider::model` strings the user can pick now, grouped by provider. */
export function usableModels(providers: ProviderView[]): { provider: ProviderView; models: string[] }[] {
  return providers.filter((p) => p.usable && p.models.length > 0).map((p) => ({ provider: p, models: p.models.map((m) => `${p.id}::${m}`) }));
}

/** The model for a new session: the last one used if it is still usable, else the first. */
export function defaultModel(providers: ProviderView[] | null, last: string | null): string {
  const all = usableModels(providers ?? []).flatMap((g) => g.models);
  return last && all.includes(last) ? last : all[0] ?? '';
}

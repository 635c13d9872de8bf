// Chat state shared across components: the model providers (also edited on the Settings
// page) and the list of chat sessions. Loaded on first use; every change made here goes
// through the API first and updates the list from its reply.
import { api, errorMessage } from '../api/client';
import type { HostConfig, ProviderInput, ProviderView, SessionSummary } from '../api/types.gen';
import { createStore, useStore, type Store } from '../ui/store';

export interface Loadable<T> {
  list: T[] | null;
  error: string | null;
  loading: boolean;
}

export const providersStore = createStore<Loadable<ProviderView>>({ list: null, error: null, loading: false });
export const sessionsStore = createStore<Loadable<SessionSummary>>({ list: null, error: null, loading: false });

async function load<T>(store: Store<Loadable<T>>, fetch: () => Promise<T[]>): Promise<void> {
  store.set((s) => ({ ...s, loading: true }));
  try {
    store.set({ list: await fetch(), error: null, loading: false });
  } catch (e) {
    store.set((s) => ({ ...s, error: errorMessage(e), loading: false }));
  }
}

export const reloadProviders = () => load(providersStore, api.providers);
export const reloadSessions = () => load(sessionsStore, api.sessions);

/** Stores a provider's settings; the server answers with every provider, so the list is
 * replaced from the reply. Returns the provider's new view. */
export async function saveProvider(id: string, input: ProviderInput): Promise<ProviderView | undefined> {
  const list = await api.setProvider(id, input);
  providersStore.set({ list, error: null, loading: false });
  return list.find((p) => p.id === id);
}

export async function deleteProvider(id: string): Promise<void> {
  await api.deleteProvider(id);
  await reloadProviders();
}

export function upsertSession(summary: SessionSummary): void {
  sessionsStore.set((s) => {
    const list = s.list ?? [];
    const i = list.findIndex((x) => x.id === summary.id);
    if (i < 0) return { ...s, list: [summary, ...list] };
    const next = list.slice();
    next[i] = summary;
    return { ...s, list: next };
  });
}

export function removeSession(id: string): void {
  sessionsStore.set((s) => ({ ...s, list: (s.list ?? []).filter((x) => x.id !== id) }));
}

export async function renameSession(id: string, title: string): Promise<void> {
  upsertSession(await api.patchSession(id, { title }));
}

export async function updateHostConfig(id: string, hostConfig: HostConfig): Promise<SessionSummary> {
  const summary = await api.patchSession(id, { hostConfig });
  upsertSession(summary);
  return summary;
}

export function useProviders(): Loadable<ProviderView> {
  return useStore(providersStore);
}

export function useSessions(): Loadable<SessionSummary> {
  return useStore(sessionsStore);
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

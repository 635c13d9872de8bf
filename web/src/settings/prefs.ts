// UI preferences persisted by the server (`/api/prefs`): theme, selected server, call
// history, panel layout. Reads are synchronous from the loaded snapshot; writes update the
// snapshot at once and are sent to the server in the background.
import { createStore, useStore } from '../ui/store';
import { api } from '../api/client';

const store = createStore<Record<string, unknown>>({});

export async function loadPrefs(): Promise<void> {
  const prefs = await api.prefs();
  store.set({ ...prefs, ...pendingWrites() });
}

const unsaved = new Map<string, unknown>();
function pendingWrites(): Record<string, unknown> {
  return Object.fromEntries(unsaved);
}

export function getPref<T>(key: string, fallback: T): T {
  const v = store.get()[key];
  return v === undefined ? fallback : (v as T);
}

export function setPref(key: string, value: unknown): void {
  store.set((p) => ({ ...p, [key]: value }));
  unsaved.set(key, value);
  api.setPref(key, value).then(
    () => unsaved.delete(key),
    () => {
      /* keep the local value; it is retried with the next write */
    },
  );
}

export function usePref<T>(key: string, fallback: T): T {
  const all = useStore(store);
  const v = all[key];
  return v === undefined ? fallback : (v as T);
}


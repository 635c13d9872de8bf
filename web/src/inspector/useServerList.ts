// Loads one of a server's lists (tools, resources, templates, prompts) and reloads it when
// the server reconnects or announces list_changed. Never spins forever: every load ends in
// data or an error the page shows.
import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../api/client';
import { useServerEvents } from '../api/events';
import { useServer } from '../servers/store';

export interface ListState<T> {
  data: T[] | null;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

export function useServerList<T>(server: string | null, listName: string, load: (server: string) => Promise<T[]>): ListState<T> {
  const view = useServer(server);
  const connected = view?.status.state === 'connected';
  const [state, setState] = useState<{ key: string; data: T[] | null; error: string | null; loading: boolean }>({
    key: '',
    data: null,
    error: null,
    loading: false,
  });
  const [nonce, setNonce] = useState(0);
  const reload = useCallback(() => setNonce((n) => n + 1), []);
  const key = `${server}\u0000${listName}`;

  useEffect(() => {
    if (!server || !connected) return;
    let live = true;
    setState((s) => ({ key, data: s.key === key ? s.data : null, error: null, loading: true }));
    load(server).then(
      (data) => live && setState({ key, data, error: null, loading: false }),
      (e) => live && setState({ key, data: null, error: errorMessage(e), loading: false }),
    );
    return () => {
      live = false;
    };
    // `load` is a stable module-level function per call site.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [server, connected, key, nonce]);

  useServerEvents((e) => {
    if (e.type === 'listChanged' && e.server === server && listName.startsWith(e.list)) reload();
  });

  const mine = state.key === key;
  return { data: mine ? state.data : null, error: mine ? state.error : null, loading: mine ? state.loading : !!connected, reload };
}

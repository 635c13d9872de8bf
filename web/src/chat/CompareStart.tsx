// The "Compare…" form under a session's settings: 2–4 columns, each a model AND a host profile
// (built in or the person's own, from `/api/hosts`; "same as this chat" keeps the session's
// host sections), so "same model, different hosts" is a comparison too. Starting creates one
// session per column, each storing its own HostConfig, grouped as one compare in the store (one entry in the session
// list), and opens them. Started from a chat with no turns yet (a fresh "New chat"), that chat is
// deleted: it would stay in the list as an empty orphan, one per compare.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorMessage, request } from '../api/client';
import type { HostConfig, HostProfile, ProviderView } from '../api/types.gen';
import { Button } from '../ui/Button';
import { navigate } from '../ui/route';
import { applyProfile } from './hostProfiles';
import { useChatCache } from './store';

/** One column to start: a model, and a host profile's name ('' = the session's own host). */
export interface ColumnChoice {
  model: string;
  host: string;
}

/** The HostConfig a column runs: the session's, with the column's model and host profile. */
export function columnConfig(base: HostConfig, choice: ColumnChoice, profiles: HostProfile[]): HostConfig {
  const withModel = { ...base, model: choice.model };
  const profile = profiles.find((p) => p.name === choice.host);
  return profile ? applyProfile(withModel, profile) : withModel;
}

export function CompareStart({ host, providers, discard }: { host: HostConfig; providers: ProviderView[]; discard?: string }) {
  const [open, setOpen] = useState(false);
  const [columns, setColumns] = useState<ColumnChoice[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cache = useChatCache();
  const hosts = useQuery({ queryKey: ['hosts'], queryFn: () => request<HostProfile[]>('GET', '/api/hosts'), enabled: open });
  const profiles = hosts.data ?? [];
  const options = providers.filter((p) => p.usable).flatMap((p) => p.models.map((m) => `${p.id}::${m}`));
  if (!open) {
    return (
      <Button
        small
        onClick={() => {
          setColumns([
            { model: host.model, host: '' },
            { model: options.find((m) => m !== host.model) ?? host.model, host: '' },
          ]);
          setOpen(true);
        }}
        data-testid="compare-start"
        title="Send the same messages to 2–4 models or host profiles side by side"
      >
        Compare…
      </Button>
    );
  }
  const set = (i: number, patch: Partial<ColumnChoice>) => setColumns(columns.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      const ids: string[] = [];
      for (const c of columns) {
        const title = `compare: ${c.model}${c.host ? ` as ${c.host}` : ''}`;
        const view = await api.createSession({ title, hostConfig: columnConfig(host, c, profiles) });
        cache.upsertSession(view.summary);
        ids.push(view.summary.id);
      }
      await api.createCompare({ sessions: ids });
      if (discard) {
        await api.deleteSession(discard);
        cache.removeSession(discard);
      }
      void cache.reloadSessions();
      navigate('chat', 'compare', ...ids);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="compare-start" data-testid="compare-form">
      {columns.map((c, i) => (
        <span key={i} className="compare-start-column" data-testid="compare-start-column">
          <span className="compare-start-label small muted">Column {i + 1}</span>
          <select value={c.model} aria-label={`Model ${i + 1}`} data-testid="compare-model" onChange={(e) => set(i, { model: e.target.value })}>
            {!options.includes(c.model) && <option value={c.model}>{c.model || 'choose a model…'}</option>}
            {options.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
          <select value={c.host} aria-label={`Host profile ${i + 1}`} data-testid="compare-host" onChange={(e) => set(i, { host: e.target.value })}>
            <option value="">same host as this chat</option>
            {profiles.map((p) => (
              <option key={p.name} value={p.name}>
                as {p.title || p.name}
                {p.builtin ? '' : ' (yours)'}
              </option>
            ))}
          </select>
        </span>
      ))}
      {columns.length < 4 && (
        <Button small onClick={() => setColumns([...columns, { ...columns[columns.length - 1] }])} data-testid="compare-add">
          + column
        </Button>
      )}
      {columns.length > 2 && (
        <Button small onClick={() => setColumns(columns.slice(0, -1))}>
          − column
        </Button>
      )}
      <Button small variant="primary" onClick={() => void start()} busy={busy} data-testid="compare-go">
        Compare
      </Button>
      <Button small onClick={() => setOpen(false)}>
        Cancel
      </Button>
      {hosts.error && <div className="inline-error small">Could not load host profiles: {errorMessage(hosts.error)}</div>}
      {error && (
        <div className="inline-error small" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

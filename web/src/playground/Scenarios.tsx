// Saved scenarios: a named tool input plus the emulation, stored in SQLite
// (`/api/app-scenarios`), listed for this server and tool, to reopen and re-run in one click.
// The list is the `['appScenarios']` query, fetched whenever this mounts (other tabs change
// it without an event); saving and deleting are mutations that refetch it.
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessage, request } from '../api/client';
import type { AppScenario, AppScenarioInput } from '../api/types.gen';
import { Button } from '../ui/Button';
import type { Emulation } from './devices';

const SCENARIOS_KEY = ['appScenarios'] as const;
const path = (id?: string) => (id ? `/api/app-scenarios/${encodeURIComponent(id)}` : '/api/app-scenarios');

/** Saves `body` (over the scenario of that name for that tool, if any) or deletes one. */
type Write = { kind: 'save'; body: AppScenarioInput; existing?: AppScenario } | { kind: 'delete'; id: string };

function write(w: Write): Promise<unknown> {
  if (w.kind === 'delete') return request('DELETE', path(w.id));
  return w.existing ? request('PUT', path(w.existing.id), w.body) : request('POST', path(), w.body);
}

function useScenarios() {
  const qc = useQueryClient();
  const list = useQuery({ queryKey: SCENARIOS_KEY, queryFn: () => request<AppScenario[]>('GET', path()), refetchOnMount: 'always' });
  const change = useMutation({ mutationFn: write, onSettled: () => qc.invalidateQueries({ queryKey: SCENARIOS_KEY }) });
  return { list, change };
}

export function Scenarios({
  current,
  onLoad,
}: {
  current: { server: string; tool: string; arguments: () => Record<string, unknown>; conditions: Emulation };
  onLoad: (s: AppScenario) => void;
}) {
  const { list: q, change } = useScenarios();
  const list = q.data ?? null;
  const [name, setName] = useState('');
  const failure = change.error ?? q.error;
  const error = failure ? errorMessage(failure) : null;

  const save = () => {
    const body: AppScenarioInput = {
      name: name.trim(),
      server: current.server,
      tool: current.tool,
      arguments: current.arguments(),
      conditions: current.conditions as unknown as Record<string, unknown>,
    };
    const existing = list?.find((s) => s.name === body.name && s.server === body.server && s.tool === body.tool);
    change.mutate({ kind: 'save', body, existing }, { onSuccess: () => setName('') });
  };
  const remove = (id: string) => change.mutate({ kind: 'delete', id });

  const mine = (list ?? []).filter((s) => s.server === current.server && s.tool === current.tool);
  return (
    <div className="pg-scenarios" data-testid="pg-scenarios">
      <div className="section-label small">Scenarios</div>
      <div className="pg-scenario-save">
        <input placeholder="name, e.g. mobile dark ja-JP" value={name} onChange={(e) => setName(e.target.value)} data-testid="pg-scenario-name" onKeyDown={(e) => e.key === 'Enter' && name.trim() && save()} />
        <Button small onClick={save} disabled={!name.trim()} data-testid="pg-scenario-save">
          Save
        </Button>
      </div>
      {error && <div className="inline-error small">{error}</div>}
      <ul>
        {mine.map((s) => (
          <li key={s.id} data-testid="pg-scenario" data-name={s.name}>
            <button type="button" className="linkish" onClick={() => onLoad(s)} data-testid="pg-scenario-load" title="Load its input and emulation, and run">
              {s.name}
            </button>
            <button type="button" className="linkish small muted" onClick={() => remove(s.id)} data-testid="pg-scenario-delete">
              delete
            </button>
          </li>
        ))}
        {list && mine.length === 0 && <li className="small muted">None saved for this tool.</li>}
      </ul>
    </div>
  );
}

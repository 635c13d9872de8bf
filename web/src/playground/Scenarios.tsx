// Saved scenarios: a named tool input plus the emulation, stored in SQLite
// (`/api/app-scenarios`), listed for this server and tool, to reopen and re-run in one click.
import { useEffect, useState } from 'react';
import { errorMessage, request } from '../api/client';
import type { AppScenario, AppScenarioInput } from '../api/types.gen';
import { Button } from '../ui/Button';
import type { Emulation } from './devices';

export function Scenarios({
  current,
  onLoad,
}: {
  current: { server: string; tool: string; arguments: () => Record<string, unknown>; conditions: Emulation };
  onLoad: (s: AppScenario) => void;
}) {
  const [list, setList] = useState<AppScenario[] | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const reload = () =>
    request<AppScenario[]>('GET', '/api/app-scenarios').then(
      (l) => setList(l),
      (e) => setError(errorMessage(e)),
    );
  useEffect(() => {
    void reload();
  }, []);

  const save = async () => {
    setError(null);
    const body: AppScenarioInput = {
      name: name.trim(),
      server: current.server,
      tool: current.tool,
      arguments: current.arguments(),
      conditions: current.conditions as unknown as Record<string, unknown>,
    };
    try {
      const existing = list?.find((s) => s.name === body.name && s.server === body.server && s.tool === body.tool);
      if (existing) await request('PUT', `/api/app-scenarios/${encodeURIComponent(existing.id)}`, body);
      else await request('POST', '/api/app-scenarios', body);
      setName('');
      await reload();
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const remove = async (id: string) => {
    try {
      await request('DELETE', `/api/app-scenarios/${encodeURIComponent(id)}`);
      await reload();
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  const mine = (list ?? []).filter((s) => s.server === current.server && s.tool === current.tool);
  return (
    <div className="pg-scenarios" data-testid="pg-scenarios">
      <div className="section-label small">Scenarios</div>
      <div className="pg-scenario-save">
        <input placeholder="name, e.g. mobile dark ja-JP" value={name} onChange={(e) => setName(e.target.value)} data-testid="pg-scenario-name" onKeyDown={(e) => e.key === 'Enter' && name.trim() && void save()} />
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
            <button type="button" className="linkish small muted" onClick={() => void remove(s.id)} data-testid="pg-scenario-delete">
              delete
            </button>
          </li>
        ))}
        {list && mine.length === 0 && <li className="small muted">None saved for this tool.</li>}
      </ul>
    </div>
  );
}

// A server's saved requests and call history on the Tools page. Each history entry keeps its
// arguments and result: show the result again, load the arguments into the form, or re-run.
import { useState } from 'react';
import { ChevronDown, ChevronRight, RotateCcw, Trash2, Upload } from 'lucide-react';
import type { Tool } from '../api/client';
import { Button } from '../ui/Button';
import { clearHistory, deleteSavedRequest, useHistory, useSavedRequests, type HistoryEntry } from './history';
import { ToolResult } from './ToolResult';

type Act = (tool: string, args: Record<string, unknown>) => void;

export function ToolHistory({ server, currentTool, onLoad, onRerun }: { server: string; currentTool: string; onLoad: Act; onRerun: Act }) {
  const history = useHistory(server);
  const saved = useSavedRequests(server);
  return (
    <>
      {saved.length > 0 && (
        <section className="history" data-testid="saved-requests" aria-label="Saved requests">
          <h3>Saved requests</h3>
          <ul>
            {saved.map((s) => (
              <li key={s.name} className="history-row" data-testid="saved-row" data-name={s.name}>
                <span className="history-name">{s.name}</span>
                <span className="mono small">{s.tool}</span>
                <code className="history-args" title={JSON.stringify(s.args, null, 2)}>{JSON.stringify(s.args)}</code>
                <Button small variant="ghost" onClick={() => onLoad(s.tool, s.args)} data-testid="saved-load" title="Put the arguments into the form">
                  <Upload size={13} aria-hidden="true" /> Load
                </Button>
                <Button small onClick={() => onRerun(s.tool, s.args)} data-testid="saved-run">
                  <RotateCcw size={13} aria-hidden="true" /> Run
                </Button>
                <Button small variant="ghost" onClick={() => deleteSavedRequest(server, s.name)} aria-label={`Delete ${s.name}`} data-testid="saved-delete">
                  <Trash2 size={13} aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {history.length > 0 && (
        <details className="history" data-testid="tool-history">
          <summary>
            History <span className="muted small">({history.length})</span>
          </summary>
          <ul>
            {history.map((h, i) => (
              <HistoryRow key={`${h.ts}-${i}`} entry={h} current={h.tool === currentTool} onLoad={onLoad} onRerun={onRerun} />
            ))}
          </ul>
          <Button small variant="ghost" onClick={() => clearHistory(server)}>
            Clear history
          </Button>
        </details>
      )}
    </>
  );
}

function HistoryRow({ entry: h, onLoad, onRerun }: { entry: HistoryEntry; current: boolean; onLoad: Act; onRerun: Act }) {
  const [open, setOpen] = useState(false);
  const status = h.status ?? (h.ok ? 'ok' : 'error');
  return (
    <li className="history-entry" data-testid="history-row" data-status={status}>
      <div className="history-row">
        <button type="button" className="linkish" onClick={() => setOpen(!open)} aria-expanded={open} disabled={!h.outcome} data-testid="history-show" title={h.outcome ? 'Show the result' : 'No result kept'}>
          {open ? <ChevronDown size={14} aria-hidden="true" /> : <ChevronRight size={14} aria-hidden="true" />}
        </button>
        <span className={`dot dot-${status}`} title={status} />
        <span className="mono">{h.tool}</span>
        <code className="history-args" title={JSON.stringify(h.args, null, 2)}>{JSON.stringify(h.args)}</code>
        <span className="muted small">{new Date(h.ts).toLocaleTimeString([], { hour12: false })} · {h.durationMs} ms</span>
        <Button small variant="ghost" onClick={() => onLoad(h.tool, h.args)} data-testid="history-load">
          Load
        </Button>
        <Button small onClick={() => onRerun(h.tool, h.args)} data-testid="history-rerun">
          Re-run
        </Button>
      </div>
      {open && h.outcome && <ToolResult outcome={h.outcome} tool={{ name: h.tool } as Tool} />}
    </li>
  );
}

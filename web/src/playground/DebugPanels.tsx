// The playground's debug panels beside the app: the call's data, widget state, model context,
// the host context the app was told, the bridge messages between app and host (filterable,
// with timings and request→response latency), and problems (CSP violations, app errors).
import { useMemo, useState } from 'react';
import type { CallToolResult } from '../api/client';
import type { AppDiagnostics } from '../apps/AppFrame';
import type { BridgeMessage } from '../apps/host';
import { JsonTree } from '../ui/JsonTree';

export interface Timed<T> {
  at: number;
  value: T;
}

export interface DebugState {
  startedAt: number;
  args: Record<string, unknown> | null;
  result: CallToolResult | null;
  error: string | null;
  widgetState: Timed<unknown> | null;
  modelContext: Timed<unknown>[];
  hostContext: Record<string, unknown>;
  hostContextChanges: number;
  messages: BridgeMessage[];
  diagnostics: AppDiagnostics | null;
}

export function emptyDebug(): DebugState {
  return {
    startedAt: performance.now(),
    args: null,
    result: null,
    error: null,
    widgetState: null,
    modelContext: [],
    hostContext: {},
    hostContextChanges: 0,
    messages: [],
    diagnostics: null,
  };
}

type Tab = 'data' | 'state' | 'context' | 'host' | 'messages' | 'problems';

const ago = (startedAt: number, at: number) => `+${Math.max(0, Math.round(at - startedAt))} ms`;

export function DebugPanels({ debug }: { debug: DebugState }) {
  const [tab, setTab] = useState<Tab>('data');
  const problems = (debug.diagnostics?.violations.length ?? 0) + (debug.diagnostics?.appErrors.length ?? 0);
  const tabs: [Tab, string][] = [
    ['data', 'Data'],
    ['state', 'Widget state'],
    ['context', `Model context${debug.modelContext.length ? ` (${debug.modelContext.length})` : ''}`],
    ['host', 'Host context'],
    ['messages', `Messages (${debug.messages.length})`],
    ['problems', `Problems${problems ? ` (${problems})` : ''}`],
  ];
  return (
    <div className="debug-panels" data-testid="debug-panels">
      <div className="debug-tabs" role="tablist">
        {tabs.map(([id, label]) => (
          <button key={id} type="button" role="tab" aria-selected={tab === id} className={tab === id ? 'active' : ''} data-testid={`debug-tab-${id}`} onClick={() => setTab(id)}>
            {label}
          </button>
        ))}
      </div>
      <div className="debug-body" data-testid={`debug-${tab}`}>
        {tab === 'data' && <DataPanel debug={debug} />}
        {tab === 'state' &&
          (debug.widgetState ? (
            <>
              <div className="small muted" data-testid="debug-widget-state-at">
                last changed {ago(debug.startedAt, debug.widgetState.at)} after the run started
              </div>
              <JsonTree value={debug.widgetState.value} expandDepth={4} />
            </>
          ) : (
            <p className="small muted">No widget state yet (OpenAI widgets set it with window.openai.setWidgetState).</p>
          ))}
        {tab === 'context' &&
          (debug.modelContext.length ? (
            debug.modelContext
              .slice()
              .reverse()
              .map((c, i) => (
                <div key={i} className="debug-entry" data-testid="debug-model-context">
                  <div className="small muted">
                    {ago(debug.startedAt, c.at)} {i === 0 ? '· current (the last one wins)' : '· replaced'}
                  </div>
                  <JsonTree value={c.value} expandDepth={3} />
                </div>
              ))
          ) : (
            <p className="small muted">The app has not sent ui/update-model-context.</p>
          ))}
        {tab === 'host' && (
          <>
            <div className="small muted">
              What the app was told: ui/initialize, then {debug.hostContextChanges} host-context-changed update{debug.hostContextChanges === 1 ? '' : 's'}.
            </div>
            <JsonTree value={debug.hostContext} expandDepth={2} />
          </>
        )}
        {tab === 'messages' && <Messages debug={debug} />}
        {tab === 'problems' && <Problems debug={debug} />}
      </div>
    </div>
  );
}

function DataPanel({ debug }: { debug: DebugState }) {
  const r = debug.result;
  return (
    <div className="debug-data">
      <h2>Tool input</h2>
      <JsonTree value={debug.args ?? {}} expandDepth={3} />
      {debug.error && (
        <>
          <h2>Error</h2>
          <div className="inline-error small" data-testid="debug-error">
            {debug.error}
          </div>
        </>
      )}
      {r && (
        <>
          <h2>structuredContent</h2>
          <JsonTree value={r.structuredContent ?? null} expandDepth={3} />
          <h2>content</h2>
          <JsonTree value={r.content ?? []} expandDepth={2} />
          <h2>_meta</h2>
          <JsonTree value={r._meta ?? null} expandDepth={3} />
          {r.isError && <div className="badge badge-err">isError</div>}
        </>
      )}
      {!r && !debug.error && <p className="small muted">No result yet.</p>}
    </div>
  );
}

function Messages({ debug }: { debug: DebugState }) {
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<number | null>(null);
  // The opened message as the JSON text that crossed the bridge (copyable), or as a tree.
  const [raw, setRaw] = useState(false);
  const sentAt = useMemo(() => {
    const m = new Map<string, number>();
    for (const x of debug.messages) if (x.method && x.id !== undefined) m.set(`${x.dir}:${x.id}`, x.at);
    return m;
  }, [debug.messages]);
  const shown = debug.messages.filter((m) => !filter || (m.method ?? 'response').toLowerCase().includes(filter.toLowerCase()));
  return (
    <>
      <input className="debug-filter" placeholder="filter by method" value={filter} data-testid="debug-messages-filter" onChange={(e) => setFilter(e.target.value)} />
      <ul className="debug-messages">
        {shown.map((m) => {
          const isResponse = !m.method && m.id !== undefined;
          const requestAt = isResponse ? sentAt.get(`${m.dir === 'toApp' ? 'fromApp' : 'toApp'}:${m.id}`) : undefined;
          return (
            <li key={m.n} data-testid="debug-message" data-dir={m.dir} data-method={m.method ?? 'response'}>
              <button type="button" className="linkish debug-message-head" onClick={() => setOpen(open === m.n ? null : m.n)}>
                <span className="muted mono">{ago(debug.startedAt, m.at)}</span>
                <span className={m.dir === 'toApp' ? 'dir-out' : 'dir-in'}>{m.dir === 'toApp' ? 'host → app' : 'app → host'}</span>
                <span className="mono">{m.method ?? `↩ response ${m.id}`}</span>
                {requestAt !== undefined && <span className="muted small">{Math.round(m.at - requestAt)} ms</span>}
              </button>
              {open === m.n && (
                <>
                  <button type="button" className="linkish small" data-testid="debug-message-raw-toggle" onClick={() => setRaw(!raw)}>
                    {raw ? 'Show as tree' : 'Show raw JSON'}
                  </button>
                  {raw ? (
                    <pre className="mono small debug-raw" data-testid="debug-message-raw">
                      {JSON.stringify(m.message, null, 2)}
                    </pre>
                  ) : (
                    <JsonTree value={m.message} expandDepth={4} />
                  )}
                </>
              )}
            </li>
          );
        })}
      </ul>
    </>
  );
}

function Problems({ debug }: { debug: DebugState }) {
  const d = debug.diagnostics;
  if (!d || (!d.violations.length && !d.appErrors.length && !d.error)) return <p className="small muted">No CSP violations or app errors.</p>;
  return (
    <div>
      {d.error && <div className="inline-error small">{d.error}</div>}
      {d.violations.length > 0 && (
        <>
          <h2>CSP violations</h2>
          <ul>
            {d.violations.map((v, i) => (
              <li key={i} className="small" data-testid="debug-violation" data-directive={v.directive}>
                <code>{v.directive}</code> blocked <code>{v.blockedUri || '(inline)'}</code>
              </li>
            ))}
          </ul>
          {d.resource && (
            <p className="small muted">
              Policy in effect: <code>{d.resource.csp}</code>
            </p>
          )}
        </>
      )}
      {d.appErrors.length > 0 && (
        <>
          <h2>Errors inside the app</h2>
          <ul>
            {d.appErrors.map((e, i) => (
              <li key={i} className="small" data-testid="debug-app-error">
                <code>{e.kind}</code> <pre className="mono">{e.message}</pre>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

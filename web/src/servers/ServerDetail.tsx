// What is known about one server: failure, sign-in (remote servers), initialize result
// (server info, protocol version, capabilities), instructions, the checker's findings, and
// its stderr.
import { lazy, Suspense, useEffect, useRef } from 'react';
import type { InitializeResult } from '../api/client';
import type { ServerView } from '../api/types.gen';
import { CopyButton } from '../ui/CopyButton';
import { JsonTree } from '../ui/JsonTree';
import { ServerEra } from './ServerEra';
import { ServerCheck } from './ServerCheck';
import { ServerOAuth } from './ServerOAuth';
import { StatusBadge } from './StatusBadge';
import { ArrowRight } from 'lucide-react';
import { routeHash } from '../ui/route';
import { useAfterPaint } from '../ui/useAfterPaint';
import { Ticks } from '../ui/Ticks';

// Markdown (and its parser) loads after the first screen has painted; until then the text
// shows as it is.
const Markdown = lazy(() => import('../ui/Markdown').then((m) => ({ default: m.Markdown })));

export function ServerDetail({ view }: { view: ServerView }) {
  const info = (view.info ?? null) as InitializeResult | null;
  const caps = info?.capabilities ?? {};
  const stderrRef = useRef<HTMLPreElement>(null);
  const painted = useAfterPaint();
  useEffect(() => {
    const el = stderrRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [view.stderr.length]);

  return (
    <div className="server-detail" data-testid={`server-detail-${view.config.name}`}>
      <div className="detail-head">
        <h2>{view.config.name}</h2>
        <StatusBadge name={`detail-${view.config.name}`} status={view.status} />
      </div>
      {view.status.state === 'failed' && (
        <div className="state state-error" role="alert" data-testid="server-failure-message">
          <div className="state-title">Connection failed</div>
          <pre className="state-message">
            <Ticks text={view.status.message} />
          </pre>
        </div>
      )}
      {view.config.type !== 'stdio' && <ServerOAuth key={view.config.name} view={view} />}
      {info ? (
        <>
          <dl className="kv-grid" data-testid="server-info">
            <dt>Server</dt>
            <dd>
              <span className="mono">{info.serverInfo?.name ?? '?'}</span> {info.serverInfo?.version && <span className="muted">v{info.serverInfo.version}</span>}
              {info.serverInfo?.title && <span className="muted"> · {info.serverInfo.title}</span>}
            </dd>
            <dt>Protocol</dt>
            <dd className="mono">{info.protocolVersion ?? '?'}</dd>
            <dt>Declared as</dt>
            <dd data-testid="server-connected-as">{view.connectedAs ?? 'mcplab'}</dd>
            <dt>Capabilities</dt>
            <dd>
              <span className="badges">
                {Object.keys(caps).length === 0 && <span className="muted">none</span>}
                {Object.entries(caps).map(([k, v]) => (
                  <span key={k} className="badge" title={JSON.stringify(v)} data-testid={`capability-${k}`}>
                    {k}
                    {v !== null && typeof v === 'object' && Object.keys(v).length > 0 ? <span className="muted"> ({Object.keys(v).join(', ')})</span> : null}
                  </span>
                ))}
              </span>
            </dd>
          </dl>
          <ServerEra view={view} />
          <div className="toolbar" data-testid="server-explore">
            {(['tools', 'resources', 'prompts'] as const)
              .filter((k) => caps[k])
              .map((k) => (
                <a key={k} className="btn btn-sm" href={routeHash(k, view.config.name)} data-testid={`server-explore-${k}`}>
                  Open its {k} <ArrowRight size={13} aria-hidden="true" />
                </a>
              ))}
          </div>
          {typeof info.instructions === 'string' && info.instructions.trim() && (
            <section>
              <h3>Instructions</h3>
              {painted ? (
                <Suspense fallback={<p className="wrap">{info.instructions}</p>}>
                  <Markdown text={info.instructions} testId="server-instructions" />
                </Suspense>
              ) : (
                <p className="wrap">{info.instructions}</p>
              )}
            </section>
          )}
          <details>
            <summary className="small">initialize result</summary>
            <JsonTree value={info} expandDepth={1} />
          </details>
        </>
      ) : (
        view.status.state !== 'failed' && <p className="muted small">Connect to see the server's info, capabilities and instructions.</p>
      )}
      <ServerCheck view={view} />
      <section>
        <div className="section-head">
          <h3>stderr</h3>
          <span className="muted small">{view.stderr.length} lines</span>
          <span className="spacer" />
          {view.stderr.length > 0 && <CopyButton text={() => view.stderr.join('\n')} />}
        </div>
        {view.stderr.length ? (
          <pre className="stderr" ref={stderrRef} data-testid={`stderr-${view.config.name}`}>
            {view.stderr.join('\n')}
          </pre>
        ) : (
          <div className="muted small">{view.config.type === 'stdio' ? 'Nothing written to stderr.' : 'Remote servers have no stderr.'}</div>
        )}
      </section>
    </div>
  );
}

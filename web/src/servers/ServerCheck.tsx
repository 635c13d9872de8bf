// The Servers page's checker: runs `mcplab check` on the connected server and lists the
// findings (severity, rule, message, where, fix, source link). The frames they point at are
// marked in the traffic panel.
import type { ServerView } from '../api/types.gen';
import { Button } from '../ui/Button';
import { Ticks } from '../ui/Ticks';
import { runCheck, useCheck } from './check';

export function ServerCheck({ view }: { view: ServerView }) {
  const name = view.config.name;
  const state = useCheck(name);
  const connected = view.status.state === 'connected';
  const report = state?.report;
  const count = (s: string) => report?.findings.filter((f) => f.severity === s).length ?? 0;
  return (
    <section data-testid={`server-check-${name}`}>
      <div className="section-head">
        <h3>Check</h3>
        {report && (
          <span className="muted small" data-testid="check-summary">
            {count('error')} errors, {count('warning')} warnings · protocol {report.eras.map((e) => e.revision).join(', ') || '?'}
          </span>
        )}
        <span className="spacer" />
        <Button small disabled={!connected || state?.running} onClick={() => void runCheck(name)} data-testid="server-check-run">
          {state?.running ? 'Checking…' : 'Check against the spec'}
        </Button>
      </div>
      {state?.error && <div className="inline-error" role="alert">{state.error}</div>}
      {!report && !state?.error && (
        <div className="muted small">{connected ? 'Validates every message against the negotiated revision and lints tools, schemas and pagination.' : 'Connect to check the server.'}</div>
      )}
      {report && (
        <ul className="check-findings">
          {report.findings.map((f, i) => (
            <li key={i} data-testid="check-finding" data-rule={f.rule} data-severity={f.severity}>
              <span className={`badge ${f.severity === 'error' ? 'badge-err' : f.severity === 'warning' ? 'badge-warn' : ''}`}>{f.severity}</span>{' '}
              <span className="mono small">{f.rule}</span> <Ticks text={f.message} />
              {f.frames.length > 0 && <span className="muted small"> · frame {f.frames.map((s) => `#${s}`).join(', ')}{f.path ? ` ${f.path}` : ''}</span>}
              {f.fix && (
                <div className="muted small">
                  fix: <Ticks text={f.fix} />
                </div>
              )}{' '}
              <a className="small" href={f.source} target="_blank" rel="noreferrer">
                source
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

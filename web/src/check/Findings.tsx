// A check report's findings grouped by rule set, then era, worst set first: each with its
// severity, rule, message, the offending excerpt, the fix, a link to its source (the spec
// section or the directory's page, with the day it was read) and its frames, which open in
// the traffic panel. A finding that carries its exact call (a fuzz input that failed) has
// "call again": the same tool with the same input on the server's live connection, and what
// came back. One finding's row is also the Tools page's (a tool's "Checks" section).
import { useState } from 'react';
import { api, errorMessage } from '../api/client';
import type { CheckReport, Finding } from '../api/types.gen';
import { focusFrame } from '../traffic/store';
import { Ticks } from '../ui/Ticks';
import { groupFindings } from './run';
import './check.css';

export function Findings({ report, server }: { report: CheckReport; server?: string }) {
  if (!report.findings.length) return <div className="muted small" data-testid="check-clean">No findings: every rule passed.</div>;
  return (
    <div className="check-groups">
      {groupFindings(report.findings).map(([set, eras]) => (
        <section key={set} className="check-group" data-testid="check-group" data-set={set}>
          <h4>{set}</h4>
          {eras.map(([era, list]) => (
            <div key={era} data-testid="check-era-group" data-era={era}>
              <div className="muted small">{era}</div>
              <ul className="check-findings">
                {list.map((f, i) => (
                  <FindingRow key={i} f={f} server={server} />
                ))}
              </ul>
            </div>
          ))}
        </section>
      ))}
    </div>
  );
}

export function FindingRow({ f, server }: { f: Finding; server?: string }) {
  const badge = f.severity === 'error' ? 'badge-err' : f.severity === 'warning' ? 'badge-warn' : '';
  return (
    <li data-testid="check-page-finding" data-rule={f.rule} data-severity={f.severity}>
      <span className={`badge ${badge}`}>{f.severity}</span> <span className="mono small">{f.rule}</span> <Ticks text={f.message} />
      {f.excerpt && <pre className="check-excerpt">{f.excerpt}</pre>}
      <div className="muted small">
        {f.fix && (
          <>
            fix: <Ticks text={f.fix} />{' '}
          </>
        )}
        <a href={f.source} target="_blank" rel="noreferrer" data-testid="check-source">
          source{f.sourceRead ? ` (read ${f.sourceRead})` : ''}
        </a>
        {f.frames.map((seq) => (
          <button key={seq} type="button" className="link-button" onClick={() => focusFrame(seq)} data-testid="check-frame" data-seq={seq}>
            frame #{seq}
          </button>
        ))}
        {f.path && <span className="mono"> {f.path}</span>}
        {f.call && server && <CallAgain server={server} call={f.call} />}
      </div>
    </li>
  );
}

/** Calls the finding's tool again with its exact input and shows the answer (or the error). */
function CallAgain({ server, call }: { server: string; call: NonNullable<Finding['call']> }) {
  const [busy, setBusy] = useState(false);
  const [out, setOut] = useState<string | null>(null);
  const run = async () => {
    setBusy(true);
    try {
      const o = await api.callTool(server, { name: call.name, arguments: (call.arguments ?? {}) as Record<string, unknown> });
      const text = o.error ? `error: ${o.error.message}` : JSON.stringify(o.result, null, 2);
      setOut(text.length > 4000 ? `${text.slice(0, 4000)}…` : text);
    } catch (e) {
      setOut(`error: ${errorMessage(e)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {' '}
      <button type="button" className="link-button" disabled={busy} onClick={() => void run()} data-testid="check-call-again">
        {busy ? 'calling…' : `call ${call.name} again`}
      </button>
      {out !== null && (
        <pre className="check-excerpt" data-testid="check-call-result">
          {out}
        </pre>
      )}
    </>
  );
}

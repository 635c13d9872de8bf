// A stored run: the gates, the case × model matrix (a dot per iteration, pass rate with its
// 95 % interval, p50 latency, tokens, cost) and, for the picked cell, each iteration's outcome
// with the expected-vs-actual differences (Missing / Extra / Out of order / Argument mismatch)
// and its whole trace, fetched when opened. The run is `useRun`'s query: refetched on mount
// and when a run this page started ends.
import { useState } from 'react';
import { errorMessage } from '../api/client';
import { ErrorState } from '../ui/States';
import { Loading } from '../ui/Spinner';
import { kindLabel, pct, verdictWords, type CellSummary, type IterationRecord } from './api';
import { IterationTrace } from './IterationTrace';
import { RunCost } from './RunCost';
import { useRun } from './queries';
import { modelLabel } from './modelLabel';

export function RunView({ id }: { id: string }) {
  const q = useRun(id);
  const run = q.data ?? null;
  const [picked, setPicked] = useState<CellSummary | null>(null);
  if (q.error) return <ErrorState title="Cannot show the run" message={errorMessage(q.error)} />;
  if (!run) return <Loading />;
  const cases = [...new Set(run.summary.cells.map((c) => c.caseId))];
  const models = [...new Set(run.summary.cells.map((c) => c.model))];
  const cell = (caseId: string, model: string) => run.summary.cells.find((c) => c.caseId === caseId && c.model === model);
  return (
    <div className="evals-run" data-testid="evals-run-view" data-run={id} data-status={run.run.status}>
      <h2>
        Run {id} <span className="muted small">{kindLabel(run.run.kind)} · {run.run.status} · {pct(run.summary.passRate)} passed · {verdictWords(run.gates?.exitCode, run.gates?.gates)} · host {run.run.hostHash.slice(0, 12) || '—'}</span>
      </h2>
      <RunCost summary={run.summary} />
      {run.gates && (
        <ul className="evals-gates" data-testid="evals-gates" data-exit-code={run.gates.exitCode}>
          {run.gates.gates.map((g) => (
            <li key={g.gate} data-status={g.status}>
              <strong>{g.gate}</strong> {g.status}: {g.reason}
            </li>
          ))}
        </ul>
      )}
      <table className="evals-matrix" data-testid="evals-matrix">
        <thead>
          <tr>
            <th>Case</th>
            {models.map((m) => (
              <th key={m}>{modelLabel(m)}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {cases.map((caseId) => (
            <tr key={caseId}>
              <th>{caseId}</th>
              {models.map((m) => {
                const c = cell(caseId, m);
                return (
                  <td key={m}>
                    {c && (
                      <button type="button" className="evals-cell" onClick={() => setPicked(c)} data-testid="evals-cell" data-case={caseId} data-model={m} data-passes={c.passes} data-n={c.n}>
                        <span className="evals-dots">
                          {c.dots.map((d, i) => (
                            <span key={i} className={`evals-dot ${d === true ? 'pass' : d === false ? 'fail' : 'error'}`} title={d === true ? 'passed' : d === false ? 'failed' : 'errored'} />
                          ))}
                        </span>
                        <span>
                          {c.passes}/{c.n} {pct(c.passRate)}
                          {c.interval && <span className="muted small"> ({pct(c.interval.low)}–{pct(c.interval.high)})</span>}
                          {c.flaky && <span className="evals-flaky small"> flaky</span>}
                        </span>
                        <span className="muted small">
                          p50 {c.latency.p50 === null ? '—' : `${Math.round(c.latency.p50)} ms`} · {c.meanTokens === null ? '—' : Math.round(c.meanTokens)} tok ·{' '}
                          {c.costUsd === null ? 'no price' : `$${c.costUsd.toFixed(4)}`}
                        </span>
                      </button>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {picked && (
        <div className="evals-detail" data-testid="evals-detail">
          <h3>
            {picked.caseId} on {modelLabel(picked.model)}
          </h3>
          {run.record.iterations
            .filter((it) => it.caseId === picked.caseId && it.model === picked.model)
            .map((it) => (
              <div key={it.iteration} className="evals-iteration" data-testid="evals-iteration" data-outcome={it.outcome.status}>
                <strong>#{it.iteration + 1}</strong> {it.outcome.status}
                {it.outcome.status === 'errored' && <span className="muted small"> — {it.outcome.reason}</span>}
                {(it.failures ?? []).length > 0 && (
                  <ul>
                    {(it.failures ?? []).map((f, i) => (
                      <li key={i} className="evals-failure">
                        {f}
                      </li>
                    ))}
                  </ul>
                )}
                <TraceToggle runId={id} it={it} />
              </div>
            ))}
        </div>
      )}
    </div>
  );
}

/** An iteration's trace, fetched only once it is opened. */
function TraceToggle({ runId, it }: { runId: string; it: IterationRecord }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="evals-trace-toggle" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary data-testid="evals-open-trace">Trace</summary>
      {open && <IterationTrace runId={runId} it={it} />}
    </details>
  );
}

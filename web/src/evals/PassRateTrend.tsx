// A suite's pass rate over its runs, per model, with each run's 95 % interval: the chart (the
// charting library is loaded only when a suite has runs, in a chunk of its own) and the same
// numbers as a table (the chart's accessible name says what it shows and points there).
import { lazy, Suspense } from 'react';
import { errorMessage } from '../api/client';
import { Loading } from '../ui/Spinner';
import { pct, type TrendPoint } from './api';
import { useTrend } from './queries';

const TrendChart = lazy(() => import('./TrendChart'));

/** What the chart shows, in words, for its accessible name. */
function describe(points: TrendPoint[], models: string[]): string {
  const last = points[points.length - 1];
  const latest = models
    .map((m) => {
      const x = last.models.find((y) => y.model === m);
      return x ? `${m} ${pct(x.passRate)}` : null;
    })
    .filter(Boolean)
    .join(', ');
  return `Pass rate over ${points.length} run${points.length === 1 ? '' : 's'} per model; latest run: ${latest}. The table below has every value with its interval.`;
}

export function PassRateTrend({ suiteId }: { suiteId: string }) {
  // Refetched when a run ends (`runEnded`) and when it mounts.
  const q = useTrend(suiteId);
  const points: TrendPoint[] | null = q.data ?? null;
  const error = q.error ? errorMessage(q.error) : null;
  if (error) return <div className="evals-error" role="alert">Cannot load the pass rate over runs: {error}</div>;
  if (!points) return null;
  if (points.length === 0) return <p className="muted small" data-testid="evals-trend-empty">No finished runs of this suite yet: the pass rate over runs appears after the first.</p>;
  const models = [...new Set(points.flatMap((p) => p.models.map((m) => m.model)))];
  return (
    <section className="evals-trend" data-testid="evals-trend" aria-labelledby="evals-trend-title">
      <h2 id="evals-trend-title">Pass rate over runs</h2>
      <div role="img" aria-label={describe(points, models)} data-testid="evals-trend-chart">
        <Suspense fallback={<Loading label="Loading the chart…" />}>
          <TrendChart points={points} models={models} />
        </Suspense>
      </div>
      <details className="evals-trend-table">
        <summary>As a table</summary>
        <table data-testid="evals-trend-table">
          <caption className="sr-only">Pass rate per run and model, with the 95 % Wilson interval</caption>
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Started</th>
              {models.map((m) => (
                <th scope="col" key={m}>
                  {m}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.runId} data-run={p.runId}>
                <th scope="row">{p.runId}</th>
                <td>{new Date(p.startedMs).toLocaleString()}</td>
                {models.map((m) => {
                  const x = p.models.find((y) => y.model === m);
                  return (
                    <td key={m} data-model={m} data-passes={x?.passes} data-n={x?.n}>
                      {x ? `${x.passes}/${x.n} ${pct(x.passRate)}` : '—'}
                      {x?.interval && ` (${pct(x.interval.low)}–${pct(x.interval.high)})`}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}

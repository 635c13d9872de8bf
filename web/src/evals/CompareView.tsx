// Run-vs-run compare: two stored runs side by side per case × model — Fixed, Regressed, Still
// failing, Still passing, New, Removed — with the pass-rate difference, its 95 % interval and
// whether it is significant (too few iterations say "insufficient data", not a verdict).
// The comparison is `useCompare`'s query: refetched on mount and when a run this page started
// ends.
import { errorMessage } from '../api/client';
import { ErrorState } from '../ui/States';
import { Loading } from '../ui/Spinner';
import { pct } from './api';
import { useCompare } from './queries';
import { modelLabel } from './modelLabel';

const LABELS: Record<string, string> = {
  fixed: 'Fixed',
  regressed: 'Regressed',
  stillFailing: 'Still failing',
  stillPassing: 'Still passing',
  new: 'New',
  removed: 'Removed',
};

export function CompareView({ base, run }: { base: string; run: string }) {
  const q = useCompare(base, run);
  const data = q.data ?? null;
  if (q.error) return <ErrorState title="Cannot compare the runs" message={errorMessage(q.error)} />;
  if (!data) return <Loading />;
  const ratio = (x: [number, number] | null) => (x ? `${x[0]}/${x[1]}` : '—');
  return (
    <div className="evals-compare" data-testid="evals-compare">
      <h2>
        {data.base} → {data.run}
      </h2>
      <table className="evals-matrix">
        <thead>
          <tr>
            <th>Case</th>
            <th>Model</th>
            <th>Change</th>
            <th>Base</th>
            <th>Run</th>
            <th>Difference (95 %)</th>
            <th>Significance</th>
          </tr>
        </thead>
        <tbody>
          {data.comparison.cells.map((c) => (
            <tr key={`${c.caseId} ${c.model}`} data-testid="evals-compare-row" data-change={c.change}>
              <td>{c.caseId}</td>
              <td>{modelLabel(c.model)}</td>
              <td>{LABELS[c.change] ?? c.change}</td>
              <td>{ratio(c.base)}</td>
              <td>{ratio(c.run)}</td>
              <td>
                {c.difference === null ? '—' : `${c.difference >= 0 ? '+' : ''}${pct(c.difference)}`}
                {c.interval && <span className="muted small"> ({pct(c.interval.low)} to {pct(c.interval.high)})</span>}
              </td>
              <td>{c.significance ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

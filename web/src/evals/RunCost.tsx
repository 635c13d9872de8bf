// A run's spending on one line: the models under test's tokens, the whole cost (the judge's and
// simulated users' included, which is what the cost gate counts) and what the judge and
// simulated users spent, shown apart. Reads the run's summary only.
import type { RunSummary, SideUsage } from '../api/types.gen';

function money(cost: number | null): string {
  return cost === null ? 'no price' : `$${cost.toFixed(4)}`;
}

function side(who: string, u: SideUsage) {
  if (u.calls === 0) return null;
  return (
    <span data-testid={`evals-cost-${who.replace(' ', '-')}`}>
      {' '}
      · {who} {u.inputTokens} in / {u.outputTokens} out tokens, {money(u.costUsd)}
    </span>
  );
}

export function RunCost({ summary: s }: { summary: RunSummary }) {
  const total = s.costUsd === null ? (s.unpriced > 0 ? 'unknown (a model has no price)' : '—') : money(s.costUsd);
  return (
    <p className="muted small" data-testid="evals-cost">
      Models {s.inputTokens} in / {s.outputTokens} out tokens · cost {total}
      {side('judge', s.judge)}
      {side('simulated user', s.simulatedUser)}
    </p>
  );
}

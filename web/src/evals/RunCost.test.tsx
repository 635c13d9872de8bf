import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../api/types.gen';
import { RunCost } from './RunCost';

const none = { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: null };
const summary = (over: Partial<RunSummary>) => ({ inputTokens: 1000, outputTokens: 50, costUsd: 0.5, unpriced: 0, judge: none, simulatedUser: none, ...over }) as RunSummary;

describe('RunCost', () => {
  it('shows the whole cost and what the judge spent apart', () => {
    render(<RunCost summary={summary({ judge: { calls: 2, inputTokens: 400, outputTokens: 20, costUsd: 0.125 } })} />);
    expect(screen.getByTestId('evals-cost').textContent).toContain('cost $0.5000');
    expect(screen.getByTestId('evals-cost-judge').textContent).toBe(' · judge 400 in / 20 out tokens, $0.1250');
    expect(screen.queryByTestId('evals-cost-simulated-user')).toBeNull();
  });

  it('says the cost is unknown when a model has no price', () => {
    render(<RunCost summary={summary({ costUsd: null, unpriced: 1, judge: { calls: 1, inputTokens: 9, outputTokens: 1, costUsd: null } })} />);
    expect(screen.getByTestId('evals-cost').textContent).toContain('cost unknown');
    expect(screen.getByTestId('evals-cost-judge').textContent).toContain('no price');
  });
});

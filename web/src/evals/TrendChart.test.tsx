import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TrendPoint } from './api';
import TrendChart, { layout } from './TrendChart';

const points: TrendPoint[] = [
  { runId: 'r1', startedMs: 1, status: 'finished', models: [{ model: 'a::m', passes: 1, n: 2, errors: 0, passRate: 0.5, interval: { low: 0.09, high: 0.91 } }] },
  {
    runId: 'r2',
    startedMs: 2,
    status: 'finished',
    models: [
      { model: 'a::m', passes: 2, n: 2, errors: 0, passRate: 1, interval: { low: 0.34, high: 1 } },
      { model: 'b::m', passes: 0, n: 2, errors: 2, passRate: null, interval: null },
    ],
  },
];

describe('TrendChart', () => {
  it('puts each rate and its interval on the 0–100 % axis, runs left to right', () => {
    const [a, b] = layout(points, ['a::m', 'b::m'], 560);
    expect(a.map((m) => m.runId)).toEqual(['r1', 'r2']);
    expect(a[0].x).toBeLessThan(a[1].x);
    // y grows downwards: 100 % is above 50 %, an interval spans its point.
    expect(a[1].y).toBeLessThan(a[0].y);
    expect(a[0].high! < a[0].y && a[0].y < a[0].low!).toBe(true);
    // A model with no rate in a run has no point there.
    expect(b).toEqual([]);
  });

  it('draws one line per model with an error bar per point and a legend', () => {
    const { container } = render(<TrendChart points={points} models={['a::m', 'b::m']} />);
    expect(container.querySelectorAll('.trend-series')).toHaveLength(2);
    expect(container.querySelectorAll('.trend-series[data-model="a::m"] .trend-error')).toHaveLength(2);
    expect([...container.querySelectorAll('.trend-ytick')].map((t) => t.textContent)).toEqual(['0%', '25%', '50%', '75%', '100%']);
    expect(container.querySelector('.trend-legend')?.textContent).toContain('b::m');
    expect(container.querySelector('.trend-point title')?.textContent).toMatch(/a::m, .*: 50% \(9%–91%\)/);
  });
});

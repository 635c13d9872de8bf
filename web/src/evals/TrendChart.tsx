// The pass-rate-over-runs chart (loaded lazily by PassRateTrend): one line per model across the
// suite's runs in time order, each point with its 95 % interval as an error bar. Plain SVG, as
// the OAuth sequence diagram: a charting library cost a 430 KB chunk for this one chart.
// Decorative for assistive technology: PassRateTrend's table carries the same numbers; each
// point's tooltip (`<title>`) says its model, run, rate and interval.
import { useEffect, useRef, useState } from 'react';
import type { TrendPoint } from './api';

const COLORS = ['#1565c0', '#c62828', '#2e7d32', '#ef6c00', '#6a1b9a', '#00838f', '#ad1457', '#4e342e'];
const HEIGHT = 240;
const PAD = { top: 8, right: 16, bottom: 28, left: 44 };
const TICKS = [0, 25, 50, 75, 100];
/** At most this many run labels under the x axis (the others would overlap). */
const MAX_LABELS = 6;

export interface Mark {
  runId: string;
  x: number;
  y: number;
  /** The interval's ends in pixels (`null`: no interval). */
  low: number | null;
  high: number | null;
  title: string;
}

/** The x of run `i` of `n` in a drawing `width` wide (runs evenly spaced, one run centred). */
function xOf(i: number, n: number, width: number): number {
  const plotW = width - PAD.left - PAD.right;
  return PAD.left + (n === 1 ? plotW / 2 : (i * plotW) / (n - 1));
}

/** Where each model's points go in a `width` × HEIGHT drawing. */
export function layout(points: TrendPoint[], models: string[], width: number): Mark[][] {
  const x = (i: number) => xOf(i, points.length, width);
  return models.map((m) =>
    points.flatMap((p, i) => {
      const r = p.models.find((y) => y.model === m);
      if (!r || r.passRate === null) return [];
      const pct = (v: number) => `${Math.round(v * 100)}%`;
      const range = r.interval ? ` (${pct(r.interval.low)}–${pct(r.interval.high)})` : '';
      return [
        {
          runId: p.runId,
          x: x(i),
          y: yOf(r.passRate * 100),
          low: r.interval ? yOf(r.interval.low * 100) : null,
          high: r.interval ? yOf(r.interval.high * 100) : null,
          title: `${m}, ${new Date(p.startedMs).toLocaleString()}: ${pct(r.passRate)}${range}`,
        },
      ];
    }),
  );
}

function yOf(percent: number): number {
  return PAD.top + ((100 - percent) * (HEIGHT - PAD.top - PAD.bottom)) / 100;
}

export default function TrendChart({ points, models }: { points: TrendPoint[]; models: string[] }) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(560);
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(([e]) => setWidth(Math.max(240, Math.round(e.contentRect.width))));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const series = layout(points, models, width);
  const every = Math.max(1, Math.ceil(points.length / MAX_LABELS));
  const bottom = HEIGHT - PAD.bottom;
  return (
    <div ref={box} className="trend-chart">
      <svg width={width} height={HEIGHT} aria-hidden="true" fontSize={11}>
        {TICKS.map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={width - PAD.right} y1={yOf(t)} y2={yOf(t)} stroke="currentColor" strokeOpacity={0.2} strokeDasharray="3 3" />
            <text className="trend-ytick" x={PAD.left - 6} y={yOf(t)} textAnchor="end" dominantBaseline="middle" fill="currentColor">
              {`${t}%`}
            </text>
          </g>
        ))}
        {points.map((p, i) =>
          i % every === 0 ? (
            <text key={p.runId} x={xOf(i, points.length, width)} y={bottom + 16} textAnchor="middle" fill="currentColor" opacity={0.8}>
              {new Date(p.startedMs).toLocaleDateString()}
            </text>
          ) : null,
        )}
        {series.map((marks, s) => {
          const color = COLORS[s % COLORS.length];
          return (
            <g key={models[s]} className="trend-series" data-model={models[s]} stroke={color} fill={color}>
              <polyline className="trend-line" points={marks.map((m) => `${m.x},${m.y}`).join(' ')} fill="none" strokeWidth={1.5} />
              {marks.map((m) => (
                <g key={m.runId} className="trend-point" data-run={m.runId}>
                  <title>{m.title}</title>
                  {m.low !== null && m.high !== null && (
                    <g className="trend-error" strokeOpacity={0.6}>
                      <line x1={m.x} x2={m.x} y1={m.low} y2={m.high} />
                      <line x1={m.x - 4} x2={m.x + 4} y1={m.low} y2={m.low} />
                      <line x1={m.x - 4} x2={m.x + 4} y1={m.high} y2={m.high} />
                    </g>
                  )}
                  <circle cx={m.x} cy={m.y} r={3.5} />
                </g>
              ))}
            </g>
          );
        })}
      </svg>
      <ul className="trend-legend">
        {models.map((m, s) => (
          <li key={m}>
            <span className="trend-swatch" style={{ background: COLORS[s % COLORS.length] }} />
            {m}
          </li>
        ))}
      </ul>
    </div>
  );
}

// The pass-rate-over-runs chart (recharts, loaded lazily by PassRateTrend): one line per model
// across the suite's runs in time order, each point with its 95 % interval as an error bar.
// Decorative for assistive technology: PassRateTrend's table carries the same numbers.
import { CartesianGrid, ErrorBar, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TrendPoint } from './api';

const COLORS = ['#1565c0', '#c62828', '#2e7d32', '#ef6c00', '#6a1b9a', '#00838f', '#ad1457', '#4e342e'];

type Row = { label: string } & Record<string, number | [number, number] | string | null>;

export default function TrendChart({ points, models }: { points: TrendPoint[]; models: string[] }) {
  // Keys by position: model names hold `.` and `:`, which recharts would read as paths.
  const rows: Row[] = points.map((p) => {
    const row: Row = { label: new Date(p.startedMs).toLocaleString() };
    models.forEach((m, i) => {
      const x = p.models.find((y) => y.model === m);
      const rate = x?.passRate ?? null;
      row[`m${i}`] = rate === null ? null : rate * 100;
      row[`e${i}`] = rate !== null && x?.interval ? [(rate - x.interval.low) * 100, (x.interval.high - rate) * 100] : [0, 0];
    });
    return row;
  });
  return (
    <ResponsiveContainer width="100%" height={240}>
      <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.4} />
        <XAxis dataKey="label" tick={{ fontSize: 11 }} />
        <YAxis domain={[0, 100]} unit="%" tick={{ fontSize: 11 }} width={48} />
        <Tooltip formatter={(v) => (typeof v === 'number' ? `${Math.round(v)}%` : String(v))} />
        <Legend />
        {models.map((m, i) => (
          <Line key={m} name={m} dataKey={`m${i}`} stroke={COLORS[i % COLORS.length]} connectNulls isAnimationActive={false} dot>
            <ErrorBar dataKey={`e${i}`} width={4} stroke={COLORS[i % COLORS.length]} strokeOpacity={0.6} direction="y" isAnimationActive={false} />
          </Line>
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}

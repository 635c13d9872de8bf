// A compare column's host in words: which host profile its HostConfig runs as, and "what
// differs" from column 1 — the model, then the hosts' field-by-field difference as the server
// computes it for two named profiles (`GET /api/hosts/{b}?against={a}`, each value with its
// source), or, for a host that matches no profile, the HostConfig sections that differ.
import { useQuery } from '@tanstack/react-query';
import { request } from '../api/client';
import type { HostConfig, HostProfile, HostProfileView } from '../api/types.gen';
import { canonical, matchingProfile, sourceText } from './hostProfiles';

const useProfiles = () => useQuery({ queryKey: ['hosts'], queryFn: () => request<HostProfile[]>('GET', '/api/hosts') }).data ?? [];

/** The name of the profile `host` runs as, null for a mix of its own (or while loading). */
export function useHostProfileName(host: HostConfig | null): string | null {
  const profiles = useProfiles();
  return host ? (matchingProfile(host, profiles)?.name ?? null) : null;
}

const show = (v: unknown) => (v === undefined ? '-' : typeof v === 'string' ? v : JSON.stringify(v));

interface Row {
  field: string;
  a: unknown;
  b: unknown;
  source?: string;
}

/** Column 1's HostConfig against this column's, as a collapsed table. */
export function HostDifference({ first, mine }: { first: HostConfig; mine: HostConfig }) {
  const profiles = useProfiles();
  const a = matchingProfile(first, profiles)?.name ?? null;
  const b = matchingProfile(mine, profiles)?.name ?? null;
  const named = !!a && !!b && a !== b;
  const diff = useQuery({
    queryKey: ['hosts', b, 'against', a],
    queryFn: () => request<HostProfileView>('GET', `/api/hosts/${encodeURIComponent(b ?? '')}?against=${encodeURIComponent(a ?? '')}`),
    enabled: named,
  });
  const rows: Row[] = [];
  if (first.model !== mine.model) rows.push({ field: 'model', a: first.model, b: mine.model });
  if (named) {
    for (const d of diff.data?.diff ?? []) rows.push({ field: d.field, a: d.a, b: d.b, source: sourceText(d.sourceB) });
  } else if (a !== b || !a) {
    const keys = [...new Set([...Object.keys(first), ...Object.keys(mine)])].filter((k) => k !== 'model' && k !== 'servers');
    for (const k of keys.sort()) {
      const x = (first as Record<string, unknown>)[k];
      const y = (mine as Record<string, unknown>)[k];
      if (canonical(x) !== canonical(y)) rows.push({ field: k, a: x, b: y });
    }
  }
  return (
    <details className="compare-host-diff small" data-testid="compare-host-diff">
      <summary className="muted">
        {rows.length === 0 && !diff.isLoading ? 'same host and model as 1' : `what differs from 1 (${rows.length})`}
      </summary>
      {diff.error && (
        <div className="inline-error small" role="alert">
          Could not compare the host profiles: {String(diff.error)}
        </div>
      )}
      {rows.length > 0 && (
        <table className="small">
          <thead>
            <tr>
              <th>field</th>
              <th>column 1{a ? ` (${a})` : ''}</th>
              <th>this column{b ? ` (${b})` : ''}</th>
              <th>source</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.field} data-testid="compare-host-diff-row" data-field={r.field}>
                <td>
                  <code>{r.field}</code>
                </td>
                <td>{show(r.a)}</td>
                <td>{show(r.b)}</td>
                <td className="muted">{r.source ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}

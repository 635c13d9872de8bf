// Servers × hosts: the verdict of every host profile each server was last checked against
// (works / degraded / blocked / unknown), with the reasons behind it on hover.
import type { HostVerdict } from '../api/types.gen';
import type { PageCheck } from './run';

const BADGE: Record<string, string> = { works: 'badge-ok', degraded: 'badge-warn', blocked: 'badge-err', unknown: '' };

export function HostMatrix({ checks }: { checks: Record<string, PageCheck> }) {
  const rows = Object.entries(checks).filter(([, c]) => c.report?.hosts?.length);
  if (!rows.length) return null;
  const hosts = [...new Set(rows.flatMap(([, c]) => c.report!.hosts!.map((h) => h.host)))];
  return (
    <table className="check-matrix" data-testid="check-matrix">
      <thead>
        <tr>
          <th>server</th>
          {hosts.map((h) => (
            <th key={h}>{h}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(([server, c]) => (
          <tr key={server}>
            <th>{server}</th>
            {hosts.map((h) => {
              const v = c.report!.hosts!.find((x) => x.host === h);
              return <td key={h}>{v ? <Verdict v={v} server={server} /> : <span className="muted">—</span>}</td>;
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Verdict({ v, server }: { v: HostVerdict; server: string }) {
  const reasons = [...v.reasons, ...v.items.flatMap((i) => i.reasons.map((r) => ({ ...r, message: `${i.name}: ${r.message}` })))];
  const title = reasons.map((r) => `${r.verdict}: ${r.message} (${r.field})`).join('\n');
  return (
    <span className={`badge ${BADGE[v.verdict] ?? ''}`} title={title || v.verdict} data-testid="check-verdict" data-server={server} data-host={v.host} data-verdict={v.verdict}>
      {v.verdict}
    </span>
  );
}

// The HTTP exchange a frame travelled in (streamable HTTP, legacy HTTP+SSE, 2026-07-28): method,
// URL, status, why the request was made, when and how long until the headers came, request and
// response headers as recorded (secrets masked by the server), and the frames of the exchange —
// the one it posted and the ones its response carried — each a jump. It only draws a row the
// index already linked (`frames.ts`).
import { Filter } from 'lucide-react';
import { Button } from '../ui/Button';
import { HeadersTable } from '../ui/HeadersTable';
import type { FrameRow } from './frames';
import { fmtTime } from './time';

const PURPOSE: Record<string, string> = {
  post: 'a frame posted',
  stream: 'event stream',
  resume: 'stream resumed (Last-Event-ID)',
  end: 'session ended',
};

function HeaderTable({ title, headers, testId }: { title: string; headers: [string, string][]; testId: string }) {
  return (
    <details className="http-headers" open data-testid={testId}>
      <summary className="small muted">
        {title} ({headers.length})
      </summary>
      {headers.length > 0 && <HeadersTable headers={headers} className="frame-headers small mono" />}
    </details>
  );
}

function memberLabel(r: FrameRow): string {
  const dir = r.frame.direction === 'outbound' ? '→' : '←';
  return `#${r.frame.seq} ${dir} ${r.method ?? r.type}${r.id !== undefined ? ` ${r.id}` : ''}`;
}

export function HttpExchangeView({ row, current, onJump, onOnlyThis }: { row: FrameRow; current: FrameRow; onJump: (r: FrameRow) => void; onOnlyThis: () => void }) {
  const ex = row.frame.http;
  if (!ex) return null;
  const ok = ex.status !== undefined && ex.status < 400;
  return (
    <section className="http-exchange small" data-testid="http-exchange" data-seq={row.frame.seq} aria-label="HTTP exchange">
      <div className="http-exchange-line">
        <strong>HTTP</strong>
        <span className="mono" data-testid="http-request-line">
          {ex.method} {ex.url}
        </span>
        <span className={`badge ${ok ? 'badge-ok' : 'badge-err'}`} data-testid="http-status">
          {ex.status ?? 'no response'}
        </span>
        <span className="muted">
          {PURPOSE[ex.purpose] ?? ex.purpose} · sent {fmtTime(ex.startedMs)} · headers after {ex.elapsedMs} ms
        </span>
        <span className="spacer" />
        {row !== current && (
          <Button small variant="ghost" onClick={() => onJump(row)} data-testid="http-exchange-record" title={`Show the exchange's record #${row.frame.seq}`}>
            Record #{row.frame.seq}
          </Button>
        )}
        <Button small variant="ghost" onClick={onOnlyThis} data-testid="http-exchange-only" title="Show only the frames of this HTTP exchange">
          <Filter size={13} aria-hidden="true" /> This exchange
        </Button>
      </div>
      {ex.error && <div className="inline-error">{ex.error}</div>}
      {(row.members?.length ?? 0) > 0 && (
        <div className="http-exchange-members" data-testid="http-exchange-members">
          <span className="muted">frames:</span>
          {row.members!.map((m) => (
            <button key={m.frame.seq} type="button" className="linkish mono" aria-current={m === current ? 'true' : undefined} onClick={() => onJump(m)} data-testid="http-exchange-member" data-seq={m.frame.seq}>
              {memberLabel(m)}
            </button>
          ))}
        </div>
      )}
      <HeaderTable title="Request headers" headers={ex.requestHeaders} testId="http-request-headers" />
      <HeaderTable title="Response headers" headers={ex.responseHeaders} testId="http-response-headers" />
    </section>
  );
}

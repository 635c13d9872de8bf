// The selected frame: header (sequence, server, direction, time in the list's format, latency),
// a jump to the request or response it pairs with, the whole body as an expanded tree or
// pretty-printed raw text, and copy of the exact bytes. A truncated frame says so and can be
// loaded whole (`WholeFrame.tsx`); until then its start is shown as raw text. A frame of an HTTP
// wire shows the exchange it travelled in (`HttpExchangeView.tsx`).
import { useMemo, useState } from 'react';
import { ArrowDownRight, ArrowUpLeft, Filter, X } from 'lucide-react';
import { JsonTree } from '../ui/JsonTree';
import { CopyButton } from '../ui/CopyButton';
import { Button } from '../ui/Button';
import { HeadersTable } from '../ui/HeadersTable';
import type { Finding } from '../api/types.gen';
import type { FrameRow } from './frames';
import { fmtTime } from './time';
import { TruncationNotice, useWholeFrame } from './WholeFrame';
import { HttpExchangeView } from './HttpExchangeView';

/** What the linked frame is to this one. */
function pairLabel(row: FrameRow): string {
  if (row.type === 'request') return row.pair ? 'Response' : 'Cancellation';
  return row.type === 'notification' ? 'Cancelled request' : 'Request';
}

export function FrameDetail({
  row,
  findings,
  onClose,
  onJump,
  onOnlyThisCall,
  onOnlyThisExchange,
}: {
  row: FrameRow;
  findings?: Finding[];
  onClose: () => void;
  onJump: (r: FrameRow) => void;
  onOnlyThisCall?: () => void;
  onOnlyThisExchange: (seq: number) => void;
}) {
  const [raw, setRaw] = useState(false);
  const f = row.frame;
  const { whole, load } = useWholeFrame(f);
  const text = whole.state === 'loaded' ? whole.frame.text : f.text;
  const cut = whole.state === 'loaded' ? whole.frame.fullBytes !== undefined : f.fullBytes !== undefined;
  const parsed = useMemo(() => {
    try {
      return { ok: true as const, value: JSON.parse(text) as unknown };
    } catch (e) {
      return { ok: false as const, error: (e as Error).message };
    }
  }, [text]);
  const pair = row.pair ?? row.cancelledBy;
  return (
    <div className="frame-detail" data-testid="frame-detail" data-seq={f.seq}>
      <div className="frame-detail-head">
        <span className="mono small frame-detail-title">
          #{f.seq} · {f.server} · {f.direction === 'outbound' ? '→ sent' : '← received'} · <span data-testid="frame-time">{fmtTime(f.tsMs)}</span>
          {row.latencyMs !== undefined && ` · ${row.latencyMs} ms`}
        </span>
        <span className="spacer" />
        {pair && (
          <Button small variant="ghost" onClick={() => onJump(pair)} data-testid="frame-jump-pair" title={`Show frame #${pair.frame.seq}`}>
            {row.type === 'request' ? <ArrowDownRight size={13} aria-hidden="true" /> : <ArrowUpLeft size={13} aria-hidden="true" />}
            {pairLabel(row)} #{pair.frame.seq}
          </Button>
        )}
        {onOnlyThisCall && (
          <Button small variant="ghost" onClick={onOnlyThisCall} data-testid="frame-only-call" title="Show only the frames of this request">
            <Filter size={13} aria-hidden="true" /> This call
          </Button>
        )}
        {parsed.ok && (
          <Button small variant="ghost" onClick={() => setRaw(!raw)} aria-pressed={raw} data-testid="frame-raw-toggle">
            {raw ? 'Tree' : 'Raw'}
          </Button>
        )}
        <CopyButton text={() => text} testId="frame-copy" />
        <Button small variant="ghost" onClick={onClose} aria-label="Close frame">
          <X size={14} aria-hidden="true" />
        </Button>
      </div>
      <TruncationNotice frame={f} whole={whole} load={load} />
      {(row.problem || (!parsed.ok && !cut)) && f.kind !== 'note' && (
        <div className="inline-error" data-testid="frame-unparsable">
          Not a valid JSON-RPC message: {row.problem ?? (!parsed.ok ? parsed.error : '')}
        </div>
      )}
      {f.headers && f.headers.length > 0 && <HeadersTable headers={f.headers} className="frame-headers small mono" testId="frame-headers" />}
      {findings && (
        <ul className="inline-error" data-testid="frame-findings">
          {findings.map((x, i) => (
            <li key={i}>
              {x.severity} · {x.rule}: {x.message}
              {x.path ? ` (at ${x.path})` : ''} — fix: {x.fix}
            </li>
          ))}
        </ul>
      )}
      <div className="frame-detail-body" data-testid="frame-body" tabIndex={0} role="region" aria-label={`Frame #${f.seq}`}>
        {row.http && <HttpExchangeView row={row.http} current={row} onJump={onJump} onOnlyThis={() => onOnlyThisExchange(row.http!.frame.seq)} />}
        {parsed.ok && !raw ? <JsonTree value={parsed.value} expandDepth={Infinity} /> : <pre className="raw" data-testid="frame-raw">{parsed.ok ? JSON.stringify(parsed.value, null, 2) : text}</pre>}
      </div>
    </div>
  );
}

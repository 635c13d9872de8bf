import { useMemo, useState } from 'react';
import { JsonTree } from '../ui/JsonTree';
import { CopyButton } from '../ui/CopyButton';
import { Button } from '../ui/Button';
import type { FrameRow } from './frames';

export function FrameDetail({ row, onClose }: { row: FrameRow; onClose: () => void }) {
  const [raw, setRaw] = useState(false);
  const parsed = useMemo(() => {
    try {
      return { ok: true as const, value: JSON.parse(row.frame.text) as unknown };
    } catch (e) {
      return { ok: false as const, error: (e as Error).message };
    }
  }, [row]);
  const f = row.frame;
  return (
    <div className="frame-detail" data-testid="frame-detail">
      <div className="frame-detail-head">
        <span className="mono small">
          #{f.seq} · {f.server} · {f.direction === 'outbound' ? '→ sent' : '← received'} · {new Date(f.tsMs).toISOString()}
          {row.latencyMs !== undefined && ` · ${row.latencyMs} ms`}
        </span>
        <span className="spacer" />
        {parsed.ok && (
          <Button small variant="ghost" onClick={() => setRaw(!raw)} aria-pressed={raw} data-testid="frame-raw-toggle">
            {raw ? 'Tree' : 'Raw'}
          </Button>
        )}
        <CopyButton text={() => f.text} testId="frame-copy" />
        <Button small variant="ghost" onClick={onClose} aria-label="Close frame">
          ×
        </Button>
      </div>
      {(row.problem || !parsed.ok) && f.kind !== 'note' && (
        <div className="inline-error" data-testid="frame-unparsable">
          Not a valid JSON-RPC message: {row.problem ?? (!parsed.ok ? parsed.error : '')}
        </div>
      )}
      {f.headers && f.headers.length > 0 && (
        <table className="frame-headers small mono" data-testid="frame-headers">
          <tbody>
            {f.headers.map(([k, v]) => (
              <tr key={k}>
                <th>{k}</th>
                <td>{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="frame-detail-body">
        {parsed.ok && !raw ? <JsonTree value={parsed.value} expandDepth={3} /> : <pre className="raw">{f.text}</pre>}
      </div>
    </div>
  );
}

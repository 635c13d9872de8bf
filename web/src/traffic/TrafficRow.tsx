// One row of the traffic list: time, server, direction, method (a response shows the method it
// answers), id, size and latency. A legacy server's error to `server/discover` is the normal
// way `auto` learns to fall back to `initialize`, so it is marked as that, not as an error;
// mcplab's own (synthetic) error to it, a transport failure such as a refused connection, is
// an error (`auto` does not fall back from it). A long method truncates; its badges never do.
import type { Finding } from '../api/types.gen';
import type { FrameRow } from './frames';
import { isTapKey, tapShort, tapTitle, useTaps } from './taps';
import { fmtSize, fmtTime } from './time';
import { untick } from '../ui/Ticks';
import { ArrowLeft, ArrowRight, Bell, CornerDownLeft, History } from 'lucide-react';

const NOTIFICATION = 'notifications/';

export const ROW_H = 22;

export function TrafficRow({ row, findings, selected, top, onClick }: { row: FrameRow; findings?: Finding[]; selected: boolean; top: number; onClick: () => void }) {
  const f = row.frame;
  const label = row.type === 'note' ? untick(f.text) : row.type === 'unparsable' ? 'unparsable' : (row.method ?? (row.type === 'response' ? 'response' : row.type));
  // A notification (no id) shows its method whole: across the id column, its prefix a bell.
  const notification = row.id === undefined && label.startsWith(NOTIFICATION) && label.length > NOTIFICATION.length;
  const fallback = row.type === 'error' && row.method === 'server/discover' && f.kind !== 'synthetic';
  return (
    <div
      className={`traffic-row t-${fallback ? 'fallback' : row.type}${selected ? ' selected' : ''}`}
      style={{ transform: `translateY(${top}px)`, height: ROW_H }}
      onClick={onClick}
      role="option"
      aria-selected={selected}
      data-testid="traffic-row"
      data-seq={f.seq}
      data-direction={f.direction}
      data-method={row.method ?? ''}
    >
      <span className="c-time">{fmtTime(f.tsMs)}</span>
      <ServerCell server={f.server} />
      <span className={`c-dir dir-${f.direction}`} title={f.direction === 'outbound' ? 'sent to the server' : 'received from the server'}>
        {f.direction === 'outbound' ? <ArrowRight size={12} aria-label="sent" /> : <ArrowLeft size={12} aria-label="received" />}
      </span>
      <span className={`c-method${notification ? ' c-wide' : ''}`} title={label}>
        {(row.type === 'response' || row.type === 'error') && <CornerDownLeft size={11} className="reply-mark" aria-label="reply" />}
        {notification && <Bell size={11} className="notif-mark" aria-label="notifications/" />}
        <span className="c-label">{notification ? label.slice(NOTIFICATION.length) : label}</span>
        {row.type === 'error' &&
          (fallback ? (
            // An icon, not words: the method beside it must stay whole in a narrow panel.
            <span
              className="badge badge-icon"
              role="img"
              aria-label="legacy: falls back"
              title="Legacy: a server older than 2026-07-28 does not know server/discover; mcplab falls back to initialize"
              data-testid="traffic-discover-fallback"
            >
              <History size={11} aria-hidden="true" />
            </span>
          ) : (
            <span className="badge badge-err">error</span>
          ))}
        {row.type === 'unparsable' && (
          <span className="badge badge-err" title={row.problem}>
            !
          </span>
        )}
        {f.kind === 'synthetic' && <span className="badge badge-warn">synthetic</span>}
        {findings && (
          <span className="badge badge-warn" title={findings.map((x) => `${x.rule}: ${x.message}`).join('\n')} data-testid="traffic-finding">
            ⚠ {findings.length}
          </span>
        )}
      </span>
      {!notification && <span className="c-id">{row.id ?? ''}</span>}
      <span className="c-size">{fmtSize(row.size)}</span>
      <span className="c-lat" title={row.cancelledBy ? `cancelled by frame #${row.cancelledBy.frame.seq}` : undefined}>
        {row.latencyMs !== undefined ? `${row.latencyMs} ms` : row.cancelledBy ? 'cancelled' : row.type === 'request' ? '…' : ''}
      </span>
    </div>
  );
}

/** The server's name, or for a tapped session the host it came from (`claude-ai · tap:3`). */
function ServerCell({ server }: { server: string }) {
  const taps = useTaps();
  const tap = isTapKey(server) ? taps.find((t) => t.key === server) : undefined;
  return (
    <span className="c-server" title={tap ? tapTitle(tap) : server} data-testid={tap ? 'traffic-tap-label' : undefined}>
      {tap ? tapShort(tap, server) : server}
    </span>
  );
}

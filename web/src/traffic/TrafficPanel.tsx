// The traffic panel beside every page: every JSON-RPC frame, virtualized, with filters,
// pause, clear, export, and a detail pane for the selected frame; frames a server check found
// fault with carry a warning badge.
import { useMemo, useRef, useState, useEffect, useCallback } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Group, Panel, Separator } from 'react-resizable-panels';
import { errorMessage } from '../api/client';
import { useFrameFindings } from '../servers/check';
import { useServers } from '../servers/store';
import { Button } from '../ui/Button';
import { download } from '../ui/CopyButton';
import { EmptyState, ErrorState } from '../ui/States';
import { Loading } from '../ui/Spinner';
import type { Finding } from '../api/types.gen';
import { matches, type FrameRow, type TrafficFilter } from './frames';
import { FrameDetail } from './FrameDetail';
import { clearTraffic, index, setPaused, setTrafficFilter, useTraffic, useTrafficFilter } from './store';

const ROW_H = 22;

export function TrafficPanel() {
  const state = useTraffic();
  const { list } = useServers();
  const filter = useTrafficFilter();
  const findings = useFrameFindings();
  const [selected, setSelected] = useState<FrameRow | null>(null);
  const [follow, setFollow] = useState(true);
  const [actionError, setActionError] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);

  // Recomputed when frames arrive (version) or filters change; a plain scan is ~1 ms per 100k.
  const rows = useMemo(() => {
    void state.version;
    const f = filter;
    if (!f.server && !f.direction && !f.method && !f.search) return index.rows.slice();
    return index.rows.filter((r) => matches(r, f));
  }, [state.version, filter]);

  const virt = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_H,
    overscan: 20,
  });

  useEffect(() => {
    if (follow && rows.length) virt.scrollToIndex(rows.length - 1, { align: 'end' });
  }, [rows.length, follow, virt]);

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    setFollow(el.scrollHeight - el.scrollTop - el.clientHeight < ROW_H * 2);
  }, []);

  const selIndex = selected ? rows.indexOf(selected) : -1;
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Escape') return;
    e.preventDefault();
    if (e.key === 'Escape') return setSelected(null);
    const next = Math.max(0, Math.min(rows.length - 1, selIndex + (e.key === 'ArrowDown' ? 1 : -1)));
    if (rows[next]) {
      setSelected(rows[next]);
      setFollow(false);
      virt.scrollToIndex(next);
    }
  };

  const methods = useMemo(() => {
    void state.version;
    return [...index.methods].sort();
  }, [state.version]);

  const doClear = async () => {
    setActionError(null);
    const names = filter.server ? [filter.server] : (list ?? []).map((v) => v.config.name);
    try {
      await clearTraffic(names);
      setSelected(null);
    } catch (e) {
      setActionError(errorMessage(e));
    }
  };

  const doExport = () => {
    const frames = rows.map((r) => r.frame);
    download(`mcplab-traffic-${new Date().toISOString().replace(/[:.]/g, '-')}.json`, JSON.stringify(frames, null, 2));
  };

  const set = setTrafficFilter;

  return (
    <section className="traffic" data-testid="traffic-panel" aria-label="Traffic">
      <div className="traffic-head">
        <span className="panel-title">Traffic</span>
        <span className="muted small" data-testid="traffic-count">
          {rows.length.toLocaleString()}
          {rows.length !== index.rows.length && ` / ${index.rows.length.toLocaleString()}`} frames
        </span>
        {state.dropped > 0 && (
          <span className="badge badge-warn" title="Older frames evicted from the server's ring buffer">
            {state.dropped} dropped
          </span>
        )}
        <span className="spacer" />
        <Button small variant={state.paused ? 'primary' : 'ghost'} onClick={() => setPaused(!state.paused)} data-testid="traffic-pause" aria-pressed={state.paused}>
          {state.paused ? `Resume${state.held ? ` (${state.held})` : ''}` : 'Pause'}
        </Button>
        <Button small variant="ghost" onClick={doClear} data-testid="traffic-clear">
          Clear
        </Button>
        <Button small variant="ghost" onClick={doExport} disabled={!rows.length} data-testid="traffic-export">
          Export
        </Button>
      </div>
      <div className="traffic-filters">
        <select value={filter.server} onChange={(e) => set({ server: e.target.value })} data-testid="traffic-filter-server" aria-label="Server">
          <option value="">All servers</option>
          {(list ?? []).map((v) => (
            <option key={v.config.name} value={v.config.name}>
              {v.config.name}
            </option>
          ))}
        </select>
        <select value={filter.direction} onChange={(e) => set({ direction: e.target.value as TrafficFilter['direction'] })} data-testid="traffic-filter-direction" aria-label="Direction">
          <option value="">⇄ both</option>
          <option value="outbound">→ sent</option>
          <option value="inbound">← received</option>
        </select>
        <input list="traffic-methods" placeholder="method" value={filter.method} onChange={(e) => set({ method: e.target.value })} data-testid="traffic-filter-method" aria-label="Method" />
        <datalist id="traffic-methods">
          {methods.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
        <input type="search" placeholder="search text" value={filter.search} onChange={(e) => set({ search: e.target.value })} data-testid="traffic-search" aria-label="Search frames" />
      </div>
      {actionError && <div className="inline-error" role="alert">{actionError}</div>}
      <Group orientation="vertical" className="traffic-split">
        <Panel defaultSize="65%" minSize="20%">
          <div className="traffic-list-wrap">
            <div className="traffic-row traffic-colhead" aria-hidden="true">
              <span className="c-time">time</span>
              <span className="c-server">server</span>
              <span className="c-dir" />
              <span className="c-method">method</span>
              <span className="c-id">id</span>
              <span className="c-size">size</span>
              <span className="c-lat">latency</span>
            </div>
            {state.error && index.rows.length === 0 ? (
              <ErrorState title="Could not load traffic" message={state.error} />
            ) : state.loading && index.rows.length === 0 ? (
              <Loading label="Loading traffic…" />
            ) : rows.length === 0 ? (
              <EmptyState title={index.rows.length ? 'No frame matches the filters' : 'No traffic yet'} testId="traffic-empty">
                {index.rows.length ? null : 'Frames appear here as soon as mcplab talks to a server.'}
              </EmptyState>
            ) : (
              <div className="traffic-list" ref={scrollRef} onScroll={onScroll} tabIndex={0} onKeyDown={onKeyDown} role="listbox" aria-label="Frames" data-testid="traffic-list">
                <div style={{ height: virt.getTotalSize(), position: 'relative' }}>
                  {virt.getVirtualItems().map((vi) => {
                    const r = rows[vi.index];
                    return (
                      <Row key={r.frame.seq} row={r} findings={findings.get(r.frame.seq)} selected={r === selected} top={vi.start} onClick={() => { setSelected(r); setFollow(false); }} />
                    );
                  })}
                </div>
              </div>
            )}
          </div>
        </Panel>
        {selected && (
          <>
            <Separator className="resize-handle resize-handle-h" />
            <Panel defaultSize="35%" minSize="15%">
              <FrameDetail row={selected} findings={findings.get(selected.frame.seq)} onClose={() => setSelected(null)} />
            </Panel>
          </>
        )}
      </Group>
    </section>
  );
}

function fmtTime(ms: number): string {
  const d = new Date(ms);
  return `${d.toLocaleTimeString([], { hour12: false })}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

export function fmtSize(n: number): string {
  return n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`;
}

function Row({ row, findings, selected, top, onClick }: { row: FrameRow; findings?: Finding[]; selected: boolean; top: number; onClick: () => void }) {
  const f = row.frame;
  const label =
    row.type === 'note' ? f.text : row.type === 'unparsable' ? 'unparsable' : row.method ?? (row.type === 'response' ? 'response' : row.type);
  return (
    <div
      className={`traffic-row t-${row.type}${selected ? ' selected' : ''}`}
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
      <span className="c-server" title={f.server}>{f.server}</span>
      <span className={`c-dir dir-${f.direction}`} title={f.direction === 'outbound' ? 'sent to the server' : 'received from the server'}>
        {f.direction === 'outbound' ? '→' : '←'}
      </span>
      <span className="c-method" title={label}>
        {(row.type === 'response' || row.type === 'error') && <span className="reply-mark">↩ </span>}
        {label}
        {row.type === 'error' && <span className="badge badge-err">error</span>}
        {row.type === 'unparsable' && <span className="badge badge-err" title={row.problem}>!</span>}
        {f.kind === 'synthetic' && <span className="badge badge-warn">synthetic</span>}
        {findings && (
          <span className="badge badge-warn" title={findings.map((x) => `${x.rule}: ${x.message}`).join('\n')} data-testid="traffic-finding">
            ⚠ {findings.length}
          </span>
        )}
      </span>
      <span className="c-id">{row.id ?? ''}</span>
      <span className="c-size">{fmtSize(row.size)}</span>
      <span className="c-lat">{row.latencyMs !== undefined ? `${row.latencyMs} ms` : row.type === 'request' ? '…' : ''}</span>
    </div>
  );
}

// The traffic panel beside every page: every JSON-RPC frame, virtualized, with filters (one
// call's frames included), pause, clear, export, and a detail pane for the selected frame,
// which stays scrolled into view; frames a server check found fault with carry a warning
// badge. ↑/↓ move the selection from anywhere in the panel.
import { useMemo, useRef, useState, useEffect, useCallback, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Group, Panel, Separator } from 'react-resizable-panels';
import { Download, Eraser, Pause, Play, X } from 'lucide-react';
import { errorMessage } from '../api/client';
import { useFrameFindings } from '../servers/check';
import { useServers } from '../servers/store';
import { Button } from '../ui/Button';
import { download } from '../ui/CopyButton';
import { isTyping } from '../ui/SearchBox';
import { EmptyState, ErrorState } from '../ui/States';
import { Loading } from '../ui/Spinner';
import { matches, type FrameRow, type TrafficFilter } from './frames';
import { FrameDetail } from './FrameDetail';
import { clearTraffic, editTrafficFilter, index, setPaused, useTraffic, useTrafficFilter } from './store';
import { ROW_H, TrafficRow } from './TrafficRow';

function filtering(f: TrafficFilter): boolean {
  return !!(f.server || f.direction || f.method || f.search || f.call || f.exchange != null);
}

export function TrafficPanel({ onClose }: { onClose?: () => void }) {
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
    return filtering(filter) ? index.rows.filter((r) => matches(r, filter)) : index.rows.slice();
  }, [state.version, filter]);

  const virt = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_H, overscan: 20 });

  useEffect(() => {
    if (follow && rows.length) virt.scrollToIndex(rows.length - 1, { align: 'end' });
  }, [rows.length, follow, virt]);

  const selIndex = selected ? rows.indexOf(selected) : -1;
  // The selected row stays in view (after a click, a key, a jump to its pair, a filter change).
  useEffect(() => {
    if (selIndex >= 0) virt.scrollToIndex(selIndex, { align: 'auto' });
  }, [selIndex, virt]);

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    setFollow(el.scrollHeight - el.scrollTop - el.clientHeight < ROW_H * 2);
  }, []);

  const select = (r: FrameRow | null) => {
    setSelected(r);
    if (r) setFollow(false);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (isTyping(e.target) || (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Escape')) return;
    if (e.key === 'Escape') {
      if (!selected) return;
      e.preventDefault();
      return select(null);
    }
    e.preventDefault();
    const next = Math.max(0, Math.min(rows.length - 1, selIndex + (e.key === 'ArrowDown' ? 1 : -1)));
    if (rows[next]) select(rows[next]);
  };
  const jump = (r: FrameRow) => {
    if (!rows.includes(r)) editTrafficFilter({ server: '', direction: '', method: '', search: '', call: null, exchange: null });
    select(r);
  };
  const onlyThisCall = (r: FrameRow) => {
    const req = r.type === 'request' ? r : r.pair;
    if (!req?.id || req.frame.direction !== 'outbound') return undefined;
    return () => editTrafficFilter({ server: '', direction: '', method: '', search: '', exchange: null, call: { server: req.frame.server, id: req.id!, progressToken: req.token, label: `${req.method ?? 'request'} #${req.id}` } });
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
  const doExport = () => download(`mcplab-traffic-${new Date().toISOString().replace(/[:.]/g, '-')}.json`, JSON.stringify(rows.map((r) => r.frame), null, 2));
  const set = editTrafficFilter;

  return (
    <section className="traffic" data-testid="traffic-panel" aria-label="Traffic" onKeyDown={onKeyDown}>
      <div className="traffic-head">
        <h2 className="panel-title">Traffic</h2>
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
          {state.paused ? <Play size={13} aria-hidden="true" /> : <Pause size={13} aria-hidden="true" />}
          {state.paused ? `Resume${state.held ? ` (${state.held})` : ''}` : 'Pause'}
        </Button>
        <Button small variant="ghost" onClick={doClear} data-testid="traffic-clear" title="Clear the recording">
          <Eraser size={13} aria-hidden="true" /> Clear
        </Button>
        <Button small variant="ghost" onClick={doExport} disabled={!rows.length} data-testid="traffic-export" title="Export the shown frames as JSON">
          <Download size={13} aria-hidden="true" /> Export
        </Button>
        {onClose && (
          <Button small variant="ghost" onClick={onClose} aria-label="Close the traffic panel" data-testid="traffic-close">
            <X size={14} aria-hidden="true" />
          </Button>
        )}
      </div>
      <div className="traffic-filters">
        {filter.exchange != null && (
          <span className="filter-chip" data-testid="traffic-filter-exchange">
            HTTP exchange #{filter.exchange}
            <button type="button" aria-label="Show all frames" onClick={() => set({ exchange: null })} data-testid="traffic-filter-exchange-clear">
              <X size={12} aria-hidden="true" />
            </button>
          </span>
        )}
        {filter.call && (
          <span className="filter-chip" data-testid="traffic-filter-call">
            frames of {filter.call.server} › {filter.call.label}
            <button type="button" aria-label="Show all frames" onClick={() => set({ call: null })} data-testid="traffic-filter-call-clear">
              <X size={12} aria-hidden="true" />
            </button>
          </span>
        )}
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
      {actionError && (
        <div className="inline-error" role="alert">
          {actionError}
        </div>
      )}
      <Group orientation="vertical" className="traffic-split">
        <Panel defaultSize="60%" minSize="20%">
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
              <div className="traffic-list" ref={scrollRef} onScroll={onScroll} tabIndex={0} role="listbox" aria-label="Frames" data-testid="traffic-list">
                <div style={{ height: virt.getTotalSize(), position: 'relative' }}>
                  {virt.getVirtualItems().map((vi) => {
                    const r = rows[vi.index];
                    return <TrafficRow key={r.frame.seq} row={r} findings={findings.get(r.frame.seq)} selected={r === selected} top={vi.start} onClick={() => select(r)} />;
                  })}
                </div>
              </div>
            )}
          </div>
        </Panel>
        {selected && (
          <>
            <Separator className="resize-handle resize-handle-h" />
            <Panel defaultSize="40%" minSize="15%">
              <FrameDetail row={selected} findings={findings.get(selected.frame.seq)} onClose={() => select(null)} onJump={jump} onOnlyThisCall={onlyThisCall(selected)}
                onOnlyThisExchange={(seq) => editTrafficFilter({ server: '', direction: '', method: '', search: '', call: null, exchange: seq })}
              />
            </Panel>
          </>
        )}
      </Group>
    </section>
  );
}

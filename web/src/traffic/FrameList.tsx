// The traffic panel's frame list: column heads, the loading/error/empty states, and the rows
// (virtualized: 100k frames stay cheap). It follows the newest frame while scrolled to the
// bottom, stops following once a frame is selected or the person scrolls up, and keeps the
// selected frame in view. Selection itself belongs to the panel.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Activity } from 'lucide-react';
import type { Finding } from '../api/types.gen';
import { EmptyState, ErrorState } from '../ui/States';
import { Loading } from '../ui/Spinner';
import type { FrameRow } from './frames';
import { index, useTraffic } from './store';
import { ROW_H, TrafficRow } from './TrafficRow';

interface Props {
  rows: FrameRow[];
  selected: FrameRow | null;
  onSelect: (r: FrameRow) => void;
  findings: Map<number, Finding[]>;
}

export function FrameList({ rows, selected, onSelect, findings }: Props) {
  const state = useTraffic();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [follow, setFollow] = useState(true);
  // A new selection stops following (set while rendering, so no frame scrolls it away).
  const [lastSelected, setLastSelected] = useState(selected);
  if (selected !== lastSelected) {
    setLastSelected(selected);
    if (selected) setFollow(false);
  }

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

  return (
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
        <EmptyState icon={Activity} title={index.rows.length ? 'No frame matches the filters' : 'No traffic yet'} testId="traffic-empty">
          {index.rows.length ? null : 'Frames appear here as soon as mcplab talks to a server.'}
        </EmptyState>
      ) : (
        <div className="traffic-list" ref={scrollRef} onScroll={onScroll} tabIndex={0} role="listbox" aria-label="Frames" data-testid="traffic-list">
          <div style={{ height: virt.getTotalSize(), position: 'relative' }}>
            {virt.getVirtualItems().map((vi) => {
              const r = rows[vi.index];
              return <TrafficRow key={r.frame.seq} row={r} findings={findings.get(r.frame.seq)} selected={r === selected} top={vi.start} onClick={() => onSelect(r)} />;
            })}
          </div>
        </div>
      )}
    </div>
  );
}

// The traffic panel beside every page: lays out the toolbar (`TrafficToolbar`), the filters
// (`TrafficFilters`), the frame list (`FrameList`) and the selected frame's detail
// (`FrameDetail`), and owns what ties them together: the rows the filter shows, the selected
// frame, ↑/↓/Escape from anywhere in the panel, and jumps (to a frame's pair, to one call's or
// one HTTP exchange's frames). Frames a server check found fault with carry a warning badge.
import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import { Group, Panel, Separator } from 'react-resizable-panels';
import { useFrameFindings } from '../servers/check';
import { isTyping } from '../ui/SearchBox';
import { matches, type FrameRow, type TrafficFilter } from './frames';
import { FrameDetail } from './FrameDetail';
import { FrameList } from './FrameList';
import { editTrafficFilter, focusedFrameStore, index, useTraffic, useTrafficFilter } from './store';
import { useStore } from '../ui/store';
import { TrafficFilters } from './TrafficFilters';
import { TrafficToolbar } from './TrafficToolbar';

const NO_FILTER = { server: '', direction: '', method: '', search: '', call: null, exchange: null } as const;

function filtering(f: TrafficFilter): boolean {
  return !!(f.server || f.direction || f.method || f.search || f.call || f.exchange != null);
}

export function TrafficPanel({ onClose }: { onClose?: () => void }) {
  const { version } = useTraffic();
  const filter = useTrafficFilter();
  const findings = useFrameFindings();
  const [selected, select] = useState<FrameRow | null>(null);
  // Another page asked for a frame (check findings link to theirs): select it once it is here.
  const focused = useStore(focusedFrameStore);
  useEffect(() => {
    const row = focused && index.rows.find((r) => r.frame.seq === focused.seq);
    if (!row) return;
    select(row);
    focusedFrameStore.set(null);
  }, [focused, version]);

  // Recomputed when frames arrive (version) or filters change; a plain scan is ~1 ms per 100k.
  const rows = useMemo(() => {
    void version;
    return filtering(filter) ? index.rows.filter((r) => matches(r, filter)) : index.rows.slice();
  }, [version, filter]);

  const onKeyDown = (e: KeyboardEvent) => {
    if (isTyping(e.target) || (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Escape')) return;
    if (e.key === 'Escape') {
      if (!selected) return;
      e.preventDefault();
      return select(null);
    }
    e.preventDefault();
    const at = selected ? rows.indexOf(selected) : -1;
    const next = Math.max(0, Math.min(rows.length - 1, at + (e.key === 'ArrowDown' ? 1 : -1)));
    if (rows[next]) select(rows[next]);
  };
  const jump = (r: FrameRow) => {
    if (!rows.includes(r)) editTrafficFilter(NO_FILTER);
    select(r);
  };
  const onlyThisCall = (r: FrameRow) => {
    const req = r.type === 'request' ? r : r.pair;
    if (!req?.id || req.frame.direction !== 'outbound') return undefined;
    const call = { server: req.frame.server, id: req.id, progressToken: req.token, label: `${req.method ?? 'request'} #${req.id}` };
    return () => editTrafficFilter({ ...NO_FILTER, call });
  };

  return (
    <section className="traffic" data-testid="traffic-panel" aria-label="Traffic" onKeyDown={onKeyDown}>
      <TrafficToolbar rows={rows} onCleared={() => select(null)} onClose={onClose} />
      <TrafficFilters />
      <Group orientation="vertical" className="traffic-split">
        <Panel defaultSize="60%" minSize="20%">
          <FrameList rows={rows} selected={selected} onSelect={select} findings={findings} />
        </Panel>
        {selected && (
          <>
            <Separator className="resize-handle resize-handle-h" />
            <Panel defaultSize="40%" minSize="15%">
              <FrameDetail
                row={selected}
                findings={findings.get(selected.frame.seq)}
                onClose={() => select(null)}
                onJump={jump}
                onOnlyThisCall={onlyThisCall(selected)}
                onOnlyThisExchange={(seq) => editTrafficFilter({ ...NO_FILTER, exchange: seq })}
              />
            </Panel>
          </>
        )}
      </Group>
    </section>
  );
}

// The traffic panel's place: docked beside the page in a resizable split on wide windows, an
// overlay drawer (closed by default, closed on page change) on narrow ones.
import { useEffect, type ReactNode } from 'react';
import { Group, Panel, Separator } from 'react-resizable-panels';
import { TrafficPanel } from '../traffic/TrafficPanel';
import { setTrafficOpen } from '../traffic/visibility';
import type { Page } from '../ui/route';

export function TrafficDock({ page, open, overlay, children }: { page: Page; open: boolean; overlay: boolean; children: ReactNode }) {
  useEffect(() => {
    if (overlay) setTrafficOpen(page, false, true);
  }, [page, overlay]);
  if (overlay) {
    return (
      <div className="main-single">
        <main className="page-wrap">{children}</main>
        {open && (
          <div className="traffic-overlay" data-testid="traffic-overlay">
            <TrafficPanel onClose={() => setTrafficOpen(page, false, true)} />
          </div>
        )}
      </div>
    );
  }
  return (
    <Group orientation="horizontal" className="main-split" id="main-split">
      <Panel id="page" minSize="30%">
        <main className="page-wrap">{children}</main>
      </Panel>
      {open && (
        <>
          <Separator className="resize-handle resize-handle-v" />
          <Panel id="traffic" defaultSize="38%" minSize="20%">
            <TrafficPanel onClose={() => setTrafficOpen(page, false, false)} />
          </Panel>
        </>
      )}
    </Group>
  );
}

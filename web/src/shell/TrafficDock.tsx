// The traffic panel's place (`DockSplit`): docked beside the page in a resizable split on wide
// windows, an overlay drawer (closed by default, closed on page change) on narrow ones; the page
// stays mounted when the window crosses between them. The panel's code is its own chunk, asked
// for once the page has painted (`useAfterPaint`): the first screen paints the page, with the
// panel's place kept empty, before the panel's code runs.
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { setTrafficOpen } from '../traffic/visibility';
import { PageBoundary } from '../ui/PageBoundary';
import { useAfterPaint } from '../ui/useAfterPaint';
import type { Page } from '../ui/route';
import { DockSplit } from './DockSplit';

const TrafficPanel = lazy(() => import('../traffic/TrafficPanel').then((m) => ({ default: m.TrafficPanel })));

/** The panel once the page has painted; until then (and while its chunk loads) its empty place. */
function LaterPanel({ onClose }: { onClose: () => void }) {
  const painted = useAfterPaint();
  const empty = <section className="traffic" aria-label="Traffic" aria-busy="true" />;
  if (!painted) return empty;
  return (
    <PageBoundary what="traffic panel">
      <Suspense fallback={empty}>
        <TrafficPanel onClose={onClose} />
      </Suspense>
    </PageBoundary>
  );
}

export function TrafficDock({ page, open, overlay, children }: { page: Page; open: boolean; overlay: boolean; children: ReactNode }) {
  useEffect(() => {
    if (overlay) setTrafficOpen(page, false, true);
  }, [page, overlay]);
  return <DockSplit overlay={overlay} page={children} side={open ? <LaterPanel onClose={() => setTrafficOpen(page, false, overlay)} /> : null} />;
}

// The page and the traffic panel's place. Docked (wide windows): a flex row whose traffic side
// takes a share of the width (20–70 %, so the page keeps at least 30 %), moved by dragging the
// separator or with its arrow keys (Home/End: the limits) and kept in prefs (written when the
// pointer or the key is released). As an overlay
// (narrow windows): the panel over the page's right side. Both keep the page in the same place
// of the same tree, so crossing the breakpoint does not remount it (unsaved edits survive). Written here rather than with
// react-resizable-panels (still used inside the lazily loaded traffic panel): that library
// measures its panels while the first screen commits — a forced layout on every page load
// (BENCHMARKS.md, "UI first screen") — where this lays out with the rest of the frame.
import { useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { getPref, setPref } from '../settings/prefs';

export const SIDE_MIN = 20;
export const SIDE_MAX = 70;
const SIDE_DEFAULT = 38;
const KEY_STEP = 2;
const PREF = 'layout.trafficShare';
const MOVE_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'Home', 'End']);

export const clampShare = (n: number) => Math.min(SIDE_MAX, Math.max(SIDE_MIN, Math.round(n * 10) / 10));

function savedShare(): number {
  const v = getPref<unknown>(PREF, SIDE_DEFAULT);
  return typeof v === 'number' && Number.isFinite(v) ? clampShare(v) : SIDE_DEFAULT;
}

export function DockSplit({ page, side, overlay }: { page: ReactNode; side: ReactNode | null; overlay: boolean }) {
  const [share, setShare] = useState(savedShare);
  const [dragging, setDragging] = useState(false);
  const row = useRef<HTMLDivElement>(null);
  const keep = (n: number) => {
    const next = clampShare(n);
    setShare(next);
    return next;
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    setDragging(true);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const box = row.current?.getBoundingClientRect();
    if (!dragging || !box || box.width <= 0) return;
    keep(((box.right - e.clientX) / box.width) * 100);
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    if (!dragging) return;
    e.currentTarget.releasePointerCapture(e.pointerId);
    setDragging(false);
    setPref(PREF, share);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const to = { ArrowLeft: share + KEY_STEP, ArrowRight: share - KEY_STEP, Home: SIDE_MAX, End: SIDE_MIN }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    keep(to);
  };
  // Saved once when the key is released: a held arrow key moves the panel many times.
  const onKeyUp = (e: KeyboardEvent<HTMLDivElement>) => {
    if (MOVE_KEYS.has(e.key)) setPref(PREF, share);
  };
  return (
    <div className={overlay ? 'main-single' : 'main-split'} ref={row}>
      <main className="page-wrap">{page}</main>
      {overlay && side && (
        <div className="traffic-overlay" data-testid="traffic-overlay">
          {side}
        </div>
      )}
      {!overlay && side && (
        // The separator sits inside the panel's landmark, so all of the page is in one (axe region).
        <aside className="dock-side" aria-label="Traffic panel" style={{ flexBasis: `${share}%` }}>
          <div
            className="resize-handle resize-handle-v"
            role="separator"
            aria-orientation="vertical"
            aria-label="Resize the traffic panel"
            aria-valuemin={100 - SIDE_MAX}
            aria-valuemax={100 - SIDE_MIN}
            aria-valuenow={Math.round(100 - share)}
            tabIndex={0}
            data-separator={dragging ? 'active' : undefined}
            data-testid="traffic-resize"
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={onPointerUp}
            onKeyDown={onKeyDown}
            onKeyUp={onKeyUp}
          />
          <div className="dock-body">{side}</div>
        </aside>
      )}
    </div>
  );
}

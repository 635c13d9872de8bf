// Putting the servers in order on the Servers page: a row's handle is dragged (mouse, touch or
// pen, through pointer events) or moved with the keyboard (Arrow Up/Down one place, Home/End to
// the ends). While a drag is under way the row follows the pointer and the list shows where it
// would land; letting go saves
// the order, Escape or a cancelled pointer puts it back. Each move is announced through a live
// region. It draws nothing itself and knows nothing of the API: `save` does that.
import { useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';

/** `names` with `name` moved to index `to`. */
export function moveTo(names: readonly string[], name: string, to: number): string[] {
  const rest = names.filter((n) => n !== name);
  const at = Math.max(0, Math.min(rest.length, to));
  return [...rest.slice(0, at), name, ...rest.slice(at)];
}

/** Where a row dragged to `y` lands among the other rows (their vertical middles, in order). */
export function landing(middles: readonly number[], y: number): number {
  return middles.filter((m) => m < y).length;
}

export interface RowDrag {
  /** The order to draw: the preview while dragging, else `names`. */
  shown: string[];
  /** The row being dragged, if any. */
  dragging: string | null;
  /** What the live region says after a move. */
  announcement: string;
  /** Props for row `name`'s handle button. */
  handle: (name: string) => {
    onPointerDown: (e: PointerEvent<HTMLButtonElement>) => void;
    onPointerMove: (e: PointerEvent<HTMLButtonElement>) => void;
    onPointerUp: (e: PointerEvent<HTMLButtonElement>) => void;
    onPointerCancel: () => void;
    onKeyDown: (e: KeyboardEvent<HTMLButtonElement>) => void;
  };
}

/**
 * `names` in the list `listRef` holds (rows marked `data-drag-row="<name>"`, handles
 * `data-drag-handle="<name>"`); `save` is called with each new order.
 */
export function useRowDrag(names: string[], listRef: React.RefObject<HTMLElement | null>, save: (order: string[], moved: string) => void): RowDrag {
  const [drag, setDrag] = useState<{ name: string; order: string[] } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  // The pointer's height, where on the row it took hold, and the shift the row is drawn with.
  const pointer = useRef({ y: 0, grab: 0, shift: 0 });

  const row = (name: string) => listRef.current?.querySelector<HTMLElement>(`[data-drag-row="${CSS.escape(name)}"]`) ?? null;
  /** The middle of `el` where the list puts it (without the shift it is drawn with). */
  const middle = (el: HTMLElement) => {
    const b = el.getBoundingClientRect();
    return b.top + b.height / 2 - pointer.current.shift;
  };
  /** Draws the dragged row under the pointer, wherever the list put it. */
  const follow = (name: string | null) => {
    const el = name ? row(name) : null;
    if (!el) return;
    const p = pointer.current;
    p.shift = p.y - p.grab - middle(el);
    el.style.transform = `translateY(${p.shift}px)`;
  };
  const drop = (name: string) => {
    const el = row(name);
    if (el) el.style.transform = '';
    pointer.current.shift = 0;
  };
  // After the list moved the row to a new place, it is drawn under the pointer again at once.
  useLayoutEffect(() => follow(drag?.name ?? null));

  const say = (order: string[], name: string) => setAnnouncement(`${name} moved to place ${order.indexOf(name) + 1} of ${order.length}.`);

  const commit = (order: string[], name: string) => {
    if (order.join('\n') === names.join('\n')) return;
    save(order, name);
    say(order, name);
    // The handle's row moved in the DOM, which may take the focus from it: give it back, unless
    // the focus went somewhere else meanwhile.
    requestAnimationFrame(() => {
      const lost = !document.activeElement || document.activeElement === document.body;
      if (lost) listRef.current?.querySelector<HTMLElement>(`[data-drag-handle="${CSS.escape(name)}"]`)?.focus();
    });
  };

  const preview = (name: string, y: number) => {
    const rows = [...(listRef.current?.querySelectorAll<HTMLElement>('[data-drag-row]') ?? [])].filter((r) => r.dataset.dragRow !== name);
    const middles = rows.map((r) => {
      const b = r.getBoundingClientRect();
      return b.top + b.height / 2;
    });
    const order = moveTo(names, name, landing(middles, y));
    setDrag((d) => (d && d.order.join('\n') === order.join('\n') ? d : { name, order }));
  };

  const handle = (name: string) => ({
    onPointerDown: (e: PointerEvent<HTMLButtonElement>) => {
      if (e.button !== 0) return;
      e.preventDefault();
      e.currentTarget.setPointerCapture(e.pointerId);
      e.currentTarget.focus();
      const el = row(name);
      pointer.current = { y: e.clientY, grab: el ? e.clientY - middle(el) : 0, shift: 0 };
      setDrag({ name, order: names });
    },
    onPointerMove: (e: PointerEvent<HTMLButtonElement>) => {
      if (drag?.name !== name) return;
      pointer.current.y = e.clientY;
      preview(name, e.clientY);
      follow(name);
    },
    onPointerUp: (e: PointerEvent<HTMLButtonElement>) => {
      if (drag?.name !== name) return;
      e.currentTarget.releasePointerCapture(e.pointerId);
      drop(name);
      setDrag(null);
      commit(drag.order, name);
    },
    onPointerCancel: () => {
      drop(name);
      setDrag(null);
    },
    onKeyDown: (e: KeyboardEvent<HTMLButtonElement>) => {
      if (e.key === 'Escape' && drag) {
        e.preventDefault();
        drop(drag.name);
        setDrag(null);
        setAnnouncement(`Move of ${name} cancelled.`);
        return;
      }
      const at = names.indexOf(name);
      const to = { ArrowUp: at - 1, ArrowDown: at + 1, Home: 0, End: names.length - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      if (to < 0 || to >= names.length || to === at) return;
      commit(moveTo(names, name, to), name);
    },
  });

  return { shown: drag?.order ?? names, dragging: drag?.name ?? null, announcement, handle };
}

// The selectable list of an inspector page (tools, resources, templates, prompts): one tab
// stop for the whole list (roving tabindex), ↑/↓/Home/End move and select, and the selected
// item is scrolled into view. Selecting only shows an item; it never calls anything.
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface ListItem {
  key: string;
  testId: string;
  content: ReactNode;
  /** Extra class names (e.g. `running`). */
  className?: string;
}

export function ItemList({ items, selected, onSelect, label }: { items: ListItem[]; selected: string | null; onSelect: (key: string) => void; label: string }) {
  const ref = useRef<HTMLUListElement>(null);
  const index = items.findIndex((i) => i.key === selected);
  const tabStop = index >= 0 ? index : 0;

  useEffect(() => {
    if (index < 0) return;
    const el = ref.current?.querySelectorAll<HTMLElement>('[role="option"]')[index];
    el?.scrollIntoView?.({ block: 'nearest' });
  }, [index]);

  const onKeyDown = (e: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, Home: -Infinity, End: Infinity };
    if (!(e.key in moves) || items.length === 0) return;
    e.preventDefault();
    const from = index >= 0 ? index : -1;
    const step = moves[e.key];
    const next = step === -Infinity ? 0 : step === Infinity ? items.length - 1 : Math.max(0, Math.min(items.length - 1, from + step));
    onSelect(items[next].key);
    ref.current?.querySelectorAll<HTMLElement>('[role="option"]')[next]?.focus();
  };

  return (
    <ul className="items" role="listbox" aria-label={label} ref={ref} onKeyDown={onKeyDown}>
      {items.map((it, i) => (
        <li key={it.key} role="presentation">
          <button
            type="button"
            role="option"
            aria-selected={it.key === selected}
            tabIndex={i === tabStop ? 0 : -1}
            className={`item${it.key === selected ? ' selected' : ''}${it.className ? ` ${it.className}` : ''}`}
            onClick={() => onSelect(it.key)}
            data-testid={it.testId}
          >
            {it.content}
          </button>
        </li>
      ))}
    </ul>
  );
}

// One of a server's lists in an inspector page's side pane (tools, prompts, resources, resource
// templates): the error with Retry, the spinner, "none" or "no match", or the items the search
// leaves. Written once for the four lists (they repeated it, review D14/D60). Must not fetch:
// the page hands in the list's query state (`useServerList`).
import { useMemo } from 'react';
import type { ListState } from '../api/queries';
import { ItemList, type ListItem } from '../ui/ItemList';
import { Loading } from '../ui/Spinner';
import { EmptyState, ErrorState } from '../ui/States';

/** Whether any of `fields` contains the search text (case-insensitive); an empty search
 * matches everything. */
export function matchesQuery(query: string, fields: (string | null | undefined)[]): boolean {
  const q = query.toLowerCase();
  return !q || fields.some((f) => (f ?? '').toLowerCase().includes(q));
}

export interface SearchableListProps<T> {
  list: ListState<T>;
  query: string;
  /** The texts the search looks in. */
  fields: (item: T) => (string | null | undefined)[];
  /** What the list holds, for "Could not list …". */
  noun: string;
  /** What to say when the search leaves nothing, and when the server has none. */
  empty: { noMatch: string; none: string };
  /** One section of a pane holding several lists: a small line instead of an empty state. */
  compact?: boolean;
  /** The list's accessible name. */
  label: string;
  selected: string | null;
  onSelect: (key: string) => void;
  item: (item: T) => ListItem;
}

export function SearchableList<T>({ list, query, fields, noun, empty, compact, label, selected, onSelect, item }: SearchableListProps<T>) {
  const shown = useMemo(() => (list.data ?? []).filter((t) => matchesQuery(query, fields(t))), [list.data, query, fields]);
  if (list.error) return <ErrorState title={`Could not list ${noun}`} message={list.error} onRetry={list.reload} />;
  if (!list.data) return <Loading />;
  if (shown.length === 0) {
    const text = list.data.length ? empty.noMatch : empty.none;
    return compact ? <div className="muted small pad">{text}</div> : <EmptyState title={text} />;
  }
  return <ItemList label={label} selected={selected} onSelect={onSelect} items={shown.map(item)} />;
}

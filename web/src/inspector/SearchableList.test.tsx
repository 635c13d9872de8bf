import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import type { ListState } from '../api/queries';
import { SearchableList, matchesQuery, type SearchableListProps } from './SearchableList';

type Thing = { id: string; title?: string; note?: string };
const state = (over: Partial<ListState<Thing>>): ListState<Thing> => ({ data: null, error: null, loading: false, reload: () => undefined, ...over });
const THINGS: Thing[] = [{ id: 'alpha', title: 'First' }, { id: 'beta', note: 'second one' }, { id: 'gamma' }];

function show(over: Partial<SearchableListProps<Thing>>) {
  const props: SearchableListProps<Thing> = {
    list: state({ data: THINGS }),
    query: '',
    fields: (t) => [t.id, t.title],
    noun: 'things',
    empty: { noMatch: 'No thing matches', none: 'No things here' },
    label: 'Things',
    selected: null,
    onSelect: () => undefined,
    item: (t) => ({ key: t.id, testId: `thing-${t.id}`, content: t.title ?? t.id }),
    ...over,
  };
  return render(<SearchableList {...props} />);
}

const shownIds = () => screen.queryAllByRole('option').map((o) => o.getAttribute('data-testid'));

describe('SearchableList', () => {
  it('shows every item without a search, and filters case-insensitively by the fields', () => {
    const { unmount } = show({});
    expect(shownIds()).toEqual(['thing-alpha', 'thing-beta', 'thing-gamma']);
    unmount();
    show({ query: 'FIRST' });
    expect(shownIds()).toEqual(['thing-alpha']);
  });

  it('says "no match" when the search leaves nothing (text only in other fields), and "none" when there is nothing', () => {
    const { unmount } = show({ query: 'second' });
    expect(screen.getByTestId('empty-state').textContent).toBe('No thing matches');
    unmount();
    const compact = show({ list: state({ data: [] }), compact: true });
    expect(compact.container.textContent).toBe('No things here');
    expect(screen.queryByTestId('empty-state')).toBeNull();
  });

  it('shows the error with a Retry that reloads, and a spinner before the first answer', () => {
    const reload = vi.fn();
    const { unmount } = show({ list: state({ error: 'boom', reload }) });
    expect(screen.getByTestId('error-state').textContent).toContain('Could not list things');
    fireEvent.click(screen.getByTestId('retry'));
    expect(reload).toHaveBeenCalledTimes(1);
    unmount();
    show({ list: state({}) });
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.queryByTestId('error-state')).toBeNull();
  });

  it('selects through the list', () => {
    const onSelect = vi.fn();
    show({ onSelect, selected: 'beta' });
    expect(screen.getByTestId('thing-beta').getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByTestId('thing-gamma'));
    expect(onSelect).toHaveBeenCalledWith('gamma');
  });
});

describe('matchesQuery', () => {
  it('matches everything on an empty search and skips missing fields', () => {
    expect(matchesQuery('', [])).toBe(true);
    expect(matchesQuery('x', [null, undefined, 'aXb'])).toBe(true);
    expect(matchesQuery('x', [null, 'abc'])).toBe(false);
  });
});

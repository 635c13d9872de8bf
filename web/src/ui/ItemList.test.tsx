import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { ItemList } from './ItemList';
import { SearchBox } from './SearchBox';

function Harness() {
  const [sel, setSel] = useState<string | null>(null);
  return <ItemList label="Things" selected={sel} onSelect={setSel} items={['a', 'b', 'c'].map((k) => ({ key: k, testId: `it-${k}`, content: k }))} />;
}

function WithSearch() {
  return (
    <aside className="side-list">
      <SearchBox value="" onChange={() => undefined} placeholder="Search" label="Search things" testId="search" />
      <Harness />
    </aside>
  );
}

describe('ItemList', () => {
  it('is one tab stop; arrow keys, Home and End move the selection', () => {
    render(<Harness />);
    const opts = screen.getAllByRole('option');
    expect(opts.map((o) => o.tabIndex)).toEqual([0, -1, -1]);
    fireEvent.click(screen.getByTestId('it-a'));
    fireEvent.keyDown(screen.getByTestId('it-a'), { key: 'ArrowDown' });
    expect(screen.getByTestId('it-b').getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(screen.getByTestId('it-b'));
    fireEvent.keyDown(screen.getByTestId('it-b'), { key: 'End' });
    expect(screen.getByTestId('it-c').getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(screen.getByTestId('it-c'), { key: 'Home' });
    expect(screen.getByTestId('it-a').getAttribute('aria-selected')).toBe('true');
    expect(screen.getAllByRole('option').map((o) => o.tabIndex)).toEqual([0, -1, -1]);
  });

  it('↓ from the search box moves into the results, selecting the first; Enter opens the first', () => {
    const { unmount } = render(<WithSearch />);
    fireEvent.keyDown(screen.getByTestId('search'), { key: 'ArrowDown' });
    expect(screen.getByTestId('it-a').getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(screen.getByTestId('it-a'));
    unmount();
    render(<WithSearch />);
    fireEvent.keyDown(screen.getByTestId('search'), { key: 'Enter' });
    expect(screen.getByTestId('it-a').getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(screen.getByTestId('it-a'));
  });
});

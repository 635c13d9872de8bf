// The servers list follows `removed` events (a server deleted or renamed on this page or
// another): the row goes, a view fetched before the removal is not shown when it comes, and
// the name is remembered as removed until it is configured again. `added` and `updated` (from
// another page, an import or `mcplab servers` in a terminal) fetch the server's view.
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { ServerView } from '../api/types.gen';
import { fakeApiEachTest, ok } from '../test/fakeApi';
import { renderWithQuery } from '../test/queryHarness';
import { SERVERS_KEY, startServersStore, useServers, wasRemoved } from './store';

const view = (name: string) => ({ config: { name, type: 'stdio', command: 'x' }, status: { state: 'connected' }, info: null, stderr: [] }) as unknown as ServerView;

function Rows() {
  const { list } = useServers();
  return (
    <ul>
      {(list ?? []).map((v) => (
        <li key={v.config.name} data-testid="row" data-command={(v.config as { command?: string }).command}>
          {v.config.name}
        </li>
      ))}
    </ul>
  );
}

const api = fakeApiEachTest();
const rows = () => screen.queryAllByTestId('row').map((el) => el.textContent);

describe('servers store', () => {
  it('drops a removed server (a view fetched before its removal stays out) and fetches an added or updated one', async () => {
    api.on('GET', '/api/servers', ok([view('a'), view('b')]));
    api.on('GET', '/api/servers/late', ok(view('late')));
    api.on('GET', '/api/servers/next', ok(view('next')));
    const { emit } = renderWithQuery(<Rows />, (qc) => {
      qc.setQueryData(SERVERS_KEY, [view('a'), view('b')]);
      startServersStore(qc);
    });
    await waitFor(() => expect(rows()).toEqual(['a', 'b']));
    emit({ type: 'removed', server: 'b' });
    await waitFor(() => expect(rows()).toEqual(['a']));
    expect(wasRemoved('b')).toBe(true);

    // `late` connects (its view is asked for) and is removed before the view comes.
    emit({ type: 'status', server: 'late', status: { state: 'connected' } });
    emit({ type: 'removed', server: 'late' });
    // `next`, asked for after it, shows: `late`'s answer came before and was not taken.
    emit({ type: 'status', server: 'next', status: { state: 'connected' } });
    await waitFor(() => expect(rows()).toEqual(['a', 'next']));
    expect(api.count('GET', '/api/servers/late')).toBe(1);

    // Added again under the removed name: listed, no longer "removed".
    api.on('GET', '/api/servers/b', ok(view('b')));
    emit({ type: 'status', server: 'b', status: { state: 'connected' } });
    await waitFor(() => expect(rows()).toEqual(['a', 'next', 'b']));
    expect(wasRemoved('b')).toBe(false);

    // Added elsewhere (an import, `mcplab servers add`) without connecting, so no status
    // event follows: listed all the same; changed elsewhere: its new config shows.
    api.on('GET', '/api/servers/cli', ok(view('cli')));
    emit({ type: 'added', server: 'cli' });
    await waitFor(() => expect(rows()).toEqual(['a', 'next', 'b', 'cli']));
    const changed = { ...view('a'), config: { name: 'a', type: 'stdio', command: 'changed' } } as unknown as ServerView;
    api.on('GET', '/api/servers/a', ok(changed));
    emit({ type: 'updated', server: 'a' });
    await waitFor(() => expect(screen.getAllByTestId('row')[0].dataset.command).toBe('changed'));
    expect(rows()).toEqual(['a', 'next', 'b', 'cli']);
  });
});

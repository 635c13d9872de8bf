// The servers list follows `removed` events (a server deleted or renamed on this page or
// another): the row goes, a view fetched before the removal is not shown when it comes, and
// the name is remembered as removed until it is configured again. `added` and `updated` (from
// another page, an import or `mcplab servers` in a terminal) fetch the server's view.
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { ServerView } from '../api/types.gen';
import { fakeApiEachTest, ok } from '../test/fakeApi';
import { renderWithQuery } from '../test/queryHarness';
import { ServerRows, rowNames, serverView } from '../test/serverRows';
import { SERVERS_KEY, startServersStore, wasRemoved } from './store';

const api = fakeApiEachTest();

describe('servers store', () => {
  it('drops a removed server (a view fetched before its removal stays out) and fetches an added or updated one', async () => {
    api.on('GET', '/api/servers', ok([serverView('a'), serverView('b')]));
    api.on('GET', '/api/servers/late', ok(serverView('late')));
    api.on('GET', '/api/servers/next', ok(serverView('next')));
    const { emit } = renderWithQuery(<ServerRows />, (qc) => {
      qc.setQueryData(SERVERS_KEY, [serverView('a'), serverView('b')]);
      startServersStore(qc);
    });
    await waitFor(() => expect(rowNames()).toEqual(['a', 'b']));
    emit({ type: 'removed', server: 'b' });
    await waitFor(() => expect(rowNames()).toEqual(['a']));
    expect(wasRemoved('b')).toBe(true);

    // `late` connects (its view is asked for) and is removed before the view comes.
    emit({ type: 'status', server: 'late', status: { state: 'connected' } });
    emit({ type: 'removed', server: 'late' });
    // `next`, asked for after it, shows: `late`'s answer came before and was not taken.
    emit({ type: 'status', server: 'next', status: { state: 'connected' } });
    await waitFor(() => expect(rowNames()).toEqual(['a', 'next']));
    expect(api.count('GET', '/api/servers/late')).toBe(1);

    // Added again under the removed name: listed, no longer "removed".
    api.on('GET', '/api/servers/b', ok(serverView('b')));
    emit({ type: 'status', server: 'b', status: { state: 'connected' } });
    await waitFor(() => expect(rowNames()).toEqual(['a', 'next', 'b']));
    expect(wasRemoved('b')).toBe(false);

    // Added elsewhere (an import, `mcplab servers add`) without connecting, so no status
    // event follows: listed all the same; changed elsewhere: its new config shows.
    api.on('GET', '/api/servers/cli', ok(serverView('cli')));
    emit({ type: 'added', server: 'cli' });
    await waitFor(() => expect(rowNames()).toEqual(['a', 'next', 'b', 'cli']));
    const changed = { ...serverView('a'), config: { name: 'a', type: 'stdio', command: 'changed' } } as unknown as ServerView;
    api.on('GET', '/api/servers/a', ok(changed));
    emit({ type: 'updated', server: 'a' });
    await waitFor(() => expect(screen.getAllByTestId('row')[0].dataset.command).toBe('changed'));
    expect(rowNames()).toEqual(['a', 'next', 'b', 'cli']);
  });
});

// The servers' order: a `reordered` event (a drag in another tab, `mcplab servers move`) puts
// the list in order, a saved order shows at once and is put back, with the reason, when the
// server refuses it; servers added elsewhere are listed in the order they were added; the drag's arithmetic (where a dragged row lands, moving a name). (Its own
// file: the servers store subscribes to the event stream once per module.)
import { describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { fail, fakeApiEachTest, ok } from '../test/fakeApi';
import { renderWithQuery } from '../test/queryHarness';
import { ServerRows, rowNames, serverView } from '../test/serverRows';
import { SERVERS_KEY, saveServerOrder, startServersStore } from './store';
import { landing, moveTo } from './useRowDrag';

const api = fakeApiEachTest();

describe('servers order', () => {
  it('follows a `reordered` event, shows a saved order at once, puts the old one back when it is refused, and lists added servers in the order they were added', async () => {
    const three = [serverView('a'), serverView('b'), serverView('c')];
    api.on('GET', '/api/servers', ok(three));
    const { emit } = renderWithQuery(<ServerRows />, (qc) => {
      qc.setQueryData(SERVERS_KEY, three);
      startServersStore(qc);
    });
    await waitFor(() => expect(rowNames()).toEqual(['a', 'b', 'c']));
    emit({ type: 'reordered', servers: ['c', 'a', 'b'] });
    await waitFor(() => expect(rowNames()).toEqual(['c', 'a', 'b']));

    api.on('PUT', '/api/server-order', ok());
    await saveServerOrder(['b', 'c', 'a']);
    await waitFor(() => expect(rowNames()).toEqual(['b', 'c', 'a']));
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({ names: ['b', 'c', 'a'] });

    // Refused (a server added in another tab meanwhile): the order before comes back, the
    // reason is thrown, and the list is fetched again.
    api.on('PUT', '/api/server-order', fail(409, 'the new order does not match the configured servers (missing: d)'));
    api.on('GET', '/api/servers', ok([serverView('b'), serverView('c'), serverView('a'), serverView('d')]));
    await expect(saveServerOrder(['a', 'b', 'c'])).rejects.toThrow(/missing: d/);
    await waitFor(() => expect(rowNames()).toEqual(['b', 'c', 'a', 'd']));

    // Added elsewhere, x then y (so last in that order): listed so whichever view comes first.
    // (In this test: the store listens to the event stream of the first one rendered.)
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    api.on('GET', '/api/servers/x', { ...ok(serverView('x')), after: held });
    api.on('GET', '/api/servers/y', ok(serverView('y')));
    emit({ type: 'added', server: 'x' });
    emit({ type: 'added', server: 'y' });
    await waitFor(() => expect(rowNames()).toEqual(['b', 'c', 'a', 'd', 'y']));
    release();
    await waitFor(() => expect(rowNames()).toEqual(['b', 'c', 'a', 'd', 'x', 'y']));
  });

  it('moves a name to a place, and lands a dragged row below the middles above it', () => {
    expect(moveTo(['a', 'b', 'c'], 'c', 0)).toEqual(['c', 'a', 'b']);
    expect(moveTo(['a', 'b', 'c'], 'a', 2)).toEqual(['b', 'c', 'a']);
    expect(moveTo(['a', 'b', 'c'], 'a', 9)).toEqual(['b', 'c', 'a']);
    expect(landing([10, 50, 90], 5)).toBe(0);
    expect(landing([10, 50, 90], 60)).toBe(2);
    expect(landing([10, 50, 90], 200)).toBe(3);
  });
});

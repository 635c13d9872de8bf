// The traffic store's first load takes the server names from the list the boot already fetched
// (the servers store's cache) instead of asking for the list again; a reload without a cached
// list (resync, import) asks for it.
import { describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import type { ServerView } from '../api/types.gen';
import { createQueryClient } from '../api/queries';
import { fakeApiEachTest, ok } from '../test/fakeApi';
import { SERVERS_KEY, startServersStore } from '../servers/store';
import { loadAllTraffic, startTrafficStore } from './store';

const view = (name: string) => ({ config: { name, type: 'stdio', command: 'x' }, status: { state: 'connected' }, info: null, stderr: [] }) as unknown as ServerView;
const api = fakeApiEachTest();

describe('traffic store', () => {
  it('loads the frames of the servers the boot listed without asking for the list again', async () => {
    api.on('GET', '/api/servers', ok([view('a'), view('b'), view('c')]));
    api.on('GET', '/api/taps', ok([]));
    for (const n of ['a', 'b', 'c']) api.on('GET', `/api/servers/${n}/traffic`, ok({ frames: [], dropped: 0 }));
    const qc = createQueryClient();
    qc.setQueryData(SERVERS_KEY, [view('a'), view('b')]);
    startServersStore(qc);
    startTrafficStore();
    await waitFor(() => expect(api.count('GET', '/api/servers/b/traffic')).toBe(1));
    expect(api.count('GET', '/api/servers/a/traffic')).toBe(1);
    expect(api.count('GET', '/api/servers')).toBe(0);

    // Asked for without names (a resync, an import): the list is fetched.
    await loadAllTraffic();
    expect(api.count('GET', '/api/servers')).toBe(1);
    expect(api.count('GET', '/api/servers/c/traffic')).toBe(1);
  });
});

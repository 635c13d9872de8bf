// useChatSession against a real loopback server: the snapshot, then the session's stream from
// the snapshot's `lastEventId`; a `resync` reloads the snapshot and follows the new stream from
// its position, keeping every turn; a stream that merely drops resumes with Last-Event-ID
// without reloading anything. A retry the server refuses leaves the failed turn where it was.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createQueryClient } from '../api/queries';
import type { SessionView, StoredTurn } from '../api/types.gen';
import { startSseServer, type OpenStream, type SseServer } from '../test/sseServer';
import { useChatSession } from './useChatSession';

let srv: SseServer;
const realFetch = globalThis.fetch;

beforeEach(async () => {
  srv = await startSseServer();
  // The client fetches same-origin paths; send them to the loopback server.
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => realFetch(new URL(String(input), srv.base), init));
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await srv.close();
});

const turn = (turnId: string, user: string): StoredTurn => ({ turnId, user, events: [] });
const view = (turns: StoredTurn[], lastEventId: number) =>
  ({ summary: { id: 's1', title: 'a chat', createdMs: 1, updatedMs: 1 }, turns, runningTurn: null, liveTurn: null, lastEventId }) as unknown as SessionView;
const json = (v: unknown) => ({ status: 200, body: JSON.stringify(v) });

function mount() {
  const qc = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>;
  return renderHook(() => useChatSession('s1'), { wrapper });
}

const WAIT = { timeout: 8000, interval: 20 };

describe('useChatSession', () => {
  it('reloads on resync and follows the new stream from its position, losing no turn', async () => {
    let first: OpenStream | undefined;
    srv.answer(json(view([turn('t1', 'first')], 3)));
    srv.answer((s) => {
      first = s;
      s.send(JSON.stringify({ kind: 'userMessage', turnId: 't2', text: 'second' }), 4);
    });
    const { result, unmount } = mount();
    await vi.waitFor(() => expect(result.current.turns.map((t) => t.user)).toEqual(['first', 'second']), WAIT);

    // The server lost our place: it says resync, and the snapshot now has a turn we never saw.
    srv.answer(json(view([turn('t1', 'first'), turn('t2', 'second'), turn('t3', 'third')], 9)));
    srv.answer(() => undefined);
    first?.send('{"kind":"resync"}', 5);
    await vi.waitFor(() => expect(result.current.turns.map((t) => t.user)).toEqual(['first', 'second', 'third']), WAIT);
    await srv.request(3);
    expect(srv.requests.map((r) => r.path)).toEqual(['/api/sessions/s1', '/api/sessions/s1/events?lastEventId=3', '/api/sessions/s1', '/api/sessions/s1/events?lastEventId=9']);
    unmount();
  });

  it('resumes a dropped stream with Last-Event-ID and does not reload the snapshot', async () => {
    srv.answer(json(view([turn('t1', 'first')], 3)));
    srv.answer((s) => {
      s.send(JSON.stringify({ kind: 'userMessage', turnId: 't2', text: 'second' }), 4);
      s.end();
    });
    srv.answer((s) => s.send(JSON.stringify({ kind: 'userMessage', turnId: 't3', text: 'third' }), 5));
    const { result, unmount } = mount();
    await vi.waitFor(() => expect(result.current.turns.map((t) => t.user)).toEqual(['first', 'second', 'third']), WAIT);
    expect(srv.requests.map((r) => [r.path, r.lastEventId])).toEqual([
      ['/api/sessions/s1', undefined],
      ['/api/sessions/s1/events?lastEventId=3', undefined],
      ['/api/sessions/s1/events?lastEventId=3', '4'],
    ]);
    expect(result.current.stream).toBe('open');
    unmount();
  });

  it('puts a refused retry back: the failed turn stays in its place, whole, with the reason', { timeout: 15000 }, async () => {
    const usage = { inputTokens: 1, outputTokens: 0, reasoningTokens: 0 };
    const failed: StoredTurn = {
      turnId: 't1',
      user: 'first',
      events: [
        { type: 'textDelta', turnId: 't1', text: 'partial answer' },
        { type: 'turnFailed', turnId: 't1', kind: 'network', message: 'the endpoint went away', usage },
      ],
    } as unknown as StoredTurn;
    const later: StoredTurn = { turnId: 't2', user: 'second', events: [{ type: 'turnFinished', turnId: 't2', reason: 'completed', usage }] } as unknown as StoredTurn;
    srv.answer(json(view([failed, later], 3)));
    srv.answer(() => undefined);
    const { result, unmount } = mount();
    await vi.waitFor(() => expect(result.current.turns.map((t) => t.user)).toEqual(['first', 'second']), WAIT);
    // The stream's request must have taken its answer before the retry's is queued, or under load
    // the retry's POST could arrive first and get the open stream (answers go out in order).
    expect((await srv.request(1)).path).toBe('/api/sessions/s1/events?lastEventId=3');
    const before = result.current.turns[0];
    srv.answer({ status: 409, type: 'application/json', body: JSON.stringify({ code: 'conflict', message: "turn t1 is not the session's last turn; only the last turn can be retried" }) });
    await act(() => result.current.send('first', 't1'));
    expect(result.current.turns.map((t) => [t.turnId, t.status])).toEqual([
      ['t1', 'failed'],
      ['t2', 'finished'],
    ]);
    expect(result.current.turns[0]).toBe(before);
    expect(result.current.actionError).toBe("turn t1 is not the session's last turn; only the last turn can be retried");
    unmount();
  });
});

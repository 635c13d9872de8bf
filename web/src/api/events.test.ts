// The event-stream client against a real loopback SSE server (real fetch, real SSE bytes):
// reconnecting after the stream ends or fails, resuming with `Last-Event-ID` so the server can
// replay, asking for a resync only when there is no position to resume from, the backoff, and
// the session streams' `resync` event.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventStream, openSessionStream, openStream, retryDelay, type StreamState } from './events';
import { startSseServer, type SseServer } from '../test/sseServer';

let srv: SseServer;
let closeClient: () => void = () => undefined;

beforeEach(async () => {
  srv = await startSseServer();
});
afterEach(async () => {
  closeClient();
  await srv.close();
});

function client(path: string) {
  const seen = { data: [] as string[], resyncs: 0, states: [] as StreamState[] };
  closeClient = openStream(srv.base + path, {
    onData: (d) => seen.data.push(d),
    onResync: () => seen.resyncs++,
    onState: (s) => seen.states.push(s),
  });
  return seen;
}

const WAIT = { timeout: 8000, interval: 20 };

describe('openStream', () => {
  it('backs off 1 s, 2 s, 4 s … up to 10 s', () => {
    expect([1, 2, 3, 4, 5, 6, 20].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 10000, 10000, 10000]);
  });

  it('after the stream ends, reconnects with Last-Event-ID so the server replays: no resync, nothing lost', async () => {
    srv.answer((s) => {
      s.send('"a"', 1);
      s.send('"b"', 2);
      s.end();
    });
    srv.answer((s) => s.send('"c"', 3));
    const seen = client('/api/events');
    await vi.waitFor(() => expect(seen.data).toEqual(['"a"', '"b"', '"c"']), WAIT);
    expect(srv.requests[0].lastEventId).toBeUndefined();
    expect(srv.requests[1].lastEventId).toBe('2');
    expect(seen.resyncs).toBe(0);
    expect(seen.states).toEqual(['open', 'reconnecting', 'open']);
  });

  it('asks for a resync when a stream it read without any event id has to be reopened', async () => {
    srv.answer((s) => {
      s.send('"x"');
      s.end();
    });
    srv.answer(() => undefined);
    const seen = client('/api/events');
    await vi.waitFor(() => expect(seen.resyncs).toBe(1), WAIT);
    expect(srv.requests[1].lastEventId).toBeUndefined();
  });

  it('a stream opened at a position (`?lastEventId=`) resumes from it without a resync', async () => {
    srv.answer((s) => s.end());
    srv.answer(() => undefined);
    const seen = client('/api/sessions/s1/events?lastEventId=7');
    await vi.waitFor(() => expect(seen.states.filter((s) => s === 'open')).toHaveLength(2), WAIT);
    expect(srv.requests[1].path).toBe('/api/sessions/s1/events?lastEventId=7');
    expect(seen.resyncs).toBe(0);
  });

  it('says unauthorized on 401 and reconnecting on other failures, and keeps retrying until a stream opens', async () => {
    srv.answer({ status: 401, body: '{"error":{"code":"unauthorized","message":"no"}}' });
    srv.answer({ status: 503 });
    srv.answer((s) => s.send('"ok"', 1));
    const seen = client('/api/events');
    await vi.waitFor(() => expect(seen.data).toEqual(['"ok"']), { ...WAIT, timeout: 10000 });
    expect(seen.states).toEqual(['unauthorized', 'reconnecting', 'open']);
    // Nothing was read before the failures, so the open after them is the first: no resync.
    expect(seen.resyncs).toBe(0);
  }, 15000);
});

describe('EventStream held at boot', () => {
  it('keeps what arrives before the stores listen and hands it over in order on release', async () => {
    const statusEvent = (server: string) => JSON.stringify({ kind: 'server', event: { type: 'stderr', server, line: server } });
    let stream: { send(data: string, id?: number): void } | null = null;
    srv.answer((s) => {
      stream = s;
      s.send(statusEvent('a'), 1);
      s.send(JSON.stringify({ kind: 'resync' }), 2);
      s.send(statusEvent('b'), 3);
    });
    const es = new EventStream(srv.base + '/api/events');
    closeClient = () => es.stop();
    es.startHeld();
    await vi.waitFor(() => expect(es.pending()).toBe(3), WAIT);
    const seen: string[] = [];
    es.onServerEvent((e) => seen.push('server' in e ? e.server : e.type));
    es.onResync(() => seen.push('resync'));
    expect(seen).toEqual([]);
    es.release();
    expect(seen).toEqual(['a', 'resync', 'b']);
    expect(es.pending()).toBe(0);
    stream!.send(statusEvent('c'), 4);
    await vi.waitFor(() => expect(seen).toEqual(['a', 'resync', 'b', 'c']), WAIT);
  });
});

describe('openSessionStream', () => {
  it('hands events over parsed, skips malformed data and turns `resync` into onResync', async () => {
    const event = { kind: 'userMessage', turnId: 't1', text: 'hi' };
    srv.answer((s) => {
      s.send(JSON.stringify(event), 1);
      s.send('not json', 2);
      s.send('{"kind":"resync"}', 3);
    });
    const events: unknown[] = [];
    let resyncs = 0;
    closeClient = openSessionStream(`${srv.base}/api/sessions/s1/events?lastEventId=0`, { onEvent: (e) => events.push(e), onResync: () => resyncs++ });
    await vi.waitFor(() => expect(resyncs).toBe(1), WAIT);
    expect(events).toEqual([event]);
  });
});

// The one event-stream client. mcplab's streams are SSE that need the tab's bearer, which
// EventSource cannot send, so `openStream` reads them with fetch and eventsource-parser: it
// keeps the last event id and reconnects after a backoff with `Last-Event-ID`, so the server
// replays what was missed or says `resync`; a stream reopened with no position at all is a
// resync too. Every stream goes through it: the host stream on `/api/events` shared by every
// feature (`events`), and a chat session's or an OAuth debugger run's (`openSessionStream`).
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { createParser } from 'eventsource-parser';
import type { HostEvent, ServerEvent, SessionEvent, TrafficFrame } from './types.gen';
import { authHeaders } from './auth';

export type StreamState = 'connecting' | 'open' | 'reconnecting' | 'unauthorized';

type Listener<T> = (value: T) => void;

interface StreamHandlers {
  /** The data of each event. */
  onData: (data: string) => void;
  /** The stream was reopened where no replay can fill the gap: reload state. */
  onResync: () => void;
  onState: (s: StreamState) => void;
}

/** Backoff after the n-th failure in a row: 1 s, 2 s, 4 s … at most 10 s. */
export function retryDelay(failures: number): number {
  return Math.min(10_000, 500 * 2 ** Math.min(failures, 5));
}

/**
 * Reads the SSE stream at `path` with the tab's bearer until closed, reconnecting with
 * `Last-Event-ID` after a backoff whenever it ends or fails (a 401 says `unauthorized`).
 * A `lastEventId` query in `path` is the starting position. Returns the closer.
 */
export function openStream(path: string, h: StreamHandlers): () => void {
  const positioned = /[?&]lastEventId=/.test(path);
  let closed = false;
  let lastId: string | null = null;
  let failures = 0;
  let opened = false;
  let controller: AbortController | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const retry = (state: StreamState) => {
    if (closed) return;
    failures++;
    h.onState(state);
    timer = setTimeout(() => void connect(), retryDelay(failures));
  };

  const connect = async () => {
    if (closed) return;
    controller = new AbortController();
    const headers: Record<string, string> = { Accept: 'text/event-stream', ...authHeaders() };
    if (lastId !== null) headers['Last-Event-ID'] = lastId;
    let res: Response;
    try {
      res = await fetch(path, { headers, signal: controller.signal, cache: 'no-store' });
    } catch {
      return retry('reconnecting');
    }
    if (res.status === 401) return retry('unauthorized');
    if (!res.ok || !res.body) return retry('reconnecting');
    const resumable = lastId !== null || positioned;
    if (opened && !resumable) h.onResync();
    opened = true;
    failures = 0;
    h.onState('open');
    const parser = createParser({
      onEvent: (ev) => {
        if (ev.id !== undefined) lastId = ev.id;
        if (ev.data) h.onData(ev.data);
      },
    });
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } catch {
      /* the connection broke (or we closed it) */
    }
    retry('reconnecting');
  };

  void connect();
  return () => {
    closed = true;
    clearTimeout(timer);
    controller?.abort();
  };
}

/** Events a held stream keeps for its listeners; past this it keeps none and says `resync`. */
const HOLD_LIMIT = 10_000;

export class EventStream {
  private close: (() => void) | null = null;
  // While held (opened at boot, before the stores listen): what arrived, in order.
  private held: (() => void)[] | null = null;
  private state: StreamState = 'connecting';
  private stateListeners = new Set<() => void>();
  private serverListeners = new Set<Listener<ServerEvent>>();
  private trafficListeners = new Set<Listener<TrafficFrame>>();
  private resyncListeners = new Set<() => void>();

  constructor(private readonly path = '/api/events') {}

  start(): void {
    if (this.close) return;
    this.close = openStream(this.path, {
      onData: (data) => this.later(() => this.dispatch(data)),
      onResync: () => this.later(() => this.emitResync()),
      onState: (s) => this.setState(s),
    });
  }

  stop(): void {
    this.close?.();
    this.close = null;
  }

  /** Opens the stream at once but keeps its events until `release` (the boot opens it beside
   * the first requests; the stores subscribe once the prefs are in). */
  startHeld(): void {
    if (this.close) return;
    this.held = [];
    this.start();
  }

  /** Hands what arrived while held to the listeners, in order; from now on events go straight
   * to them. Past `HOLD_LIMIT` events nothing was kept: the listeners get a `resync`. */
  release(): void {
    const held = this.held;
    this.held = null;
    if (!held) return;
    if (held.length > HOLD_LIMIT) this.emitResync();
    else held.forEach((f) => f());
  }

  /** How many events wait for `release`. */
  pending(): number {
    return this.held?.length ?? 0;
  }

  private later(f: () => void): void {
    if (!this.held) return f();
    if (this.held.length <= HOLD_LIMIT) this.held.push(f);
  }

  private dispatch(data: string): void {
    let ev: HostEvent;
    try {
      ev = JSON.parse(data) as HostEvent;
    } catch {
      return;
    }
    if (ev.kind === 'server') this.serverListeners.forEach((l) => l(ev.event));
    else if (ev.kind === 'traffic') this.trafficListeners.forEach((l) => l(ev.frame));
    else if (ev.kind === 'resync') this.emitResync();
  }

  private emitResync(): void {
    this.resyncListeners.forEach((l) => l());
  }

  private setState(s: StreamState): void {
    if (this.state === s) return;
    this.state = s;
    this.stateListeners.forEach((l) => l());
  }

  getState = (): StreamState => this.state;
  subscribeState = (l: () => void) => {
    this.stateListeners.add(l);
    return () => this.stateListeners.delete(l);
  };
  onServerEvent(l: Listener<ServerEvent>): () => void {
    this.serverListeners.add(l);
    return () => this.serverListeners.delete(l);
  }
  onTraffic(l: Listener<TrafficFrame>): () => void {
    this.trafficListeners.add(l);
    return () => this.trafficListeners.delete(l);
  }
  onResync(l: () => void): () => void {
    this.resyncListeners.add(l);
    return () => this.resyncListeners.delete(l);
  }
}

export const events = new EventStream();

export function useStreamState(): StreamState {
  return useSyncExternalStore(events.subscribeState, events.getState);
}

/** Calls `handler` for every server event while the component is mounted. */
export function useServerEvents(handler: (e: ServerEvent) => void): void {
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => events.onServerEvent((e) => ref.current(e)), []);
}


export interface SessionStreamHandlers<E = SessionEvent> {
  onEvent: (e: E) => void;
  /** The server said `resync`, or the stream had to be reopened with no position. */
  onResync: () => void;
  onState?: (s: StreamState) => void;
}

/**
 * Opens a numbered SSE stream of its own: a chat session's (`GET /api/sessions/{id}/events`)
 * or an OAuth debugger run's (`GET /api/oauth/debug/{id}/events`, with `E` =
 * `OAuthDebugEvent`). Both carry `{kind: …}` JSON with `resync` meaning "reload". Returns the
 * closer.
 */
export function openSessionStream<E extends { kind: string } = SessionEvent>(path: string, h: SessionStreamHandlers<E>): () => void {
  return openStream(path, {
    onData: (data) => {
      let ev: E;
      try {
        ev = JSON.parse(data) as E;
      } catch {
        return;
      }
      if (ev.kind === 'resync') h.onResync();
      else h.onEvent(ev);
    },
    onResync: h.onResync,
    onState: (s) => h.onState?.(s),
  });
}

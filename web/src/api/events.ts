// The one event-stream client: a single EventSource on `/api/events` shared by every feature.
// EventSource reconnects by itself and sends `Last-Event-ID`, so the server replays what was
// missed; when it cannot (`resync`) or when the stream had to be reopened from scratch, every
// subscriber of `onResync` reloads its state from the API. A chat session and an OAuth debugger
// run each have a stream of their own (`openSessionStream`) with the same rules.
import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { HostEvent, ServerEvent, SessionEvent, TrafficFrame } from './types.gen';
import { ApiFailure, api } from './client';

export type StreamState = 'connecting' | 'open' | 'reconnecting' | 'unauthorized';

type Listener<T> = (value: T) => void;

class EventStream {
  private source: EventSource | null = null;
  private state: StreamState = 'connecting';
  private stateListeners = new Set<() => void>();
  private serverListeners = new Set<Listener<ServerEvent>>();
  private trafficListeners = new Set<Listener<TrafficFrame>>();
  private resyncListeners = new Set<() => void>();
  private retryTimer: number | undefined;
  private retries = 0;
  private opened = false;

  start(): void {
    if (this.source || typeof EventSource === 'undefined') return;
    const es = new EventSource('/api/events', { withCredentials: true });
    this.source = es;
    es.onopen = () => {
      const reopened = this.opened && this.retries > 0;
      this.opened = true;
      this.retries = 0;
      this.setState('open');
      if (reopened) this.emitResync();
    };
    es.onmessage = (msg) => this.dispatch(msg.data);
    es.onerror = () => {
      if (es.readyState === EventSource.CLOSED) {
        // The browser gave up (e.g. a 401 or a non-SSE reply): find out why, then reopen.
        this.source = null;
        es.close();
        this.retries++;
        api.human().then(
          () => this.scheduleRetry(),
          (e) => {
            if (e instanceof ApiFailure && e.unauthorized) this.setState('unauthorized');
            this.scheduleRetry();
          },
        );
      } else {
        this.setState('reconnecting');
      }
    };
  }

  private scheduleRetry(): void {
    if (this.state !== 'unauthorized') this.setState('reconnecting');
    window.clearTimeout(this.retryTimer);
    const delay = Math.min(10_000, 500 * 2 ** Math.min(this.retries, 5));
    this.retryTimer = window.setTimeout(() => this.start(), delay);
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

/** Calls `handler` after a resync (state must be reloaded). */
export function useResync(handler: () => void): void {
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => events.onResync(() => ref.current()), []);
}

export interface SessionStreamHandlers<E = SessionEvent> {
  onEvent: (e: E) => void;
  /** The server said `resync`, or the stream had to be reopened without `Last-Event-ID`. */
  onResync: () => void;
  onState?: (s: StreamState) => void;
}

/**
 * Opens a numbered SSE stream of its own: a chat session's (`GET /api/sessions/{id}/events`)
 * or an OAuth debugger run's (`GET /api/oauth/debug/{id}/events`, with `E` =
 * `OAuthDebugEvent`). Both carry `{kind: …}` JSON with `resync` meaning "reload". EventSource
 * resumes by itself with `Last-Event-ID`; when the browser gives up (closed), the stream is
 * reopened after a backoff and the caller is told to reload. Returns the closer.
 */
export function openSessionStream<E extends { kind: string } = SessionEvent>(path: string, h: SessionStreamHandlers<E>): () => void {
  let es: EventSource | null = null;
  let closed = false;
  let retries = 0;
  let timer: number | undefined;
  const open = () => {
    if (closed || typeof EventSource === 'undefined') return;
    const source = new EventSource(path, { withCredentials: true });
    es = source;
    source.onopen = () => {
      if (retries > 0) h.onResync();
      retries = 0;
      h.onState?.('open');
    };
    source.onmessage = (msg) => {
      let ev: E;
      try {
        ev = JSON.parse(msg.data) as E;
      } catch {
        return;
      }
      if (ev.kind === 'resync') h.onResync();
      else h.onEvent(ev);
    };
    source.onerror = () => {
      h.onState?.('reconnecting');
      if (source.readyState !== EventSource.CLOSED) return;
      source.close();
      es = null;
      retries++;
      timer = window.setTimeout(open, Math.min(10_000, 500 * 2 ** Math.min(retries, 5)));
    };
  };
  open();
  return () => {
    closed = true;
    window.clearTimeout(timer);
    es?.close();
  };
}

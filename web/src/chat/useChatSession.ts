// One open chat session: its history from GET /api/sessions/{id}, kept current by the
// session's SSE stream. The stream opens at once and its events are held while the history
// loads, then folded on top (the fold ignores what it has already seen), so nothing that
// happens during the load is lost. A `resync` or a reopened stream reloads the history.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiFailure, api, errorMessage } from '../api/client';
import { openSessionStream, type StreamState } from '../api/events';
import type { SessionEvent, SessionSummary } from '../api/types.gen';
import { reloadSessions, upsertSession } from './store';
import { applySessionEvent, fromView, runningTurn, type ChatTurn } from './turns';

export interface ChatSessionState {
  summary: SessionSummary | null;
  turns: ChatTurn[];
  loading: boolean;
  error: string | null;
  notFound: boolean;
  stream: StreamState;
  /** A send or cancel that the API refused (409 while a turn runs…). */
  actionError: string | null;
}

const INITIAL: ChatSessionState = { summary: null, turns: [], loading: true, error: null, notFound: false, stream: 'connecting', actionError: null };

export function useChatSession(id: string) {
  const [state, setState] = useState<ChatSessionState>(INITIAL);
  const held = useRef<SessionEvent[] | null>(null);
  const loadSeq = useRef(0);
  const latest = useRef(state);
  useEffect(() => {
    latest.current = state;
  });

  const reload = useCallback(() => {
    const mine = ++loadSeq.current;
    held.current = held.current ?? [];
    setState((s) => ({ ...s, loading: s.summary === null, error: null }));
    api.session(id).then(
      (view) => {
        if (mine !== loadSeq.current) return;
        const late = held.current ?? [];
        held.current = null;
        setState((s) => ({
          ...s,
          summary: view.summary,
          turns: late.reduce(applySessionEvent, fromView(view, s.turns)),
          loading: false,
          error: null,
          notFound: false,
        }));
        upsertSession(view.summary);
      },
      (e) => {
        if (mine !== loadSeq.current) return;
        held.current = null;
        const notFound = e instanceof ApiFailure && e.status === 404;
        setState((s) => ({ ...s, loading: false, error: errorMessage(e), notFound }));
      },
    );
  }, [id]);

  useEffect(() => {
    const seq = loadSeq;
    setState(INITIAL);
    held.current = [];
    reload();
    const close = openSessionStream(api.sessionEventsPath(id), {
      onEvent: (ev) => {
        if (held.current) {
          held.current.push(ev);
          return;
        }
        setState((s) => ({ ...s, turns: applySessionEvent(s.turns, ev) }));
        if (ev.kind === 'turn' && (ev.event.type === 'turnFinished' || ev.event.type === 'turnFailed' || ev.event.type === 'turnCancelled')) {
          // The session may have been renamed or moved up the list.
          void reloadSessions();
          // A turn that was running when the page loaded is complete only in the store.
          const id = ev.event.turnId;
          if (latest.current.turns.some((t) => t.turnId === id && t.partial)) window.setTimeout(reload, 400);
        }
      },
      onResync: reload,
      onState: (stream) => setState((s) => (s.stream === stream ? s : { ...s, stream })),
    });
    return () => {
      seq.current++; // a load still in flight belongs to the old id
      close();
    };
  }, [id, reload]);

  const send = useCallback(
    async (text: string) => {
      const turnId = crypto.randomUUID();
      // Shown at once; the stream's userMessage for the same id is then a no-op.
      setState((s) => ({ ...s, actionError: null, turns: applySessionEvent(s.turns, { kind: 'userMessage', turnId, text }) }));
      try {
        await api.startTurn(id, turnId, text);
      } catch (e) {
        const msg = errorMessage(e);
        setState((s) => ({
          ...s,
          actionError: e instanceof ApiFailure && e.status === 409 ? `Another turn is still running. ${msg}` : msg,
          turns: s.turns.map((t) =>
            t.turnId === turnId && t.status === 'running' ? { ...t, status: 'failed', failure: { kind: e instanceof ApiFailure ? e.code : 'http', message: msg } } : t,
          ),
        }));
      }
    },
    [id],
  );

  const cancel = useCallback(async () => {
    const running = runningTurn(latest.current.turns);
    if (!running) return;
    try {
      await api.cancelTurn(id, running.turnId);
    } catch (e) {
      setState((s) => ({ ...s, actionError: errorMessage(e) }));
    }
  }, [id]);

  const setSummary = useCallback((summary: SessionSummary) => setState((s) => ({ ...s, summary })), []);

  return { ...state, running: runningTurn(state.turns), reload, send, cancel, setSummary };
}

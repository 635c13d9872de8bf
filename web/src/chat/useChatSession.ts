// One open chat session: its history from GET /api/sessions/{id} (stored turns plus the
// running turn so far), kept current by the session's SSE stream opened right after the
// snapshot's `lastEventId`. A `resync` or a reopened stream reloads both.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiFailure, api, errorMessage } from '../api/client';
import { createAppMessageChannel } from '../apps/appMessages';
import { openSessionStream, type StreamState } from '../api/events';
import type { AppContextEntry, SessionSummary } from '../api/types.gen';
import { chatApi } from './api';
import { useChatCache } from './store';
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
  /** What apps gave the model for its next turn (model context, widget state). */
  appContext: AppContextEntry[];
  /** Follow-up messages from apps, sent when the running turn ends. */
  queued: string[];
}

/** App messages that may wait for a running turn; more are refused. */
const MAX_QUEUED = 5;

const INITIAL: ChatSessionState = {
  summary: null,
  turns: [],
  loading: true,
  error: null,
  notFound: false,
  stream: 'connecting',
  actionError: null,
  appContext: [],
  queued: [],
};

export function useChatSession(id: string) {
  const [state, setState] = useState<ChatSessionState>(INITIAL);
  const loadSeq = useRef(0);
  const closeStream = useRef<() => void>(() => {});
  const latest = useRef(state);
  const cache = useChatCache();
  useEffect(() => {
    latest.current = state;
  });

  // Loads the session, then follows its stream from exactly where the snapshot ends
  // (`lastEventId`), so nothing is missed and nothing is applied twice. A resync (or a
  // stream that had to be reopened) starts over.
  const reload = useCallback(() => {
    const mine = ++loadSeq.current;
    closeStream.current();
    closeStream.current = () => {};
    setState((s) => ({ ...s, loading: s.summary === null, error: null }));
    api.session(id).then(
      (view) => {
        if (mine !== loadSeq.current) return;
        setState((s) => ({
          ...s,
          summary: view.summary,
          turns: fromView(view, s.turns),
          appContext: view.appContext ?? [],
          loading: false,
          error: null,
          notFound: false,
        }));
        cache.upsertSession(view.summary);
        closeStream.current = openSessionStream(`${api.sessionEventsPath(id)}?lastEventId=${view.lastEventId}`, {
          onEvent: (ev) => {
            if (mine !== loadSeq.current) return;
            if (ev.kind === 'appContext') {
              setState((s) => ({ ...s, appContext: ev.entries }));
              return;
            }
            setState((s) => ({ ...s, turns: applySessionEvent(s.turns, ev) }));
            if (ev.kind === 'turn' && (ev.event.type === 'turnFinished' || ev.event.type === 'turnFailed' || ev.event.type === 'turnCancelled')) {
              // The session may have been renamed or moved up the list.
              void cache.reloadSessions();
            }
          },
          onResync: () => window.setTimeout(reload, 0),
          onState: (stream) => setState((s) => (s.stream === stream ? s : { ...s, stream })),
        });
      },
      (e) => {
        if (mine !== loadSeq.current) return;
        const notFound = e instanceof ApiFailure && e.status === 404;
        setState((s) => ({ ...s, loading: false, error: errorMessage(e), notFound }));
      },
    );
  }, [id, cache]);

  useEffect(() => {
    const seq = loadSeq;
    const stream = closeStream;
    setState(INITIAL);
    reload();
    return () => {
      seq.current++; // a load still in flight belongs to the old id
      stream.current();
      stream.current = () => {};
    };
  }, [id, reload]);

  /** Sends `text` as a new turn; a retry names the (failed) turn it replaces, which leaves the
   * conversation so the model sees the message once. A refused retry puts the failed turn back
   * where it was, whole; a refused new turn shows as failed. */
  const send = useCallback(
    async (text: string, replaces?: string) => {
      const turnId = crypto.randomUUID();
      const at = replaces ? latest.current.turns.findIndex((t) => t.turnId === replaces) : -1;
      const replaced = at >= 0 ? { turn: latest.current.turns[at], at } : null;
      // Shown at once; the stream's userMessage for the same id is then a no-op.
      setState((s) => ({ ...s, actionError: null, turns: applySessionEvent(s.turns, { kind: 'userMessage', turnId, text, replaces }) }));
      try {
        await chatApi.startTurn(id, { turnId, message: text, replaces });
      } catch (e) {
        const msg = errorMessage(e);
        setState((s) => ({
          ...s,
          actionError: msg,
          turns: replaced
            ? restoreTurn(s.turns, turnId, replaced)
            : s.turns.map((t) => (t.turnId === turnId && t.status === 'running' ? { ...t, status: 'failed', failure: { kind: e instanceof ApiFailure ? e.code : 'http', message: msg } } : t)),
        }));
      }
    },
    [id],
  );

  /** An app's follow-up message (approved, labelled): sent now, or queued until the running
   * turn ends; refused when MAX_QUEUED already wait. */
  const deliver = useCallback(
    async (text: string) => {
      if (!runningTurn(latest.current.turns)) return send(text);
      if (latest.current.queued.length >= MAX_QUEUED) {
        throw new Error(`${MAX_QUEUED} app messages already wait for the running turn; this one was not sent.`);
      }
      latest.current = { ...latest.current, queued: [...latest.current.queued, text] };
      setState((s) => ({ ...s, queued: [...s.queued, text] }));
    },
    [send],
  );
  // One channel per session: "allow this app" and the rate limits end with the session.
  const followUp = useMemo(() => createAppMessageChannel(deliver), [deliver]);

  const running = runningTurn(state.turns);
  useEffect(() => {
    if (running || state.queued.length === 0 || state.loading) return;
    const [next, ...rest] = state.queued;
    setState((s) => ({ ...s, queued: rest }));
    void send(next);
  }, [running, state.queued, state.loading, send]);

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

  return { ...state, running, reload, send, followUp, cancel, setSummary };
}

/** `turns` without the refused retry `turnId`, and with the turn it was to replace back at its place. */
function restoreTurn(turns: ChatTurn[], turnId: string, back: { turn: ChatTurn; at: number }): ChatTurn[] {
  const rest = turns.filter((t) => t.turnId !== turnId && t.turnId !== back.turn.turnId);
  return [...rest.slice(0, back.at), back.turn, ...rest.slice(back.at)];
}

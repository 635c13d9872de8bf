// One debugger run: its snapshot from GET /api/oauth/debug/{id}, then (while it runs) its SSE
// stream from the first event: every `step`, then one `finished` with the whole run. Steps are
// merged by `seq`, so the replayed ones change nothing; `resync` reloads the snapshot.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiFailure, errorMessage } from '../api/client';
import { openSessionStream, type StreamState } from '../api/events';
import type { OAuthDebugEvent, OAuthDebugRun } from '../api/types.gen';
import { oauthApi } from './api';
import { updateRecentRun } from './recent';
import { awaitingBrowser, mergeStep } from './steps';

export interface DebugRunState {
  run: OAuthDebugRun | null;
  loading: boolean;
  error: string | null;
  notFound: boolean;
  stream: StreamState;
}

const INITIAL: DebugRunState = { run: null, loading: true, error: null, notFound: false, stream: 'connecting' };

function apply(run: OAuthDebugRun | null, ev: OAuthDebugEvent): OAuthDebugRun | null {
  if (ev.kind === 'finished') return ev.run;
  if (ev.kind !== 'step' || !run || run.state !== 'running') return run;
  return { ...run, steps: mergeStep(run.steps, ev.step) };
}

export function useDebugRun(id: string | null) {
  const [state, setState] = useState<DebugRunState>(INITIAL);
  const seq = useRef(0);
  const close = useRef<() => void>(() => {});

  const load = useCallback(() => {
    if (!id) return;
    const mine = ++seq.current;
    close.current();
    close.current = () => {};
    oauthApi.debugRun(id).then(
      (run) => {
        if (mine !== seq.current) return;
        setState((s) => ({ ...s, run, loading: false, error: null, notFound: false }));
        if (run.state !== 'running') return;
        const stop = openSessionStream<OAuthDebugEvent>(oauthApi.debugEventsPath(id), {
          onEvent: (ev) => {
            if (mine !== seq.current) return;
            setState((s) => ({ ...s, run: apply(s.run, ev) }));
            if (ev.kind === 'finished') {
              stop();
              setState((s) => ({ ...s, stream: 'open' }));
            }
          },
          onResync: () => window.setTimeout(load, 0),
          onState: (stream) => setState((s) => (s.stream === stream ? s : { ...s, stream })),
        });
        close.current = stop;
      },
      (e) => {
        if (mine !== seq.current) return;
        const notFound = e instanceof ApiFailure && e.status === 404;
        if (notFound) updateRecentRun(id, 'gone');
        setState((s) => ({ ...s, loading: false, error: errorMessage(e), notFound }));
      },
    );
  }, [id]);

  useEffect(() => {
    const s = seq;
    const c = close;
    setState(INITIAL);
    load();
    return () => {
      s.current++;
      c.current();
      c.current = () => {};
    };
  }, [load]);

  const run = state.run;
  const waitingUrl = run ? awaitingBrowser(run) : null;
  useEffect(() => {
    if (run && run.state !== 'running') updateRecentRun(run.id, run.state);
  }, [run]);

  return { ...state, reload: load, waitingUrl };
}

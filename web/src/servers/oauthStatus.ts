// A remote server's sign-in status (`GET /api/servers/{name}/oauth`) as the `['oauthStatus',
// name]` query, and its two writes, sign in and sign out, as one mutation that refetches the
// status when it settles. The event stream refetches it too (`useQueryInvalidation`): every
// `status` and `authorizationRequired` event of the server, and a resync; so does an edit of
// the server (`useServerForm`). Fetched again whenever a panel showing it mounts: `mcplab
// oauth login|logout` changes it without an event. Must not draw anything (`ServerOAuth.tsx`).
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import type { OAuthStatusView, ServerView } from '../api/types.gen';
import { oauthApi } from '../oauth/api';
import { authorize, holdSignInTab } from './signIn';
import { setPendingSignIn, usePendingSignIn } from './store';

export const oauthStatusKey = (server: string) => ['oauthStatus', server] as const;

/** Marks a server's sign-in status stale (every server's without a name); shown ones refetch. */
export function invalidateOAuthStatus(qc: QueryClient, server?: string): Promise<void> {
  return qc.invalidateQueries({ queryKey: server === undefined ? ['oauthStatus'] : oauthStatusKey(server) });
}

type Action = { kind: 'signin'; force: boolean } | { kind: 'signout' };

async function run(name: string, a: Action): Promise<void> {
  if (a.kind === 'signout') {
    await oauthApi.signOut(name);
    setPendingSignIn(name, null);
    return;
  }
  const r = await authorize(name, a.force);
  if (r.outcome === 'failed') throw new Error(r.message);
}

/** What the sign-in panel shows. */
export type OAuthPanelState = 'loading' | 'off' | 'required' | 'waiting' | 'signedIn' | 'signedOut';

export interface ServerOAuthModel {
  name: string;
  st: OAuthStatusView | null;
  state: OAuthPanelState;
  applicable: boolean;
  /** The authorization page a connection waits on, and whether a tab was opened for it. */
  waitingUrl: string | null;
  opened: boolean;
  busy: Action['kind'] | null;
  /** The last action's failure, else the status's. */
  error: string | null;
  /** Call from the click handler: the sign-in tab is opened during the click. */
  signIn: (force: boolean) => void;
  signOut: () => void;
}

function panelState(st: OAuthStatusView | null, waitingUrl: string | null, opened: boolean): OAuthPanelState {
  if (!st) return 'loading';
  if (!st.applicable) return 'off';
  if (waitingUrl) return opened ? 'waiting' : 'required';
  return st.signedIn ? 'signedIn' : 'signedOut';
}

/** The sign-in panel's status, its state and its actions. */
export function useServerOAuth(view: ServerView): ServerOAuthModel {
  const name = view.config.name;
  const qc = useQueryClient();
  const pending = usePendingSignIn(name);
  const status = useQuery({
    queryKey: oauthStatusKey(name),
    queryFn: () => oauthApi.status(name),
    enabled: view.config.type !== 'stdio',
    refetchOnMount: 'always',
  });
  const action = useMutation({ mutationFn: (a: Action) => run(name, a), onSettled: () => invalidateOAuthStatus(qc, name) });
  const st = status.data ?? null;
  const waitingUrl = pending?.url ?? st?.pendingAuthorizationUrl ?? null;
  const opened = !!pending?.opened;
  return {
    name,
    st,
    state: panelState(st, waitingUrl, opened),
    applicable: st?.applicable ?? true,
    waitingUrl,
    opened,
    busy: action.isPending ? action.variables.kind : null,
    error: action.error ? errorMessage(action.error) : status.error ? errorMessage(status.error) : null,
    signIn: (force) => {
      holdSignInTab(name);
      action.mutate({ kind: 'signin', force });
    },
    signOut: () => action.mutate({ kind: 'signout' }),
  };
}

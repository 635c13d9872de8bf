// The OAuth part of the API: a server's sign-in status, sign-in and sign-out, and the OAuth
// debugger's runs (start, snapshot, live steps, cancel). Everything secret comes back masked.
import { request } from '../api/client';
import type {
  OAuthAuthorizeResult,
  OAuthDebugRequest,
  OAuthDebugRun,
  OAuthDebugStarted,
  OAuthStatusView,
} from '../api/types.gen';

const seg = encodeURIComponent;
const srv = (name: string) => `/api/servers/${seg(name)}/oauth`;
const run = (id: string) => `/api/oauth/debug/${seg(id)}`;

export const oauthApi = {
  status: (server: string) => request<OAuthStatusView>('GET', srv(server)),
  /** Connects, signing in on the way: the URL to open, or the connection's outcome. */
  authorize: (server: string, force = false) =>
    request<OAuthAuthorizeResult>('POST', `${srv(server)}/authorize`, force ? { force: true } : {}),
  /** Forgets tokens and registration, disconnects. */
  signOut: (server: string) => request<void>('DELETE', srv(server)),

  startDebug: (body: OAuthDebugRequest) => request<OAuthDebugStarted>('POST', '/api/oauth/debug', body),
  debugRun: (id: string) => request<OAuthDebugRun>('GET', run(id)),
  cancelDebug: (id: string) => request<void>('POST', `${run(id)}/cancel`),
  /** The run's SSE stream from its first event (steps are merged by `seq`, so replays are harmless). */
  debugEventsPath: (id: string) => `${run(id)}/events?lastEventId=0`,
};

// The apps part of the API: the sandbox origin, a UI resource prepared for the sandbox, tool
// calls made by an app (refused by the server unless the tool is the app's to call), and
// the model context apps contribute to a chat session.
import { request } from '../api/client';
import type { AppContextInput, AppResourceView, AppToolCallRequest, CallOutcome, HostInfo } from '../api/types.gen';

const seg = encodeURIComponent;
const srv = (name: string) => `/api/servers/${seg(name)}`;

let hostInfo: Promise<HostInfo> | null = null;

export const appsApi = {
  /** Cached: the sandbox origin does not change while mcplab runs. */
  host: (): Promise<HostInfo> => {
    if (!hostInfo) {
      hostInfo = request<HostInfo>('GET', '/api/host');
      hostInfo.catch(() => (hostInfo = null));
    }
    return hostInfo;
  },
  resource: (server: string, uri: string) => request<AppResourceView>('POST', `${srv(server)}/apps/resource`, { uri }),
  callTool: (server: string, body: AppToolCallRequest) => request<CallOutcome>('POST', `${srv(server)}/apps/tools/call`, body),
  putContext: (session: string, key: string, body: AppContextInput) =>
    request<void>('PUT', `/api/sessions/${seg(session)}/app-context/${seg(key)}`, body),
  deleteContext: (session: string, key: string) => request<void>('DELETE', `/api/sessions/${seg(session)}/app-context/${seg(key)}`),
};

/** The proxy page URL for a resource: its declared CSP goes along, rebuilt by the sandbox. */
export function proxyUrl(origin: string, declaredCsp: unknown, permissive: boolean): string {
  const u = new URL('/mcp-app-proxy.html', origin);
  if (permissive) u.searchParams.set('mode', 'permissive');
  else if (declaredCsp !== null && declaredCsp !== undefined) u.searchParams.set('csp', JSON.stringify(declaredCsp));
  return u.toString();
}

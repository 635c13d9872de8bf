// The apps part of the API: the sandbox origin, a UI resource prepared for the sandbox, tool
// calls made by an app (refused by the server unless the tool is the app's to call), and
// the model context apps contribute to a chat session.
import { request } from '../api/client';
import type { AppContextInput, AppResourceView, AppToolCallRequest, CallOutcome, HostInfo } from '../api/types.gen';

const seg = encodeURIComponent;
const srv = (name: string) => `/api/servers/${seg(name)}`;

/** `/api/host` through the query cache: the sandbox origin does not change while mcplab runs,
 * so it is read once (a failure is not kept: the next reader asks again). */
export const hostQuery = {
  queryKey: ['host'] as const,
  queryFn: () => request<HostInfo>('GET', '/api/host'),
  staleTime: Infinity,
  gcTime: Infinity,
};

export const appsApi = {
  resource: (server: string, uri: string) => request<AppResourceView>('POST', `${srv(server)}/apps/resource`, { uri }),
  callTool: (server: string, body: AppToolCallRequest) => request<CallOutcome>('POST', `${srv(server)}/apps/tools/call`, body),
  putContext: (session: string, key: string, body: AppContextInput) =>
    request<void>('PUT', `/api/sessions/${seg(session)}/app-context/${seg(key)}`, body),
  deleteContext: (session: string, key: string) => request<void>('DELETE', `/api/sessions/${seg(session)}/app-context/${seg(key)}`),
};

const LABEL_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A fresh random app label: 20 of `[a-z0-9]` (the sandbox accepts 16–32). */
export function appLabel(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(20)), (b) => LABEL_CHARS[b % LABEL_CHARS.length]).join('');
}

/** An origin of its own for one rendered app, from `/api/host`'s template (shared when the
 * template has no `{label}`). */
export function appOrigin(template: string, label = appLabel()): string {
  return template.replace('{label}', label);
}

/** Why apps cannot be shown on this page, or null: the UI must not be on the apps' site
 * (`localhost`), or an app would be same-site with the UI. */
export function uiSiteProblem(perApp: boolean, here: Location = window.location): string | null {
  const h = here.hostname;
  if (!perApp || (h !== 'localhost' && !h.endsWith('.localhost'))) return null;
  return `Apps run on *.localhost origins, so mcplab must be opened as http://127.0.0.1:${here.port}/ (not ${here.host}) to keep them on another site than the UI.`;
}

/** The proxy page URL for a resource: its declared CSP goes along, rebuilt by the sandbox. */
export function proxyUrl(origin: string, declaredCsp: unknown, permissive: boolean): string {
  const u = new URL('/mcp-app-proxy.html', origin);
  if (permissive) u.searchParams.set('mode', 'permissive');
  else if (declaredCsp !== null && declaredCsp !== undefined) u.searchParams.set('csp', JSON.stringify(declaredCsp));
  return u.toString();
}

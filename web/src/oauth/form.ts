// The debugger's form: its fields, the request they make, and the form built back from a run's
// request or from a configured server. The last form used is kept in prefs (without the
// client secret); a server's "open in the OAuth debugger" hands its settings over here.
import { useSyncExternalStore } from 'react';
import type { OAuthDebugRequest, OAuthRevision, RegistrationMethod, ServerConfig } from '../api/types.gen';
import { getPref, setPref } from '../settings/prefs';

export const REVISIONS: OAuthRevision[] = ['2025-03-26', '2025-06-18', '2025-11-25'];
export const REGISTRATIONS: { value: RegistrationMethod; label: string }[] = [
  { value: 'auto', label: 'auto (pre-registered → CIMD → DCR)' },
  { value: 'cimd', label: 'Client ID Metadata Document' },
  { value: 'dcr', label: 'Dynamic client registration' },
  { value: 'pre', label: 'Pre-registered client' },
];

/** The OAuth settings both the debugger's and a server's form edit (`OAuthFields.tsx`). */
export interface OAuthValues {
  /** '' = the latest revision with the older ones' fallbacks. */
  revision: '' | OAuthRevision;
  /** '' = the default, offered only with `registrationDefault`. */
  registration: '' | RegistrationMethod;
  clientId: string;
  clientSecret: string;
  clientMetadataUrl: string;
  scope: string;
}

export interface DebugForm {
  url: string;
  transport: 'http' | 'sse';
  /** '' = the latest revision with the older ones' fallbacks. */
  revision: '' | OAuthRevision;
  registration: RegistrationMethod;
  clientId: string;
  clientSecret: string;
  clientMetadataUrl: string;
  scope: string;
  interactive: boolean;
}

export const defaultForm: DebugForm = {
  url: '',
  transport: 'http',
  revision: '',
  registration: 'auto',
  clientId: '',
  clientSecret: '',
  clientMetadataUrl: '',
  scope: '',
  interactive: true,
};

const PREF = 'oauthDebugForm';

/**
 * The form being edited: at first the last one used (from prefs), then what was typed. Kept
 * at module level on purpose: it is client state, not server state (so not a query), and it
 * must outlive the page — a server's "Open in the OAuth debugger" fills it before the page
 * mounts, a run's "Edit & run again" refills it, and what was typed (client secret included,
 * which is never written to prefs) survives switching pages (ui review #2).
 */
let current: DebugForm | null = null;
const listeners = new Set<() => void>();

export function getDebugForm(): DebugForm {
  if (!current) current = { ...defaultForm, ...getPref<Partial<DebugForm>>(PREF, {}), clientSecret: '' };
  return current;
}

export function setDebugForm(f: DebugForm): void {
  current = f;
  listeners.forEach((l) => l());
}

export function useDebugForm(): DebugForm {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    getDebugForm,
  );
}

/** Remembers the form (no secret) for the next visit. */
export function rememberForm(f: DebugForm): void {
  setPref(PREF, { ...f, clientSecret: '' });
}

const opt = (s: string) => (s.trim() ? s.trim() : undefined);

/** The request, or why it cannot be sent. Other mistakes are the debugger's to explain. */
export function formToRequest(f: DebugForm): { request: OAuthDebugRequest } | { error: string } {
  const url = f.url.trim();
  if (!url) return { error: 'Give the MCP server URL, e.g. https://example.com/mcp' };
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return { error: 'Use an http:// or https:// URL' };
  } catch {
    return { error: 'Not a valid URL' };
  }
  const request: OAuthDebugRequest = { url, transport: f.transport, registration: f.registration, interactive: f.interactive };
  if (f.revision) request.revision = f.revision;
  const extra = { clientId: opt(f.clientId), clientSecret: opt(f.clientSecret), clientMetadataUrl: opt(f.clientMetadataUrl), scope: opt(f.scope) };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) (request as Record<string, unknown>)[k] = v;
  return { request };
}

/** A run's settings back in the form (its client secret is masked, so it is left empty). */
export function requestToForm(r: OAuthDebugRequest): DebugForm {
  return {
    url: r.url,
    transport: r.transport ?? 'http',
    revision: r.revision ?? '',
    registration: r.registration ?? 'auto',
    clientId: r.clientId ?? '',
    clientSecret: '',
    clientMetadataUrl: r.clientMetadataUrl ?? '',
    scope: r.scope ?? '',
    interactive: r.interactive,
  };
}

/** A configured http/sse server's URL and OAuth settings as a debugger form. */
export function serverToForm(c: ServerConfig): DebugForm {
  if (c.type === 'stdio') return { ...defaultForm };
  const o = c.oauth ?? {};
  return {
    ...defaultForm,
    url: c.url,
    transport: c.type,
    revision: o.revision ?? '',
    registration: o.registration ?? 'auto',
    clientId: o.clientId ?? '',
    clientSecret: o.clientSecret ?? '',
    clientMetadataUrl: o.clientMetadataUrl ?? '',
    scope: o.scope ?? '',
  };
}

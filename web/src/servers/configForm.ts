// Converts between a ServerConfig and the add/edit form's fields. The bearer token is a
// form convenience: it is stored as an `Authorization: Bearer …` header. OAuth settings of
// http/sse servers map to `oauth` (omitted when nothing is set); settings the form does not
// show (grant, private key, enterprise IdP) are kept as they were.
import type { OAuthConfig, OAuthRevision, ProtocolChoice, RegistrationMethod, ServerConfig } from '../api/types.gen';
import type { OAuthValues } from '../oauth/form';

export type Pair = { key: string; value: string };

export interface ConfigForm {
  name: string;
  type: 'stdio' | 'http' | 'sse';
  command: string;
  /** One argument per line (so arguments may contain spaces). */
  args: string;
  env: Pair[];
  cwd: string;
  url: string;
  headers: Pair[];
  bearer: string;
  timeoutMs: string;
  /** The protocol revision (`auto`: server/discover, else initialize). */
  protocol: ProtocolChoice;
  oauthClientId: string;
  oauthClientSecret: string;
  oauthMetadataUrl: string;
  oauthScope: string;
  /** '' = not set (auto). */
  oauthRegistration: '' | RegistrationMethod;
  /** '' = not set (the latest revision with fallbacks). */
  oauthRevision: '' | OAuthRevision;
  oauthDisabled: boolean;
  /** OAuth settings the form has no fields for, kept on save. */
  oauthRest: OAuthConfig;
}

export const emptyForm: ConfigForm = {
  name: '',
  type: 'stdio',
  command: '',
  args: '',
  env: [],
  cwd: '',
  url: '',
  headers: [],
  bearer: '',
  timeoutMs: '',
  protocol: 'auto',
  oauthClientId: '',
  oauthClientSecret: '',
  oauthMetadataUrl: '',
  oauthScope: '',
  oauthRegistration: '',
  oauthRevision: '',
  oauthDisabled: false,
  oauthRest: {},
};

/** The form's OAuth fields as the shared `OAuthFields` edit them. */
export function oauthValues(f: ConfigForm): OAuthValues {
  return { revision: f.oauthRevision, registration: f.oauthRegistration, clientId: f.oauthClientId, clientSecret: f.oauthClientSecret, clientMetadataUrl: f.oauthMetadataUrl, scope: f.oauthScope };
}

/** An edit of the shared `OAuthFields` as a change of this form. */
export function oauthPatch(p: Partial<OAuthValues>): Partial<ConfigForm> {
  const out: Partial<ConfigForm> = {};
  if (p.revision !== undefined) out.oauthRevision = p.revision;
  if (p.registration !== undefined) out.oauthRegistration = p.registration;
  if (p.clientId !== undefined) out.oauthClientId = p.clientId;
  if (p.clientSecret !== undefined) out.oauthClientSecret = p.clientSecret;
  if (p.clientMetadataUrl !== undefined) out.oauthMetadataUrl = p.clientMetadataUrl;
  if (p.scope !== undefined) out.oauthScope = p.scope;
  return out;
}

/** True when the form sets any OAuth field (the OAuth section then starts open). */
export function hasOAuthSettings(f: ConfigForm): boolean {
  return !!(f.oauthClientId || f.oauthClientSecret || f.oauthMetadataUrl || f.oauthScope || f.oauthRegistration || f.oauthRevision || f.oauthDisabled || Object.keys(f.oauthRest).length);
}

const toPairs = (m?: Record<string, string>): Pair[] => Object.entries(m ?? {}).map(([key, value]) => ({ key, value }));

function fromPairs(p: Pair[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { key, value } of p) if (key.trim()) out[key.trim()] = value;
  return out;
}

export function configToForm(c: ServerConfig): ConfigForm {
  const f: ConfigForm = { ...emptyForm, name: c.name, type: c.type, timeoutMs: c.timeoutMs ? String(c.timeoutMs) : '', protocol: c.protocol ?? 'auto' };
  if (c.type === 'stdio') {
    f.command = c.command;
    f.args = (c.args ?? []).join('\n');
    f.env = toPairs(c.env);
    f.cwd = c.cwd ?? '';
  } else {
    f.url = c.url;
    const headers = toPairs(c.headers);
    const auth = headers.find((h) => h.key.toLowerCase() === 'authorization' && /^Bearer\s+/i.test(h.value));
    if (auth) f.bearer = auth.value.replace(/^Bearer\s+/i, '');
    f.headers = headers.filter((h) => h !== auth);
    const { clientId, clientSecret, clientMetadataUrl, scope, registration, revision, disabled, ...rest } = c.oauth ?? {};
    f.oauthClientId = clientId ?? '';
    f.oauthClientSecret = clientSecret ?? '';
    f.oauthMetadataUrl = clientMetadataUrl ?? '';
    f.oauthScope = scope ?? '';
    f.oauthRegistration = registration ?? '';
    f.oauthRevision = revision ?? '';
    f.oauthDisabled = !!disabled;
    f.oauthRest = rest;
  }
  return f;
}

/** Builds the config, or returns the problems to show beside the fields. */
export function formToConfig(f: ConfigForm): { config: ServerConfig } | { errors: Partial<Record<keyof ConfigForm, string>> } {
  const errors: Partial<Record<keyof ConfigForm, string>> = {};
  const name = f.name.trim();
  if (!name) errors.name = 'A name is required';
  let timeoutMs: number | undefined;
  if (f.timeoutMs.trim()) {
    const n = Number(f.timeoutMs);
    if (!Number.isInteger(n) || n <= 0) errors.timeoutMs = 'A positive whole number of milliseconds';
    else timeoutMs = n;
  }
  let config: ServerConfig;
  if (f.type === 'stdio') {
    if (!f.command.trim()) errors.command = 'A command is required';
    const args = f.args.split('\n').map((a) => a.replace(/\r$/, '')).filter((a) => a !== '');
    const env = fromPairs(f.env);
    config = { name, type: 'stdio', command: f.command.trim(), args, env, ...(f.cwd.trim() ? { cwd: f.cwd.trim() } : {}) };
  } else {
    const url = f.url.trim();
    try {
      const u = new URL(url);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') errors.url = 'Use an http:// or https:// URL';
    } catch {
      errors.url = url ? 'Not a valid URL' : 'A URL is required';
    }
    const headers = fromPairs(f.headers.filter((h) => !(f.bearer.trim() && h.key.trim().toLowerCase() === 'authorization')));
    if (f.bearer.trim()) headers.Authorization = `Bearer ${f.bearer.trim()}`;
    const oauth = formToOAuth(f, errors);
    config = { name, type: f.type, url, headers, ...(oauth ? { oauth } : {}) };
  }
  if (Object.keys(errors).length) return { errors };
  if (timeoutMs !== undefined) config.timeoutMs = timeoutMs;
  if (f.protocol !== 'auto') config.protocol = f.protocol;
  return { config };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
}

/** The `oauth` object (undefined when nothing is set); problems go to `errors`. */
function formToOAuth(f: ConfigForm, errors: Partial<Record<keyof ConfigForm, string>>): OAuthConfig | undefined {
  const o: OAuthConfig = { ...f.oauthRest };
  const set = <K extends keyof OAuthConfig>(k: K, v: OAuthConfig[K] | undefined) => {
    if (v === undefined || v === '' || v === false) delete o[k];
    else o[k] = v;
  };
  set('clientId', f.oauthClientId.trim());
  set('clientSecret', f.oauthClientSecret.trim());
  set('clientMetadataUrl', f.oauthMetadataUrl.trim());
  set('scope', f.oauthScope.trim().split(/\s+/).filter(Boolean).join(' '));
  set('registration', f.oauthRegistration || undefined);
  set('revision', f.oauthRevision || undefined);
  set('disabled', f.oauthDisabled);
  const cimd = f.oauthMetadataUrl.trim();
  if (cimd) {
    try {
      const u = new URL(cimd);
      if ((u.protocol !== 'https:' && !(u.protocol === 'http:' && isLoopback(u.hostname))) || u.pathname === '/') {
        errors.oauthMetadataUrl = 'An https:// URL with a path, e.g. https://example.com/client.json';
      }
    } catch {
      errors.oauthMetadataUrl = 'Not a valid URL';
    }
  }
  if (f.oauthRegistration === 'pre' && !f.oauthClientId.trim()) errors.oauthClientId = 'Pre-registration needs the client id';
  if (f.oauthRegistration === 'cimd' && !cimd) errors.oauthMetadataUrl = 'Give the Client ID Metadata Document URL';
  if (f.oauthClientSecret.trim() && !f.oauthClientId.trim()) errors.oauthClientId = 'A client secret goes with a client id';
  return Object.keys(o).length ? o : undefined;
}

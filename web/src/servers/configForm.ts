// Converts between a ServerConfig and the add/edit form's fields. The bearer token is a
// form convenience: it is stored as an `Authorization: Bearer …` header.
import type { ServerConfig } from '../api/types.gen';

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
}

export const emptyForm: ConfigForm = { name: '', type: 'stdio', command: '', args: '', env: [], cwd: '', url: '', headers: [], bearer: '', timeoutMs: '' };

const toPairs = (m?: Record<string, string>): Pair[] => Object.entries(m ?? {}).map(([key, value]) => ({ key, value }));

function fromPairs(p: Pair[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { key, value } of p) if (key.trim()) out[key.trim()] = value;
  return out;
}

export function configToForm(c: ServerConfig): ConfigForm {
  const f: ConfigForm = { ...emptyForm, name: c.name, type: c.type, timeoutMs: c.timeoutMs ? String(c.timeoutMs) : '' };
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
    config = { name, type: f.type, url, headers };
  }
  if (Object.keys(errors).length) return { errors };
  if (timeoutMs !== undefined) config.timeoutMs = timeoutMs;
  return { config };
}

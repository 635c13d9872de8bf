// Pure helpers over the steps of an OAuth flow: merging live steps, the parties (lanes) of the
// sequence diagram, labels, where a run waits for the browser or failed, and readable bodies.
import type { OAuthDebugRun, OAuthHttpExchange, OAuthParty, OAuthPhase, OAuthStep, OAuthStepKind } from '../api/types.gen';

/** Lane order, left to right: mcplab beside the browser it drives, then who it talks to. */
export const PARTY_ORDER: OAuthParty[] = ['client', 'browser', 'mcpServer', 'authorizationServer', 'identityProvider'];

export const PARTY_LABEL: Record<OAuthParty, string> = {
  client: 'mcplab',
  browser: 'Browser',
  mcpServer: 'MCP server',
  authorizationServer: 'Authorization server',
  identityProvider: 'Identity provider',
};

export const PHASE_LABEL: Record<OAuthPhase, string> = {
  probe: 'Probe',
  resourceMetadata: 'Protected resource metadata',
  authServerMetadata: 'Authorization server metadata',
  registration: 'Client registration',
  authorization: 'Authorization',
  token: 'Token',
  refresh: 'Refresh',
  stepUp: 'Step-up',
  verify: 'Verify',
};

export const KIND_LABEL: Record<OAuthStepKind, string> = {
  http: 'HTTP',
  discovered: 'discovered',
  chose: 'chose',
  browser: 'browser',
  warning: 'warning',
  failed: 'failed',
  done: 'done',
};

/** Adds (or replaces) a step, keeping the list ordered by `seq` (replays are harmless). */
export function mergeStep(steps: OAuthStep[], step: OAuthStep): OAuthStep[] {
  const i = steps.findIndex((s) => s.seq === step.seq);
  if (i >= 0) {
    const next = [...steps];
    next[i] = step;
    return next;
  }
  if (steps.length === 0 || steps[steps.length - 1].seq < step.seq) return [...steps, step];
  return [...steps, step].sort((a, b) => a.seq - b.seq);
}

/** The parties that appear in the steps, in lane order; mcplab is always there. */
export function lanes(steps: OAuthStep[]): OAuthParty[] {
  const seen = new Set<OAuthParty>(['client']);
  for (const s of steps) {
    seen.add(s.from);
    seen.add(s.to);
  }
  return PARTY_ORDER.filter((p) => seen.has(p));
}

/** `host[:port]` each party was reached at (from the HTTP steps; the MCP server from `url`). */
export function partyHosts(steps: OAuthStep[], serverUrl?: string): Partial<Record<OAuthParty, string>> {
  const out: Partial<Record<OAuthParty, string>> = {};
  const host = (u: string) => {
    try {
      return new URL(u).host;
    } catch {
      return undefined;
    }
  };
  if (serverUrl) out.mcpServer = host(serverUrl);
  for (const s of steps) {
    if (!s.http || s.to === 'client' || s.to === 'browser' || out[s.to]) continue;
    out[s.to] = host(s.http.url);
  }
  return out;
}

/** `GET /.well-known/oauth-protected-resource/mcp` (query shortened to `?…`). */
export function httpLabel(http: OAuthHttpExchange): string {
  try {
    const u = new URL(http.url);
    return `${http.method} ${u.pathname}${u.search ? '?…' : ''}`;
  } catch {
    return `${http.method} ${http.url}`;
  }
}

export type Tone = 'ok' | 'info' | 'warn' | 'err' | 'muted';

/** Colour of an HTTP status: 2xx ok, 3xx info (redirects), 4xx warn (often expected, e.g. the probe's 401), 5xx/none err. */
export function statusTone(http: OAuthHttpExchange): Tone {
  const s = http.status;
  if (s === null) return 'err';
  if (s < 300) return 'ok';
  if (s < 400) return 'info';
  if (s < 500) return 'warn';
  return 'err';
}

export function kindTone(kind: OAuthStepKind): Tone {
  switch (kind) {
    case 'failed':
      return 'err';
    case 'warning':
      return 'warn';
    case 'done':
      return 'ok';
    case 'browser':
      return 'info';
    case 'discovered':
      return 'ok';
    default:
      return 'muted';
  }
}

/** The authorization URL an interactive run waits on: set while its browser step is the newest step. */
export function awaitingBrowser(run: OAuthDebugRun): string | null {
  if (run.state !== 'running' || !run.request.interactive) return null;
  const last = run.steps[run.steps.length - 1];
  return last ? authorizationUrlOf(last) : null;
}

export function authorizationUrlOf(step: OAuthStep): string | null {
  if (step.kind !== 'browser') return null;
  const url = (step.data as Record<string, unknown> | null)?.authorizationUrl;
  return typeof url === 'string' ? url : null;
}

/** The step where the flow stopped (the last `failed` step). */
export function failingStep(steps: OAuthStep[]): OAuthStep | undefined {
  for (let i = steps.length - 1; i >= 0; i--) if (steps[i].kind === 'failed') return steps[i];
  return undefined;
}

function header(headers: [string, string][], name: string): string | undefined {
  return headers.find(([k]) => k.toLowerCase() === name)?.[1];
}

/** A body for reading: JSON pretty-printed, form bodies one `key=value` per line, else as is. */
export function prettyBody(body: string, headers: [string, string][]): { text: string; kind: 'json' | 'form' | 'text' } {
  const type = header(headers, 'content-type')?.toLowerCase() ?? '';
  const trimmed = body.trim();
  if (type.includes('json') || trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return { text: JSON.stringify(JSON.parse(trimmed), null, 2), kind: 'json' };
    } catch {
      /* not JSON after all */
    }
  }
  if (type.includes('x-www-form-urlencoded') && trimmed.includes('=')) {
    const lines = trimmed.split('&').map((pair) => {
      const [k, ...v] = pair.split('=');
      const dec = (x: string) => {
        try {
          return decodeURIComponent(x.replace(/\+/g, ' '));
        } catch {
          return x;
        }
      };
      return `${dec(k)}=${dec(v.join('='))}`;
    });
    return { text: lines.join('\n'), kind: 'form' };
  }
  return { text: body, kind: 'text' };
}

/** "340 ms" / "1.2 s". */
export function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** "in 59 min" / "3 h ago", for token expiry. */
export function relativeTime(atMs: number, now = Date.now()): string {
  const d = atMs - now;
  const abs = Math.abs(d);
  const unit = abs < 60_000 ? `${Math.round(abs / 1000)} s` : abs < 3_600_000 ? `${Math.round(abs / 60_000)} min` : abs < 172_800_000 ? `${Math.round(abs / 3_600_000)} h` : `${Math.round(abs / 86_400_000)} days`;
  return d >= 0 ? `in ${unit}` : `${unit} ago`;
}

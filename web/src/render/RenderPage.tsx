// The headless render page (`#/render/<id>`), used by `mcplab apps render` and the
// playground's screenshot. The id names a spec the server registered for this render (single
// use): nothing in the URL says what to call, so a deep link someone else wrote calls nothing.
// It calls the spec's tool directly (no model; not at all when the spec says `withoutCall`:
// the app then gets its input only, as `mcplab check --host` renders it), shows only its app under the given host
// conditions, and publishes `window.__mcplabRenderReport`, a promise of what happened
// (initialized, errors, CSP violations, bridge messages, host context, the host capabilities
// sent, tool result) once the
// app has its result and has settled, or once it failed or timed out. It never rejects.
import { Component, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { api, errorMessage, type Tool } from '../api/client';
import { createQueryClient } from '../api/queries';
import type { AppRenderSpec, CallOutcome } from '../api/types.gen';
import { AppFrame } from '../apps/lazy';
import type { AppDiagnostics } from '../apps/AppFrame';
import { defaultConditions, type BridgeMessage, type HostConditions } from '../apps/host';
import { fetchServerTools, uiLink } from '../apps/linkage';

const SETTLE_MS = 600;
const THROW_GRACE_MS = 1500;
const DEFAULT_TIMEOUT_MS = 20_000;

export interface RenderReport {
  initialized: boolean;
  error: string | null;
  appErrors: AppDiagnostics['appErrors'];
  cspViolations: AppDiagnostics['violations'];
  /** `error`: the error message of an answer that refused or failed a request. */
  bridgeMessages: { n: number; atMs: number; dir: string; method?: string; id?: string | number; error?: string }[];
  hostContext: Record<string, unknown>;
  /** The `hostCapabilities` the host sent in its `ui/initialize` answer (null before it did). */
  hostCapabilities: Record<string, unknown> | null;
  /** The app's own log lines (`notifications/message`), the first 200. */
  appLogs: { level: string; logger: string; data: unknown }[];
  toolResult: unknown;
  toolError: string | null;
  durationMs: number;
}

declare global {
  interface Window {
    __mcplabRenderReport?: Promise<RenderReport>;
  }
}

/** The render id in `#/render/<id>`, or null. */
export function renderIdOf(hash: string): string | null {
  const id = hash.replace(/^#\/render\/?/, '');
  return /^[0-9a-f]{16,64}$/.test(id) ? id : null;
}

export function RenderPage() {
  const [spec, setSpec] = useState<AppRenderSpec | string | null>(null);
  useEffect(() => {
    const id = renderIdOf(window.location.hash);
    if (!id) {
      setSpec('this render page has no valid render id: renders are started by `mcplab apps render` or the playground’s screenshot, never by a link');
      return;
    }
    api.renderSpec(id).then(setSpec, (e) => setSpec(`the render was refused: ${errorMessage(e)}`));
  }, []);
  if (spec === null) return null;
  if (typeof spec === 'string') {
    window.__mcplabRenderReport ??= Promise.resolve(emptyReport(spec));
    return (
      <div className="inline-error" data-testid="render-error">
        {spec}
      </div>
    );
  }
  return <RenderWithCache spec={spec} />;
}

/** The render page has no shell: it brings its own query cache (the app host reads tools from it). */
function RenderWithCache({ spec }: { spec: AppRenderSpec }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <Render spec={spec} queryClient={queryClient} />
    </QueryClientProvider>
  );
}

function emptyReport(error: string): RenderReport {
  return { initialized: false, error, appErrors: [], cspViolations: [], bridgeMessages: [], hostContext: {}, hostCapabilities: null, appLogs: [], toolResult: null, toolError: null, durationMs: 0 };
}

function Render({ spec, queryClient }: { spec: AppRenderSpec; queryClient: QueryClient }) {
  const started = useRef(performance.now());
  const resolveRef = useRef<((r: RenderReport) => void) | null>(null);
  const report = useRef<RenderReport>(emptyReport(null as unknown as string));
  const [tool, setTool] = useState<Tool | null>(null);
  const [outcome, setOutcome] = useState<CallOutcome | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const callId = useMemo(() => `render-${Math.random().toString(36).slice(2)}`, []);
  const conditions = useMemo<HostConditions>(() => ({ ...defaultConditions(), ...spec.conditions }), [spec]);

  const finish = (error: string | null) => {
    const resolve = resolveRef.current;
    if (!resolve) return;
    resolveRef.current = null;
    report.current.error = error;
    report.current.durationMs = Math.round(performance.now() - started.current);
    resolve(report.current);
    document.body.dataset.renderDone = 'true';
  };

  // Publish the promise before anything can finish, with a deadline that does not depend on
  // this component staying mounted (a failed chunk load unmounts the tree).
  if (!window.__mcplabRenderReport) {
    report.current.error = null;
    window.__mcplabRenderReport = new Promise((resolve) => (resolveRef.current = resolve));
    const ms = spec.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    window.setTimeout(() => finish(`timed out after ${ms / 1000} s`), ms);
    window.addEventListener('error', (e) => {
      if (!report.current.initialized && /chunk|module|import/i.test(String(e.message))) finish(`the render page failed: ${e.message}`);
    });
  }

  useEffect(() => {
    document.documentElement.setAttribute('data-theme', conditions.theme);
    fetchServerTools(queryClient, spec.server)
      .then((tools) => {
        const t = tools.find((x) => x.name === spec.tool);
        if (!t) throw new Error(`server \`${spec.server}\` has no tool \`${spec.tool}\``);
        if (!uiLink(t)) throw new Error(`tool \`${spec.tool}\` has no UI (no _meta.ui.resourceUri or openai/outputTemplate)`);
        setTool(t);
        // Without a call the app gets its input and no result; the render ends once it is ready.
        if (spec.withoutCall) return null;
        return api.callTool(spec.server, { name: spec.tool, arguments: (spec.arguments ?? {}) as Record<string, unknown>, callId });
      })
      .then((out) => {
        if (!out) return;
        setOutcome(out);
        report.current.toolResult = out.result ?? null;
        report.current.toolError = out.error ? out.error.message : null;
      })
      .catch((e) => {
        setFailure(errorMessage(e));
        finish(errorMessage(e));
      });
    // Once per page on purpose: the page renders the one spec the server registered, and a
    // second run would call the tool twice. The values it reads are fixed for the page's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const settle = useRef<number | undefined>(undefined);
  const thrown = useRef<number | undefined>(undefined);
  const onDiagnostics = (d: AppDiagnostics) => {
    report.current.appErrors = d.appErrors;
    report.current.cspViolations = d.violations;
    if (d.status === 'ready') report.current.initialized = true;
    if (d.status === 'failed' || d.error) {
      finish(d.error ?? 'the app failed');
      return;
    }
    // An app that throws before finishing ui/initialize will not recover: give it a moment
    // (a handshake may still be in flight), then report instead of waiting for the timeout.
    if (d.appErrors.length > 0 && d.status !== 'ready' && thrown.current === undefined) {
      thrown.current = window.setTimeout(() => {
        if (!report.current.initialized) finish(`the app threw before it initialized: ${d.appErrors[0].message.split('\n')[0]}`);
      }, THROW_GRACE_MS);
    }
    if (d.status === 'ready' && (d.delivered || spec.withoutCall)) {
      window.clearTimeout(settle.current);
      settle.current = window.setTimeout(() => finish(null), SETTLE_MS);
    }
  };
  const onBridgeMessage = (m: BridgeMessage) => {
    if (report.current.bridgeMessages.length >= 2000) return;
    const failed = (m.message as { error?: { message?: unknown } }).error;
    const error = failed ? String(failed.message ?? 'error') : undefined;
    report.current.bridgeMessages.push({ n: m.n, atMs: Math.round(m.at - started.current), dir: m.dir, method: m.method, id: m.id, error });
    // What the host told the app it offers, read off the wire (the ui/initialize answer).
    const caps = m.dir === 'toApp' ? (m.message as { result?: { hostCapabilities?: Record<string, unknown> } }).result?.hostCapabilities : undefined;
    if (caps) report.current.hostCapabilities = caps;
  };
  const onAppLog = (entry: RenderReport['appLogs'][number]) => {
    if (report.current.appLogs.length < 200) report.current.appLogs.push(entry);
  };
  const onHostContext = (ctx: Record<string, unknown>) => {
    report.current.hostContext = { ...report.current.hostContext, ...ctx };
  };

  const link = uiLink(tool);
  return (
    <div className="render-page" style={{ width: spec.width }}>
      {failure && (
        <div className="inline-error" data-testid="render-error">
          {failure}
        </div>
      )}
      {tool && link && (
        <div data-testid="render-app" className="render-app">
          <RenderBoundary onError={(m) => finish(`the app host failed: ${m}`)}>
          <AppFrame
            server={spec.server}
            tool={tool}
            link={link}
            callId={callId}
            args={(spec.arguments ?? {}) as Record<string, unknown>}
            result={outcome && !outcome.error ? (outcome.result as Record<string, unknown> | null) : undefined}
            cancelled={outcome?.error ? outcome.error.message : undefined}
            conditions={{ ...conditions, width: spec.width, maxHeight: conditions.maxHeight ?? spec.height }}
            chromeless
            onDiagnostics={onDiagnostics}
            onBridgeMessage={onBridgeMessage}
            onHostContext={onHostContext}
            onAppLog={onAppLog}
          />
          </RenderBoundary>
        </div>
      )}
    </div>
  );
}

/** Ends the render with the error instead of leaving a blank page and a pending report. */
class RenderBoundary extends Component<{ onError: (message: string) => void; children: ReactNode }, { failed: string | null }> {
  state = { failed: null as string | null };
  static getDerivedStateFromError(e: unknown) {
    return { failed: e instanceof Error ? e.message : String(e) };
  }
  componentDidCatch(e: unknown) {
    this.props.onError(e instanceof Error ? e.message : String(e));
  }
  render() {
    return this.state.failed ? <div className="inline-error">{this.state.failed}</div> : this.props.children;
  }
}

// One rendered app (MCP App or OpenAI Apps SDK widget) for one tool call. The HTML comes from
// the server through `/apps/resource`, runs only inside the sandbox proxy on an origin of its
// own (`http://<fresh label>.localhost:<port>`, another site than the UI), and talks to mcplab
// through the published ext-apps `AppBridge` (created without an MCP client: every request the
// app makes is answered by a handler here, and tool calls go through `/apps/tools/call`, where
// the server enforces same-server + visibility) over a transport bound to this frame's window,
// origin and nonce. The frame follows the app's size, honours display-mode requests the host
// offers, confirms links and downloads with the user, asks before an app's message becomes a
// chat turn, shows CSP violations, and tears the app down on close.
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import './apps.css';
import { useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { ApiFailure, api, errorMessage, type Tool } from '../api/client';
import type { AppResourceView } from '../api/types.gen';
import { pushAppLog } from '../logs/store';
import { appOrigin, appsApi, proxyUrl, uiSiteProblem } from './api';
import { appIdentity, type AppMessageChannel } from './appMessages';
import { useAppMessages } from './AppMessageAsk';
import { ProxyTransport } from './transport';
import { useConfirm } from './AppConfirm';
import { Violations } from './Violations';
import {
  HOST_INFO,
  defaultConditions,
  hostCapabilities,
  resolveTheme,
  hostContext,
  type BridgeMessage,
  type CspViolation,
  type DisplayMode,
  type HostConditions,
} from './host';
import { HostConditionsContext } from './conditionsContext';
import { usePref } from '../settings/prefs';
import { initialTheme, type ThemePref } from '../settings/theme';
import { contentText, openableUrl } from './content';
import { cspReporterSource, prepareAppHtml } from './html';
import { appMayCall, serverTools, type UiLink } from './linkage';
import { events } from '../api/events';
import { openaiShimSource } from './openaiShim';
import { parsePartialJson } from './partialJson';

export interface ModelContextUpdate {
  content: unknown[];
  structuredContent?: Record<string, unknown>;
}

export interface AppFrameProps {
  server: string;
  tool: Tool;
  link: UiLink;
  callId: string;
  /** The model's arguments so far, while they stream. */
  partialArgs?: string;
  /** The complete arguments (once known). */
  args?: Record<string, unknown>;
  /** The call's `CallToolResult` once it ended. */
  result?: Record<string, unknown> | null;
  /** Why the call ended without a result (failed, cancelled, denied). */
  cancelled?: string;
  conditions?: HostConditions;
  /** The widget state stored for this call (OpenAI widgets). */
  widgetState?: unknown;
  /** Where `ui/message` / `sendFollowUpMessage` go (after the user agrees): absent where
   * there is no conversation. */
  onFollowUp?: AppMessageChannel;
  onModelContext?: (update: ModelContextUpdate) => void;
  onWidgetState?: (state: unknown) => void;
  /** Every bridge message, for debug views. */
  onBridgeMessage?: (m: BridgeMessage) => void;
  /** Everything the app was told about its host (initial context and each change). */
  onHostContext?: (ctx: Record<string, unknown>) => void;
  /** Only the app: no bar, border, notices or lists (headless render; the report has them). */
  chromeless?: boolean;
  /** Status, errors and violations as they change (playground panels, headless render). */
  onDiagnostics?: (d: AppDiagnostics) => void;
}

export interface AppError {
  kind: string;
  message: string;
  source?: string | null;
  line?: number | null;
}

export interface AppDiagnostics {
  status: Status;
  error: string | null;
  appErrors: AppError[];
  violations: CspViolation[];
  /** The tool result (or cancellation) has been sent to the app. */
  delivered: boolean;
  resource: AppResourceView | null;
}

const INIT_TIMEOUT_MS = 15_000;
const TEARDOWN_TIMEOUT_MS = 2_000;

export type Status = 'loading' | 'starting' | 'ready' | 'closed' | 'failed';

export function AppFrame(props: AppFrameProps) {
  const { server, link, callId } = props;
  const contextual = useContext(HostConditionsContext);
  // mcplab's own theme switch reaches apps shown with the default conditions.
  const themePref = usePref<ThemePref>('theme', initialTheme());
  const conditions = useMemo(
    () => props.conditions ?? contextual ?? { ...defaultConditions(), theme: resolveTheme(themePref) },
    [props.conditions, contextual, themePref],
  );
  const [resource, setResource] = useState<AppResourceView | null>(null);
  const [origin, setOrigin] = useState<string | null>(null);
  const [sharedOrigin, setSharedOrigin] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>('loading');
  const [mode, setMode] = useState<DisplayMode>(conditions.displayMode ?? 'inline');
  // The host (playground control) changing the mode wins over what the app asked for.
  useEffect(() => {
    if (conditions.displayMode) setMode(conditions.displayMode);
  }, [conditions.displayMode]);
  const [height, setHeight] = useState(160);
  const [violations, setViolations] = useState<CspViolation[]>([]);
  const [appErrors, setAppErrors] = useState<AppError[]>([]);
  const [delivered, setDelivered] = useState(false);
  const [confirmDialog, ask] = useConfirm();
  const [messageAsk, postAppMessage] = useAppMessages();
  const [notice, setNotice] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const iframeRef = useRef<HTMLIFrameElement>(null);
  const bridgeRef = useRef<AppBridge | null>(null);
  const closeRef = useRef<null | (() => Promise<void>)>(null);
  const initialized = useRef(false);
  const sent = useRef({ partial: '', input: false, result: false, cancelled: false });
  const latest = useRef(props);
  const modeRef = useRef(mode);
  const conditionsRef = useRef(conditions);
  useEffect(() => {
    latest.current = props;
    modeRef.current = mode;
    conditionsRef.current = conditions;
  });

  const kind = resource?.kind === 'openaiWidget' || link.kind === 'openaiWidget' ? 'openaiWidget' : 'mcpApp';
  const permissive = conditions.cspMode === 'permissive';

  useEffect(() => {
    let live = true;
    setStatus('loading');
    setError(null);
    Promise.all([appsApi.host(), appsApi.resource(server, link.uri)]).then(
      ([host, res]) => {
        if (!live) return;
        const template = host.sandboxOriginTemplate;
        const problem = template ? uiSiteProblem(host.sandboxPerApp) : 'The app sandbox is not running, so mcplab cannot show this app. Start mcplab with `mcplab serve`.';
        if (!template || problem) {
          setError(problem);
          setStatus('failed');
          return;
        }
        // A fresh origin for every load: nothing this app leaves behind is seen by another.
        setOrigin(appOrigin(template));
        setSharedOrigin(!host.sandboxPerApp);
        setResource(res);
        setStatus('starting');
      },
      (e) => {
        if (!live) return;
        setError(`Could not load ${link.uri}: ${errorMessage(e)}`);
        setStatus('failed');
      },
    );
    return () => {
      live = false;
    };
  }, [server, link.uri, attempt]);

  const toolInfo = useMemo(() => ({ id: callId, tool: { ...props.tool } }), [callId, props.tool]);

  // The bridge lives as long as the proxy frame (one per resource load / CSP mode).
  useEffect(() => {
    const frame = iframeRef.current;
    const win = frame?.contentWindow;
    if (!resource || !origin || !frame || !win) return;
    initialized.current = false;
    sent.current = { partial: '', input: false, result: false, cancelled: false };
    setViolations([]);
    setAppErrors([]);
    setDelivered(false);
    const ctx0 = hostContext(conditionsRef.current, modeRef.current, toolInfo);
    const permissions = (resource.uiMeta as Record<string, any> | null)?.permissions;
    const bridge = new AppBridge(null, HOST_INFO, hostCapabilities({ csp: resource.declaredCsp ?? undefined, permissions }), {
      hostContext: ctx0,
    });
    bridgeRef.current = bridge;
    latest.current.onHostContext?.(ctx0 as Record<string, unknown>);
    let resourceSent = false;

    const intercept = (m: Record<string, any>): boolean => {
      const method = m.method;
      if (method === 'ui/notifications/sandbox-csp-violation') {
        const v = m.params ?? {};
        setViolations((prev) =>
          prev.some((p) => p.directive === v.directive && p.blockedUri === v.blockedUri) ? prev : [...prev, v],
        );
        return true;
      }
      if (method === 'ui/notifications/sandbox-app-error') {
        const e = (m.params ?? {}) as AppError;
        setAppErrors((prev) => (prev.length >= 50 ? prev : [...prev, e]));
        return true;
      }
      if (method === 'openai/setWidgetState') {
        latest.current.onWidgetState?.(m.params?.state ?? null);
        return true;
      }
      if (method === 'openai/requestModal') {
        setNotice(`The widget asked for a modal${m.params?.title ? ` “${m.params.title}”` : ''}; mcplab shows widgets inline only.`);
        return true;
      }
      if (method === 'openai/requestClose') {
        void close();
        return true;
      }
      return false;
    };
    const transport = new ProxyTransport(win, origin, (msg) => latest.current.onBridgeMessage?.(msg), intercept);

    bridge.addEventListener('sandboxready', () => {
      if (resourceSent) return;
      resourceSent = true;
      const scripts = [cspReporterSource()];
      if (kind === 'openaiWidget' || conditionsRef.current.openaiShim) {
        const p = latest.current;
        scripts.push(
          openaiShimSource({
            performHandshake: kind === 'openaiWidget',
            toolInput: p.args ?? null,
            toolOutput: (p.result?.structuredContent as Record<string, unknown> | undefined) ?? null,
            toolResponseMetadata: (p.result?._meta as Record<string, unknown> | undefined) ?? null,
            widgetState: p.widgetState ?? null,
          }),
        );
      }
      void bridge.sendSandboxResourceReady({ html: prepareAppHtml(resource.html, { scripts }), permissions });
    });
    bridge.addEventListener('initialized', () => {
      initialized.current = true;
      setStatus('ready');
      // Conditions may have changed while the app started: tell it the difference.
      const now = hostContext(conditionsRef.current, modeRef.current, toolInfo);
      bridge.setHostContext(now);
      deliver();
    });
    bridge.addEventListener('sizechange', ({ height: h }) => {
      if (typeof h === 'number' && h > 0) setHeight(Math.ceil(h));
    });
    bridge.addEventListener('loggingmessage', (p) => {
      pushAppLog(server, p.level, p.logger ?? `app ${link.uri}`, p.data);
    });
    bridge.addEventListener('requestteardown', () => void close());

    bridge.oncalltool = async (params) => {
      try {
        const outcome = await appsApi.callTool(server, {
          name: params.name,
          arguments: (params.arguments ?? {}) as Record<string, unknown>,
          ui: kind,
          callId: undefined,
        });
        if (outcome.error) throw new Error(outcome.error.message);
        return outcome.result as any;
      } catch (e) {
        // The API's code first (`tool_not_visible_to_app: …`): apps can tell refusals apart.
        throw new Error(e instanceof ApiFailure ? `${e.code}: ${e.message}` : errorMessage(e), { cause: e });
      }
    };
    bridge.onreadresource = async (params) => {
      const outcome = await api.readResource(server, params.uri);
      if (outcome.error) throw new Error(outcome.error.message);
      return outcome.result as any;
    };
    // Draft spec: an app may list the server tools it can call (AppBridge 2.0.4 has no handler).
    (bridge as unknown as { setRequestHandler: (m: string, h: () => Promise<unknown>) => void }).setRequestHandler('tools/list', async () => ({
      tools: (await serverTools(server)).filter((t) => appMayCall(t, kind)),
    }));
    bridge.onlistresources = async () => (await api.resources(server)) as any;
    bridge.onlistresourcetemplates = async () => (await api.resourceTemplates(server)) as any;
    bridge.onlistprompts = async () => (await api.prompts(server)) as any;
    bridge.onmessage = async (params) => {
      const text = contentText(params.content);
      const channel = latest.current.onFollowUp;
      if (!channel) {
        setNotice(`The app asked to send a message (“${text.slice(0, 200)}”); there is no conversation here — render it in Chat to continue.`);
        return { isError: true };
      }
      const outcome = await postAppMessage(channel, appIdentity(server, link.uri), text);
      if (outcome.sent) return {};
      setNotice(outcome.why);
      return { isError: true };
    };
    bridge.onupdatemodelcontext = async (params) => {
      latest.current.onModelContext?.({
        content: (params.content ?? []) as unknown[],
        structuredContent: params.structuredContent as Record<string, unknown> | undefined,
      });
      return {};
    };
    bridge.onopenlink = async ({ url }) => {
      const u = openableUrl(url);
      if (!u) {
        setNotice(`The app asked to open “${url}”, which is not an http(s) or mailto link; refused.`);
        return { isError: true };
      }
      const ok = await ask({ kind: 'link', title: 'Open a link from the app?', detail: u.href });
      if (!ok) return { isError: true };
      window.open(u.href, '_blank', 'noopener,noreferrer');
      return {};
    };
    bridge.ondownloadfile = async ({ contents }) => {
      const files = (contents ?? []).map(downloadable).filter((f): f is Download => f !== null);
      if (!files.length) return { isError: true };
      const ok = await ask({ kind: 'download', title: 'Save files from the app?', detail: files.map((f) => f.name).join(', ') });
      if (!ok) return { isError: true };
      files.forEach(save);
      return {};
    };
    bridge.onrequestdisplaymode = async ({ mode: wanted }) => {
      const offered = conditionsRef.current.availableDisplayModes;
      const declared = bridge.getAppCapabilities()?.availableDisplayModes;
      if (!offered.includes(wanted) || (declared && !declared.includes(wanted))) return { mode: modeRef.current };
      setMode(wanted);
      return { mode: wanted };
    };

    // The server's list changes reach the app (after it initialized).
    const stopListening = events.onServerEvent((e) => {
      if (e.type !== 'listChanged' || e.server !== server || !initialized.current) return;
      if (e.list.startsWith('tools')) void bridge.sendToolListChanged();
      else if (e.list.startsWith('resources')) void bridge.sendResourceListChanged();
      else if (e.list.startsWith('prompts')) void bridge.sendPromptListChanged();
    });

    let closedByUs = false;
    const close = async () => {
      if (closedByUs) return;
      closedByUs = true;
      try {
        await Promise.race([bridge.teardownResource({}), new Promise((r) => setTimeout(r, TEARDOWN_TIMEOUT_MS))]);
      } catch {
        /* the app may already be gone */
      }
      setStatus('closed');
    };
    closeRef.current = close;

    const timer = window.setTimeout(() => {
      if (!initialized.current) {
        setError(`The app did not finish ui/initialize within ${INIT_TIMEOUT_MS / 1000} s (see the bridge messages and the browser console).`);
      }
    }, INIT_TIMEOUT_MS);
    bridge.connect(transport as any).catch((e) => setError(`Could not connect to the app: ${errorMessage(e)}`));
    return () => {
      stopListening();
      window.clearTimeout(timer);
      closeRef.current = null;
      if (!closedByUs && initialized.current) void bridge.teardownResource({}).catch(() => undefined);
      void bridge.close().catch(() => undefined);
      bridgeRef.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [resource, origin, permissive, conditions.openaiShim]);

  // Tool input, partial input, result and cancellation, each sent once, in order.
  const deliver = useCallback(() => {
    const bridge = bridgeRef.current;
    if (!bridge || !initialized.current) return;
    const p = latest.current;
    const s = sent.current;
    if (!s.input && p.args === undefined && p.partialArgs && p.partialArgs !== s.partial) {
      const partial = parsePartialJson(p.partialArgs);
      if (partial) {
        s.partial = p.partialArgs;
        void bridge.sendToolInputPartial({ arguments: partial });
      }
    }
    if (!s.input && p.args !== undefined) {
      s.input = true;
      void bridge.sendToolInput({ arguments: p.args });
    }
    if (s.input && !s.result && p.result) {
      s.result = true;
      void bridge.sendToolResult(p.result as any).then(() => setDelivered(true));
    }
    if (!s.result && !s.cancelled && p.cancelled !== undefined) {
      s.cancelled = true;
      void bridge.sendToolCancelled({ reason: p.cancelled }).then(() => setDelivered(true));
    }
  }, []);
  useEffect(deliver, [deliver, props.partialArgs, props.args, props.result, props.cancelled, status]);

  // Emulated conditions and display mode changes reach the app as host-context-changed.
  useEffect(() => {
    const bridge = bridgeRef.current;
    if (!bridge || !initialized.current) return;
    const ctx = hostContext(conditions, mode, toolInfo);
    bridge.setHostContext(ctx);
    latest.current.onHostContext?.(ctx as Record<string, unknown>);
  }, [conditions, mode, toolInfo]);

  useEffect(() => {
    latest.current.onDiagnostics?.({ status, error, appErrors, violations, delivered, resource });
  }, [status, error, appErrors, violations, delivered, resource]);

  const src = origin && resource ? proxyUrl(origin, resource.declaredCsp, permissive) : null;
  const prefersBorder = resource?.prefersBorder !== false;
  const frameHeight = mode === 'inline' ? Math.min(height, conditions.maxHeight ?? Number.POSITIVE_INFINITY) : undefined;

  return (
    <div
      className={`app-frame app-mode-${mode}${prefersBorder && !props.chromeless ? ' app-bordered' : ''}${props.chromeless ? ' app-chromeless' : ''}`}
      data-testid="app-frame"
      data-status={status}
      data-kind={kind}
      data-display-mode={mode}
      data-uri={link.uri}
    >
      {!props.chromeless && <div className="app-frame-bar">
        <span className={`badge ${kind === 'openaiWidget' ? 'badge-info' : 'badge-ok'}`}>{kind === 'openaiWidget' ? 'ChatGPT widget' : 'MCP App'}</span>
        <span className="mono small app-frame-uri" title={resource?.csp ?? ''}>
          {link.uri}
        </span>
        {sharedOrigin && (
          <span
            className="badge badge-warn"
            data-testid="app-origin-shared"
            title="mcplab listens on a non-loopback --host, so every app shares one origin on the UI's site: apps on the same page are not isolated from each other."
          >
            shared origin
          </span>
        )}
        {permissive && (
          <span className="badge badge-err" data-testid="app-csp-permissive" title="Every origin is allowed: not what a real host does">
            permissive CSP
          </span>
        )}
        <span className="spacer" />
        {status === 'ready' && mode !== 'inline' && (
          <button type="button" className="linkish small" data-testid="app-inline" onClick={() => setMode('inline')}>
            back inline
          </button>
        )}
        {status === 'ready' && mode === 'inline' && conditions.availableDisplayModes.includes('fullscreen') && (
          <button type="button" className="linkish small" data-testid="app-fullscreen" onClick={() => setMode('fullscreen')}>
            fullscreen
          </button>
        )}
        {status !== 'closed' && status !== 'failed' && (
          <button type="button" className="linkish small" data-testid="app-close" onClick={() => void closeRef.current?.()}>
            close
          </button>
        )}
        {(status === 'closed' || status === 'failed' || error) && (
          <button type="button" className="linkish small" data-testid="app-reload" onClick={() => setAttempt((a) => a + 1)}>
            reload
          </button>
        )}
      </div>}
      {error && (
        <div className="inline-error small" data-testid="app-error" role="alert">
          {error}
        </div>
      )}
      {resource && resource.rejected.length > 0 && (
        <div className="small muted" data-testid="app-csp-rejected">
          Ignored CSP entries: {resource.rejected.join('; ')}
        </div>
      )}
      {notice && (
        <div className="app-notice small" data-testid="app-notice" role="status">
          {notice}
          <button type="button" className="linkish small" onClick={() => setNotice(null)}>
            dismiss
          </button>
        </div>
      )}
      {status === 'closed' ? (
        <div className="muted small app-closed" data-testid="app-closed">
          The app was closed.
        </div>
      ) : (
        src && (
          <iframe
            key={`${src}#${attempt}`}
            ref={iframeRef}
            className="app-iframe"
            data-testid="app-iframe"
            title={`App ${link.uri}`}
            src={src}
            sandbox="allow-scripts allow-same-origin allow-forms"
            allow={resource?.allow || undefined}
            referrerPolicy="strict-origin"
            style={{ height: frameHeight, width: mode === 'inline' && conditions.width ? conditions.width : undefined }}
          />
        )
      )}
      {messageAsk}
      {!props.chromeless && (
        <Violations
          violations={violations}
          title={
            <>
              <strong>Blocked by the app's Content-Security-Policy</strong> (declare the origin in <code>_meta.ui.csp</code> if the app needs it):
            </>
          }
        />
      )}
      {appErrors.length > 0 && !props.chromeless && (
        <details className="app-errors small" data-testid="app-errors" open>
          <summary>
            The app reported {appErrors.length} error{appErrors.length === 1 ? '' : 's'}
          </summary>
          <ul>
            {appErrors.map((e, i) => (
              <li key={i} data-testid="app-error-row" data-kind={e.kind}>
                <code>{e.kind}</code> <span className="mono">{e.message.split('\n')[0]}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
      {confirmDialog}
    </div>
  );
}

interface Download {
  name: string;
  blob: Blob;
}

function downloadable(item: any): Download | null {
  const r = item?.type === 'resource' ? item.resource : null;
  if (!r || typeof r.uri !== 'string') return null;
  const last = r.uri.split(/[/\\]/).filter(Boolean).pop() ?? 'download';
  const name = last.replace(/[^\w.\- ]+/g, '_').slice(0, 120) || 'download';
  const type = typeof r.mimeType === 'string' ? r.mimeType : 'application/octet-stream';
  if (typeof r.text === 'string') return { name, blob: new Blob([r.text], { type }) };
  if (typeof r.blob === 'string') {
    try {
      const bin = atob(r.blob);
      const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
      return { name, blob: new Blob([bytes], { type }) };
    } catch {
      return null;
    }
  }
  return null;
}

function save(f: Download): void {
  const url = URL.createObjectURL(f.blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = f.name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}


// One rendered app (MCP App or OpenAI Apps SDK widget) for one tool call: the outer proxy
// iframe on an origin of its own, the bar above it, notices, violations and the host's
// dialogs. Everything the app and the host say to each other is `AppSession`'s job
// (`session.ts`); loading and wiring is `useAppSession.ts`. This component only draws: the
// frame follows the app's size and display mode, and carries the emulated theme as its
// `color-scheme`, so the app's `prefers-color-scheme` and `light-dark()` follow the host's
// theme, not the browser's. Inline, an app taller than the host's limit gets a cue (AppCutCue). Chromeless (playground, headless render) shows the app alone;
// its notices and errors go to `onDiagnostics`.
import './apps.css';
import { useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { Tool } from '../api/client';
import type { AppResourceView } from '../api/types.gen';
import { usePref } from '../settings/prefs';
import { initialTheme, type ThemePref } from '../settings/theme';
import { useConfirm } from './AppConfirm';
import { AppCutCue } from './AppCutCue';
import { AppFrameBar } from './AppFrameBar';
import { useAppMessages } from './AppMessageAsk';
import { appIdentity, type AppMessageChannel } from './appMessages';
import { proxyUrl } from './api';
import { HostConditionsContext } from './conditionsContext';
import { defaultConditions, resolveTheme, type BridgeMessage, type CspViolation, type HostConditions } from './host';
import type { UiLink } from './linkage';
import type { AppError, AppSessionSnapshot } from './session';
import { useAppLoad, useAppSession } from './useAppSession';
import { Violations } from './Violations';

export type { AppError } from './session';

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
  /** Every log line the app sent (`notifications/message`). */
  onAppLog?: (entry: { level: string; logger: string; data: unknown }) => void;
  /** Only the app: no bar, border, notices or lists (headless render; the report has them). */
  chromeless?: boolean;
  /** Status, errors and violations as they change (playground panels, headless render). */
  onDiagnostics?: (d: AppDiagnostics) => void;
}

export type Status = 'loading' | 'starting' | 'ready' | 'closed' | 'failed';

export interface AppDiagnostics {
  status: Status;
  error: string | null;
  /** What the host would say beside the app (a refused request, a message with nowhere to go). */
  notice: string | null;
  appErrors: AppError[];
  violations: CspViolation[];
  /** The tool result (or cancellation) has been sent to the app. */
  delivered: boolean;
  resource: AppResourceView | null;
}

/** The conditions an app renders under: the caller's, the page's (playground chat), or
 * mcplab's own with its theme switch. */
function useConditions(given: HostConditions | undefined): HostConditions {
  const contextual = useContext(HostConditionsContext);
  const themePref = usePref<ThemePref>('theme', initialTheme());
  return useMemo(() => given ?? contextual ?? { ...defaultConditions(), theme: resolveTheme(themePref) }, [given, contextual, themePref]);
}

const NONE: never[] = [];

function statusOf(loading: boolean, loadError: string | null, snap: AppSessionSnapshot | null): Status {
  if (loadError) return 'failed';
  if (loading || !snap) return loading ? 'loading' : 'starting';
  return snap.status;
}

export function AppFrame(props: AppFrameProps) {
  const { server, link, callId, chromeless } = props;
  const conditions = useConditions(props.conditions);
  const [attempt, setAttempt] = useState(0);
  const load = useAppLoad(server, link.uri, attempt);
  const resource = load.data?.resource ?? null;
  const kind = resource?.kind === 'openaiWidget' || link.kind === 'openaiWidget' ? 'openaiWidget' : 'mcpApp';
  const permissive = conditions.cspMode === 'permissive';
  const [frame, setFrame] = useState<HTMLIFrameElement | null>(null);
  const [confirmDialog, ask] = useConfirm();
  const [messageAsk, postAppMessage] = useAppMessages();
  const toolInfo = useMemo(() => ({ id: callId, tool: { ...props.tool } }), [callId, props.tool]);
  const sendMessage = useCallback(
    (text: string) => (props.onFollowUp ? postAppMessage(props.onFollowUp, appIdentity(server, link.uri), text) : null),
    [props.onFollowUp, postAppMessage, server, link.uri],
  );

  const [session, snap] = useAppSession({
    server,
    uri: link.uri,
    kind,
    load: load.data,
    frame,
    toolInfo,
    conditions,
    call: { partialArgs: props.partialArgs, args: props.args, result: props.result, cancelled: props.cancelled, widgetState: props.widgetState },
    observers: { onBridgeMessage: props.onBridgeMessage, onHostContext: props.onHostContext, onWidgetState: props.onWidgetState, onModelContext: props.onModelContext },
    confirm: ask,
    sendMessage,
    onLog: props.onAppLog,
  });

  // Closing removes the frame (and ends its session): the page remembers it until a reload.
  const [closedAttempt, setClosedAttempt] = useState<number | null>(null);
  const sessionClosed = snap?.status === 'closed';
  useEffect(() => {
    if (sessionClosed) setClosedAttempt(attempt);
  }, [sessionClosed, attempt]);
  const loadError = load.error ? load.error.message : null;
  const status = closedAttempt === attempt ? 'closed' : statusOf(load.isFetching, loadError, snap);
  const error = loadError ?? snap?.error ?? null;
  const mode = snap?.mode ?? conditions.displayMode ?? 'inline';
  const violations = snap?.violations ?? NONE;
  const appErrors = snap?.appErrors ?? NONE;
  const notice = snap?.notice ?? null;
  const delivered = snap?.delivered ?? false;

  const onDiagnostics = props.onDiagnostics;
  useEffect(() => {
    onDiagnostics?.({ status, error, notice, appErrors, violations, delivered, resource });
  }, [onDiagnostics, status, error, notice, appErrors, violations, delivered, resource]);

  const src = load.data ? proxyUrl(load.data.origin, load.data.resource.declaredCsp, permissive) : null;
  const prefersBorder = resource?.prefersBorder !== false;
  const height = snap?.height ?? 160;
  // Inline, the frame follows the app's height up to the host's limit; where the app is taller
  // a cue says so, and "Show all" lets this page show it whole.
  const limit = conditions.maxHeight ?? Number.POSITIVE_INFINITY;
  const [showAll, setShowAll] = useState(false);
  const cut = mode === 'inline' && !chromeless && status !== 'closed' && height > limit;
  const frameHeight = mode === 'inline' ? (cut && showAll ? height : Math.min(height, limit)) : undefined;
  const reload = () => setAttempt((a) => a + 1);

  return (
    <div
      className={`app-frame app-mode-${mode}${prefersBorder && !chromeless ? ' app-bordered' : ''}${chromeless ? ' app-chromeless' : ''}`}
      data-testid="app-frame"
      data-status={status}
      data-kind={kind}
      data-display-mode={mode}
      data-uri={link.uri}
      data-app-height={snap?.height ?? undefined}
      data-height-limit={mode === 'inline' && Number.isFinite(limit) ? limit : undefined}
    >
      {!chromeless && (
        <AppFrameBar
          kind={kind}
          uri={link.uri}
          csp={resource?.csp ?? ''}
          shared={load.data?.shared ?? false}
          permissive={permissive}
          status={status}
          mode={mode}
          canFullscreen={conditions.availableDisplayModes.includes('fullscreen')}
          failed={!!error}
          onMode={(m) => session?.setMode(m)}
          onClose={() => void session?.close()}
          onReload={reload}
        />
      )}
      {error && !chromeless && (
        <div className="inline-error small" data-testid="app-error" role="alert">
          {error}
        </div>
      )}
      {resource && resource.rejected.length > 0 && !chromeless && (
        <div className="small muted" data-testid="app-csp-rejected">
          Ignored CSP entries: {resource.rejected.join('; ')}
        </div>
      )}
      {notice && !chromeless && (
        <div className="app-notice small" data-testid="app-notice" role="status">
          {notice}
          <button type="button" className="linkish small" onClick={() => session?.dismissNotice()}>
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
            // A new frame (and session) per load, CSP mode and shim choice: the proxy takes
            // one resource per life.
            key={`${src}#${attempt}#${conditions.openaiShim}`}
            ref={setFrame}
            className="app-iframe"
            data-testid="app-iframe"
            title={`App ${link.uri}`}
            src={src}
            sandbox="allow-scripts allow-same-origin allow-forms"
            allow={resource?.allow || undefined}
            referrerPolicy="strict-origin"
            style={{ height: frameHeight, width: mode === 'inline' && conditions.width ? conditions.width : undefined, colorScheme: conditions.theme }}
          />
        )
      )}
      {cut && src && (
        <AppCutCue height={height} limit={limit} showAll={showAll} onShowAll={setShowAll} playground={`#/playground/${encodeURIComponent(server)}/${encodeURIComponent(props.tool.name)}`} />
      )}
      {messageAsk}
      {!chromeless && (
        <Violations
          violations={violations}
          title={
            <>
              <strong>Blocked by the app's Content-Security-Policy</strong> (declare the origin in <code>_meta.ui.csp</code> if the app needs it):
            </>
          }
        />
      )}
      {appErrors.length > 0 && !chromeless && <AppErrors errors={appErrors} />}
      {confirmDialog}
    </div>
  );
}

function AppErrors({ errors }: { errors: AppError[] }) {
  return (
    <details className="app-errors small" data-testid="app-errors" open>
      <summary>
        The app reported {errors.length} error{errors.length === 1 ? '' : 's'}
      </summary>
      <ul>
        {errors.map((e, i) => (
          <li key={i} data-testid="app-error-row" data-kind={e.kind}>
            <code>{e.kind}</code> <span className="mono">{e.message.split('\n')[0]}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}

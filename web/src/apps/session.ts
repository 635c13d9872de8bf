// One app's session with its host: owns the ext-apps `AppBridge` (created without an MCP
// client, so every request the app makes is answered here) and the `ProxyTransport` bound to
// the app's proxy frame (window, origin, nonce). It sends the resource when the proxy is
// ready, answers the app's requests through the `AppHost` it is given (tool calls, reads,
// lists, links and downloads after the user confirms, messages after the user agrees,
// display-mode requests the host offers), refuses what its host profile's `hostCapabilities`
// do not advertise with a JSON-RPC error (`-32000` for `ui/*` requests, as the spec's error
// responses for them; `-32601` for proxied MCP methods, as for any capability not declared),
// delivers tool input, partial input, result and cancellation once each and in that order,
// tells the app about host-context changes, and tears it down. Its state is a snapshot React reads with `useSyncExternalStore`.
// It must not touch the DOM or the network itself (the host does), so it runs in a test
// with a fake proxy window.
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { Tool } from '../api/client';
import type { AppResourceView } from '../api/types.gen';
import { contentText, openableUrl } from './content';
import { downloadable, type Download } from './downloads';
import { HOST_INFO, MCPLAB_HOST_CAPABILITIES, hostCapabilities, hostContext, refusal, type BridgeMessage, type CspViolation, type DisplayMode, type HostConditions, type ToolInfo } from './host';
import { environmentShimSource } from './environmentShim';
import { cspReporterSource, prepareAppHtml } from './html';
import { appMayCall, type UiKind } from './linkage';
import { openaiShimSource } from './openaiShim';
import { parsePartialJson } from './partialJson';
import { ProxyTransport } from './transport';

type Json = Record<string, unknown>;

export interface AppError {
  kind: string;
  message: string;
  source?: string | null;
  line?: number | null;
}

/** What the app has been handed of its tool call so far (the page's props). */
export interface ToolCallState {
  /** The model's arguments so far, while they stream. */
  partialArgs?: string;
  /** The complete arguments (once known). */
  args?: Record<string, unknown>;
  /** The call's `CallToolResult` once it ended. */
  result?: Record<string, unknown> | null;
  /** Why the call ended without a result (failed, cancelled, denied). */
  cancelled?: string;
  /** The widget state stored for this call (OpenAI widgets). */
  widgetState?: unknown;
}

export interface ConfirmQuestion {
  kind: 'link' | 'download';
  title: string;
  detail: string;
}

export type MessageOutcome = { sent: true } | { sent: false; why: string };

/** Everything the session needs from the page and the API around it. */
export interface AppHost {
  callTool(name: string, args: Record<string, unknown>): Promise<Json>;
  readResource(uri: string): Promise<Json>;
  listResources(): Promise<Json>;
  listResourceTemplates(): Promise<Json>;
  listPrompts(): Promise<Json>;
  /** The server's tools (the session keeps those the app may call). */
  listTools(): Promise<Tool[]>;
  /** Asks the user; resolves with the answer. */
  confirm(q: ConfirmQuestion): Promise<boolean>;
  /** Posts an app message into the conversation after the user agrees; null when there is
   * no conversation to post into. */
  sendMessage(text: string): Promise<MessageOutcome> | null;
  openUrl(href: string): void;
  saveFiles(files: Download[]): void;
  log(level: string, logger: string, data: unknown): void;
  /** Calls `listener` with `listChanged`'s list name for this server; returns the unsubscribe. */
  onListChanged(listener: (list: string) => void): () => void;
}

/** Optional observers, replaceable at any time (the component passes its latest props). */
export interface AppSessionObservers {
  onBridgeMessage?: (m: BridgeMessage) => void;
  onHostContext?: (ctx: Record<string, unknown>) => void;
  onWidgetState?: (state: unknown) => void;
  onModelContext?: (update: { content: unknown[]; structuredContent?: Record<string, unknown> }) => void;
}

export interface AppSessionOptions {
  server: string;
  uri: string;
  kind: UiKind;
  /** The proxy frame's window and origin (`http://<label>.localhost:<port>`). */
  frame: Window;
  origin: string;
  resource: AppResourceView;
  toolInfo: ToolInfo;
  conditions: HostConditions;
  call?: ToolCallState;
  initTimeoutMs?: number;
  teardownTimeoutMs?: number;
}

export interface AppSessionSnapshot {
  status: 'starting' | 'ready' | 'closed';
  error: string | null;
  mode: DisplayMode;
  /** The height the app asked for (`size-changed`), or null before it said. */
  height: number | null;
  violations: CspViolation[];
  appErrors: AppError[];
  /** The tool result (or cancellation) has been sent to the app. */
  delivered: boolean;
  notice: string | null;
}

const INIT_TIMEOUT_MS = 15_000;
const TEARDOWN_TIMEOUT_MS = 2_000;
const MAX_APP_ERRORS = 50;

export class AppSession {
  observers: AppSessionObservers = {};
  private snapshot: AppSessionSnapshot;
  private readonly listeners = new Set<() => void>();
  private readonly bridge: AppBridge;
  private readonly transport: ProxyTransport;
  private conditions: HostConditions;
  private call: ToolCallState;
  private initialized = false;
  private resourceSent = false;
  private closing = false;
  private disposed = false;
  private sent = { partial: '', input: false, result: false, cancelled: false };
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopListening: () => void = () => undefined;

  constructor(
    private readonly opts: AppSessionOptions,
    private readonly host: AppHost,
  ) {
    this.conditions = opts.conditions;
    this.call = opts.call ?? {};
    this.snapshot = { status: 'starting', error: null, mode: opts.conditions.displayMode ?? 'inline', height: null, violations: [], appErrors: [], delivered: false, notice: null };
    const permissions = (opts.resource.uiMeta as Json | null)?.permissions;
    this.bridge = new AppBridge(null, HOST_INFO, hostCapabilities({ csp: opts.resource.declaredCsp ?? undefined, permissions }, this.caps), {
      hostContext: this.context(),
    });
    this.transport = new ProxyTransport(opts.frame, opts.origin, (m) => this.observers.onBridgeMessage?.(m), (m) => this.intercept(m));
    this.wire(permissions);
  }

  // --- React's view of the session -------------------------------------------------------

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): AppSessionSnapshot => this.snapshot;

  private set(patch: Partial<AppSessionSnapshot>): void {
    if (this.disposed) return;
    this.snapshot = { ...this.snapshot, ...patch };
    this.listeners.forEach((l) => l());
  }

  // --- lifecycle ---------------------------------------------------------------------------

  /** Connects to the proxy frame; the app then has `initTimeoutMs` to finish `ui/initialize`. */
  start(): void {
    this.observers.onHostContext?.(this.context() as Record<string, unknown>);
    this.stopListening = this.host.onListChanged((list) => this.forwardListChanged(list));
    const ms = this.opts.initTimeoutMs ?? INIT_TIMEOUT_MS;
    this.timer = setTimeout(() => {
      if (!this.initialized) this.set({ error: `The app did not finish ui/initialize within ${ms / 1000} s (see the bridge messages and the browser console).` });
    }, ms);
    this.bridge.connect(this.transport as never).catch((e) => this.set({ error: `Could not connect to the app: ${message(e)}` }));
  }

  /** Asks the app to tear down (it gets a moment to answer), then shows it as closed. */
  close = async (): Promise<void> => {
    if (this.closing) return;
    this.closing = true;
    const ms = this.opts.teardownTimeoutMs ?? TEARDOWN_TIMEOUT_MS;
    try {
      await Promise.race([this.bridge.teardownResource({}), new Promise((r) => setTimeout(r, ms))]);
    } catch {
      /* the app may already be gone */
    }
    this.set({ status: 'closed' });
  };

  /** Ends the session (the frame is going away): teardown if the app is up, then close. */
  dispose(): void {
    if (this.disposed) return;
    this.stopListening();
    clearTimeout(this.timer);
    if (!this.closing && this.initialized) void this.bridge.teardownResource({}).catch(() => undefined);
    this.disposed = true;
    void this.bridge.close().catch(() => undefined);
  }

  // --- what the page changes ----------------------------------------------------------------

  /** New tool-call state from the page: delivered in order once the app is initialized. */
  update(call: ToolCallState): void {
    this.call = call;
    this.deliver();
  }

  /** New host conditions: a host-driven display mode wins over what the app asked for. */
  setConditions(c: HostConditions): void {
    if (JSON.stringify(c) === JSON.stringify(this.conditions)) return;
    const modeChanged = c.displayMode !== undefined && c.displayMode !== this.conditions.displayMode;
    this.conditions = c;
    if (modeChanged && c.displayMode) this.set({ mode: c.displayMode });
    this.pushContext();
  }

  /** The host (a button in its frame) puts the app in `mode`. */
  setMode(mode: DisplayMode): void {
    if (mode === this.snapshot.mode) return;
    this.set({ mode });
    this.pushContext();
  }

  /** Messages the transport dropped because they did not come from this frame (window,
   * origin, nonce): for tests and debug views. */
  get dropped(): number {
    return this.transport.dropped;
  }

  dismissNotice(): void {
    this.set({ notice: null });
  }

  // --- internals -----------------------------------------------------------------------------

  private context() {
    return hostContext(this.conditions, this.snapshot?.mode ?? this.conditions.displayMode ?? 'inline', this.opts.toolInfo);
  }

  private pushContext(): void {
    if (!this.initialized || this.disposed) return;
    const ctx = this.context();
    this.bridge.setHostContext(ctx);
    this.observers.onHostContext?.(ctx as Record<string, unknown>);
  }

  /** Tool input, partial input, result and cancellation, each sent once, in that order. */
  private deliver(): void {
    if (!this.initialized || this.disposed) return;
    const p = this.call;
    const s = this.sent;
    if (!s.input && p.args === undefined && p.partialArgs && p.partialArgs !== s.partial) {
      const partial = parsePartialJson(p.partialArgs);
      if (partial) {
        s.partial = p.partialArgs;
        void this.bridge.sendToolInputPartial({ arguments: partial });
      }
    }
    if (!s.input && p.args !== undefined) {
      s.input = true;
      void this.bridge.sendToolInput({ arguments: p.args });
    }
    if (s.input && !s.result && !s.cancelled && p.result) {
      s.result = true;
      void this.bridge.sendToolResult(p.result as never).then(() => this.set({ delivered: true }));
    }
    if (!s.result && !s.cancelled && p.cancelled !== undefined) {
      s.cancelled = true;
      void this.bridge.sendToolCancelled({ reason: p.cancelled }).then(() => this.set({ delivered: true }));
    }
  }

  /** The host capabilities in force: fixed at `ui/initialize` (what the app was told). */
  private get caps() {
    return this.opts.conditions.hostCapabilities ?? MCPLAB_HOST_CAPABILITIES;
  }

  /** Throws the JSON-RPC error that refuses `method` when the host does not advertise what it
   * needs (the bridge sends it back to the app), and says so in the frame's notice. */
  private guard(method: string, params?: unknown): void {
    const why = refusal(this.caps, method, (params ?? {}) as Record<string, unknown>);
    if (!why) return;
    const code = method.startsWith('ui/') ? -32000 : -32601;
    this.set({ notice: `The app sent ${method}; refused (${code}): ${why}.` });
    throw Object.assign(new Error(`${method} refused: ${why}`), { code });
  }

  private forwardListChanged(list: string): void {
    if (!this.initialized) return;
    if (list.startsWith('tools')) {
      if (this.caps.serverTools === 'listChanged') void this.bridge.sendToolListChanged();
    } else if (list.startsWith('resources')) {
      if (this.caps.serverResources === 'listChanged') void this.bridge.sendResourceListChanged();
    }
    else if (list.startsWith('prompts')) void this.bridge.sendPromptListChanged();
  }

  /** Proxy and shim messages that are not for the bridge; true when taken out. */
  private intercept(m: Json): boolean {
    // The widget's own params: read field by field, nothing trusted.
    const params = (m.params ?? {}) as Json;
    switch (m.method) {
      case 'ui/notifications/sandbox-csp-violation': {
        const v = (m.params ?? {}) as CspViolation;
        const known = this.snapshot.violations.some((p) => p.directive === v.directive && p.blockedUri === v.blockedUri);
        if (!known) this.set({ violations: [...this.snapshot.violations, v] });
        return true;
      }
      case 'ui/notifications/sandbox-app-error':
        if (this.snapshot.appErrors.length < MAX_APP_ERRORS) this.set({ appErrors: [...this.snapshot.appErrors, (m.params ?? {}) as AppError] });
        return true;
      case 'openai/setWidgetState':
        this.observers.onWidgetState?.(params.state ?? null);
        return true;
      case 'openai/requestModal':
        this.set({ notice: `The widget asked for a modal${params.title ? ` “${String(params.title)}”` : ''}; mcplab shows widgets inline only.` });
        return true;
      case 'openai/requestClose':
        void this.close();
        return true;
      default:
        return false;
    }
  }

  private wire(permissions: unknown): void {
    const b = this.bridge;
    b.addEventListener('sandboxready', () => this.sendResource(permissions));
    b.addEventListener('initialized', () => {
      this.initialized = true;
      clearTimeout(this.timer);
      this.set({ status: 'ready', error: null });
      // Conditions may have changed while the app started: tell it the difference.
      this.pushContext();
      this.deliver();
    });
    b.addEventListener('sizechange', ({ height }) => {
      if (typeof height === 'number' && height > 0) this.set({ height: Math.ceil(height) });
    });
    // A host without `logging` does not take the app's log lines (a notification gets no answer).
    b.addEventListener('loggingmessage', (p) => {
      if (this.caps.logging) this.host.log(p.level, p.logger ?? `app ${this.opts.uri}`, p.data);
    });
    b.addEventListener('requestteardown', () => void this.close());
    b.oncalltool = async (params) => {
      this.guard('tools/call');
      return (await this.host.callTool(params.name, (params.arguments ?? {}) as Record<string, unknown>)) as never;
    };
    b.onreadresource = async (params) => {
      this.guard('resources/read');
      return (await this.host.readResource(params.uri)) as never;
    };
    // Draft spec: an app may list the server tools it can call (AppBridge 2.0.4 has no handler).
    (b as unknown as { setRequestHandler: (m: string, h: () => Promise<unknown>) => void }).setRequestHandler('tools/list', async () => {
      this.guard('tools/list');
      return { tools: (await this.host.listTools()).filter((t) => appMayCall(t, this.opts.kind)) };
    });
    b.onlistresources = async () => {
      this.guard('resources/list');
      return (await this.host.listResources()) as never;
    };
    b.onlistresourcetemplates = async () => {
      this.guard('resources/templates/list');
      return (await this.host.listResourceTemplates()) as never;
    };
    b.onlistprompts = async () => (await this.host.listPrompts()) as never;
    b.onmessage = async (params) => {
      this.guard('ui/message', params);
      return this.onMessage(contentText(params.content));
    };
    b.onupdatemodelcontext = async (params) => {
      this.guard('ui/update-model-context', params);
      this.observers.onModelContext?.({ content: (params.content ?? []) as unknown[], structuredContent: params.structuredContent as Record<string, unknown> | undefined });
      return {};
    };
    b.onopenlink = async ({ url }) => {
      this.guard('ui/open-link');
      return this.onOpenLink(url);
    };
    b.ondownloadfile = async ({ contents }) => {
      this.guard('ui/download-file');
      return this.onDownload(contents ?? []);
    };
    b.onrequestdisplaymode = async ({ mode }) => ({ mode: this.negotiateMode(mode) });
  }

  /** The resource goes to the proxy once (its first ready signal), with the scripts that run
   * before the app's own: the CSP reporter, the emulated locale and time zone, and the
   * `window.openai` shim where it applies. */
  private sendResource(permissions: unknown): void {
    if (this.resourceSent) return;
    this.resourceSent = true;
    const { locale, timeZone } = this.conditions;
    const scripts = [cspReporterSource(), environmentShimSource({ locale, timeZone })];
    if (this.opts.kind === 'openaiWidget' || this.conditions.openaiShim) {
      const p = this.call;
      scripts.push(
        openaiShimSource({
          performHandshake: this.opts.kind === 'openaiWidget',
          toolInput: p.args ?? null,
          toolOutput: (p.result?.structuredContent as Record<string, unknown> | undefined) ?? null,
          toolResponseMetadata: (p.result?._meta as Record<string, unknown> | undefined) ?? null,
          widgetState: p.widgetState ?? null,
        }),
      );
    }
    void this.bridge.sendSandboxResourceReady({ html: prepareAppHtml(this.opts.resource.html, { scripts }), permissions } as never);
  }

  private async onMessage(text: string): Promise<{ isError?: boolean }> {
    const pending = this.host.sendMessage(text);
    if (!pending) {
      this.set({ notice: `The app asked to send a message (“${text.slice(0, 200)}”); there is no conversation here — render it in Chat to continue.` });
      return { isError: true };
    }
    const outcome = await pending;
    if (outcome.sent) return {};
    this.set({ notice: outcome.why });
    return { isError: true };
  }

  private async onOpenLink(url: string): Promise<{ isError?: boolean }> {
    const u = openableUrl(url);
    if (!u) {
      this.set({ notice: `The app asked to open “${url}”, which is not an http(s) or mailto link; refused.` });
      return { isError: true };
    }
    const ok = await this.host.confirm({ kind: 'link', title: 'Open a link from the app?', detail: u.href });
    if (!ok) return { isError: true };
    this.host.openUrl(u.href);
    return {};
  }

  private async onDownload(contents: unknown[]): Promise<{ isError?: boolean }> {
    const files = contents.map(downloadable).filter((f): f is Download => f !== null);
    if (!files.length) return { isError: true };
    const ok = await this.host.confirm({ kind: 'download', title: 'Save files from the app?', detail: files.map((f) => f.name).join(', ') });
    if (!ok) return { isError: true };
    this.host.saveFiles(files);
    return {};
  }

  /** The mode in effect after the app asked for `wanted`: only a mode the host offers and the
   * app declared (if it declared any); otherwise the current one. */
  private negotiateMode(wanted: DisplayMode): DisplayMode {
    const offered = this.conditions.availableDisplayModes;
    const declared = this.bridge.getAppCapabilities()?.availableDisplayModes;
    if (!offered.includes(wanted) || (declared && !declared.includes(wanted))) return this.snapshot.mode;
    this.setMode(wanted);
    return wanted;
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

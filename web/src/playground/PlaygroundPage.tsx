// The app playground: pick a server and a tool with a UI, fill its input, run it directly (no
// model, no tokens) and see its app in an emulated host (device, theme, locale, time zone,
// display modes, input devices, safe area, height limit, CSP mode), changed live; debug panels
// beside it; saved scenarios; a screenshot rendered headless; and a chat mode where the model
// drives the same app under the same emulation.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, errorMessage, type Tool } from '../api/client';
import type { AppScenario, ChatSettings } from '../api/types.gen';
import type { AppDiagnostics } from '../apps/AppFrame';
import { HostConditionsContext } from '../apps/conditionsContext';
import { defaultConditions, type BridgeMessage, type HostConditions } from '../apps/host';
import { AppFrame } from '../apps/lazy';
import { serverTools, uiLink } from '../apps/linkage';
import { SessionPane } from '../chat/ChatPage';
import { defaultModel, reloadProviders, upsertSession, useProviders } from '../chat/store';
import { newCallId } from '../inspector/toolMeta';
import { useServers } from '../servers/store';
import { getPref, setPref } from '../settings/prefs';
import { Button } from '../ui/Button';
import { SchemaForm, type SchemaFormHandle } from '../ui/SchemaForm';
import { EmptyState } from '../ui/States';
import { DebugPanels, emptyDebug, type DebugState } from './DebugPanels';
import { DEVICES, emulationFor, isRtl, type Emulation } from './devices';
import { EmulationBar } from './EmulationBar';
import { Scenarios } from './Scenarios';
import { screenshot } from './screenshot';
import './playground.css';

interface Run {
  n: number;
  callId: string;
  args: Record<string, unknown>;
  result?: Record<string, unknown> | null;
  error?: string;
}

const MAX_MESSAGES = 2000;

function initialEmulation(): Emulation {
  const saved = getPref<Emulation | null>('playgroundEmulation', null);
  if (saved && saved.conditions && typeof saved.width === 'number') return { ...saved, conditions: { ...defaultConditions(), ...saved.conditions } };
  return emulationFor(DEVICES[0], defaultConditions());
}

export function PlaygroundPage() {
  const { list: servers } = useServers();
  const connected = useMemo(() => (servers ?? []).filter((s) => s.status.state === 'connected').map((s) => s.config.name), [servers]);
  const [server, setServer] = useState<string>(() => getPref<string>('playgroundServer', ''));
  const [tools, setTools] = useState<Tool[] | null>(null);
  const [toolsError, setToolsError] = useState<string | null>(null);
  const [toolName, setToolName] = useState<string>(() => getPref<string>('playgroundTool', ''));
  const [initialArgs, setInitialArgs] = useState<Record<string, unknown> | undefined>(undefined);
  const [formKey, setFormKey] = useState(0);
  const [emulation, setEmulationState] = useState<Emulation>(initialEmulation);
  const [run, setRun] = useState<Run | null>(null);
  const [debug, setDebug] = useState<DebugState>(emptyDebug);
  const [mode, setMode] = useState<'direct' | 'chat'>('direct');
  const [shotBusy, setShotBusy] = useState(false);
  const [shotError, setShotError] = useState<string | null>(null);
  const formRef = useRef<SchemaFormHandle>(null);
  const runs = useRef(0);

  const setEmulation = (e: Emulation) => {
    setEmulationState(e);
    setPref('playgroundEmulation', e);
  };

  // The server: the remembered one while connected, else the first connected one.
  useEffect(() => {
    if (connected.length && !connected.includes(server)) setServer(connected[0]);
  }, [connected, server]);

  useEffect(() => {
    if (!server) return;
    setPref('playgroundServer', server);
    let live = true;
    setTools(null);
    setToolsError(null);
    serverTools(server).then(
      (all) => live && setTools(all.filter((t) => uiLink(t))),
      (e) => live && setToolsError(errorMessage(e)),
    );
    return () => {
      live = false;
    };
  }, [server]);

  useEffect(() => {
    if (tools && tools.length && !tools.some((t) => t.name === toolName)) setToolName(tools[0].name);
  }, [tools, toolName]);
  useEffect(() => {
    if (toolName) setPref('playgroundTool', toolName);
  }, [toolName]);

  const tool = tools?.find((t) => t.name === toolName) ?? null;
  const link = uiLink(tool);

  const start = useCallback(
    async (args: Record<string, unknown>) => {
      if (!tool || !server) return;
      const n = ++runs.current;
      const callId = newCallId();
      setRun({ n, callId, args });
      setDebug({ ...emptyDebug(), args });
      try {
        const out = await api.callTool(server, { name: tool.name, arguments: args, callId });
        if (runs.current !== n) return;
        const result = out.error ? undefined : ((out.result as Record<string, unknown> | null) ?? null);
        const error = out.error ? out.error.message : undefined;
        setRun((r) => (r && r.n === n ? { ...r, result, error } : r));
        setDebug((d) => ({ ...d, result: (result as Record<string, any> | null) ?? null, error: error ?? null }));
      } catch (e) {
        if (runs.current !== n) return;
        setRun((r) => (r && r.n === n ? { ...r, error: errorMessage(e) } : r));
        setDebug((d) => ({ ...d, error: errorMessage(e) }));
      }
    },
    [tool, server],
  );

  const runNow = useCallback(() => {
    const args = formRef.current?.submit();
    if (args) void start(args);
  }, [start]);

  // "r" re-runs (outside text fields), like a reload key.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (e.key !== 'r' || e.ctrlKey || e.metaKey || e.altKey || mode !== 'direct') return;
      if (t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName))) return;
      e.preventDefault();
      runNow();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [runNow, mode]);

  const onBridgeMessage = useCallback((m: BridgeMessage) => {
    setDebug((d) => ({ ...d, messages: d.messages.length >= MAX_MESSAGES ? [...d.messages.slice(1), m] : [...d.messages, m] }));
  }, []);
  const onHostContext = useCallback((ctx: Record<string, unknown>) => {
    setDebug((d) => ({ ...d, hostContext: { ...d.hostContext, ...ctx }, hostContextChanges: Object.keys(d.hostContext).length ? d.hostContextChanges + 1 : 0 }));
  }, []);
  const onDiagnostics = useCallback((diagnostics: AppDiagnostics) => setDebug((d) => ({ ...d, diagnostics })), []);
  const onWidgetState = useCallback((state: unknown) => setDebug((d) => ({ ...d, widgetState: { at: performance.now(), value: state } })), []);
  const onModelContext = useCallback((value: unknown) => setDebug((d) => ({ ...d, modelContext: [...d.modelContext, { at: performance.now(), value }] })), []);

  const loadScenario = (s: AppScenario) => {
    if (s.server !== server) setServer(s.server);
    setToolName(s.tool);
    setInitialArgs(s.arguments as Record<string, unknown>);
    setFormKey((k) => k + 1);
    const saved = s.conditions as Partial<Emulation>;
    if (saved && saved.conditions) setEmulation({ ...emulation, ...saved, conditions: { ...defaultConditions(), ...saved.conditions } } as Emulation);
    void start(s.arguments as Record<string, unknown>);
  };

  const takeScreenshot = async () => {
    if (!tool) return;
    setShotBusy(true);
    setShotError(null);
    try {
      await screenshot({
        server,
        tool: tool.name,
        arguments: run?.args ?? formRef.current?.submit() ?? {},
        conditions: emulation.conditions as unknown as Record<string, unknown>,
        width: emulation.width,
        height: emulation.height,
      });
    } catch (e) {
      setShotError(errorMessage(e));
    } finally {
      setShotBusy(false);
    }
  };

  const c = emulation.conditions;
  const conditions: HostConditions = useMemo(() => ({ ...c, width: emulation.width }), [c, emulation.width]);

  if (servers && connected.length === 0) {
    return (
      <EmptyState title="No connected server" testId="playground-no-server">
        Connect a server with tools that have a UI (the built-in demo server has several) on the Servers page.
      </EmptyState>
    );
  }

  return (
    <div className="playground" data-testid="playground-page">
      <aside className="pg-left">
        <label className="pg-field">
          <span>Server</span>
          <select value={server} onChange={(e) => setServer(e.target.value)} data-testid="pg-server">
            {connected.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        {toolsError && <div className="inline-error small">{toolsError}</div>}
        {tools && tools.length === 0 && <p className="small muted">This server has no tool with a UI.</p>}
        {tools && tools.length > 0 && (
          <label className="pg-field">
            <span>Tool with a UI</span>
            <select value={toolName} onChange={(e) => setToolName(e.target.value)} data-testid="pg-tool">
              {tools.map((t) => (
                <option key={t.name} value={t.name}>
                  {t.title ? `${t.title} (${t.name})` : t.name}
                </option>
              ))}
            </select>
          </label>
        )}
        {tool && (
          <>
            <div className="small muted mono pg-uri">{link?.uri}</div>
            <SchemaForm key={`${tool.name}#${formKey}`} ref={formRef} schema={tool.inputSchema} initial={initialArgs} onSubmitShortcut={runNow} testId="pg-form" />
            <div className="pg-actions">
              <Button variant="primary" onClick={runNow} data-testid="pg-run" title="Ctrl+Enter in the form, or r anywhere else">
                {run ? 'Re-run' : 'Run'}
              </Button>
              <span className="small muted">no model, no tokens · key: r</span>
            </div>
            <Scenarios
              current={{ server, tool: tool.name, arguments: () => formRef.current?.submit() ?? run?.args ?? {}, conditions: emulation }}
              onLoad={loadScenario}
            />
          </>
        )}
        <div className="section-label small pg-emu-label">Host emulation (applied live)</div>
        <EmulationBar value={emulation} onChange={setEmulation} />
      </aside>
      <section className="pg-center">
        <div className="pg-toolbar">
          <div className="pg-mode" role="group" aria-label="Mode">
            <button type="button" className={mode === 'direct' ? 'active' : ''} aria-pressed={mode === 'direct'} onClick={() => setMode('direct')} data-testid="pg-mode-direct">
              Direct
            </button>
            <button type="button" className={mode === 'chat' ? 'active' : ''} aria-pressed={mode === 'chat'} onClick={() => setMode('chat')} data-testid="pg-mode-chat">
              Chat
            </button>
          </div>
          <span className="small muted">
            {emulation.width}×{emulation.height} · {c.theme} · {c.locale} · {c.timeZone}
          </span>
          {c.cspMode === 'permissive' && (
            <span className="badge badge-err" data-testid="pg-csp-permissive" title="Every origin is allowed: not what a real host does. Switch back before you ship.">
              permissive CSP
            </span>
          )}
          {debug.diagnostics && (
            <span className="small muted" data-testid="pg-app-status" data-status={debug.diagnostics.status}>
              app {debug.diagnostics.status}
            </span>
          )}
          {run && (
            <button type="button" className="linkish small" data-testid="pg-close" onClick={() => setRun(null)}>
              close app
            </button>
          )}
          <span className="spacer" />
          <Button small onClick={takeScreenshot} busy={shotBusy} disabled={!tool} data-testid="pg-screenshot" title="Renders this input under these conditions in headless Chromium and saves a PNG">
            Screenshot PNG
          </Button>
        </div>
        {shotError && (
          <div className="inline-error small" data-testid="pg-screenshot-error">
            {shotError}
          </div>
        )}
        <HostConditionsContext.Provider value={conditions}>
          {mode === 'chat' ? (
            <PlaygroundChat server={server} />
          ) : (
            <div className="pg-stage" tabIndex={0} aria-label="Emulated device">
              <div
                className={`device device-${c.theme}`}
                data-testid="pg-device"
                dir={isRtl(c.locale) ? 'rtl' : 'ltr'}
                style={{ width: emulation.width, minHeight: Math.min(emulation.height, 1400) }}
              >
                <div className="device-screen" style={{ height: emulation.height }}>
                  {run && tool && link ? (
                    <AppFrame
                      key={run.n}
                      server={server}
                      tool={tool}
                      link={link}
                      callId={run.callId}
                      args={run.args}
                      result={run.result ?? undefined}
                      cancelled={run.error}
                      conditions={conditions}
                      chromeless
                      onBridgeMessage={onBridgeMessage}
                      onHostContext={onHostContext}
                      onDiagnostics={onDiagnostics}
                      onWidgetState={onWidgetState}
                      onModelContext={onModelContext}
                    />
                  ) : (
                    <div className="pg-placeholder muted small" data-testid="pg-placeholder">
                      Run the tool to see its app here.
                    </div>
                  )}
                  <SafeAreaOverlay insets={c.safeArea} />
                </div>
              </div>
            </div>
          )}
        </HostConditionsContext.Provider>
      </section>
      <aside className="pg-right">
        {mode === 'chat' ? (
          <p className="small muted pg-debug-note" data-testid="pg-debug-chat-note">
            The debug panels follow direct runs. In chat mode, each app is in its tool card (its traffic in the Traffic panel); model context and widget state show above the message box.
          </p>
        ) : (
          <DebugPanels debug={debug} />
        )}
      </aside>
    </div>
  );
}

function SafeAreaOverlay({ insets }: { insets: HostConditions['safeArea'] }) {
  const parts = (['top', 'right', 'bottom', 'left'] as const).filter((k) => insets[k] > 0);
  return (
    <>
      {parts.map((k) => (
        <div key={k} className={`safe-area safe-area-${k}`} style={{ [k === 'top' || k === 'bottom' ? 'height' : 'width']: insets[k] }} data-testid={`pg-safe-area-${k}`} title={`safe area ${k}: ${insets[k]} px`} />
      ))}
    </>
  );
}

/** Chat mode: a chat session with this server's tools, its apps under the emulation above. */
function PlaygroundChat({ server }: { server: string }) {
  const providers = useProviders();
  const [id, setId] = useState<string | null>(() => getPref<string | null>(`playgroundChat:${server}`, null));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void reloadProviders();
  }, []);
  useEffect(() => {
    if (id || !providers.list) return;
    const settings: ChatSettings = { model: defaultModel(providers.list, getPref<string | null>('chatModel', null)), servers: [server] };
    api.createSession({ title: `Playground · ${server}`, settings }).then(
      (view) => {
        upsertSession(view.summary);
        setPref(`playgroundChat:${server}`, view.summary.id);
        setId(view.summary.id);
      },
      (e) => setError(errorMessage(e)),
    );
  }, [id, providers.list, server]);
  if (error) return <div className="inline-error small">Could not start a chat: {error}</div>;
  if (!id) return <div className="muted small">Starting a chat…</div>;
  const noModel = providers.list !== null && !providers.list.some((p) => p.usable);
  return (
    <div className="pg-chat" data-testid="pg-chat">
      <SessionPane key={id} id={id} providers={providers.list ?? []} noModel={noModel} />
    </div>
  );
}


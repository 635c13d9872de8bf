// The app playground: pick a server and a tool with a UI, fill its input, run it directly (no
// model, no tokens) and see its app on an emulated device (`DeviceStage`) under emulated host
// conditions (`EmulationBar`), changed live; debug panels beside it; saved scenarios; a
// screenshot rendered headless under the same conditions; and a chat mode where the model
// drives the same app under the same emulation. This file only lays the parts out and
// connects them: picking the default tool is `defaultTool.ts`, a run is `usePlaygroundRun.ts`.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Tool } from '../api/client';
import { errorMessage } from '../api/client';
import { useServerList } from '../api/queries';
import type { AppScenario } from '../api/types.gen';
import { HostConditionsContext } from '../apps/conditionsContext';
import { defaultConditions, type HostConditions } from '../apps/host';
import { AppFrame } from '../apps/lazy';
import { uiLink } from '../apps/linkage';
import { useServers } from '../servers/store';
import { getPref, setPref, usePref } from '../settings/prefs';
import { Button } from '../ui/Button';
import type { SchemaFormHandle } from '../ui/SchemaForm';
import { EmptyState } from '../ui/States';
import { DebugPanels } from './DebugPanels';
import { pickTool, type Outcomes } from './defaultTool';
import { DeviceStage } from './DeviceStage';
import { DEVICES, emulationFor, type Emulation } from './devices';
import { EmulationBar } from './EmulationBar';
import { HostPicker } from './HostPicker';
import { PlaygroundChat } from './PlaygroundChat';
import { screenshot } from './screenshot';
import { ToolPanel } from './ToolPanel';
import { OUTCOMES_PREF, usePlaygroundRun } from './usePlaygroundRun';
import { ZOOM_STEPS, parseZoom, type Zoom } from './zoom';
import './playground.css';

const CHOSEN_PREF = 'playgroundTools';

function initialEmulation(): Emulation {
  const saved = getPref<Emulation | null>('playgroundEmulation', null);
  if (saved && saved.conditions && typeof saved.width === 'number') return { ...saved, conditions: { ...defaultConditions(), ...saved.conditions } };
  return emulationFor(DEVICES[0], defaultConditions());
}

/** The server (remembered while connected, else the first connected) and its tools with a UI,
 * with the tool shown: the person's pick, else the first that works (`pickTool`). */
function useToolChoice(connected: string[]) {
  const [server, setServer] = useState<string>(() => getPref<string>('playgroundServer', ''));
  useEffect(() => {
    if (connected.length && !connected.includes(server)) setServer(connected[0]);
  }, [connected, server]);
  useEffect(() => {
    if (server) setPref('playgroundServer', server);
  }, [server]);
  const list = useServerList(server || null, 'tools');
  const tools = useMemo(() => (list.data ? list.data.filter((t) => uiLink(t)) : null), [list.data]);
  const [toolName, setToolName] = useState<string | null>(null);
  useEffect(() => {
    if (!tools || tools.some((t) => t.name === toolName)) return;
    const chosen = getPref<Record<string, string>>(CHOSEN_PREF, {})[server] ?? null;
    setToolName(pickTool(server, tools, chosen, getPref<Outcomes>(OUTCOMES_PREF, {})));
  }, [server, tools, toolName]);
  const choose = (name: string) => {
    setToolName(name);
    setPref(CHOSEN_PREF, { ...getPref<Record<string, string>>(CHOSEN_PREF, {}), [server]: name });
  };
  const tool: Tool | null = tools?.find((t) => t.name === toolName) ?? null;
  return { server, setServer, tools, toolsError: list.error, tool, setToolName, choose };
}

export function PlaygroundPage() {
  const { list: servers } = useServers();
  const connected = useMemo(() => (servers ?? []).filter((s) => s.status.state === 'connected').map((s) => s.config.name), [servers]);
  const choice = useToolChoice(connected);
  const { server, tool } = choice;
  const link = uiLink(tool);
  const [initialArgs, setInitialArgs] = useState<Record<string, unknown> | undefined>(undefined);
  const [formKey, setFormKey] = useState(0);
  const [emulation, setEmulationState] = useState<Emulation>(initialEmulation);
  const zoom = parseZoom(usePref<Zoom>('playgroundZoom', 'fit'));
  const [fit, setFit] = useState(1);
  const [mode, setMode] = useState<'direct' | 'chat'>('direct');
  const [shotBusy, setShotBusy] = useState(false);
  const [shotError, setShotError] = useState<string | null>(null);
  const formRef = useRef<SchemaFormHandle>(null);
  const { run, debug, start, close, observers } = usePlaygroundRun();

  const setEmulation = (e: Emulation) => {
    setEmulationState(e);
    setPref('playgroundEmulation', e);
  };

  const runNow = useCallback(() => {
    const args = formRef.current?.submit();
    if (args && tool) void start(server, tool.name, args);
  }, [start, server, tool]);

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

  const loadScenario = (s: AppScenario) => {
    if (s.server !== server) choice.setServer(s.server);
    choice.setToolName(s.tool);
    setInitialArgs(s.arguments as Record<string, unknown>);
    setFormKey((k) => k + 1);
    const saved = s.conditions as Partial<Emulation>;
    if (saved && saved.conditions) setEmulation({ ...emulation, ...saved, conditions: { ...defaultConditions(), ...saved.conditions } } as Emulation);
    void start(s.server, s.tool, s.arguments as Record<string, unknown>);
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
  const shown = run && tool && link && run.server === server && run.tool === tool.name ? run : null;
  const diagnostics = shown ? debug.diagnostics : null;

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
        <ToolPanel
          servers={connected}
          server={server}
          onServer={choice.setServer}
          tools={choice.tools}
          toolsError={choice.toolsError}
          tool={tool}
          link={link}
          onTool={choice.choose}
          formRef={formRef}
          formKey={`${tool?.name}#${formKey}`}
          initialArgs={initialArgs}
          hasRun={!!run}
          onRun={runNow}
          emulation={emulation}
          lastArgs={run?.args}
          onScenario={loadScenario}
        />
        <div className="section-label small pg-emu-label">Host emulation (applied live)</div>
        <HostPicker value={emulation} onChange={setEmulation} />
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
          <span className="small muted pg-summary">
            {emulation.width}×{emulation.height} · {c.theme} · {c.locale} · {c.timeZone}
          </span>
          {mode === 'direct' && (
            <label className="pg-zoom small" title="Scales the device on the stage; the app keeps its emulated size">
              <span>Zoom</span>
              <select value={String(zoom)} data-testid="pg-zoom" onChange={(e) => setPref('playgroundZoom', e.target.value === 'fit' ? 'fit' : Number(e.target.value))}>
                <option value="fit">Fit ({Math.round(fit * 100)} %)</option>
                {ZOOM_STEPS.map((z) => (
                  <option key={z} value={String(z)}>
                    {Math.round(z * 100)} %
                  </option>
                ))}
              </select>
            </label>
          )}
          {c.cspMode === 'permissive' && (
            <span className="badge badge-err" data-testid="pg-csp-permissive" title="Every origin is allowed: not what a real host does. Switch back before you ship.">
              permissive CSP
            </span>
          )}
          {diagnostics && (
            <span className="small muted" data-testid="pg-app-status" data-status={diagnostics.status}>
              app {diagnostics.status}
            </span>
          )}
          {run && (
            <button type="button" className="linkish small" data-testid="pg-close" onClick={close}>
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
        {mode === 'direct' && (diagnostics?.error || diagnostics?.notice) && (
          <div className="pg-notices small" data-testid="pg-notices">
            {diagnostics.error && (
              <div className="inline-error" data-testid="app-error" role="alert">
                {diagnostics.error}
              </div>
            )}
            {diagnostics.notice && (
              <div className="app-notice" data-testid="app-notice" role="status">
                {diagnostics.notice}
              </div>
            )}
          </div>
        )}
        <HostConditionsContext.Provider value={conditions}>
          {mode === 'chat' ? (
            <PlaygroundChat server={server} />
          ) : (
            <DeviceStage width={emulation.width} height={emulation.height} theme={c.theme} safeArea={c.safeArea} zoom={zoom} onFit={setFit}>
              {shown && tool && link ? (
                <AppFrame
                  key={shown.n}
                  server={server}
                  tool={tool}
                  link={link}
                  callId={shown.callId}
                  args={shown.args}
                  result={shown.result ?? undefined}
                  cancelled={shown.error}
                  conditions={conditions}
                  chromeless
                  {...observers}
                />
              ) : (
                <div className="pg-placeholder muted small" data-testid="pg-placeholder">
                  Run the tool to see its app here.
                </div>
              )}
            </DeviceStage>
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

// The app playground: pick a server and a tool with a UI, fill its input, run it directly (no
// model, no tokens) and see its app on an emulated device under emulated host conditions,
// changed live; debug panels beside it; saved scenarios; a screenshot rendered headless under
// the same conditions; and a chat mode where the model drives the same app under the same
// emulation. This file only lays the parts out and connects them: the server and tool shown
// are `useToolChoice.ts`, the input form and scenarios `useToolInput.ts`, the emulation
// `useEmulation.ts`, a run `usePlaygroundRun.ts`, the "r" key `useRerunKey.ts`, the toolbar
// `PlaygroundToolbar.tsx`, the stage `PlaygroundStage.tsx`. The shell keeps this page mounted
// (hidden, `active` false) while another page is shown, so a running app, its state and its
// bridge log are still there on return; hidden, it takes no keys.
import { useMemo, useRef, useState } from 'react';
import type { HostConditions } from '../apps/host';
import { uiLink } from '../apps/linkage';
import { useServers } from '../servers/store';
import { usePref } from '../settings/prefs';
import { EmptyState } from '../ui/States';
import { DebugPanels } from './DebugPanels';
import { EmulationBar } from './EmulationBar';
import { HostPicker } from './HostPicker';
import { PlaygroundStage } from './PlaygroundStage';
import { PlaygroundToolbar, type PlaygroundMode } from './PlaygroundToolbar';
import { ToolPanel } from './ToolPanel';
import { useEmulation } from './useEmulation';
import { usePlaygroundRun } from './usePlaygroundRun';
import { useRerunKey } from './useRerunKey';
import { useToolChoice } from './useToolChoice';
import { useToolInput } from './useToolInput';
import { usePlaygroundRoute } from './usePlaygroundRoute';
import { parseZoom, type Zoom } from './zoom';
import './playground.css';

export function PlaygroundPage({ active = true }: { active?: boolean }) {
  const { list: servers } = useServers();
  const connected = useMemo(() => (servers ?? []).filter((s) => s.status.state === 'connected').map((s) => s.config.name), [servers]);
  const choice = useToolChoice(connected);
  const { server, tool } = choice;
  const link = uiLink(tool);
  const [emulation, setEmulation] = useEmulation();
  const zoom = parseZoom(usePref<Zoom>('playgroundZoom', 'fit'));
  const [fit, setFit] = useState(1);
  const [mode, setMode] = useState<PlaygroundMode>('direct');
  const { run, debug, start, close, observers } = usePlaygroundRun();
  const input = useToolInput({ ...choice, emulation, setEmulation, start });
  useRerunKey(active && mode === 'direct', input.runNow);
  usePlaygroundRoute({ active, server, tool: tool?.name ?? null, emulation, setServer: choice.setServer, choose: choice.choose, setEmulation });

  const c = emulation.conditions;
  const conditions: HostConditions = useMemo(() => ({ ...c, width: emulation.width }), [c, emulation.width]);
  const shown = run && tool && link && run.server === server && run.tool === tool.name ? { run, tool, link } : null;
  const diagnostics = shown ? debug.diagnostics : null;
  const screenshotSpec = tool
    ? () => ({
        server,
        tool: tool.name,
        arguments: run?.args ?? input.formRef.current?.submit() ?? {},
        conditions: c,
        width: emulation.width,
        height: emulation.height,
      })
    : null;

  // Stacked (phone width), the stage sits below the controls: Run brings it into view.
  const center = useRef<HTMLElement>(null);
  const runAndShow = () => {
    input.runNow();
    const stage = center.current;
    if (stage && stage.getBoundingClientRect().top > window.innerHeight / 2) stage.scrollIntoView({ block: 'start' });
  };

  if (servers && connected.length === 0) {
    return (
      <EmptyState page="playground" title="No connected server" testId="playground-no-server">
        Connect a server with tools that have a UI (the built-in demo server has several) on the Servers page.
      </EmptyState>
    );
  }

  return (
    <div className="playground" data-testid="playground-page">
      <aside className="pg-left" aria-label="Tool and host emulation">
        <ToolPanel
          servers={connected}
          server={server}
          onServer={choice.setServer}
          tools={choice.tools}
          toolsError={choice.toolsError}
          tool={tool}
          link={link}
          onTool={choice.choose}
          formRef={input.formRef}
          formKey={input.formKey}
          initialArgs={input.initialArgs}
          hasRun={!!run}
          onRun={runAndShow}
          emulation={emulation}
          lastArgs={run?.args}
          onScenario={input.loadScenario}
        />
        <div className="section-label small pg-emu-label">Host emulation (applied live)</div>
        <HostPicker value={emulation} onChange={setEmulation} />
        <EmulationBar value={emulation} onChange={setEmulation} />
      </aside>
      <section className="pg-center" ref={center}>
        <PlaygroundToolbar mode={mode} onMode={setMode} emulation={emulation} zoom={zoom} fit={fit} diagnostics={diagnostics} hasRun={!!run} onClose={close} screenshotSpec={screenshotSpec} />
        <PlaygroundStage mode={mode} server={server} emulation={emulation} conditions={conditions} zoom={zoom} onFit={setFit} shown={shown} diagnostics={diagnostics} observers={observers} />
      </section>
      <aside className="pg-right" aria-label="Debug panels">
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

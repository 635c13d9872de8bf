// The middle of the playground below its toolbar: the shown app's error and notice, then either
// the emulated device with the app of the newest direct run (or a placeholder) or, in chat
// mode, the playground chat, all under the emulated host conditions. Must not run tools.
import type { Tool } from '../api/client';
import type { AppDiagnostics, AppFrameProps } from '../apps/AppFrame';
import { HostConditionsContext } from '../apps/conditionsContext';
import type { HostConditions } from '../apps/host';
import { AppFrame } from '../apps/lazy';
import type { UiLink } from '../apps/linkage';
import { DeviceStage } from './DeviceStage';
import { PlaygroundChat } from './PlaygroundChat';
import type { Emulation } from './devices';
import type { PlaygroundMode } from './PlaygroundToolbar';
import type { Run } from './usePlaygroundRun';
import type { Zoom } from './zoom';

type Observers = Pick<AppFrameProps, 'onBridgeMessage' | 'onHostContext' | 'onDiagnostics' | 'onWidgetState' | 'onModelContext'>;

export interface PlaygroundStageProps {
  mode: PlaygroundMode;
  server: string;
  emulation: Emulation;
  conditions: HostConditions;
  zoom: Zoom;
  onFit: (scale: number) => void;
  /** The run whose app is shown, with its tool and UI link; null: the placeholder. */
  shown: { run: Run; tool: Tool; link: UiLink } | null;
  diagnostics: AppDiagnostics | null;
  observers: Observers;
}

export function PlaygroundStage({ mode, server, emulation, conditions, zoom, onFit, shown, diagnostics, observers }: PlaygroundStageProps) {
  const c = emulation.conditions;
  return (
    <>
      {mode === 'direct' && <AppNotices diagnostics={diagnostics} />}
      <HostConditionsContext.Provider value={conditions}>
        {mode === 'chat' ? (
          <PlaygroundChat server={server} />
        ) : (
          <DeviceStage width={emulation.width} height={emulation.height} theme={c.theme} safeArea={c.safeArea} zoom={zoom} onFit={onFit}>
            {shown ? (
              <AppFrame
                key={shown.run.n}
                server={server}
                tool={shown.tool}
                link={shown.link}
                callId={shown.run.callId}
                args={shown.run.args}
                result={shown.run.result ?? undefined}
                cancelled={shown.run.error}
                conditions={conditions}
                chromeless
                {...observers}
              />
            ) : (
              <div className="pg-placeholder small" data-testid="pg-placeholder">
                Run the tool to see its app here.
              </div>
            )}
          </DeviceStage>
        )}
      </HostConditionsContext.Provider>
    </>
  );
}

/** What the host says beside the app: its error, and its notice (a refused request …). */
function AppNotices({ diagnostics }: { diagnostics: AppDiagnostics | null }) {
  if (!diagnostics?.error && !diagnostics?.notice) return null;
  return (
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
  );
}

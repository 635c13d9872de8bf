// The bar above the playground's stage: Direct/Chat mode, a summary of the emulation, the zoom
// (kept in prefs), the permissive-CSP warning, the app's status, "close app", and the
// screenshot (a headless render of the same input under the same conditions, saved as a PNG)
// with its error. Must not run tools or hold the emulation: the page hands both in.
import { useState } from 'react';
import { errorMessage } from '../api/client';
import type { AppRenderSpec } from '../api/types.gen';
import type { AppDiagnostics } from '../apps/AppFrame';
import { setPref } from '../settings/prefs';
import { Button } from '../ui/Button';
import type { Emulation } from './devices';
import { screenshot } from './screenshot';
import { ZOOM_STEPS, type Zoom } from './zoom';

export type PlaygroundMode = 'direct' | 'chat';

export interface PlaygroundToolbarProps {
  mode: PlaygroundMode;
  onMode: (m: PlaygroundMode) => void;
  emulation: Emulation;
  zoom: Zoom;
  /** The scale "fit" means on the stage now. */
  fit: number;
  /** The shown app's diagnostics (null: no app shown). */
  diagnostics: AppDiagnostics | null;
  /** A run is open ("close app" closes it). */
  hasRun: boolean;
  onClose: () => void;
  /** What to render for the screenshot; null: no tool, the button is disabled. */
  screenshotSpec: (() => AppRenderSpec) | null;
}

export function PlaygroundToolbar({ mode, onMode, emulation, zoom, fit, diagnostics, hasRun, onClose, screenshotSpec }: PlaygroundToolbarProps) {
  const c = emulation.conditions;
  const shot = useScreenshot();
  return (
    <>
      <div className="pg-toolbar">
        <ModeSwitch mode={mode} onMode={onMode} />
        <span className="small muted pg-summary">
          {emulation.width}×{emulation.height} · {c.theme} · {c.locale} · {c.timeZone}
        </span>
        {mode === 'direct' && <ZoomSelect zoom={zoom} fit={fit} />}
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
        {hasRun && (
          <button type="button" className="linkish small" data-testid="pg-close" onClick={onClose}>
            close app
          </button>
        )}
        <span className="spacer" />
        <Button
          small
          onClick={() => void (screenshotSpec && shot.take(screenshotSpec()))}
          busy={shot.busy}
          disabled={!screenshotSpec}
          data-testid="pg-screenshot"
          title="Renders this input under these conditions in headless Chromium and saves a PNG"
        >
          Screenshot PNG
        </Button>
      </div>
      {shot.error && (
        <div className="inline-error small" data-testid="pg-screenshot-error">
          {shot.error}
        </div>
      )}
    </>
  );
}

function ModeSwitch({ mode, onMode }: { mode: PlaygroundMode; onMode: (m: PlaygroundMode) => void }) {
  return (
    <div className="pg-mode" role="group" aria-label="Mode">
      <button type="button" className={mode === 'direct' ? 'active' : ''} aria-pressed={mode === 'direct'} onClick={() => onMode('direct')} data-testid="pg-mode-direct">
        Direct
      </button>
      <button type="button" className={mode === 'chat' ? 'active' : ''} aria-pressed={mode === 'chat'} onClick={() => onMode('chat')} data-testid="pg-mode-chat">
        Chat
      </button>
    </div>
  );
}

function ZoomSelect({ zoom, fit }: { zoom: Zoom; fit: number }) {
  return (
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
  );
}

/** One screenshot at a time: busy while it renders, its error until the next one. */
function useScreenshot() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const take = async (spec: AppRenderSpec) => {
    setBusy(true);
    setError(null);
    try {
      await screenshot(spec);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, take };
}

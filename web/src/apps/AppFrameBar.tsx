// The bar above a rendered app: what it is (MCP App or ChatGPT widget), its URI, warnings
// that change what the app may do (a shared origin, a permissive CSP) and the host's own
// controls (fullscreen / back inline, close, reload). Stateless: the frame passes everything.
import type { DisplayMode } from './host';
import type { UiKind } from './linkage';

export interface AppFrameBarProps {
  kind: UiKind;
  uri: string;
  csp: string;
  shared: boolean;
  permissive: boolean;
  status: string;
  mode: DisplayMode;
  canFullscreen: boolean;
  failed: boolean;
  onMode: (mode: DisplayMode) => void;
  onClose: () => void;
  onReload: () => void;
}

export function AppFrameBar(p: AppFrameBarProps) {
  const widget = p.kind === 'openaiWidget';
  return (
    <div className="app-frame-bar">
      <span className={`badge ${widget ? 'badge-info' : 'badge-ok'}`}>{widget ? 'ChatGPT widget' : 'MCP App'}</span>
      <span className="mono small app-frame-uri" title={p.csp}>
        {p.uri}
      </span>
      {p.shared && (
        <span
          className="badge badge-warn"
          data-testid="app-origin-shared"
          title="mcplab listens on a non-loopback --host, so every app shares one origin on the UI's site: apps on the same page are not isolated from each other."
        >
          shared origin
        </span>
      )}
      {p.permissive && (
        <span className="badge badge-err" data-testid="app-csp-permissive" title="Every origin is allowed: not what a real host does">
          permissive CSP
        </span>
      )}
      <span className="spacer" />
      {p.status === 'ready' && p.mode !== 'inline' && (
        <button type="button" className="linkish small" data-testid="app-inline" onClick={() => p.onMode('inline')}>
          back inline
        </button>
      )}
      {p.status === 'ready' && p.mode === 'inline' && p.canFullscreen && (
        <button type="button" className="linkish small" data-testid="app-fullscreen" onClick={() => p.onMode('fullscreen')}>
          fullscreen
        </button>
      )}
      {p.status !== 'closed' && p.status !== 'failed' && (
        <button type="button" className="linkish small" data-testid="app-close" onClick={p.onClose}>
          close
        </button>
      )}
      {(p.status === 'closed' || p.status === 'failed' || p.failed) && (
        <button type="button" className="linkish small" data-testid="app-reload" onClick={p.onReload}>
          reload
        </button>
      )}
    </div>
  );
}

// The traffic panel's head: how many frames are shown (of how many), frames the server's ring
// dropped, and the actions on the recording — pause/resume, clear (the filtered server's or
// every server's), export of the shown frames, open a `mcplab tap` recording, close. It shows
// an action's failure itself.
import { useRef, useState } from 'react';
import { Download, Eraser, FolderOpen, Pause, Play, X } from 'lucide-react';
import { api, errorMessage } from '../api/client';
import { useServers } from '../servers/store';
import { Button } from '../ui/Button';
import { download } from '../ui/CopyButton';
import type { FrameRow } from './frames';
import { clearTraffic, editTrafficFilter, index, loadAllTraffic, setPaused, useTraffic, useTrafficFilter } from './store';
import { useTaps } from './taps';

export function TrafficToolbar({ rows, onCleared, onClose }: { rows: FrameRow[]; onCleared: () => void; onClose?: () => void }) {
  const state = useTraffic();
  const filter = useTrafficFilter();
  const { list } = useServers();
  const taps = useTaps();
  const [actionError, setActionError] = useState<string | null>(null);
  const picker = useRef<HTMLInputElement>(null);

  const doClear = async () => {
    setActionError(null);
    const names = filter.server ? [filter.server] : [...(list ?? []).map((v) => v.config.name), ...taps.map((t) => t.key)];
    try {
      await clearTraffic(names);
      onCleared();
    } catch (e) {
      setActionError(errorMessage(e));
    }
  };
  const doOpen = async (file: File | undefined) => {
    if (!file) return;
    setActionError(null);
    try {
      const opened = await api.openRecording(await file.text());
      await loadAllTraffic();
      const first = opened.sessions[0];
      if (first) editTrafficFilter({ server: first.key });
    } catch (e) {
      setActionError(`${file.name}: ${errorMessage(e)}`);
    } finally {
      if (picker.current) picker.current.value = '';
    }
  };
  const doExport = () => download(`mcplab-traffic-${new Date().toISOString().replace(/[:.]/g, '-')}.json`, JSON.stringify(rows.map((r) => r.frame), null, 2));

  return (
    <>
      <div className="traffic-head">
        <h2 className="panel-title">Traffic</h2>
        <span className="muted small" data-testid="traffic-count">
          {rows.length.toLocaleString()}
          {rows.length !== index.rows.length && ` / ${index.rows.length.toLocaleString()}`} frames
        </span>
        {state.dropped > 0 && (
          <span className="badge badge-warn" title="Older frames evicted from the server's ring buffer">
            {state.dropped} dropped
          </span>
        )}
        <span className="spacer" />
        <Button small variant={state.paused ? 'primary' : 'ghost'} onClick={() => setPaused(!state.paused)} data-testid="traffic-pause" aria-pressed={state.paused}>
          {state.paused ? <Play size={13} aria-hidden="true" /> : <Pause size={13} aria-hidden="true" />}
          {state.paused ? `Resume${state.held ? ` (${state.held})` : ''}` : 'Pause'}
        </Button>
        <Button small variant="ghost" onClick={doClear} data-testid="traffic-clear" aria-label="Clear" title="Clear the recording">
          <Eraser size={13} aria-hidden="true" /> <span className="btn-label">Clear</span>
        </Button>
        <Button small variant="ghost" onClick={doExport} disabled={!rows.length} data-testid="traffic-export" aria-label="Export" title="Export the shown frames as JSON">
          <Download size={13} aria-hidden="true" /> <span className="btn-label">Export</span>
        </Button>
        <Button small variant="ghost" onClick={() => picker.current?.click()} data-testid="traffic-open" aria-label="Open" title="Open a recording (mcplab tap --record FILE, or an export)">
          <FolderOpen size={13} aria-hidden="true" /> <span className="btn-label">Open</span>
        </Button>
        <input ref={picker} type="file" accept=".jsonl,.json,application/json" hidden onChange={(e) => void doOpen(e.target.files?.[0])} data-testid="traffic-open-file" />
        {onClose && (
          <Button small variant="ghost" onClick={onClose} aria-label="Close the traffic panel" data-testid="traffic-close">
            <X size={14} aria-hidden="true" />
          </Button>
        )}
      </div>
      {actionError && (
        <div className="inline-error" role="alert">
          {actionError}
        </div>
      )}
    </>
  );
}

// A frame longer than the server's preview size reaches the panel truncated (`fullBytes` is its
// whole length). This says so plainly — how many bytes of how many — and fetches the whole text
// on request from `GET /api/servers/{name}/traffic/{seq}`, which has it while the frame is still
// in the ring. A frame too large for the traffic budget was kept truncated; that is said too.
// It only fetches and explains; drawing the body stays with `FrameDetail`.
import { useEffect, useState } from 'react';
import { Download } from 'lucide-react';
import { api, errorMessage } from '../api/client';
import type { TrafficFrame } from '../api/types.gen';
import { Button } from '../ui/Button';
import { utf8Length } from './frames';
import { fmtSize } from './time';

type Whole = { state: 'idle' } | { state: 'loading' } | { state: 'loaded'; frame: TrafficFrame } | { state: 'failed'; message: string };

/** The whole frame once fetched, the fetch, and where it stands. */
export function useWholeFrame(frame: TrafficFrame): { whole: Whole; load: () => void } {
  const [whole, setWhole] = useState<Whole>({ state: 'idle' });
  useEffect(() => setWhole({ state: 'idle' }), [frame.server, frame.seq]);
  const load = () => {
    setWhole({ state: 'loading' });
    api.trafficFrame(frame.server, frame.seq).then(
      (f) => setWhole({ state: 'loaded', frame: f }),
      (e) => setWhole({ state: 'failed', message: errorMessage(e) }),
    );
  };
  return { whole, load };
}

const bytes = (n: number) => `${n.toLocaleString('en')} bytes${n >= 1024 ? ` (${fmtSize(n)})` : ''}`;

/** The truncation notice of `frame` (nothing for a frame that came whole). */
export function TruncationNotice({ frame, whole, load }: { frame: TrafficFrame; whole: Whole; load: () => void }) {
  if (frame.fullBytes === undefined) return null;
  const shown = utf8Length(frame.text);
  if (whole.state === 'loaded') {
    const kept = whole.frame.fullBytes === undefined ? null : utf8Length(whole.frame.text);
    return (
      <div className="frame-truncated" data-testid="frame-truncated" data-state="loaded">
        {kept === null
          ? `Showing the whole frame: ${bytes(frame.fullBytes)}.`
          : `mcplab kept only the first ${bytes(kept)} of this ${bytes(frame.fullBytes)} frame: it is larger than the whole traffic budget (raise it with --limit traffic=SIZE).`}
      </div>
    );
  }
  return (
    <div className="frame-truncated" data-testid="frame-truncated" data-state={whole.state}>
      <span>
        Truncated: showing the first {bytes(shown)} of {bytes(frame.fullBytes)}. Frames over the preview size (--limit preview=SIZE) are listed
        truncated; mcplab keeps the whole text while the frame is in its traffic ring.
      </span>
      {whole.state === 'failed' && (
        <span className="inline-error" data-testid="frame-whole-error">
          {whole.message}
        </span>
      )}
      <Button small onClick={load} disabled={whole.state === 'loading'} data-testid="frame-load-whole">
        <Download size={13} aria-hidden="true" /> {whole.state === 'loading' ? 'Loading…' : 'Load the whole frame'}
      </Button>
    </div>
  );
}

// A frame longer than the server's preview size reaches the panel truncated (`fullBytes` is its
// whole length). This says so plainly — how many bytes of how many — and fetches the whole text
// on request from `GET /api/servers/{name}/traffic/{seq}`, which has it while the frame is still
// in the ring. A frame too large for the traffic budget was kept truncated; that is said too.
// It only fetches and explains; drawing the body stays with `FrameDetail`. The whole frame is a
// query kept only while its frame is shown (`gcTime: 0`: whole frames can be megabytes).
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { api, errorMessage } from '../api/client';
import type { TrafficFrame } from '../api/types.gen';
import { Button } from '../ui/Button';
import { utf8Length } from './frames';
import { fmtSize } from './time';

type Whole = { state: 'idle' } | { state: 'loading' } | { state: 'loaded'; frame: TrafficFrame } | { state: 'failed'; message: string };

/** Where the whole frame stands: not asked for, on its way, or its answer. */
function wholeOf(requested: boolean, q: { isFetching: boolean; error: unknown; data?: TrafficFrame }): Whole {
  if (!requested) return { state: 'idle' };
  if (q.isFetching) return { state: 'loading' };
  if (q.error) return { state: 'failed', message: errorMessage(q.error) };
  return q.data ? { state: 'loaded', frame: q.data } : { state: 'loading' };
}

/** The whole frame once asked for, the ask, and where it stands; another frame starts idle. */
export function useWholeFrame(frame: TrafficFrame): { whole: Whole; load: () => void } {
  const id = `${frame.server}\n${frame.seq}`;
  const [asked, setAsked] = useState(false);
  // Showing another frame forgets the ask (coming back to this one asks again).
  const [shown, setShown] = useState(id);
  if (shown !== id) {
    setShown(id);
    setAsked(false);
  }
  const requested = asked && shown === id;
  const q = useQuery({
    queryKey: ['traffic', 'frame', frame.server, frame.seq],
    queryFn: () => api.trafficFrame(frame.server, frame.seq),
    enabled: requested,
    gcTime: 0,
  });
  return { whole: wholeOf(requested, q), load: () => (requested ? void q.refetch() : setAsked(true)) };
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

// A running call's progress: a bar when the server sent a total, an indeterminate one before.
import type { CallProgress } from './calls';

export function CallProgressBar({ progress }: { progress: CallProgress | null }) {
  const pct = progress?.total ? Math.min(100, (progress.progress / progress.total) * 100) : null;
  return (
    <div className="progress" data-testid="tool-progress" role="progressbar" aria-label="Call progress" aria-valuenow={progress?.progress} aria-valuemax={progress?.total ?? undefined}>
      <div className={`progress-bar${pct === null ? ' indeterminate' : ''}`} style={pct === null ? undefined : { width: `${pct}%` }} />
      <span className="progress-text small">
        {progress ? `${progress.progress}${progress.total ? ` / ${progress.total}` : ''}${progress.message ? ` · ${progress.message}` : ''}` : 'waiting for the server…'}
      </span>
    </div>
  );
}

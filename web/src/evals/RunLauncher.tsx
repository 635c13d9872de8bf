// The run launcher: models (blank: the suite's), repeat and concurrency; before a run starts
// anything, the commands it will start and the servers it will drive with approvals off, for
// the person to agree to (once per list: the server remembers); then the run's live progress
// from its event stream, a cancel button, and what ended it. A run's end refetches
// what it changed (`runEnded`: the runs, the trend, the run, compares) before `onEnded`.
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import { openSessionStream } from '../api/events';
import { Button } from '../ui/Button';
import { evalsApi, verdictWords, type EvalStreamEvent, type LaunchCheck, type Progress } from './api';
import { LaunchList } from './LaunchList';
import { runEnded } from './queries';

/** `onEnded` is a dependency of the run's stream: pass a stable function (a state setter). */
export function RunLauncher({ suite, onEnded }: { suite: string; onEnded: (runId: string) => void }) {
  const qc = useQueryClient();
  const [models, setModels] = useState('');
  const [repeat, setRepeat] = useState('');
  const [concurrency, setConcurrency] = useState('');
  const [runId, setRunId] = useState<string | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [ended, setEnded] = useState<string | null>(null);
  const [warnings, setWarnings] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState<LaunchCheck | null>(null);

  useEffect(() => {
    if (!runId) return;
    return openSessionStream<EvalStreamEvent>(evalsApi.eventsPath(runId), {
      onEvent: (e) => {
        if (e.kind === 'run') {
          const ev = e.event;
          if (ev.type === 'runStarted') setProgress({ finished: 0, planned: ev.planned, passed: 0, failed: 0, errored: 0 });
          if (ev.type === 'iterationFinished') setProgress(ev.progress);
          if (ev.type === 'warning') setWarnings((w) => [...w.slice(-9), ev.message]);
        } else if (e.kind === 'ended') {
          setEnded(e.status === 'cancelled' ? 'cancelled: the finished iterations are kept' : `finished: ${verdictWords(e.exitCode)}`);
          void runEnded(qc, runId);
          onEnded(runId);
        } else if (e.kind === 'failed') {
          setEnded(null);
          setError(e.message);
        }
      },
      onResync: () => {},
    });
  }, [runId, onEnded, qc]);

  const startWith = (confirm?: string) => {
    setAsking(null);
    const num = (s: string) => (s.trim() ? Number(s) : undefined);
    evalsApi
      .start({
        suite,
        models: models.split(/[\s,]+/).filter(Boolean),
        repeat: num(repeat),
        concurrency: num(concurrency),
        confirm,
      })
      .then((r) => setRunId(r.runId), (e) => setError(errorMessage(e)));
  };
  const start = () => {
    setError(null);
    setEnded(null);
    setProgress(null);
    setWarnings([]);
    evalsApi.launch(suite).then(
      (check) => (check.trusted ? startWith() : setAsking(check)),
      (e) => setError(errorMessage(e)),
    );
  };
  const running = !!runId && !ended && !error;
  return (
    <div className="evals-launcher" data-testid="evals-launcher">
      <div className="evals-row">
        <label>
          Models <input value={models} onChange={(e) => setModels(e.target.value)} placeholder="the suite's (or provider::model, …)" data-testid="evals-models" size={36} />
        </label>
        <label>
          Repeat <input value={repeat} onChange={(e) => setRepeat(e.target.value)} inputMode="numeric" size={4} data-testid="evals-repeat" />
        </label>
        <label>
          Concurrency <input value={concurrency} onChange={(e) => setConcurrency(e.target.value)} inputMode="numeric" size={4} data-testid="evals-concurrency" />
        </label>
        <Button small variant="primary" onClick={start} busy={running} data-testid="evals-run">
          Run
        </Button>
        {running && (
          <Button small variant="danger" onClick={() => runId && evalsApi.cancel(runId).catch((e) => setError(errorMessage(e)))} data-testid="evals-cancel">
            Cancel
          </Button>
        )}
      </div>
      {asking && <LaunchList check={asking} onAgree={() => startWith(asking.list.hash)} onCancel={() => setAsking(null)} />}
      {progress && (
        <div className="evals-progress" data-testid="evals-progress" data-finished={progress.finished} data-planned={progress.planned}>
          <progress max={Math.max(progress.planned, 1)} value={progress.finished} />
          <span className="small">
            {progress.finished}/{progress.planned} · {progress.passed} passed · {progress.failed} failed · {progress.errored} errored
          </span>
        </div>
      )}
      {warnings.map((w, i) => (
        <div key={i} className="muted small">
          {w}
        </div>
      ))}
      {ended && (
        <div className="small" data-testid="evals-ended">
          Run {runId} {ended}
        </div>
      )}
      {error && (
        <pre className="evals-error" role="alert" data-testid="evals-run-error">
          {error}
        </pre>
      )}
    </div>
  );
}

// Prune on the Evals page: the stored runs beyond the newest N of each suite and/or older than
// an age (`30d`) — `mcplab eval runs prune`'s rule, on the server. Two steps: a dry run lists
// what would go, then the person confirms and the runs are deleted and the space reclaimed
// (shown as the database's size before and after).
import { useState, type ChangeEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import type { EvalPruneRequest, EvalPruneResult } from '../api/types.gen';
import { Button } from '../ui/Button';
import { bytes } from '../chat/xray';
import { evalsApi } from './api';
import { evalsKeys } from './queries';

/** What the person typed, as the request (null: no rule yet). */
export function pruneRequest(keep: string, olderThan: string): EvalPruneRequest | null {
  const req: EvalPruneRequest = { dryRun: true };
  const n = keep.trim();
  if (n !== '') {
    const k = Number(n);
    if (!Number.isInteger(k) || k < 0) return null;
    req.keep = k;
  }
  if (olderThan.trim() !== '') req.olderThan = olderThan.trim();
  return req.keep === undefined && req.olderThan === undefined ? null : req;
}

/** One line for what a prune did. */
export function prunedText(r: EvalPruneResult): string {
  const runs = `${r.deleted.length} run${r.deleted.length === 1 ? '' : 's'}`;
  if (r.dryRun) return r.deleted.length === 0 ? 'Nothing to delete: no stored run matches.' : `Would delete ${runs}:`;
  const freed = Math.max(0, r.bytesBefore - r.bytesAfter);
  return `Deleted ${runs}; the database went from ${bytes(r.bytesBefore)} to ${bytes(r.bytesAfter)} (${bytes(freed)} reclaimed).`;
}

export function PruneRuns({ onPruned }: { onPruned: (deleted: string[]) => void }) {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [keep, setKeep] = useState('10');
  const [olderThan, setOlderThan] = useState('');
  const [plan, setPlan] = useState<EvalPruneResult | null>(null);
  const [done, setDone] = useState<EvalPruneResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const req = pruneRequest(keep, olderThan);

  const ask = async (dryRun: boolean) => {
    if (!req) return;
    setBusy(true);
    setError(null);
    try {
      const r = await evalsApi.prune({ ...req, dryRun });
      if (dryRun) {
        setPlan(r);
        setDone(null);
      } else {
        setPlan(null);
        setDone(r);
        onPruned(r.deleted);
        await Promise.all([evalsKeys.runs, evalsKeys.trends, evalsKeys.compares].map((queryKey) => qc.invalidateQueries({ queryKey })));
      }
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const edit = (set: (v: string) => void) => (e: ChangeEvent<HTMLInputElement>) => {
    set(e.target.value);
    setPlan(null);
  };

  if (!open)
    return (
      <Button small variant="ghost" onClick={() => setOpen(true)} data-testid="evals-prune-open">
        Prune old runs…
      </Button>
    );
  return (
    <div className="evals-prune" data-testid="evals-prune">
      <h3>Prune runs</h3>
      <label>
        Keep the newest <input type="number" min={0} value={keep} onChange={edit(setKeep)} size={4} data-testid="evals-prune-keep" /> of each suite
      </label>
      <label>
        and/or older than <input value={olderThan} onChange={edit(setOlderThan)} placeholder="30d" size={5} data-testid="evals-prune-age" />
      </label>
      {!req && <div className="muted small">Give a number to keep, an age (30d, 12h, 2w), or both.</div>}
      <div className="actions">
        <Button small onClick={() => void ask(true)} disabled={!req || busy} data-testid="evals-prune-preview">
          Preview
        </Button>
        <Button small variant="ghost" onClick={() => setOpen(false)} data-testid="evals-prune-close">
          Close
        </Button>
      </div>
      {plan && (
        <div data-testid="evals-prune-plan" data-count={plan.deleted.length}>
          <div className="small">{prunedText(plan)}</div>
          {plan.deleted.length > 0 && (
            <>
              <ul className="small mono">
                {plan.deleted.map((id) => (
                  <li key={id}>{id}</li>
                ))}
              </ul>
              <Button small variant="danger" onClick={() => void ask(false)} busy={busy} data-testid="evals-prune-confirm">
                Delete {plan.deleted.length} run{plan.deleted.length === 1 ? '' : 's'}
              </Button>
            </>
          )}
        </div>
      )}
      {done && (
        <div className="ok-text small" data-testid="evals-prune-result" data-count={done.deleted.length}>
          {prunedText(done)}
        </div>
      )}
      {error && (
        <div className="inline-error" role="alert" data-testid="evals-prune-error">
          {error}
        </div>
      )}
    </div>
  );
}

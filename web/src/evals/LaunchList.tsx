// What a run will start and drive, shown before it starts: the suite's commands, the remote
// and configured servers it drives with tool approvals off, the commands its checks run. A
// suite from someone else's repository is code; the person agrees to this list once.
import { Button } from '../ui/Button';
import type { LaunchCheck, LaunchItem } from './api';

const line = (item: LaunchItem) => {
  switch (item.kind) {
    case 'suiteCommand':
      return { verb: 'Start', what: item.detail, note: `server ${item.name}, defined in the suite` };
    case 'suiteUrl':
      return { verb: 'Connect to', what: item.detail, note: `server ${item.name}, defined in the suite` };
    case 'configured':
      return { verb: 'Drive', what: item.name, note: `configured server: ${item.detail}` };
    case 'checkCommand':
      return { verb: 'Run', what: item.detail, note: `on each iteration's trace (check at ${item.name})` };
  }
};

export function LaunchList({ check, onAgree, onCancel }: { check: LaunchCheck; onAgree: () => void; onCancel: () => void }) {
  return (
    <div className="evals-launch" role="dialog" aria-label="What this run starts" data-testid="evals-launch">
      <div>This run will do the following, with tool approvals off (every tool a model calls runs):</div>
      <ul>
        {check.list.items.map((item, i) => {
          const l = line(item);
          return (
            <li key={i} data-testid="evals-launch-item" data-kind={item.kind}>
              {l.verb} <code>{l.what}</code> <span className="muted small">({l.note})</span>
            </li>
          );
        })}
      </ul>
      <div className="evals-row">
        <Button small variant="primary" onClick={onAgree} data-testid="evals-launch-agree">
          Start them
        </Button>
        <Button small onClick={onCancel} data-testid="evals-launch-cancel">
          Don't run
        </Button>
        <span className="muted small">Asked once for this list; a change to it asks again.</span>
      </div>
    </div>
  );
}

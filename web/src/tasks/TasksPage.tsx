// The Tasks panel: every task of the selected server (2026-07-28 tasks extension, 2025-11-25
// experimental tasks), newest first, updated live from `task` events; each with its status
// history, result or error, outstanding input requests, and poll / result / cancel actions.
// The list is `useTasks`'s query (tasks/queries.ts).
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import type { TaskView } from '../api/types.gen';
import { NeedsServer } from '../inspector/NeedsServer';
import { useSelectedServer } from '../servers/store';
import { modernApi } from '../modern/api';
import { RefreshCw } from 'lucide-react';
import { Button } from '../ui/Button';
import { JsonTree } from '../ui/JsonTree';
import { Loading } from '../ui/Spinner';
import { EmptyState, ErrorState } from '../ui/States';
import { patchTask, useTasks } from './queries';

export function TasksPage() {
  const server = useSelectedServer();
  return <NeedsServer server={server}>{(server) => <Tasks key={server} server={server} />}</NeedsServer>;
}

function Tasks({ server }: { server: string }) {
  const qc = useQueryClient();
  const q = useTasks(server);
  const tasks = q.data ?? null;
  const reload = () => void q.refetch();
  if (q.error) return <ErrorState title="Could not list tasks" message={errorMessage(q.error)} onRetry={reload} />;
  if (!tasks) return <Loading />;
  return (
    <div className="page" data-testid="tasks-page">
      <div className="section-head">
        <h2>Tasks</h2>
        <span className="muted small">{tasks.length} known for {server}</span>
        <span className="spacer" />
        <Button small variant="ghost" onClick={reload} data-testid="tasks-reload" title="List the tasks again" aria-label="List the tasks again">
          <RefreshCw size={14} aria-hidden="true" />
        </Button>
      </div>
      {tasks.length === 0 ? (
        <EmptyState page="tasks" title="No tasks yet" testId="tasks-empty">
          A tool call becomes a task when the server decides so (<span className="nowrap">2026-07-28</span> tasks extension) or when the tool requires it (<span className="nowrap">2025-11-25</span>).
        </EmptyState>
      ) : (
        tasks.map((t) => <TaskCard key={t.taskId} server={server} task={t} onChange={(v) => patchTask(qc, v)} />)
      )}
    </div>
  );
}

function TaskCard({ server, task, onChange }: { server: string; task: TaskView; onChange: (t: TaskView) => void }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [fetched, setFetched] = useState<unknown>(undefined);
  const terminal = ['completed', 'failed', 'cancelled'].includes(task.status);
  const act = async (what: string, run: () => Promise<void>) => {
    setBusy(what);
    setProblem(null);
    try {
      await run();
    } catch (e) {
      setProblem(errorMessage(e));
    } finally {
      setBusy(null);
    }
  };
  return (
    <article className="card task-card" data-testid={`task-${task.taskId}`}>
      <div className="section-head">
        <span className="mono">{task.taskId}</span>
        {task.tool && <span className="muted small">{task.tool}</span>}
        <span className={`badge badge-${task.status === 'failed' ? 'warn' : task.status === 'completed' ? 'info' : 'plain'}`} data-testid="task-status">
          {task.status}
        </span>
        <span className="badge" title="Which tasks protocol">
          {task.flavor === 'extension' ? 'tasks extension' : '2025-11-25 tasks'}
        </span>
        <span className="spacer" />
        <Button small variant="ghost" busy={busy === 'poll'} onClick={() => act('poll', async () => onChange(await modernApi.refreshTask(server, task.taskId)))} data-testid="task-poll">
          Poll
        </Button>
        {!terminal && (
          <Button small busy={busy === 'cancel'} onClick={() => act('cancel', async () => void (await modernApi.cancelTask(server, task.taskId)))} data-testid="task-cancel">
            Cancel
          </Button>
        )}
        {task.status === 'completed' && task.result === undefined && (
          <Button small busy={busy === 'result'} onClick={() => act('result', async () => setFetched((await modernApi.taskResult(server, task.taskId)).result))} data-testid="task-result-fetch">
            Result
          </Button>
        )}
      </div>
      {task.statusMessage && <div className="small">{task.statusMessage}</div>}
      {problem && (
        <div className="inline-error" role="alert">
          {problem}
        </div>
      )}
      <ol className="task-history small" data-testid="task-history">
        {task.history.map((h, i) => (
          <li key={i}>
            <span className="mono muted">{new Date(h.atMs).toLocaleTimeString()}</span> {h.status}
            {h.message ? ` — ${h.message}` : ''} <span className="muted">({h.source})</span>
          </li>
        ))}
      </ol>
      {task.inputRequests !== undefined && (
        <details open>
          <summary className="small">waiting for input</summary>
          <JsonTree value={task.inputRequests} expandDepth={2} />
        </details>
      )}
      {(task.result ?? fetched) !== undefined && (
        <details>
          <summary className="small">result</summary>
          <JsonTree value={task.result ?? fetched} expandDepth={2} testId="task-result" />
        </details>
      )}
      {task.error !== undefined && (
        <details open>
          <summary className="small">error</summary>
          <JsonTree value={task.error} expandDepth={2} />
        </details>
      )}
    </article>
  );
}

// Shows the oldest pending human request as a modal, from any page; the rest wait in a queue.
// The dialogs (forms, Markdown) load when the first request comes, not with the page.
import { lazy, Suspense, useEffect, useState } from 'react';
import { useHumanQueue, type PendingHuman } from './store';

const ElicitationDialog = lazy(() => import('./ElicitationDialog').then((m) => ({ default: m.ElicitationDialog })));
const SamplingDialog = lazy(() => import('./SamplingDialog').then((m) => ({ default: m.SamplingDialog })));

export function HumanDialogs() {
  const queue = useHumanQueue();
  const current = queue[0];
  if (!current) return null;
  const props = { pending: current, queued: queue.length - 1 };
  return (
    <Suspense fallback={null}>
      {current.request.kind === 'sampling' ? <SamplingDialog key={current.request.id} {...props} /> : <ElicitationDialog key={current.request.id} {...props} />}
    </Suspense>
  );
}

/** "from <server> · 2 more waiting · 4:59 left" */
export function RequestMeta({ pending, queued }: { pending: PendingHuman; queued: number }) {
  const deadline = pending.receivedAt + pending.request.timeoutMs;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(t);
  }, []);
  const left = Math.max(0, Math.round((deadline - now) / 1000));
  return (
    <div className="human-meta small muted">
      from <strong className="mono">{pending.request.server}</strong>
      {queued > 0 && (
        <span className="badge" data-testid="human-queue-count">
          {queued} more waiting
        </span>
      )}
      <span className="spacer" />
      <span title="The request is cancelled automatically when this runs out">
        {Math.floor(left / 60)}:{String(left % 60).padStart(2, '0')} left
      </span>
    </div>
  );
}

// A server's connection state as a coloured dot and word; a failure's message is its tooltip.
import type { ServerStatus } from '../api/types.gen';

export function StatusBadge({ name, status }: { name: string; status: ServerStatus }) {
  return (
    <span className={`status status-${status.state}`} data-testid={`status-${name}`} data-state={status.state} title={status.state === 'failed' ? status.message : status.state}>
      <span className="status-dot" aria-hidden="true" />
      {status.state}
    </span>
  );
}

// One tool call the model made: server, tool, arguments, status, duration, and the result
// rendered exactly as on the Tools page. "frames" points the traffic panel at the server's
// tools/call frames. While the call runs, a pending elicitation or sampling request from the
// same server is noted here (the dialog itself is the shared human-in-the-loop one).
import type { Tool } from '../api/client';
import type { CallOutcome } from '../api/types.gen';
import { useHumanQueue } from '../human/store';
import { ToolResult } from '../inspector/ToolResult';
import { setPref } from '../settings/prefs';
import { setTrafficFilter } from '../traffic/store';
import { JsonTree } from '../ui/JsonTree';
import { Spinner } from '../ui/Spinner';
import { ApprovalForm } from './ApprovalForm';
import { toolStatus, type ToolOutcome, type TurnItem } from './turns';

type ToolItem = Extract<TurnItem, { kind: 'tool' }>;

function asOutcome(o: ToolOutcome): CallOutcome {
  return {
    result: o.result ?? null,
    error: o.error === null ? null : { kind: 'call failed', message: o.error, code: null, data: null },
    durationMs: o.durationMs,
  };
}

export function showFrames(server: string): void {
  setTrafficFilter({ server, method: 'tools/call', direction: '', search: '' });
  setPref('trafficOpen', true);
}

/** `turnEnded`: the turn is over, so a call without a result will never get one. */
export function ToolCard({ item, turnEnded, sessionId, turnId }: { item: ToolItem; turnEnded: boolean; sessionId?: string; turnId?: string }) {
  const status = toolStatus(item);
  const lost = status === 'running' && turnEnded;
  const waiting = useHumanQueue().filter((p) => p.request.server === item.server);
  const tool: Tool = { name: item.tool };
  const awaiting = !turnEnded && item.approval?.pending === true;
  const denied = item.approval?.approved === false;
  const label = awaiting ? 'awaiting approval' : denied ? 'denied' : status === 'running' ? (lost ? 'no result' : 'running') : status === 'ok' ? 'ok' : 'error';

  return (
    <div className={`tool-card tool-${lost ? 'error' : status}`} data-testid="tool-card" data-status={awaiting ? 'approval' : lost ? 'error' : status} data-server={item.server} data-tool={item.tool}>
      <div className="tool-card-head">
        <span className="tool-card-status" aria-label={label} title={label}>
          {status === 'running' && !lost ? <Spinner small /> : status === 'ok' ? '✓' : '✗'}
        </span>
        <span className="tool-card-name mono">
          {item.server ? (
            <>
              <span className="muted">{item.server} ›</span> {item.tool}
            </>
          ) : (
            item.name
          )}
        </span>
        <span className={`badge ${status === 'ok' ? 'badge-ok' : status === 'error' || lost ? 'badge-err' : 'badge-info'}`}>{label}</span>
        {item.outcome && <span className="muted small">{item.outcome.durationMs} ms</span>}
        <span className="spacer" />
        {item.server && (
          <button type="button" className="linkish small" onClick={() => showFrames(item.server)} data-testid="tool-card-frames" title="Show this server's tools/call frames in the traffic panel">
            frames
          </button>
        )}
      </div>
      {status === 'running' && !lost && waiting.length > 0 && (
        <div className="tool-card-waiting small" data-testid="tool-card-waiting" role="status">
          {item.server} asked for {waiting[0].request.kind === 'sampling' ? 'a sampling approval' : 'your input'} — answer it in the dialog.
        </div>
      )}
      {awaiting && sessionId && turnId && <ApprovalForm sessionId={sessionId} turnId={turnId} callId={item.callId} args={item.arguments} />}
      <details className="tool-card-args" open={!awaiting}>
        <summary className="small muted">arguments</summary>
        <JsonTree value={item.arguments ?? {}} expandDepth={3} />
      </details>
      {item.outcome && (
        <div className="tool-card-result" data-testid="tool-card-result">
          <ToolResult outcome={asOutcome(item.outcome)} tool={tool} />
        </div>
      )}
      {lost && <div className="inline-error small">The turn ended before this call returned a result.</div>}
    </div>
  );
}

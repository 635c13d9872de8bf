// One tool call the model made: server, tool, arguments, status, duration, and the result
// rendered exactly as on the Tools page. "frames" points the traffic panel at this call's
// frames. While the call runs, its progress (the server's notifications/progress, or the status
// of the task the call became)
// and a pending elicitation or sampling request from the same server are noted here (the
// dialog itself is the shared human-in-the-loop one).
import type { Tool } from '../api/client';
import { AppFrame } from '../apps/lazy';
import { appsApi } from '../apps/api';
import { uiLink, useServerTool } from '../apps/linkage';
import { useChatApps } from './appsContext';
import type { CallOutcome } from '../api/types.gen';
import { useHumanQueue } from '../human/store';
import { ToolResult } from '../inspector/ToolResult';
import { showCallFrames } from '../traffic/store';
import { JsonTree } from '../ui/JsonTree';
import { Spinner } from '../ui/Spinner';
import { ApprovalForm } from './ApprovalForm';
import { toolStatus, type ToolOutcome, type TurnItem } from './turns';

type ToolItem = Extract<TurnItem, { kind: 'tool' }>;

function asOutcome(o: ToolOutcome, denied: boolean): CallOutcome {
  return {
    result: o.result ?? null,
    // A denied call is the person's choice, shown as a neutral "cancelled", not a failure.
    error: o.error === null ? null : { kind: denied ? 'cancelled' : 'call failed', message: o.error, code: null, data: null },
    durationMs: o.durationMs,
  };
}


/** `turnEnded`: the turn is over, so a call without a result will never get one. */
export function ToolCard({ item, turnEnded, sessionId, turnId }: { item: ToolItem; turnEnded: boolean; sessionId?: string; turnId?: string }) {
  const status = toolStatus(item);
  const lost = status === 'running' && turnEnded;
  const waiting = useHumanQueue().filter((p) => p.request.server === item.server);
  const listed = useServerTool(item.server, item.tool);
  const tool: Tool = listed ?? { name: item.tool };
  const link = uiLink(listed);
  const chatApps = useChatApps();
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
          <button type="button" className="linkish small" onClick={() => showCallFrames(item.server, item.tool, item.arguments)} data-testid="tool-card-frames" title="Show the frames of this call in the traffic panel">
            frames
          </button>
        )}
      </div>
      {status === 'running' && !lost && item.progress && <ToolProgress progress={item.progress} />}
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
      {link && !denied && (
        <ToolCardApp item={item} tool={tool} link={link} lost={lost} chatApps={chatApps} />
      )}
      {item.outcome && (
        <div className="tool-card-result" data-testid="tool-card-result">
          <ToolResult outcome={asOutcome(item.outcome, denied)} tool={tool} server={item.server} onFollowUp={chatApps?.followUp} />
        </div>
      )}
      {lost && <div className="inline-error small">The turn ended before this call returned a result.</div>}
    </div>
  );
}

/** A running call's latest `notifications/progress`: a bar when the total is known. */
function ToolProgress({ progress }: { progress: NonNullable<ToolItem['progress']> }) {
  const { progress: done, total, message } = progress;
  const label = total ? `${done} / ${total}` : `${done}`;
  return (
    <div className="tool-card-progress small" data-testid="tool-card-progress" role="status">
      {total ? <progress max={total} value={Math.min(done, total)} aria-label="progress" /> : <Spinner small />}
      <span className="muted">
        {label}
        {message ? ` · ${message}` : ''}
      </span>
    </div>
  );
}

/** The app of a tool call that has a UI, wired to the chat session. */
function ToolCardApp({
  item,
  tool,
  link,
  lost,
  chatApps,
}: {
  item: ToolItem;
  tool: Tool;
  link: NonNullable<ReturnType<typeof uiLink>>;
  lost: boolean;
  chatApps: ReturnType<typeof useChatApps>;
}) {
  const key = (source: string) => `${item.callId}:${source}`;
  const stored = chatApps?.appContext.find((e) => e.key === key('widgetState'));
  const outcome = item.outcome;
  const put = (source: 'modelContext' | 'widgetState', content: unknown[], structuredContent?: Record<string, unknown> | null) => {
    if (!chatApps) return;
    void appsApi
      .putContext(chatApps.sessionId, key(source), {
        server: item.server,
        tool: item.tool,
        callId: item.callId,
        source,
        content,
        structuredContent: structuredContent ?? null,
      })
      .catch(() => undefined);
  };
  return (
    <AppFrame
      server={item.server}
      tool={tool}
      link={link}
      callId={item.callId}
      partialArgs={item.partialArgs}
      args={item.partialArgs === undefined && item.arguments !== undefined ? ((item.arguments ?? {}) as Record<string, unknown>) : undefined}
      result={outcome && !outcome.error ? (outcome.result as Record<string, unknown> | null) : undefined}
      cancelled={outcome?.error ?? (lost ? 'The turn ended before the call returned.' : undefined)}
      widgetState={(stored?.structuredContent as { widgetState?: unknown } | null | undefined)?.widgetState}
      onFollowUp={chatApps?.followUp}
      onModelContext={(u) => put('modelContext', u.content, u.structuredContent)}
      onWidgetState={(state) => {
        if (!chatApps) return;
        if (state === null || state === undefined) void appsApi.deleteContext(chatApps.sessionId, key('widgetState')).catch(() => undefined);
        else {
          // The Apps SDK's structured form decides what the model sees: only `modelContent`.
          const forModel = state && typeof state === 'object' && 'modelContent' in state ? (state as { modelContent: unknown }).modelContent : state;
          put('widgetState', [], { widgetState: forModel });
        }
      }}
    />
  );
}

// One tool call the model made: server, tool, arguments, status, duration, and the result
// rendered exactly as on the Tools page. "frames" points the traffic panel at this call's
// frames. While the call runs, its progress (the server's notifications/progress, or the status
// of the task the call became)
// and a pending elicitation or sampling request from the same server are noted here (the
// dialog itself is the shared human-in-the-loop one).
import { CircleSlash } from 'lucide-react';
import { useContext } from 'react';
import type { Tool } from '../api/client';
import { AppFrame } from '../apps/lazy';
import { appsApi } from '../apps/api';
import { useServerTool, type UiLink } from '../apps/linkage';
import { HostUiContext } from './AppHostConditions';
import { linkForHost } from './hostConfig';
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

function asOutcome(o: ToolOutcome, denied: boolean, stopped: boolean): CallOutcome {
  const message = stopped ? 'Stopped: the call was cancelled when the turn was stopped.' : o.error;
  return {
    result: o.result ?? null,
    // A denied or stopped call is the person's choice, shown as a neutral "cancelled" (as on
    // the Tools page), not a failure. Other errors reach the chat as text only: the kind is a
    // placeholder and the card says "call failed" (see `failure` below).
    error: message === null ? null : { kind: denied || stopped ? 'cancelled' : 'server', message, code: null, data: null },
    durationMs: o.durationMs,
  };
}

/** What core says of a request its caller cancelled (`McpError::Cancelled`). */
const CANCELLED = 'cancelled';


/**
 * `turnEnded`: the turn is over, so a call without a result will never get one. `turnStopped`:
 * the person pressed Stop; a call it cancelled (or left without a result) is "stopped", neutral.
 */
export function ToolCard({ item, turnEnded, turnStopped = false, sessionId, turnId }: { item: ToolItem; turnEnded: boolean; turnStopped?: boolean; sessionId?: string; turnId?: string }) {
  const status = toolStatus(item);
  // Only Stop (the turn's cancellation) cancels a chat tool call, so its `cancelled` error is
  // neutral even before the turn's own end arrives.
  const stopped = item.outcome?.error === CANCELLED || (turnStopped && !item.outcome);
  const lost = status === 'running' && turnEnded && !stopped;
  const waiting = useHumanQueue().filter((p) => p.request.server === item.server);
  const listed = useServerTool(item.server, item.tool);
  const tool: Tool = listed ?? { name: item.tool, inputSchema: { type: 'object' } };
  const hostUi = useContext(HostUiContext);
  const link = linkForHost(listed, hostUi);
  // The tool has an MCP App this host does not render (it does not implement MCP Apps).
  const unrendered = !link && !hostUi.mcpApps && linkForHost(listed, { mcpApps: true, windowOpenai: true }) !== null;
  const chatApps = useChatApps();
  const awaiting = !turnEnded && item.approval?.pending === true;
  const denied = item.approval?.approved === false;
  const neutral = stopped || denied;
  const label = awaiting ? 'awaiting approval' : denied ? 'denied' : stopped ? 'stopped' : status === 'running' ? (lost ? 'no result' : 'running') : status === 'ok' ? 'ok' : 'error';
  const shown = awaiting ? 'approval' : stopped ? 'stopped' : lost ? 'error' : status;

  return (
    <div className={`tool-card tool-${neutral ? 'cancelled' : lost ? 'error' : status}`} data-testid="tool-card" data-status={shown} data-server={item.server} data-tool={item.tool}>
      <div className="tool-card-head">
        <span className="tool-card-status" aria-label={label} title={label}>
          {status === 'running' && !lost && !stopped ? <Spinner small /> : neutral ? <CircleSlash size={14} aria-hidden="true" /> : status === 'ok' ? '✓' : '✗'}
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
        <span className={`badge ${neutral ? '' : status === 'ok' ? 'badge-ok' : status === 'error' || lost ? 'badge-err' : 'badge-info'}`}>{label}</span>
        {item.outcome && <span className="muted small nowrap">{item.outcome.durationMs} ms</span>}
        <span className="spacer" />
        {item.server && (
          <button type="button" className="linkish small" onClick={() => showCallFrames({ server: item.server, tool: item.tool, requests: item.outcome?.requests, args: item.arguments })} data-testid="tool-card-frames" title="Show the frames of this call in the traffic panel">
            frames
          </button>
        )}
      </div>
      {status === 'running' && !lost && !stopped && item.progress && <ToolProgress progress={item.progress} />}
      {status === 'running' && !lost && !stopped && waiting.length > 0 && (
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
      {unrendered && (
        <div className="small muted" data-testid="tool-card-no-app">
          Not rendered: this host does not implement MCP Apps, so it shows the result only.
        </div>
      )}
      {item.outcome && (
        <div className="tool-card-result" data-testid="tool-card-result">
          <ToolResult outcome={asOutcome(item.outcome, denied, stopped)} failure="call failed" tool={tool} server={item.server} onFollowUp={chatApps?.followUp} />
        </div>
      )}
      {stopped && !item.outcome && <div className="call-cancelled small">Stopped before this call returned a result.</div>}
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
  link: UiLink;
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

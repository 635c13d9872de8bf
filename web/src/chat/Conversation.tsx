// The messages of a session: each turn is the user's message and the assistant's answer as
// it streamed (reasoning, text, tool calls in order), then how the turn ended and what it
// cost. Follows the bottom while the user has not scrolled up.
import { useEffect, useRef } from 'react';
import type { StopReason, TokenUsage } from '../api/types.gen';
import { Button } from '../ui/Button';
import { Markdown } from '../ui/Markdown';
import { Spinner } from '../ui/Spinner';
import { ToolCard } from './ToolCard';
import { shownUsage, type ChatTurn } from './turns';
import { XrayPanel } from './XrayPanel';
import { turnCost, usd } from './xray';
import { Ticks } from '../ui/Ticks';

const REASON: Record<StopReason, string | null> = {
  completed: null,
  stepLimit: 'Stopped at the step limit: the model wanted more tool rounds than this session allows (raise "Step limit" under "System prompt & limits").',
  maxTokens: 'Stopped at the max tokens limit: the answer may be cut off.',
};

export function Conversation({ turns, onRetry, canRetry, sessionId }: { turns: ChatTurn[]; onRetry: (t: ChatTurn) => void; canRetry: boolean; sessionId?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const follow = useRef(true);
  const onScroll = () => {
    const el = ref.current;
    if (el) follow.current = el.scrollHeight - el.scrollTop - el.clientHeight < 60;
  };
  useEffect(() => {
    const el = ref.current;
    if (el && follow.current) el.scrollTop = el.scrollHeight;
  });

  return (
    <div className="chat-scroll" ref={ref} onScroll={onScroll}>
      <div className="chat-turns">
        {turns.map((t, i) => (
          // Only the last turn can be retried (the server refuses others: a later turn built on it).
          <Turn key={t.turnId} turn={t} onRetry={i === turns.length - 1 ? () => onRetry(t) : null} canRetry={canRetry} sessionId={sessionId} />
        ))}
      </div>
    </div>
  );
}

function Turn({ turn, onRetry, canRetry, sessionId }: { turn: ChatTurn; onRetry: (() => void) | null; canRetry: boolean; sessionId?: string }) {
  const running = turn.status === 'running';
  const empty = turn.items.length === 0;
  const last = turn.items[turn.items.length - 1];
  // A running tool card has its own spinner.
  const busy = running && !(last?.kind === 'tool' && !last.outcome);
  return (
    <div className="chat-turn" data-turn-id={turn.turnId} data-status={turn.status}>
      <div className="chat-message chat-user" data-testid="chat-message" data-role="user">
        {turn.user ? <div className="chat-user-text wrap">{turn.user}</div> : <div className="muted small">(sent before this page was opened)</div>}
      </div>
      {turn.leftOut && turn.leftOut.tools.length > 0 && (
        <div className="small muted" data-testid="chat-tools-left-out" role="note">
          The host's tool limit (<code>toolCatalog.maxTools</code> = {turn.leftOut.limit}) left {turn.leftOut.tools.length} tool
          {turn.leftOut.tools.length === 1 ? '' : 's'} out of the model's catalog: <span className="mono">{turn.leftOut.tools.join(', ')}</span>
        </div>
      )}
      {(!empty || running || turn.status === 'finished') && (
        <div className="chat-message chat-assistant" data-testid="chat-message" data-role="assistant">
          {turn.items.map((item, i) =>
            item.kind === 'text' ? (
              <Markdown key={i} text={item.text} />
            ) : item.kind === 'reasoning' ? (
              <details key={i} className="chat-reasoning" open={running && i === turn.items.length - 1}>
                <summary className="small muted">reasoning</summary>
                <div className="wrap small">{item.text}</div>
              </details>
            ) : (
              <ToolCard key={item.callId} item={item} turnEnded={!running} turnStopped={turn.status === 'cancelled'} sessionId={sessionId} turnId={turn.turnId} />
            ),
          )}
          {busy && (
            <div className="chat-working">
              <Spinner small label={turn.partial && empty ? 'Running (started before this page was opened)…' : empty ? 'Waiting for the model…' : undefined} />
            </div>
          )}
          {!running && empty && turn.status === 'finished' && <div className="muted small">(no text)</div>}
        </div>
      )}
      <TurnEnd turn={turn} onRetry={onRetry} canRetry={canRetry} sessionId={sessionId} />
    </div>
  );
}

function TurnEnd({ turn, onRetry, canRetry, sessionId }: { turn: ChatTurn; onRetry: (() => void) | null; canRetry: boolean; sessionId?: string }) {
  const note = turn.status === 'finished' && turn.reason ? REASON[turn.reason] : null;
  return (
    <>
      {note && (
        <div className="chat-note chat-note-warn small" data-testid="turn-stop-reason">
          {note}
        </div>
      )}
      {turn.status === 'cancelled' && <div className="chat-note small muted">Stopped.</div>}
      {turn.status === 'interrupted' && <div className="chat-note small muted">This turn never recorded an end (mcplab stopped while it ran).</div>}
      {turn.status === 'failed' && turn.failure && (
        <div className="chat-error" role="alert" data-testid="turn-error" data-kind={turn.failure.kind}>
          <strong>Turn failed ({turn.failure.kind})</strong>
          <div className="wrap">
            <Ticks text={turn.failure.message} />
          </div>
          {onRetry && (
            <Button small onClick={onRetry} disabled={!canRetry} data-testid="turn-retry" title="Send the message again in place of this failed turn">
              Retry
            </Button>
          )}
        </div>
      )}
      {turn.status !== 'running' && <Usage turn={turn} usage={shownUsage(turn)} steps={turn.steps} model={turn.model} />}
      {turn.xrays && turn.xrays.length > 0 && <XrayPanel xrays={turn.xrays} sessionId={sessionId} turnId={turn.turnId} />}
    </>
  );
}

function Usage({ turn, usage, steps, model }: { turn: ChatTurn; usage: TokenUsage; steps: number; model: string | null }) {
  return (
    <div className="turn-usage small muted" data-testid="turn-usage" title="Tokens used by this turn (all steps)">
      {usage.inputTokens.toLocaleString()} in · {usage.outputTokens.toLocaleString()} out
      {usage.reasoningTokens > 0 && ` · ${usage.reasoningTokens.toLocaleString()} reasoning`}
      {steps > 0 && ` · ${steps} step${steps === 1 ? '' : 's'}`}
      {model && ` · ${model}`}
      {turn.xrays && turn.xrays.length > 0 && ` · ${usd(turnCost(turn.xrays))}`}
      {turn.timing && ` · first token ${turn.timing.ttftMs ?? '-'} ms · ${turn.timing.durationMs} ms`}
    </div>
  );
}

// The conversation as the chat page shows it, folded from turn events. Pure: the same fold
// builds a turn from its stored events (GET /api/sessions/{id}) and keeps it current from the
// live stream, so a reloaded page and a live one can never disagree. Folding is tolerant of
// an event seen twice around a reload (a second toolCall, result or end is ignored).
import type { RequestRef, SessionEvent, SessionView, StepXray, StopReason, StoredTurn, TokenUsage, TurnEvent } from '../api/types.gen';

export interface ToolOutcome {
  durationMs: number;
  isError: boolean;
  result: unknown;
  error: string | null;
  /** The JSON-RPC requests the call sent (its frames, by id). */
  requests: RequestRef[];
}

export type TurnItem =
  | { kind: 'text'; text: string }
  | { kind: 'reasoning'; text: string }
  | {
      kind: 'tool';
      callId: string;
      name: string;
      server: string;
      tool: string;
      arguments: unknown;
      /** The arguments as the model streams them (until the complete call arrives). */
      partialArgs?: string;
      outcome?: ToolOutcome;
      /** Set when the session asks before each call. */
      approval?: { pending: boolean; approved?: boolean; timeoutMs: number };
      /** The server's latest `notifications/progress` (or the status of the task the call became) while the call runs (live only). */
      progress?: { progress: number; total: number | null; message: string | null };
    };

export type TurnStatus = 'running' | 'finished' | 'failed' | 'cancelled' | 'interrupted';

export interface ChatTurn {
  turnId: string;
  user: string;
  model: string | null;
  items: TurnItem[];
  status: TurnStatus;
  /** Sum of the traceStep usages so far. */
  stepUsage: TokenUsage;
  steps: number;
  /** From the terminal event. */
  usage: TokenUsage | null;
  reason: StopReason | null;
  failure: { kind: string; message: string } | null;
  /** Running when the page loaded: what happened before that is not known here. */
  partial?: boolean;
  /** What each model step sent and received (the x-ray), in step order. */
  xrays?: StepXray[];
  /** From `turnTiming`: the whole turn and its first token. */
  timing?: { durationMs: number; ttftMs: number | null };
  /** From `toolsLeftOut`: the host's tool limit and the tools it kept from the model. */
  leftOut?: { limit: number; tools: string[] };
}

export const ZERO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0, reasoningTokens: 0 };

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
  };
}

export function newTurn(turnId: string, user: string): ChatTurn {
  return { turnId, user, model: null, items: [], status: 'running', stepUsage: ZERO_USAGE, steps: 0, usage: null, reason: null, failure: null };
}

function appendText(items: TurnItem[], kind: 'text' | 'reasoning', text: string): TurnItem[] {
  const last = items[items.length - 1];
  if (last && last.kind === kind) return [...items.slice(0, -1), { kind, text: last.text + text }];
  return [...items, { kind, text }];
}

/** One event applied to one turn (returns the same object when nothing changes). */
export function applyTurnEvent(turn: ChatTurn, ev: TurnEvent): ChatTurn {
  const ended = turn.status !== 'running';
  switch (ev.type) {
    case 'turnStarted':
      return { ...turn, model: ev.model };
    case 'textDelta':
    case 'reasoningDelta':
      if (ended || !ev.text) return turn;
      return { ...turn, items: appendText(turn.items, ev.type === 'textDelta' ? 'text' : 'reasoning', ev.text) };
    case 'toolInputPartial': {
      if (ended) return turn;
      const known = turn.items.find((i) => i.kind === 'tool' && i.callId === ev.callId);
      if (!known) {
        return {
          ...turn,
          items: [...turn.items, { kind: 'tool', callId: ev.callId, name: ev.name, server: ev.server, tool: ev.tool, arguments: undefined, partialArgs: ev.argumentsText }],
        };
      }
      if (known.kind !== 'tool' || known.partialArgs === undefined || known.outcome) return turn;
      return { ...turn, items: turn.items.map((i) => (i === known ? { ...known, partialArgs: ev.argumentsText } : i)) };
    }
    case 'approvalRequested':
      if (turn.items.some((i) => i.kind === 'tool' && i.callId === ev.callId && i.partialArgs !== undefined)) {
        return {
          ...turn,
          items: turn.items.map((i) =>
            i.kind === 'tool' && i.callId === ev.callId
              ? { ...i, arguments: ev.arguments, partialArgs: undefined, approval: { pending: true, timeoutMs: ev.timeoutMs } }
              : i,
          ),
        };
      }
      if (turn.items.some((i) => i.kind === 'tool' && i.callId === ev.callId)) return turn;
      return {
        ...turn,
        items: [
          ...turn.items,
          { kind: 'tool', callId: ev.callId, name: ev.name, server: ev.server, tool: ev.tool, arguments: ev.arguments, approval: { pending: true, timeoutMs: ev.timeoutMs } },
        ],
      };
    case 'approvalResolved':
      return {
        ...turn,
        items: turn.items.map((i) =>
          i.kind === 'tool' && i.callId === ev.callId && i.approval ? { ...i, approval: { ...i.approval, pending: false, approved: ev.approved } } : i,
        ),
      };
    case 'toolCall':
      if (turn.items.some((i) => i.kind === 'tool' && i.callId === ev.callId)) {
        // After an approval: the call runs with the final (possibly edited) arguments.
        return {
          ...turn,
          items: turn.items.map((i) => (i.kind === 'tool' && i.callId === ev.callId && !i.outcome ? { ...i, arguments: ev.arguments, partialArgs: undefined } : i)),
        };
      }
      return {
        ...turn,
        items: [...turn.items, { kind: 'tool', callId: ev.callId, name: ev.name, server: ev.server, tool: ev.tool, arguments: ev.arguments }],
      };
    case 'toolResult': {
      const outcome: ToolOutcome = { durationMs: ev.durationMs, isError: ev.isError, result: ev.result, error: ev.error, requests: ev.requests ?? [] };
      let found = false;
      const items = turn.items.map((i) => {
        if (i.kind !== 'tool' || i.callId !== ev.callId || i.outcome) return i;
        found = true;
        return { ...i, outcome };
      });
      return found ? { ...turn, items } : turn;
    }
    case 'toolProgress': {
      if (ended) return turn;
      const progress = { progress: ev.progress, total: ev.total, message: ev.message };
      let found = false;
      const items = turn.items.map((i) => {
        if (i.kind !== 'tool' || i.callId !== ev.callId || i.outcome) return i;
        found = true;
        return { ...i, progress };
      });
      return found ? { ...turn, items } : turn;
    }
    case 'humanRequested':
    case 'humanResolved':
      // Shown by the tool card from the host's human-request queue (answered in the dialog).
      return turn;
    case 'toolsLeftOut':
      // The host profile's tool limit: the turn says which tools the model did not get.
      return { ...turn, leftOut: { limit: ev.limit, tools: ev.leftOut } };
    case 'traceStep':
      // Steps come in order: one not beyond the last seen is that step again (around a reload).
      if (ev.step <= turn.steps) return turn;
      return { ...turn, steps: ev.step, model: turn.model ?? ev.model, stepUsage: addUsage(turn.stepUsage, ev.usage) };
    case 'stepXray':
      if ((turn.xrays ?? []).some((x) => x.step === ev.xray.step)) return turn;
      return { ...turn, xrays: [...(turn.xrays ?? []), ev.xray] };
    case 'turnTiming':
      return { ...turn, timing: { durationMs: ev.durationMs, ttftMs: ev.ttftMs } };
    case 'turnFinished':
      return ended ? turn : { ...turn, status: 'finished', reason: ev.reason, usage: ev.usage };
    case 'turnFailed':
      return ended ? turn : { ...turn, status: 'failed', failure: { kind: ev.kind, message: ev.message }, usage: ev.usage };
    case 'turnCancelled':
      return ended ? turn : { ...turn, status: 'cancelled', usage: ev.usage };
  }
}

/** A stored turn; one that never recorded its end and is not running was interrupted. */
export function fromStored(stored: StoredTurn, running: boolean): ChatTurn {
  const t = stored.events.reduce(applyTurnEvent, newTurn(stored.turnId, stored.user));
  return t.status === 'running' && !running ? { ...t, status: 'interrupted' } : t;
}

/**
 * The stored turns, plus the running one (stored only when it ends) as a partial turn that
 * the live stream fills in. `local` turns that the view lacks (a turn whose POST failed, one
 * that ended but is not stored yet) are kept after them.
 */
export function fromView(view: SessionView, local: ChatTurn[] = []): ChatTurn[] {
  const out = view.turns.map((t) => fromStored(t, t.turnId === view.runningTurn));
  const run = view.runningTurn;
  if (view.liveTurn && !out.some((t) => t.turnId === view.liveTurn?.turnId)) {
    // The running turn as recorded so far; the stream continues right after it.
    out.push(fromStored(view.liveTurn, true));
  } else if (run && !out.some((t) => t.turnId === run)) {
    out.push(local.find((t) => t.turnId === run) ?? { ...newTurn(run, ''), partial: true });
  }
  const known = new Set(out.map((t) => t.turnId));
  return [...out, ...local.filter((t) => !known.has(t.turnId) && t.status !== 'running')];
}

/** A live event applied to the conversation. `resync` is the caller's business. A turn that
 * retries another (`replaces`) takes the other's place. */
export function applySessionEvent(turns: ChatTurn[], ev: SessionEvent): ChatTurn[] {
  if (ev.kind === 'userMessage') {
    const rest = ev.replaces ? turns.filter((t) => t.turnId !== ev.replaces) : turns;
    const known = rest.find((t) => t.turnId === ev.turnId);
    if (!known) return [...rest, newTurn(ev.turnId, ev.text)];
    return known.user && rest === turns ? turns : rest.map((t) => (t === known ? { ...t, user: t.user || ev.text } : t));
  }
  if (ev.kind !== 'turn') return turns;
  const id = ev.event.turnId;
  const i = turns.findIndex((t) => t.turnId === id);
  // A turn event before its userMessage (should not happen): show the turn anyway.
  if (i < 0) return [...turns, applyTurnEvent(newTurn(id, ''), ev.event)];
  const next = applyTurnEvent(turns[i], ev.event);
  if (next === turns[i]) return turns;
  const out = turns.slice();
  out[i] = next;
  return out;
}

export type ToolStatus = 'running' | 'ok' | 'error';

export function toolStatus(item: Extract<TurnItem, { kind: 'tool' }>): ToolStatus {
  if (!item.outcome) return 'running';
  return item.outcome.isError || item.outcome.error ? 'error' : 'ok';
}

/** The usage to show: the terminal event's, else the steps' sum while running. */
export function shownUsage(turn: ChatTurn): TokenUsage {
  return turn.usage ?? turn.stepUsage;
}

export function runningTurn(turns: ChatTurn[]): ChatTurn | null {
  for (let i = turns.length - 1; i >= 0; i--) if (turns[i].status === 'running') return turns[i];
  return null;
}

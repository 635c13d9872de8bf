// Tool calls made on the Tools page, kept here, keyed by server and tool, not in a component:
// switching tool or page never orphans a running call. Its progress, cancel and result stay
// reachable, and a call that finished while nobody looked shows its result on return. A
// finished call goes into the server's history (arguments and result) and becomes the tool's
// "last call", both persisted in prefs so they survive a reload. Must not render anything.
import { api, errorMessage } from '../api/client';
import { events } from '../api/events';
import type { CallOutcome, ServerEvent } from '../api/types.gen';
import { createStore, useStore } from '../ui/store';
import { addHistory, outcomeStatus, setLastCall, type HistoryEntry } from './history';
import { newCallId } from './toolMeta';

export interface CallProgress {
  progress: number;
  total?: number | null;
  message?: string | null;
}

export interface ToolCall {
  callId: string;
  server: string;
  tool: string;
  args: Record<string, unknown>;
  startedAt: number;
  running: boolean;
  progress: CallProgress | null;
  outcome: CallOutcome | null;
  /** The HTTP request itself failed (mcplab unreachable, 4xx/5xx from mcplab). */
  httpError: string | null;
  cancelling: boolean;
  /** The arguments did not match the input schema and were sent anyway. */
  unchecked?: boolean;
}

export const callKey = (server: string, tool: string) => `${server}\u0000${tool}`;

export const callsStore = createStore<Record<string, ToolCall>>({});

function update(key: string, f: (c: ToolCall) => ToolCall): void {
  callsStore.set((all) => (all[key] ? { ...all, [key]: f(all[key]) } : all));
}

/**
 * Starts a call unless one is already running for this tool; returns its id, or null.
 * The result lands in the store whatever the page shows meanwhile.
 */
export function startToolCall(server: string, tool: string, args: Record<string, unknown>, opts: { unchecked?: boolean } = {}): string | null {
  const key = callKey(server, tool);
  if (callsStore.get()[key]?.running) return null;
  const callId = newCallId();
  const call: ToolCall = {
    callId, server, tool, args, startedAt: Date.now(), running: true, progress: null, outcome: null, httpError: null, cancelling: false, unchecked: opts.unchecked,
  };
  callsStore.set((all) => ({ ...all, [key]: call }));
  api.callTool(server, { name: tool, arguments: args, callId }).then(
    (outcome) => {
      update(key, (c) => (c.callId === callId ? { ...c, running: false, cancelling: false, outcome } : c));
      const entry: HistoryEntry = {
        tool, args, ts: call.startedAt, ok: outcomeStatus(outcome) === 'ok', status: outcomeStatus(outcome), durationMs: outcome.durationMs, outcome,
      };
      addHistory(server, entry);
      setLastCall(server, entry);
    },
    (e) => update(key, (c) => (c.callId === callId ? { ...c, running: false, cancelling: false, httpError: errorMessage(e) } : c)),
  );
  return callId;
}

/** Asks the server to cancel the tool's running call (`notifications/cancelled`). */
export async function cancelToolCall(server: string, tool: string): Promise<void> {
  const key = callKey(server, tool);
  const call = callsStore.get()[key];
  if (!call?.running) return;
  update(key, (c) => ({ ...c, cancelling: true }));
  try {
    await api.cancelCall(server, call.callId);
  } catch (e) {
    update(key, (c) => ({ ...c, cancelling: false, httpError: `Cancel failed: ${errorMessage(e)}` }));
  }
}

function onEvent(e: ServerEvent): void {
  if (e.type !== 'progress') return;
  const all = callsStore.get();
  for (const [key, c] of Object.entries(all)) {
    if (c.running && c.server === e.server && e.token === c.callId) {
      update(key, (x) => ({ ...x, progress: { progress: e.progress, total: e.total, message: e.message } }));
    }
  }
}

let started = false;
export function startCallsStore(): void {
  if (started) return;
  started = true;
  events.onServerEvent(onEvent);
}

export function useToolCall(server: string, tool: string | null): ToolCall | undefined {
  const all = useStore(callsStore);
  return tool ? all[callKey(server, tool)] : undefined;
}

/** Tools of a server with a call running now (list badges). */
export function useRunningTools(server: string): Set<string> {
  const all = useStore(callsStore);
  return new Set(Object.values(all).filter((c) => c.running && c.server === server).map((c) => c.tool));
}

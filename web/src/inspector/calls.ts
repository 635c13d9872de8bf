// Tool calls made on the Tools page, kept here, keyed by server and tool, not in a component:
// switching tool or page never orphans a running call. Its progress, cancel and result stay
// reachable, and a call that finished while nobody looked shows its result on return. The
// server keeps the calls too (`GET /api/calls`): a reloaded page — or another tab — picks up
// the ones still running (progress, Cancel, the result when it comes) and those that ended
// meanwhile. A finished call goes into the server's history (arguments and result, once per
// call id) and becomes the tool's "last call", both persisted in prefs so they survive a
// reload. Must not render anything.
import { api, ApiFailure, errorMessage } from '../api/client';
import { events } from '../api/events';
import type { CallOutcome, ServerEvent, ToolCallView } from '../api/types.gen';
import { createStore, useStore } from '../ui/store';
import { addHistory, inHistory, outcomeStatus, setLastCall, type HistoryEntry } from './history';
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

// The calls this tab started and has not seen end, in sessionStorage: a reload of this tab
// picks them up as its own (it records their results in the history), another tab only shows
// them (the tab that started a call records it).
const OWN_KEY = 'mcplab.ownCalls';
type OwnCalls = Record<string, { unchecked?: boolean }>;

function ownCalls(): OwnCalls {
  try {
    return JSON.parse(window.sessionStorage.getItem(OWN_KEY) ?? '{}') as OwnCalls;
  } catch {
    return {};
  }
}

function setOwn(f: (own: OwnCalls) => OwnCalls): void {
  try {
    window.sessionStorage.setItem(OWN_KEY, JSON.stringify(f(ownCalls())));
  } catch {
    /* storage full or refused: a reload then only shows the call */
  }
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
  setOwn((own) => ({ ...own, [callId]: { unchecked: opts.unchecked } }));
  api.callTool(server, { name: tool, arguments: args, callId }).then(
    (outcome) => settle(call, outcome, true),
    (e) => update(key, (c) => (c.callId === callId ? { ...c, running: false, cancelling: false, httpError: errorMessage(e) } : c)),
  );
  return callId;
}

/** The call ended: its result shown and, when this tab started it (`record`), put into
 * history and made the tool's last call (once). */
function settle(call: ToolCall, outcome: CallOutcome, record: boolean): void {
  const { server, tool, callId } = call;
  update(callKey(server, tool), (c) => (c.callId === callId ? { ...c, running: false, cancelling: false, outcome } : c));
  if (!record) return;
  setOwn(({ [callId]: _, ...rest }) => rest);
  const entry: HistoryEntry = {
    tool, args: call.args, ts: call.startedAt, ok: outcomeStatus(outcome) === 'ok', status: outcomeStatus(outcome), durationMs: outcome.durationMs, outcome, callId,
  };
  if (addHistory(server, entry)) setLastCall(server, entry);
}

const WAIT_RETRY_MS = 2000;

/** Waits (long polls) for a call this page did not start until the server says it ended. */
async function follow(call: ToolCall, record: boolean): Promise<void> {
  for (;;) {
    let view: ToolCallView;
    try {
      view = await api.waitCall(call.server, call.callId);
    } catch (e) {
      if (e instanceof ApiFailure && e.unauthorized) return;
      if (e instanceof ApiFailure && e.status === 404) {
        update(callKey(call.server, call.tool), (c) => (c.callId === call.callId && c.running ? { ...c, running: false, httpError: 'mcplab no longer knows this call (it was restarted, or the call ended long ago): its result is lost.' } : c));
        return;
      }
      await new Promise((r) => setTimeout(r, WAIT_RETRY_MS));
      continue;
    }
    if (ended(call, view, record)) return;
    if (view.progress) update(callKey(call.server, call.tool), (c) => (c.callId === call.callId ? { ...c, progress: view.progress } : c));
  }
}

/** Settles `call` when `view` says it ended; false while it runs. */
function ended(call: ToolCall, view: ToolCallView, record: boolean): boolean {
  if (view.endedAtMs == null) return false;
  if (view.outcome) settle(call, view.outcome, record);
  else update(callKey(call.server, call.tool), (c) => (c.callId === call.callId ? { ...c, running: false, cancelling: false, httpError: 'The call ended, but its result was too large for mcplab to keep for this page: see its frames, or call again.' } : c));
  return true;
}

/**
 * Picks up the calls the server keeps that this page does not know: one running shows as
 * running (progress, Cancel) and is followed to its end; one that ended meanwhile shows its
 * result. A call this tab started before a reload enters the history (once).
 */
export async function attachServerCalls(): Promise<void> {
  let views: ToolCallView[];
  try {
    views = await api.listCalls();
  } catch {
    return; // the stream's next resync tries again
  }
  const own = ownCalls();
  setOwn((o) => Object.fromEntries(Object.entries(o).filter(([id]) => views.some((v) => v.callId === id))));
  for (const v of views) {
    const key = callKey(v.server, v.tool);
    const known = callsStore.get()[key];
    if (known && (known.callId === v.callId || known.startedAt > v.startedAtMs)) continue;
    if (v.endedAtMs != null && inHistory(v.server, v.callId)) continue;
    const mine = own[v.callId];
    const call: ToolCall = {
      callId: v.callId, server: v.server, tool: v.tool, args: v.arguments, startedAt: v.startedAtMs, running: true, progress: v.progress, outcome: null, httpError: null, cancelling: false, unchecked: mine?.unchecked,
    };
    callsStore.set((all) => ({ ...all, [key]: call }));
    if (!ended(call, v, !!mine)) void follow(call, !!mine);
  }
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
  events.onResync(() => void attachServerCalls());
  void attachServerCalls();
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

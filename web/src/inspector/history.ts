// What the Tools page remembers per server, in prefs so it survives reloads: the call history
// (arguments and result of each call), each tool's last call, and named saved requests.
// Results are capped so the prefs stay small; a capped entry says so instead of lying.
import type { CallOutcome } from '../api/types.gen';
import { getPref, setPref, usePref } from '../settings/prefs';

export type CallStatus = 'ok' | 'error' | 'cancelled';

export interface HistoryEntry {
  tool: string;
  args: Record<string, unknown>;
  ts: number;
  ok: boolean;
  status?: CallStatus;
  durationMs: number;
  /** The result as received; absent in entries from older versions or when it was too big. */
  outcome?: CallOutcome;
  /** The result was larger than `MAX_RESULT_CHARS` and not kept. */
  resultDropped?: boolean;
  /** The call's id (entries from older versions have none): a call enters the history once. */
  callId?: string;
}

export interface SavedRequest {
  name: string;
  tool: string;
  args: Record<string, unknown>;
  savedAt: number;
}

const MAX = 30;
const MAX_RESULT_CHARS = 24_000;
const historyKey = (server: string) => `toolHistory.${server}`;
const lastKey = (server: string) => `toolLast.${server}`;
const savedKey = (server: string) => `savedRequests.${server}`;

/** A user cancel and a denied call are neutral outcomes, not failures. */
export function outcomeStatus(o: CallOutcome): CallStatus {
  if (o.error?.kind === 'cancelled') return 'cancelled';
  return o.error || o.result?.isError ? 'error' : 'ok';
}

function capped(e: HistoryEntry): HistoryEntry {
  if (!e.outcome) return e;
  const size = JSON.stringify(e.outcome).length;
  if (size <= MAX_RESULT_CHARS) return e;
  const { outcome, ...rest } = e;
  return { ...rest, durationMs: outcome.durationMs, resultDropped: true };
}

export function useHistory(server: string): HistoryEntry[] {
  return usePref<HistoryEntry[]>(historyKey(server), []);
}

/** Adds a call to the history; false when a call with its id is there already. */
export function addHistory(server: string, e: HistoryEntry): boolean {
  const prev = getPref<HistoryEntry[]>(historyKey(server), []);
  if (e.callId && prev.some((p) => p.callId === e.callId)) return false;
  setPref(historyKey(server), [capped(e), ...prev].slice(0, MAX));
  return true;
}

export function inHistory(server: string, callId: string): boolean {
  return getPref<HistoryEntry[]>(historyKey(server), []).some((p) => p.callId === callId);
}

export function clearHistory(server: string): void {
  setPref(historyKey(server), []);
}

export function useLastCall(server: string, tool: string): HistoryEntry | undefined {
  return usePref<Record<string, HistoryEntry>>(lastKey(server), {})[tool];
}

export function setLastCall(server: string, e: HistoryEntry): void {
  const prev = getPref<Record<string, HistoryEntry>>(lastKey(server), {});
  setPref(lastKey(server), { ...prev, [e.tool]: capped(e) });
}

export function useSavedRequests(server: string): SavedRequest[] {
  return usePref<SavedRequest[]>(savedKey(server), []);
}

/** Saves (or replaces, by name) a named request for this server. */
export function saveRequest(server: string, r: SavedRequest): void {
  const prev = getPref<SavedRequest[]>(savedKey(server), []);
  setPref(savedKey(server), [r, ...prev.filter((p) => p.name !== r.name)]);
}

export function deleteSavedRequest(server: string, name: string): void {
  setPref(savedKey(server), getPref<SavedRequest[]>(savedKey(server), []).filter((p) => p.name !== name));
}

// Per-server tool call history, kept in prefs so it survives reloads.
import { setPref, getPref, usePref } from '../settings/prefs';

export interface HistoryEntry {
  tool: string;
  args: Record<string, unknown>;
  ts: number;
  ok: boolean;
  durationMs: number;
}

const MAX = 30;
const key = (server: string) => `toolHistory.${server}`;

export function useHistory(server: string): HistoryEntry[] {
  return usePref<HistoryEntry[]>(key(server), []);
}

export function addHistory(server: string, e: HistoryEntry): void {
  const prev = getPref<HistoryEntry[]>(key(server), []);
  setPref(key(server), [e, ...prev].slice(0, MAX));
}

export function clearHistory(server: string): void {
  setPref(key(server), []);
}

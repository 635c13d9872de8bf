// The last few debugger runs (ids and what they were for), kept in prefs so the page can list
// and reopen them. mcplab itself keeps the newest 20 runs in memory while it runs.
import type { OAuthRunState } from '../api/types.gen';
import { getPref, setPref, usePref } from '../settings/prefs';

export interface RecentRun {
  id: string;
  url: string;
  startedMs: number;
  interactive: boolean;
  state: OAuthRunState | 'gone';
}

const KEY = 'oauthRecentRuns';
const KEEP = 8;

export function useRecentRuns(): RecentRun[] {
  return usePref<RecentRun[]>(KEY, []);
}

export function addRecentRun(r: RecentRun): void {
  const list = getPref<RecentRun[]>(KEY, []).filter((x) => x.id !== r.id);
  setPref(KEY, [r, ...list].slice(0, KEEP));
}

/** Records how a run ended (or that mcplab no longer has it). */
export function updateRecentRun(id: string, state: RecentRun['state']): void {
  const list = getPref<RecentRun[]>(KEY, []);
  const i = list.findIndex((x) => x.id === id);
  if (i < 0 || list[i].state === state) return;
  const next = [...list];
  next[i] = { ...next[i], state };
  setPref(KEY, next);
}

export function forgetRecentRuns(): void {
  setPref(KEY, []);
}

// The session list's entries: plain chats one by one, and the sessions of a compare (those whose
// summary names the same `compare.group`) as one entry, its columns in order, placed where its
// most recently updated column falls in the newest-first list. Pure.
import type { SessionSummary } from '../api/types.gen';

export type ListEntry = { kind: 'session'; session: SessionSummary } | { kind: 'compare'; group: string; sessions: SessionSummary[] };

export function listEntries(list: SessionSummary[]): ListEntry[] {
  const groups = new Map<string, SessionSummary[]>();
  for (const s of list) {
    if (s.compare) groups.set(s.compare.group, [...(groups.get(s.compare.group) ?? []), s]);
  }
  const out: ListEntry[] = [];
  const placed = new Set<string>();
  for (const s of list) {
    if (!s.compare) {
      out.push({ kind: 'session', session: s });
    } else if (!placed.has(s.compare.group)) {
      placed.add(s.compare.group);
      const sessions = (groups.get(s.compare.group) ?? []).slice().sort((a, b) => (a.compare?.column ?? 0) - (b.compare?.column ?? 0));
      out.push({ kind: 'compare', group: s.compare.group, sessions });
    }
  }
  return out;
}

// What `mcplab check`'s rules about tool definitions say of each of a server's tools (the
// Rust rules, via `GET …/tools/findings`; nothing is judged here): fetched once the tool list
// has arrived and again each time it is fetched again (list_changed, Reload, reconnect), so the
// marks never hold up the list and always follow it. Must not fetch the list itself.
import { useQuery } from '@tanstack/react-query';
import { api, errorMessage } from '../api/client';
import type { Finding, Severity } from '../api/types.gen';
import { listQuery } from '../api/queries';

export interface ToolMarksState {
  /** Findings by tool name (a clean tool has none); null until they arrive. */
  byTool: Map<string, Finding[]> | null;
  error: string | null;
}

export function useToolMarks(server: string): ToolMarksState {
  // Observes the Tools page's own list query (never runs it): its update time keys the marks.
  const list = useQuery({ ...listQuery('tools', server), enabled: false });
  const q = useQuery({
    queryKey: ['toolFindings', server, list.dataUpdatedAt],
    queryFn: () => api.toolFindings(server),
    enabled: list.isSuccess,
    // Kept by the query between renders (a new map only when new findings arrive).
    select: (d) => new Map(d.tools.map((t) => [t.tool, t.findings])),
  });
  return {
    byTool: q.data ?? null,
    error: q.error ? errorMessage(q.error) : null,
  };
}

/** How many findings of each severity. */
export function countBySeverity(findings: Finding[]): Record<Severity, number> {
  const n: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of findings) n[f.severity] += 1;
  return n;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "1 error, 2 warnings" (errors and warnings always; notes when there are any). */
export function findingsSummary(findings: Finding[]): string {
  const n = countBySeverity(findings);
  const parts = [plural(n.error, 'error', 'errors'), plural(n.warning, 'warning', 'warnings')];
  if (n.info) parts.push(plural(n.info, 'note', 'notes'));
  return parts.join(', ');
}

/** The list's mark: the worst severity and its accessible name ("2 warnings"), or null for a
 * tool with nothing worse than notes. */
export function toolMark(findings: Finding[] | undefined): { severity: 'error' | 'warning'; label: string } | null {
  const n = countBySeverity(findings ?? []);
  if (!n.error && !n.warning) return null;
  const parts = [n.error ? plural(n.error, 'error', 'errors') : '', n.warning ? plural(n.warning, 'warning', 'warnings') : ''].filter(Boolean);
  return { severity: n.error ? 'error' : 'warning', label: parts.join(', ') };
}

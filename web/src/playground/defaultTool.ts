// Which tool the playground opens with. A person who picked a tool on a server gets it back.
// Otherwise the first tool that works: first a tool whose last run here rendered its app,
// then the first tool not known to be broken (its last run failed, or the server says it
// fails on purpose with `_meta["mcplab/expectedFailure"]`, as the demo's `show_broken_app`
// does), and only then the first tool at all. Pure functions and the outcome record (prefs).
import type { Tool } from '../api/client';

export type Outcome = 'worked' | 'broken';

/** Last outcome per `server\ntool`. */
export type Outcomes = Record<string, Outcome>;

export const outcomeKey = (server: string, tool: string) => `${server}\n${tool}`;

/** Why the server says `tool` fails on purpose, or null. */
export function expectedFailure(tool: Tool): string | null {
  const v = (tool as { _meta?: Record<string, unknown> })._meta?.['mcplab/expectedFailure'];
  if (v === true) return 'fails on purpose';
  return typeof v === 'string' && v.trim() ? v.trim() : null;
}

export function knownBroken(server: string, tool: Tool, outcomes: Outcomes): boolean {
  const o = outcomes[outcomeKey(server, tool.name)];
  return o === 'broken' || (o !== 'worked' && expectedFailure(tool) !== null);
}

/** The tool to show: `chosen` (the person's last pick on this server) when it still exists,
 * else the first that worked, else the first not known broken, else the first. */
export function pickTool(server: string, tools: Tool[], chosen: string | null, outcomes: Outcomes): string | null {
  if (chosen && tools.some((t) => t.name === chosen)) return chosen;
  const worked = tools.find((t) => outcomes[outcomeKey(server, t.name)] === 'worked');
  if (worked) return worked.name;
  const healthy = tools.find((t) => !knownBroken(server, t, outcomes));
  return (healthy ?? tools[0])?.name ?? null;
}

/** The outcome a run's app diagnostics mean, or null while it is still starting. */
export function outcomeOf(d: { status: string; error: string | null; appErrors: unknown[]; delivered: boolean }): Outcome | null {
  if (d.status === 'failed' || d.error) return 'broken';
  if (d.status === 'ready') return d.appErrors.length ? 'broken' : d.delivered ? 'worked' : null;
  return null;
}

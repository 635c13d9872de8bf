// The Check page's state: the options of `mcplab check` as the form holds them, the request
// they make (`POST /api/servers/{name}/check`, the CLI's flags as fields), and every server's
// latest report. Reports go into the Servers page's check store too, so the traffic panel
// marks the frames their findings point at.
import { api, errorMessage } from '../api/client';
import type { CheckExportFormat, CheckReport, CheckRequest, Finding, ProtocolChoice, RuleSet } from '../api/types.gen';
import { checkStore } from '../servers/check';
import { createStore, useStore } from '../ui/store';

/** `live`: the live connection in its era; otherwise fresh connections (`--protocol`). */
export type EraChoice = 'live' | ProtocolChoice;

export interface CheckForm {
  era: EraChoice;
  readiness: RuleSet[];
  hosts: string[];
  /** Inputs per tool; 0 is no fuzzing. */
  fuzz: number;
  seed: number;
  fuzzTools: string;
}

export const DEFAULT_FORM: CheckForm = { era: 'auto', readiness: [], hosts: [], fuzz: 0, seed: 0, fuzzTools: '' };

/** The request the form makes (what `mcplab check` would be given as flags). */
export function requestOf(f: CheckForm): CheckRequest {
  const req: CheckRequest = { calls: [], ruleSets: f.readiness };
  if (f.era !== 'live') req.protocol = f.era;
  if (f.hosts.length) req.hosts = f.hosts;
  if (f.fuzz > 0) {
    const tools = f.fuzzTools.split(/[\s,]+/).filter(Boolean);
    req.fuzz = { perTool: f.fuzz, seed: f.seed, ...(tools.length ? { tools } : {}) };
  }
  return req;
}

/** The same check on the command line. */
export function cliOf(server: string, f: CheckForm): string {
  const flags = [`mcplab check --server ${server}`];
  if (f.era !== 'live' && f.era !== 'auto') flags.push(`--protocol ${f.era}`);
  for (const r of f.readiness) flags.push(`--readiness ${r.replace('readiness-', '')}`);
  for (const h of f.hosts) flags.push(`--host ${h}`);
  if (f.fuzz > 0) {
    flags.push(`--fuzz ${f.fuzz} --seed ${f.seed}`);
    for (const t of f.fuzzTools.split(/[\s,]+/).filter(Boolean)) flags.push(`--fuzz-tool ${t}`);
  }
  return flags.join(' ');
}

export interface PageCheck {
  running: boolean;
  report?: CheckReport;
  error?: string;
}

export const pageChecks = createStore<Record<string, PageCheck>>({});

export async function runPageCheck(server: string, form: CheckForm): Promise<void> {
  const put = (c: PageCheck) => pageChecks.set((m) => ({ ...m, [server]: c }));
  put({ ...pageChecks.get()[server], running: true, error: undefined });
  try {
    const report = await api.check(server, requestOf(form));
    put({ running: false, report });
    checkStore.set((m) => ({ ...m, [server]: { running: false, report } }));
  } catch (e) {
    put({ running: false, error: errorMessage(e) });
  }
}

export function usePageChecks(): Record<string, PageCheck> {
  return useStore(pageChecks);
}

const SEVERITY_RANK: Record<string, number> = { error: 0, warning: 1, info: 2 };

/** Findings grouped by rule set, then by era (`whole server` for none), worst first. */
export function groupFindings(findings: Finding[]): [string, [string, Finding[]][]][] {
  const sets = new Map<string, Map<string, Finding[]>>();
  for (const f of findings) {
    const eras = sets.get(f.ruleSet) ?? new Map<string, Finding[]>();
    const era = f.era ?? 'whole server';
    eras.set(era, [...(eras.get(era) ?? []), f]);
    sets.set(f.ruleSet, eras);
  }
  const worst = (list: Finding[]) => Math.min(...list.map((f) => SEVERITY_RANK[f.severity] ?? 3));
  return [...sets.entries()]
    .map(([set, eras]): [string, [string, Finding[]][]] => [set, [...eras.entries()].sort((a, b) => b[0].localeCompare(a[0]))])
    .sort((a, b) => worst(a[1].flatMap((e) => e[1])) - worst(b[1].flatMap((e) => e[1])));
}

/** The report as a file to save (JSON: what `mcplab check --json` prints). */
export function download(report: CheckReport): void {
  saveFile(`check-${report.server.replace(/[^\w.-]+/g, '_')}.json`, 'application/json', JSON.stringify(report, null, 2));
}

/** The report as the CLI's `--junit`, `--sarif` or `--markdown` file, rendered by the API. */
export async function downloadAs(report: CheckReport, format: CheckExportFormat): Promise<void> {
  const out = await api.checkExport({ report, format });
  saveFile(out.fileName, out.mimeType, out.text);
}

function saveFile(name: string, type: string, text: string): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  a.click();
  URL.revokeObjectURL(a.href);
}

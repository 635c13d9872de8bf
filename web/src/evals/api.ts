// The Evals page's calls to `/api/evals` and the shapes it reads (hand-written: the routes
// answer JSON built from the evals crate's types, which are not in types.gen.ts).
import { request } from '../api/client';
import type { TurnEvent, TurnFailureKind } from '../api/types.gen';

export interface SuiteEntry {
  name: string;
  id?: string;
  title?: string | null;
  error?: string;
}

export interface Interval {
  low: number;
  high: number;
}

export interface Cell {
  caseId: string;
  model: string;
  n: number;
  passes: number;
  errors: number;
  passRate: number | null;
  interval: Interval | null;
  flaky: boolean;
  passed: boolean | null;
  meanTokens: number | null;
  costUsd: number | null;
  latency: { p50: number | null; p95: number | null };
  dots: (boolean | null)[];
}

export interface Summary {
  cells: Cell[];
  planned: number;
  finished: number;
  passes: number;
  passRate: number | null;
}

export interface Progress {
  finished: number;
  planned: number;
  passed: number;
  failed: number;
  errored: number;
}

export interface IterationRecord {
  caseId: string;
  model: string;
  iteration: number;
  outcome: { status: 'passed' | 'failed' | 'errored'; reason?: string };
  failures?: string[];
}

export interface CallView {
  index: number;
  tool: string;
  server?: string;
  arguments?: unknown;
}

/** One turn of `GET /api/evals/runs/{id}/iteration`: the evals crate's `TurnTrace` with the turn's stored events. */
export interface TracedTurn {
  user: string;
  toolCalls: { callId: string; server: string; tool: string; arguments: unknown; result: unknown; isError: boolean; error: string | null; durationMs: number }[];
  answer: string;
  end: { kind: 'finished'; reason: string } | { kind: 'failed'; errorKind: TurnFailureKind; message: string } | { kind: 'cancelled' | 'timedOut' | 'unfinished' };
  steps: number;
  usage: { inputTokens: number; outputTokens: number; reasoningTokens: number };
  latencyMs: number;
  llmMs: number;
  mcpMs: number;
  events: TurnEvent[] | null;
  timedOut: boolean | null;
}

export interface IterationTraceView {
  runId: string;
  caseId: string;
  model: string;
  iteration: number;
  outcome: IterationRecord['outcome'];
  failures: string[] | null;
  turns: TracedTurn[];
  checks: { turn?: number; check: unknown; passed: boolean; reason: string }[] | null;
  toolCalls:
    | {
        turn?: number;
        passed: boolean;
        matched: number;
        diffs: {
          kind: string;
          expected?: CallView;
          actual?: CallView;
          tolerated?: boolean;
          mismatches?: { path: string; expected: unknown; actual: unknown; reason: string }[];
        }[];
      }[]
    | null;
  judge:
    | {
        gating: boolean;
        threshold: number;
        passed: boolean | null;
        verdict: { status: 'scored'; score: number; reason: string; model: string } | { status: 'error'; message: string };
      }
    | null;
  costUsd: number | null;
  appRenders: { callId: string; server: string; tool: string; initialized: boolean; cspViolations: string[]; errors: string[] }[] | null;
}

/** One run of `GET /api/evals/trend`: the pass rate per model, every case pooled. */
export interface TrendPoint {
  runId: string;
  startedMs: number;
  status: string;
  models: { model: string; passes: number; n: number; errors: number; passRate: number | null; interval: Interval | null }[];
}

export interface RunListItem {
  id: string;
  suiteId: string;
  title: string | null;
  status: string;
  startedMs: number;
  passRate: number | null;
}

export interface ShownRun {
  run: { id: string; suiteId: string; status: string; hostHash: string };
  record: { iterations: IterationRecord[] };
  summary: Summary;
  gates: { exitCode: number; gates: { gate: string; status: string; reason: string }[] } | null;
}

export interface Compared {
  base: string;
  run: string;
  comparison: {
    cells: {
      caseId: string;
      model: string;
      change: string;
      base: [number, number] | null;
      run: [number, number] | null;
      difference: number | null;
      interval: Interval | null;
      significance: string | null;
    }[];
  };
}

/** One item of `GET /api/evals/runs/{id}/events`. */
export type RunStreamEvent =
  | { kind: 'run'; event: { type: string; progress?: Progress; message?: string } & Partial<IterationRecord> }
  | { kind: 'ended'; status: string; exitCode: number }
  | { kind: 'failed'; message: string }
  | { kind: 'resync' };

export const evalsApi = {
  folder: () => request<{ folder: string | null }>('GET', '/api/evals/folder'),
  setFolder: (folder: string) => request<{ folder: string }>('PUT', '/api/evals/folder', { folder }),
  suites: () => request<SuiteEntry[]>('GET', '/api/evals/suites'),
  suite: (name: string) => request<{ name: string; text: string }>('GET', `/api/evals/suites/${encodeURIComponent(name)}`),
  saveSuite: (name: string, text: string) => request<{ name: string }>('PUT', `/api/evals/suites/${encodeURIComponent(name)}`, { text }),
  addCase: (suite: string, sessionId: string) =>
    request<{ caseId: string }>('POST', `/api/evals/suites/${encodeURIComponent(suite)}/cases`, { sessionId }),
  start: (body: { suite: string; models: string[]; repeat?: number; concurrency?: number }) =>
    request<{ runId: string }>('POST', '/api/evals/runs', body),
  cancel: (id: string) => request<void>('POST', `/api/evals/runs/${encodeURIComponent(id)}/cancel`),
  runs: () => request<RunListItem[]>('GET', '/api/evals/runs'),
  run: (id: string) => request<ShownRun>('GET', `/api/evals/runs/${encodeURIComponent(id)}`),
  iteration: (runId: string, caseId: string, model: string, iteration: number) =>
    request<IterationTraceView>(
      'GET',
      `/api/evals/runs/${encodeURIComponent(runId)}/iteration?${new URLSearchParams({ caseId, model, iteration: String(iteration) }).toString()}`,
    ),
  trend: (suiteId: string) => request<TrendPoint[]>('GET', `/api/evals/trend?${new URLSearchParams({ suiteId }).toString()}`),
  compare: (base: string, run: string) =>
    request<Compared>('GET', `/api/evals/compare?base=${encodeURIComponent(base)}&run=${encodeURIComponent(run)}`),
  eventsPath: (id: string) => `/api/evals/runs/${encodeURIComponent(id)}/events`,
};

export const pct = (x: number | null | undefined) => (x === null || x === undefined ? '—' : `${Math.round(x * 100)}%`);

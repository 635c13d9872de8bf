// The Evals page's calls to `/api/evals`. Every shape is the wire contract's, generated from
// crates/mcplab-protocol (`evals` module) into types.gen.ts.
import { request } from '../api/client';
import { partWord } from './modelLabel';
import type {
  CaseAdded,
  DirListing,
  DraftCasesRequest,
  DraftedCases,
  EvalCompareView,
  EvalFolder,
  EvalPruneRequest,
  EvalPruneResult,
  EvalRunItem,
  EvalRunRequest,
  EvalRunStarted,
  EvalRunView,
  GateResult,
  IterationView,
  LaunchCheck,
  RunKind,
  Scoped,
  SuiteEntry,
  SuiteFile,
  SuiteSaved,
  TrendPoint,
} from '../api/types.gen';

export type {
  CallDiff,
  DirListing,
  CallView,
  CellSummary,
  EvalCompareView,
  EvalRunItem,
  EvalRunView,
  EvalStreamEvent,
  IterationRecord,
  IterationTurn,
  IterationView,
  LaunchCheck,
  LaunchItem,
  Progress,
  RunKind,
  Scoped,
  SuiteEntry,
  TrendPoint,
} from '../api/types.gen';

export const evalsApi = {
  folder: () => request<EvalFolder>('GET', '/api/evals/folder'),
  setFolder: (folder: string) => request<EvalFolder>('PUT', '/api/evals/folder', { folder }),
  /** The folder picker's listing of `path` (the home when null); nothing outside the home. */
  dirs: (path: string | null) => request<DirListing>('GET', `/api/evals/dirs${path ? `?${new URLSearchParams({ path }).toString()}` : ''}`),
  suites: () => request<SuiteEntry[]>('GET', '/api/evals/suites'),
  suite: (name: string) => request<SuiteFile>('GET', `/api/evals/suites/${encodeURIComponent(name)}`),
  saveSuite: (name: string, text: string) => request<SuiteSaved>('PUT', `/api/evals/suites/${encodeURIComponent(name)}`, { text }),
  addCase: (suite: string, sessionId: string) =>
    request<CaseAdded>('POST', `/api/evals/suites/${encodeURIComponent(suite)}/cases`, { sessionId }),
  /** Cases a model drafts from the servers' tools, appended to the suite; `signal` cancels (the
   * server then writes nothing). */
  draft: (suite: string, body: DraftCasesRequest, signal?: AbortSignal) =>
    request<DraftedCases>('POST', `/api/evals/suites/${encodeURIComponent(suite)}/drafts`, body, signal),
  launch: (suite: string) => request<LaunchCheck>('GET', `/api/evals/suites/${encodeURIComponent(suite)}/launch`),
  start: (body: EvalRunRequest) => request<EvalRunStarted>('POST', '/api/evals/runs', body),
  cancel: (id: string) => request<void>('POST', `/api/evals/runs/${encodeURIComponent(id)}/cancel`),
  runs: () => request<EvalRunItem[]>('GET', '/api/evals/runs'),
  /** `mcplab eval runs prune`: `dryRun` lists what would go; otherwise it goes and the space is reclaimed. */
  prune: (body: EvalPruneRequest) => request<EvalPruneResult>('POST', '/api/evals/prune', body),
  run: (id: string) => request<EvalRunView>('GET', `/api/evals/runs/${encodeURIComponent(id)}`),
  iteration: (runId: string, caseId: string, model: string, iteration: number) =>
    request<IterationView>(
      'GET',
      `/api/evals/runs/${encodeURIComponent(runId)}/iteration?${new URLSearchParams({ caseId, model, iteration: String(iteration) }).toString()}`,
    ),
  trend: (suiteId: string) => request<TrendPoint[]>('GET', `/api/evals/trend?${new URLSearchParams({ suiteId }).toString()}`),
  compare: (base: string, run: string) =>
    request<EvalCompareView>('GET', `/api/evals/compare?base=${encodeURIComponent(base)}&run=${encodeURIComponent(run)}`),
  eventsPath: (id: string) => `/api/evals/runs/${encodeURIComponent(id)}/events`,
};

export const pct = (x: number | null | undefined) => (x === null || x === undefined ? '—' : `${Math.round(x * 100)}%`);

/** A scoped check or call match's scope as words. */
/** Where a check applied: the case, a turn, or a step of the model-free column. */
export const scopeLabel = (s: Scoped, model: string) => (s.scope === 'case' ? 'case' : `${partWord(model)} ${s.turn + 1}`);

/** A run's kind in words: full, shard 2/4, merged (4 shards), replay of …, subset (3 of 10 cases). */
export const kindLabel = (k: RunKind) => {
  switch (k.kind) {
    case 'full':
      return 'full';
    case 'shard':
      return `shard ${k.index}/${k.count}`;
    case 'merged':
      return `merged (${k.shards} shards)`;
    case 'replay':
      return `replay of ${k.of}`;
    case 'subset':
      return `subset (${k.cases} of ${k.of} cases)`;
  }
};

/** The gates' verdict in words (the CLI's exit code, which the page does not speak). With the
 * run's gate report, a failed regression gate says "regressed" and another names the gate. */
export const verdictWords = (exitCode: number | null | undefined, gates?: GateResult[]) => {
  switch (exitCode) {
    case 0:
      return 'passed';
    case 1: {
      const failed = (gates ?? []).filter((g) => g.status === 'fail').map((g) => g.gate);
      if (failed.length === 0) return 'failed a gate';
      return failed.some((g) => /regression/i.test(g)) ? 'regressed' : `below a gate (${failed.join(', ')})`;
    }
    case 2:
      return 'could not run: the suite has problems';
    case 3:
      return 'undecided: iterations could not run or a gate lacks data';
    case 130:
      return 'cancelled';
    case null:
    case undefined:
      return 'not judged yet';
    default:
      return 'could not run';
  }
};

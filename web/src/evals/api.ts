// The Evals page's calls to `/api/evals`. Every shape is the wire contract's, generated from
// crates/mcplab-protocol (`evals` module) into types.gen.ts.
import { request } from '../api/client';
import type {
  CaseAdded,
  EvalCompareView,
  EvalFolder,
  EvalRunItem,
  EvalRunRequest,
  EvalRunStarted,
  EvalRunView,
  IterationView,
  Scoped,
  SuiteEntry,
  SuiteFile,
  SuiteSaved,
  TrendPoint,
} from '../api/types.gen';

export type {
  CallDiff,
  CallView,
  CellSummary,
  EvalCompareView,
  EvalRunItem,
  EvalRunView,
  EvalStreamEvent,
  IterationRecord,
  IterationTurn,
  IterationView,
  Progress,
  Scoped,
  SuiteEntry,
  TrendPoint,
} from '../api/types.gen';

export const evalsApi = {
  folder: () => request<EvalFolder>('GET', '/api/evals/folder'),
  setFolder: (folder: string) => request<EvalFolder>('PUT', '/api/evals/folder', { folder }),
  suites: () => request<SuiteEntry[]>('GET', '/api/evals/suites'),
  suite: (name: string) => request<SuiteFile>('GET', `/api/evals/suites/${encodeURIComponent(name)}`),
  saveSuite: (name: string, text: string) => request<SuiteSaved>('PUT', `/api/evals/suites/${encodeURIComponent(name)}`, { text }),
  addCase: (suite: string, sessionId: string) =>
    request<CaseAdded>('POST', `/api/evals/suites/${encodeURIComponent(suite)}/cases`, { sessionId }),
  start: (body: EvalRunRequest) => request<EvalRunStarted>('POST', '/api/evals/runs', body),
  cancel: (id: string) => request<void>('POST', `/api/evals/runs/${encodeURIComponent(id)}/cancel`),
  runs: () => request<EvalRunItem[]>('GET', '/api/evals/runs'),
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
export const scopeLabel = (s: Scoped) => (s.scope === 'case' ? 'case' : `turn ${s.turn + 1}`);

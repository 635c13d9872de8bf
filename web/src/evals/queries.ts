// The Evals page's server state as queries of the app's cache, all under `['evals', …]`: the
// suites folder, its suites, one suite's text, the stored runs, one run, a compare of two
// runs, a suite's pass rate over its runs. The host stream says nothing about evals, so:
// a run this page started refetches the runs, the trend, that run and the compares when it
// ends (`runEnded`, from the run's own stream); saving the folder or a suite refetches the
// suites, and cases drafted into a suite refetch it (`suiteChanged`); and the runs, a run, a compare and the trend are fetched again whenever a view of
// them mounts, since `mcplab eval run` adds runs without telling the page. Must not hold what
// is being typed (the pages keep their drafts) nor a running run's progress (`RunLauncher`).
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { evalsApi } from './api';
import { freeName, starterSuite } from './starter';

export const evalsKeys = {
  folder: ['evals', 'folder'] as const,
  suites: ['evals', 'suites'] as const,
  suite: (name: string) => ['evals', 'suite', name] as const,
  runs: ['evals', 'runs'] as const,
  run: (id: string) => ['evals', 'run', id] as const,
  compares: ['evals', 'compare'] as const,
  compare: (base: string, run: string) => ['evals', 'compare', base, run] as const,
  trends: ['evals', 'trend'] as const,
  trend: (suiteId: string) => ['evals', 'trend', suiteId] as const,
};

/** What a finished (or cancelled) run changes: the runs, the trend, the run itself, compares. */
export function runEnded(qc: QueryClient, id: string): Promise<unknown> {
  const keys = [evalsKeys.runs, evalsKeys.trends, evalsKeys.run(id), evalsKeys.compares];
  return Promise.all(keys.map((queryKey) => qc.invalidateQueries({ queryKey })));
}

export function useEvalsFolder() {
  return useQuery({ queryKey: evalsKeys.folder, queryFn: evalsApi.folder, refetchOnMount: 'always' });
}

/** The suites of the folder; nothing is asked before a folder is set. */
export function useSuites() {
  const folder = useEvalsFolder().data?.folder;
  return useQuery({ queryKey: evalsKeys.suites, queryFn: evalsApi.suites, enabled: !!folder, refetchOnMount: 'always' });
}

/** A suite file's text, read afresh each time an editor opens it (it may be edited on disk). */
export function useSuiteText(name: string) {
  return useQuery({ queryKey: evalsKeys.suite(name), queryFn: () => evalsApi.suite(name), enabled: !!name, gcTime: 0 });
}

export function useRuns() {
  return useQuery({ queryKey: evalsKeys.runs, queryFn: evalsApi.runs, refetchOnMount: 'always' });
}

export function useRun(id: string) {
  return useQuery({ queryKey: evalsKeys.run(id), queryFn: () => evalsApi.run(id), refetchOnMount: 'always' });
}

export function useCompare(base: string, run: string) {
  return useQuery({ queryKey: evalsKeys.compare(base, run), queryFn: () => evalsApi.compare(base, run), refetchOnMount: 'always' });
}

export function useTrend(suiteId: string) {
  return useQuery({ queryKey: evalsKeys.trend(suiteId), queryFn: () => evalsApi.trend(suiteId), refetchOnMount: 'always' });
}

/** Sets the suites folder; the server's answer (the folder as it keeps it) replaces the query. */
export function useSetFolder() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: evalsApi.setFolder,
    onSuccess: (f) => {
      qc.setQueryData(evalsKeys.folder, f);
      return qc.invalidateQueries({ queryKey: evalsKeys.suites });
    },
  });
}

/** Saves a suite file; the server refuses one that does not load, saying why. */
export function useSaveSuite() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ name, text }: { name: string; text: string }) => evalsApi.saveSuite(name, text),
    onSuccess: () => qc.invalidateQueries({ queryKey: evalsKeys.suites }),
  });
}

/** A suite file changed on the server (cases were added to it): its text and the list again. */
export function suiteChanged(qc: QueryClient, name: string): Promise<unknown> {
  return Promise.all([evalsKeys.suite(name), evalsKeys.suites].map((queryKey) => qc.invalidateQueries({ queryKey })));
}

/** Sets the folder, then saves a starter suite in it under a name not yet taken; resolves with
 * that name. The server checks the starter loads like any other save. */
export function useCreateStarter() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ folder, servers }: { folder: string; servers: string[] }) => {
      const set = await evalsApi.setFolder(folder);
      qc.setQueryData(evalsKeys.folder, set);
      const taken = (await evalsApi.suites()).map((s) => s.name);
      const name = freeName(taken);
      await evalsApi.saveSuite(name, starterSuite(servers));
      return name;
    },
    onSettled: () => qc.invalidateQueries({ queryKey: evalsKeys.suites }),
  });
}

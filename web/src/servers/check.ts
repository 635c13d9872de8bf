// The latest `mcplab check` report per server (run from the Servers page), and its findings by
// traffic frame so the traffic panel can mark the frames they point at.
import { api, errorMessage } from '../api/client';
import type { CheckReport, Finding } from '../api/types.gen';
import { createStore, useStore } from '../ui/store';

export interface CheckState {
  running: boolean;
  report?: CheckReport;
  error?: string;
}

export const checkStore = createStore<Record<string, CheckState>>({});

function put(name: string, s: CheckState): void {
  checkStore.set((m) => ({ ...m, [name]: s }));
}

export async function runCheck(name: string): Promise<void> {
  put(name, { ...checkStore.get()[name], running: true, error: undefined });
  try {
    put(name, { running: false, report: await api.check(name) });
  } catch (e) {
    put(name, { running: false, error: errorMessage(e) });
  }
}

export function useCheck(name: string): CheckState | undefined {
  return useStore(checkStore)[name];
}

/** Findings of every server's latest report, keyed by the frame's `seq`. */
export function findingsBySeq(all: Record<string, CheckState>): Map<number, Finding[]> {
  const bySeq = new Map<number, Finding[]>();
  for (const s of Object.values(all)) {
    for (const f of s.report?.findings ?? []) {
      for (const seq of f.frames) bySeq.set(seq, [...(bySeq.get(seq) ?? []), f]);
    }
  }
  return bySeq;
}

export function useFrameFindings(): Map<number, Finding[]> {
  return findingsBySeq(useStore(checkStore));
}

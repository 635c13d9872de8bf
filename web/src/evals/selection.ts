// What the Evals page shows, as its URL says: `#/evals/<suite file>/<run id>`. A suite file name
// always ends in .yaml, .yml or .json, so two words that never do stand for "no suite" (`-`,
// when only a run is shown) and "a new suite being written" (`new`). Nothing runs because of a
// URL: it only selects. The last selection is remembered (prefs), so `#/evals` alone — the
// nav's link — shows it again, as the inspector pages do.
import { getPref, setPref } from '../settings/prefs';

export interface EvalsSelection {
  /** A suite file name, '' for a new suite, null for none. */
  suite: string | null;
  /** A stored run's id, null for none. */
  run: string | null;
}

const NO_SUITE = '-';
const NEW_SUITE = 'new';

export function parseSelection(args: string[]): EvalsSelection {
  const [s, run] = args;
  const suite = !s || s === NO_SUITE ? null : s === NEW_SUITE ? '' : s;
  return { suite, run: run || null };
}

/** The route segments after `evals` for `sel` (none for an empty selection). */
export function selectionArgs(sel: EvalsSelection): string[] {
  const suite = sel.suite === null ? NO_SUITE : sel.suite === '' ? NEW_SUITE : sel.suite;
  if (sel.run) return [suite, sel.run];
  return sel.suite === null ? [] : [suite];
}

const REMEMBERED = 'evalsSelection';

/** The route segments of the last selection shown ([] for none). */
export function rememberedArgs(): string[] {
  const args = getPref<unknown>(REMEMBERED, []);
  return Array.isArray(args) && args.every((a) => typeof a === 'string') ? args : [];
}

/** Remembers the route segments of what is shown now (an empty selection is not remembered). */
export function rememberArgs(args: string[]): void {
  if (args.length === 0 || rememberedArgs().join('/') === args.join('/')) return;
  setPref(REMEMBERED, args);
}

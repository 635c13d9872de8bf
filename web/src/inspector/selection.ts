// What each inspector page had selected per server, and the values typed into its forms, so
// that leaving a page (or reloading) and coming back shows the same thing. Selection is
// written at once; form drafts are kept in memory at once and written to prefs after a short
// pause in typing, so a keystroke never becomes a request.
import { getPref, setPref } from '../settings/prefs';

export type InspectorPage = 'tools' | 'resources' | 'prompts';

type Selections = Partial<Record<InspectorPage, Record<string, string>>>;
const SEL_KEY = 'inspectorSelection';

export function rememberedSelection(page: InspectorPage, server: string): string | null {
  return getPref<Selections>(SEL_KEY, {})[page]?.[server] ?? null;
}

export function rememberSelection(page: InspectorPage, server: string, item: string | null): void {
  const all = getPref<Selections>(SEL_KEY, {});
  const forPage = { ...(all[page] ?? {}) };
  if (forPage[server] === (item ?? undefined)) return;
  if (item === null) delete forPage[server];
  else forPage[server] = item;
  setPref(SEL_KEY, { ...all, [page]: forPage });
}

const DRAFT_DELAY_MS = 600;
const draftKey = (kind: string, server: string) => `drafts.${kind}.${server}`;
const memory = new Map<string, Record<string, unknown>>();
const timers = new Map<string, number>();

/** The draft typed for `item` (a tool's arguments, a prompt's arguments), or undefined. */
export function getDraft<T>(kind: 'tool' | 'prompt', server: string, item: string): T | undefined {
  const key = draftKey(kind, server);
  const all = memory.get(key) ?? getPref<Record<string, unknown>>(key, {});
  return all[item] as T | undefined;
}

export function setDraft(kind: 'tool' | 'prompt', server: string, item: string, value: unknown): void {
  const key = draftKey(kind, server);
  const all = { ...(memory.get(key) ?? getPref<Record<string, unknown>>(key, {})), [item]: value };
  memory.set(key, all);
  window.clearTimeout(timers.get(key));
  timers.set(
    key,
    window.setTimeout(() => {
      timers.delete(key);
      setPref(key, memory.get(key));
    }, DRAFT_DELAY_MS),
  );
}

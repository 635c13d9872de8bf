// Every recorded frame of every server, indexed once on arrival. Live frames are batched
// (one re-render per 100 ms at most) so a burst of thousands of frames stays smooth; while
// paused they are held back and shown on resume, never lost.
import { api, errorMessage } from '../api/client';
import { events } from '../api/events';
import type { RequestRef, TrafficFrame } from '../api/types.gen';
import { createStore, useStore } from '../ui/store';
import { FrameIndex, findCallByRequests, findToolCall, mergeBySeq, type CallRef, type TrafficFilter } from './frames';
import { noticeTapFrame, refreshTaps } from './taps';
import { showTraffic } from './visibility';
import { cachedServerNames } from '../servers/store';

const MAX_ROWS = 200_000;

export interface TrafficState {
  version: number;
  loading: boolean;
  error: string | null;
  paused: boolean;
  held: number;
  /** Frames the server's ring buffers had already evicted. */
  dropped: number;
}

export const index = new FrameIndex();
export const trafficStore = createStore<TrafficState>({ version: 0, loading: false, error: null, paused: false, held: 0, dropped: 0 });

let queue: TrafficFrame[] = [];
let held: TrafficFrame[] = [];
let loadingBuffer: TrafficFrame[] | null = null;
const lastSeq = new Map<string, number>();
let timer: number | undefined;

function bump(extra: Partial<TrafficState> = {}): void {
  trafficStore.set((s) => ({ ...s, ...extra, version: s.version + 1, held: held.length }));
}

function append(frames: TrafficFrame[]): void {
  for (const f of frames) {
    if ((lastSeq.get(f.server) ?? -1) >= f.seq) continue;
    lastSeq.set(f.server, f.seq);
    index.add(f);
  }
  if (index.rows.length > MAX_ROWS) index.dropOldest(index.rows.length - MAX_ROWS + 10_000);
}

function flush(): void {
  timer = undefined;
  const batch = queue;
  queue = [];
  if (trafficStore.get().paused) held.push(...batch);
  else append(batch);
  bump();
  retryPendingCall();
}

function onFrame(f: TrafficFrame): void {
  noticeTapFrame(f.server);
  if (loadingBuffer) {
    loadingBuffer.push(f);
    return;
  }
  queue.push(f);
  if (timer === undefined) timer = window.setTimeout(flush, 100);
}

/** Loads every server's recorded frames (on start and after a resync). */
export async function reloadTraffic(serverNames: string[]): Promise<void> {
  loadingBuffer = [];
  trafficStore.set((s) => ({ ...s, loading: true, error: null }));
  try {
    const snaps = await Promise.all(serverNames.map((n) => api.traffic(n).catch(() => ({ frames: [], dropped: 0 }))));
    const merged = mergeBySeq(...snaps.map((s) => s.frames), loadingBuffer, queue, held);
    queue = [];
    held = [];
    index.clear();
    lastSeq.clear();
    append(merged);
    bump({ loading: false, dropped: snaps.reduce((n, s) => n + s.dropped, 0) });
  } catch (e) {
    bump({ loading: false, error: errorMessage(e) });
  } finally {
    const late = loadingBuffer ?? [];
    loadingBuffer = null;
    late.forEach(onFrame);
  }
}

export function setPaused(paused: boolean): void {
  trafficStore.set((s) => ({ ...s, paused }));
  if (!paused && held.length) {
    append(held);
    held = [];
    bump();
  }
}

/** Clears the recording on the server (one server, or every listed one) and here. */
export async function clearTraffic(servers: string[]): Promise<void> {
  await Promise.all(servers.map((s) => api.clearTraffic(s)));
  if (servers.length === 1) index.clear(servers[0]);
  else index.clear();
  held = held.filter((f) => !servers.includes(f.server));
  bump();
}

/** Reloads the frames of every configured server (those `known`, else the list asked for
 * again) and every tapped session. */
export function loadAllTraffic(known: string[] | null = null): Promise<void> {
  const names = known ? Promise.resolve(known) : api.servers().then((l) => l.map((v) => v.config.name));
  return Promise.all([names, refreshTaps().catch(() => [])]).then(
    ([servers, taps]) => reloadTraffic([...servers, ...taps.map((t) => t.key)]),
    (e) => trafficStore.set((s) => ({ ...s, error: errorMessage(e) })),
  );
}

let started = false;
export function startTrafficStore(): void {
  if (started) return;
  started = true;
  events.onTraffic(onFrame);
  events.onResync(() => void loadAllTraffic());
  // The servers list the boot fetched (the servers store starts first): not asked for again.
  void loadAllTraffic(cachedServerNames());
}

export function useTraffic(): TrafficState {
  return useStore(trafficStore);
}

/** The panel's filters, here so other pages can point the panel at frames (chat's "frames"). */
export const trafficFilterStore = createStore<TrafficFilter>({ server: '', direction: '', method: '', search: '', call: null, exchange: null });

export function setTrafficFilter(p: Partial<TrafficFilter>): void {
  trafficFilterStore.set((f) => ({ ...f, ...p }));
}

/** A person changed the filters: stop waiting for a call's frames to replace them. */
export function editTrafficFilter(p: Partial<TrafficFilter>): void {
  pendingCall = null;
  setTrafficFilter(p);
}

export function useTrafficFilter(): TrafficFilter {
  return useStore(trafficFilterStore);
}

/** A frame another page asked the panel to select (a check finding's "frame #seq"); `n` makes
 * asking for the same frame again a change. */
export const focusedFrameStore = createStore<{ seq: number; n: number } | null>(null);

/** Opens the panel with every frame shown and frame `seq` selected. */
export function focusFrame(seq: number): void {
  editTrafficFilter({ server: '', direction: '', method: '', search: '', call: null, exchange: null });
  focusedFrameStore.set((f) => ({ seq, n: (f?.n ?? 0) + 1 }));
  showTraffic();
}

/** Which call to show: its server and tool, and either the requests it sent (exact) or, for
 * a call recorded before those were kept, its arguments (the newest such call). */
export interface CallToShow {
  server: string;
  tool: string;
  requests?: RequestRef[];
  args?: unknown;
}

function locate(c: CallToShow): CallRef | null {
  if (c.requests?.length) return findCallByRequests(index.rows, c.server, c.tool, c.requests);
  return findToolCall(index.rows, c.server, c.tool, c.args);
}

/**
 * Points the panel at one tool call's frames (request, progress, cancellation, response) and
 * opens it. The call is found by the ids of the requests it sent (by its exact arguments only
 * when it has none recorded); when its frames are not (or no longer) recorded, the panel shows
 * the server's tools/call frames and says so by the absent call chip.
 */
export function showCallFrames(c: CallToShow): boolean {
  const call = locate(c);
  setTrafficFilter(call ? { server: '', direction: '', method: '', search: '', call, exchange: null } : { server: c.server, method: 'tools/call', direction: '', search: '', call: null, exchange: null });
  // The call's frames may still be on their way (live frames are batched): look again as they
  // arrive, for a little while.
  pendingCall = call ? null : { ...c, until: Date.now() + PENDING_CALL_MS };
  showTraffic();
  return call !== null;
}

const PENDING_CALL_MS = 3000;
let pendingCall: (CallToShow & { until: number }) | null = null;

function retryPendingCall(): void {
  if (!pendingCall) return;
  const p = pendingCall;
  if (Date.now() > p.until) {
    pendingCall = null;
    return;
  }
  const call = locate(p);
  if (!call) return;
  pendingCall = null;
  setTrafficFilter({ server: '', direction: '', method: '', search: '', call, exchange: null });
}

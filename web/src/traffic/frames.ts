// Turns recorded frames into list rows: what kind of JSON-RPC message each is, its method
// and id, its size, and the latency of request/response pairs (matched by id per server and
// direction). Pure and incremental, so 100,000 frames are indexed once, not per render.
import type { RequestRef, TrafficFrame } from '../api/types.gen';

export type RowType = 'request' | 'response' | 'error' | 'notification' | 'batch' | 'unparsable' | 'note' | 'other';

export interface FrameRow {
  frame: TrafficFrame;
  type: RowType;
  /** The method; for a response, the method of the request it answers. */
  method?: string;
  /** The JSON-RPC id as JSON text (so 1 and "1" stay distinct). */
  id?: string;
  /** UTF-8 size of the frame's text in bytes. */
  size: number;
  /** Response time, on both the request and its response once matched. */
  latencyMs?: number;
  /** Why the text is not a JSON-RPC message. */
  problem?: string;
  /** The response of a request, or the request of a response, once both are seen. */
  pair?: FrameRow;
  /** A request's `params._meta.progressToken`, a progress notification's `progressToken` (JSON text). */
  token?: string;
  /** `notifications/cancelled`: the id of the request it cancels (JSON text). */
  refId?: string;
  /** A request that was cancelled before it was answered: the cancellation. */
  cancelledBy?: FrameRow;
  /** HTTP wires: the record of the exchange this frame travelled in (an exchange record: itself). */
  http?: FrameRow;
  /** On an exchange record: the frame it posted and the frames its response carried, in order. */
  members?: FrameRow[];
}

export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** Classifies one frame without looking at others. */
export function classify(frame: TrafficFrame): FrameRow {
  const row: FrameRow = { frame, type: 'other', size: frame.fullBytes ?? utf8Length(frame.text) };
  if (frame.kind === 'note') {
    row.type = 'note';
    return row;
  }
  if (frame.kind === 'unparsable') {
    row.type = 'unparsable';
    row.problem = frame.error;
    return row;
  }
  let msg: unknown;
  try {
    msg = JSON.parse(frame.text);
  } catch (e) {
    if (frame.fullBytes !== undefined) return classifyStart(row);
    row.type = 'unparsable';
    row.problem = (e as Error).message;
    return row;
  }
  if (Array.isArray(msg)) {
    row.type = 'batch';
    row.method = msg
      .map((m) => (m && typeof m === 'object' && typeof m.method === 'string' ? m.method : 'response'))
      .join(', ');
    return row;
  }
  if (!msg || typeof msg !== 'object') {
    row.type = 'unparsable';
    row.problem = 'not a JSON object';
    return row;
  }
  const m = msg as Record<string, unknown>;
  const hasId = 'id' in m && m.id !== null && m.id !== undefined;
  if (hasId) row.id = JSON.stringify(m.id);
  if (typeof m.method === 'string') {
    row.method = m.method;
    row.type = hasId ? 'request' : 'notification';
    const params = (m.params ?? {}) as { _meta?: { progressToken?: unknown }; progressToken?: unknown; requestId?: unknown };
    const token = hasId ? params._meta?.progressToken : m.method === 'notifications/progress' ? params.progressToken : undefined;
    if (token !== undefined && token !== null) row.token = JSON.stringify(token);
    if (m.method === 'notifications/cancelled' && params.requestId !== undefined) row.refId = JSON.stringify(params.requestId);
  } else if ('result' in m) row.type = 'response';
  else if ('error' in m) row.type = 'error';
  else {
    row.type = 'unparsable';
    row.problem = 'neither a request, a notification nor a response';
  }
  return row;
}

/**
 * A truncated frame (only its start was sent, `fullBytes` says how long it is) cannot be parsed;
 * its kind, method and id are read from its start instead, so it still lists and pairs like the
 * whole frame would. Only keys before the body (`params`, `result`, `error`) count, so an `id`
 * inside a result is never taken for the message's.
 */
function classifyStart(row: FrameRow): FrameRow {
  const text = row.frame.text.slice(0, 4096);
  const body = /"(params|result|error)"\s*:/.exec(text);
  const head = body ? text.slice(0, body.index) : text;
  const id = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(head)?.[1];
  const method = /"method"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(head)?.[1];
  if (id !== undefined) row.id = JSON.stringify(JSON.parse(id));
  if (method !== undefined) {
    row.method = JSON.parse(`"${method}"`) as string;
    row.type = id !== undefined ? 'request' : 'notification';
  } else if (body?.[1] === 'result') row.type = 'response';
  else if (body?.[1] === 'error') row.type = 'error';
  return row;
}

/** Rows in arrival order with request/response pairing. */
export class FrameIndex {
  rows: FrameRow[] = [];
  private pending = new Map<string, FrameRow>();
  /** Distinct methods seen, for the method filter. */
  methods = new Set<string>();
  /** Rows by seq (seq is unique across servers), to link HTTP exchanges and their frames. */
  private bySeq = new Map<number, FrameRow>();

  private key(server: string, requestDirection: string, id: string): string {
    return `${server}\u0000${requestDirection}\u0000${id}`;
  }

  add(frame: TrafficFrame): FrameRow {
    const row = classify(frame);
    if (row.type === 'request' && row.id !== undefined) {
      this.pending.set(this.key(frame.server, frame.direction, row.id), row);
    } else if ((row.type === 'response' || row.type === 'error') && row.id !== undefined) {
      const reqDir = frame.direction === 'inbound' ? 'outbound' : 'inbound';
      const k = this.key(frame.server, reqDir, row.id);
      const req = this.pending.get(k);
      if (req) {
        this.pending.delete(k);
        row.method = req.method;
        row.latencyMs = Math.max(0, frame.tsMs - req.frame.tsMs);
        req.latencyMs = row.latencyMs;
        req.pair = row;
        row.pair = req;
      }
    }
    if (row.type === 'notification' && row.method === 'notifications/cancelled' && row.refId !== undefined) {
      // The cancelled request was sent in the same direction as its cancellation.
      const req = this.pending.get(this.key(frame.server, frame.direction, row.refId));
      if (req) {
        req.cancelledBy = row;
        row.pair = req;
      }
    }
    if (row.method && row.type !== 'batch') this.methods.add(row.method);
    this.linkExchange(row);
    this.bySeq.set(frame.seq, row);
    this.rows.push(row);
    return row;
  }

  /** Groups a frame with the HTTP exchange it travelled in (the exchange names the frame it posted; a carried frame names its exchange). */
  private linkExchange(row: FrameRow): void {
    const f = row.frame;
    if (f.http) {
      row.http = row;
      row.members = [];
      const posted = f.http.requestSeq === undefined ? undefined : this.bySeq.get(f.http.requestSeq);
      if (posted) {
        posted.http = row;
        row.members.push(posted);
      }
    } else if (f.exchange !== undefined) {
      const ex = this.bySeq.get(f.exchange);
      if (ex?.members) {
        row.http = ex;
        ex.members.push(row);
      }
    }
  }

  /** Drops the oldest `n` rows (their pending requests stay matchable). */
  dropOldest(n: number): void {
    for (const r of this.rows.splice(0, n)) this.bySeq.delete(r.frame.seq);
  }

  /** Forgets one server's rows, or all. */
  clear(server?: string): void {
    if (server === undefined) {
      this.rows = [];
      this.pending.clear();
      this.methods.clear();
      this.bySeq.clear();
      return;
    }
    this.rows = this.rows.filter((r) => r.frame.server !== server);
    for (const [seq, r] of this.bySeq) if (r.frame.server === server) this.bySeq.delete(seq);
    for (const [k, r] of this.pending) if (r.frame.server === server) this.pending.delete(k);
  }
}

/** One request of ours to a server: its frames are the request, its answer, its progress and its cancellation. */
export interface CallRef {
  server: string;
  /** The request's JSON-RPC id as JSON text. */
  id: string;
  /** More requests of the same call (input rounds, a task's polls), ids as JSON text. */
  moreIds?: string[];
  /** Frames before the call's request are not its own (ids start over on a reconnect). */
  fromSeq?: number;
  progressToken?: string;
  label: string;
}

export interface TrafficFilter {
  server: string; // '' = all
  direction: '' | 'outbound' | 'inbound';
  method: string; // substring, '' = all
  search: string; // substring of the text, '' = all
  call?: CallRef | null;
  /** The seq of an HTTP exchange record: only it and its frames. */
  exchange?: number | null;
}

/** Whether `row` is the exchange record `seq` or one of its frames. */
export function inExchange(row: FrameRow, seq: number): boolean {
  return row.frame.seq === seq || row.http?.frame.seq === seq;
}

export function isFrameOf(row: FrameRow, c: CallRef): boolean {
  if (row.frame.server !== c.server) return false;
  if (c.fromSeq !== undefined && row.frame.seq < c.fromSeq) return false;
  const dir = row.frame.direction;
  const ours = row.id !== undefined && (row.id === c.id || !!c.moreIds?.includes(row.id));
  if (ours && ((row.type === 'request' && dir === 'outbound') || ((row.type === 'response' || row.type === 'error') && dir === 'inbound'))) return true;
  if (c.progressToken !== undefined && row.type === 'notification' && row.method === 'notifications/progress' && row.token === c.progressToken) return true;
  return row.type === 'notification' && row.method === 'notifications/cancelled' && row.refId === c.id && dir === 'outbound';
}

/** How far a request frame's time may be from the time the call says it sent it. */
const SENT_SLACK_MS = 10_000;

/** The request frame we sent to `server` with this id nearest to when it was sent. */
function sentRequest(rows: FrameRow[], server: string, ref: RequestRef): FrameRow | null {
  const id = JSON.stringify(ref.id);
  let best: FrameRow | null = null;
  for (const r of rows) {
    if (r.type !== 'request' || r.id !== id || r.frame.server !== server || r.frame.direction !== 'outbound') continue;
    const off = Math.abs(r.frame.tsMs - ref.atMs);
    if (off <= SENT_SLACK_MS && (!best || off < Math.abs(best.frame.tsMs - ref.atMs))) best = r;
  }
  return best;
}

/**
 * A call's frames by the requests it says it sent (its `tools/call` first): exactly that call,
 * whatever other calls had the same arguments. Null while (or once) its request frame is not
 * recorded.
 */
export function findCallByRequests(rows: FrameRow[], server: string, tool: string, requests: RequestRef[]): CallRef | null {
  const found = requests.map((ref) => sentRequest(rows, server, ref)).filter((r): r is FrameRow => r !== null);
  const first = found.find((r) => r.method === 'tools/call') ?? found[0];
  if (!first?.id) return null;
  const moreIds = found.filter((r) => r !== first).map((r) => r.id!);
  return { server, id: first.id, moreIds, fromSeq: first.frame.seq, progressToken: first.token, label: `${tool} #${first.id}` };
}

/** JSON with sorted keys, so two equal values compare equal as text. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** The newest `tools/call` we sent to `server` for `tool` with exactly these arguments. */
export function findToolCall(rows: FrameRow[], server: string, tool: string, args: unknown): CallRef | null {
  const want = canonicalJson(args ?? {});
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i];
    if (r.type !== 'request' || r.method !== 'tools/call' || r.frame.server !== server || r.frame.direction !== 'outbound' || r.id === undefined) continue;
    try {
      const params = JSON.parse(r.frame.text).params ?? {};
      if (params.name === tool && canonicalJson(params.arguments ?? {}) === want) return { server, id: r.id, progressToken: r.token, label: `${tool} #${r.id}` };
    } catch {
      /* classified as a request, so it parsed */
    }
  }
  return null;
}

export function matches(row: FrameRow, f: TrafficFilter): boolean {
  if (f.call && !isFrameOf(row, f.call)) return false;
  if (f.exchange != null && !inExchange(row, f.exchange)) return false;
  if (f.server && row.frame.server !== f.server) return false;
  if (f.direction && row.frame.direction !== f.direction) return false;
  if (f.method && !(row.method ?? '').toLowerCase().includes(f.method.toLowerCase())) return false;
  if (f.search && !row.frame.text.toLowerCase().includes(f.search.toLowerCase())) return false;
  return true;
}

/** Merges a snapshot with frames that arrived while it loaded: unique by seq, in seq order. */
export function mergeBySeq(...lists: TrafficFrame[][]): TrafficFrame[] {
  const seen = new Set<number>();
  const out: TrafficFrame[] = [];
  for (const list of lists) {
    for (const f of list) {
      if (!seen.has(f.seq)) {
        seen.add(f.seq);
        out.push(f);
      }
    }
  }
  return out.sort((a, b) => a.seq - b.seq);
}

// Pure helpers for the x-ray panel: a captured exchange as a curl command (headers as shown,
// i.e. masked — the key must be put back by hand), a line diff of two steps' request bodies
// (what the next step sent that the previous did not), sizes for people, and a turn's figures
// for the comparison (calls, steps, tokens, cost, timing, end) with the calls that differ from
// the first column's.
import type { HttpExchange, StepXray } from '../api/types.gen';
import type { ChatTurn } from './turns';

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function asCurl(x: HttpExchange): string {
  const headers = x.requestHeaders.filter(([k]) => !['host', 'content-length'].includes(k.toLowerCase())).map(([k, v]) => ` \\\n  -H ${quote(`${k}: ${v}`)}`);
  return `curl -X ${x.method} ${quote(x.url)}${headers.join('')} \\\n  --data-binary ${quote(x.requestBody)}`;
}

function lines(body: string): string[] {
  try {
    return JSON.stringify(JSON.parse(body), null, 2).split('\n');
  } catch {
    return body.split('\n');
  }
}

/** Lines of `next`'s pretty body that `prev` lacks (+) and lines `prev` had that `next` lacks (−). */
export function bodyDiff(prev: string, next: string): { added: string[]; removed: string[] } {
  const a = lines(prev);
  const b = lines(next);
  const count = (xs: string[]) => xs.reduce((m, l) => m.set(l, (m.get(l) ?? 0) + 1), new Map<string, number>());
  const left = count(a);
  const added: string[] = [];
  for (const l of b) {
    const n = left.get(l) ?? 0;
    if (n > 0) left.set(l, n - 1);
    else added.push(l);
  }
  const right = count(b);
  const removed: string[] = [];
  for (const l of a) {
    const n = right.get(l) ?? 0;
    if (n > 0) right.set(l, n - 1);
    else removed.push(l);
  }
  return { added, removed };
}

/** Keys of a provider request body that hold the conversation (shown first, open). */
const CONVERSATION = ['system', 'instructions', 'systemInstruction', 'messages', 'input', 'contents'];
/** Keys that hold the tool definitions (shown last, folded). */
const DEFINITIONS = ['tools', 'functions', 'tool_choice', 'toolConfig'];

/** A request body as an object with the conversation first and the tool definitions last, or
 * null when it is not a JSON object (cut off, or another format). */
export function conversationFirst(body: string): Record<string, unknown> | null {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return null;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  const rank = (k: string) => (CONVERSATION.includes(k) ? 0 : DEFINITIONS.includes(k) ? 2 : 1);
  const ordered = [...keys].sort((a, b) => rank(a) - rank(b) || keys.indexOf(a) - keys.indexOf(b));
  return Object.fromEntries(ordered.map((k) => [k, o[k]]));
}

/** The x-ray tree's first state: the tool definitions folded, everything else open 4 deep. */
export function xrayOpens(name: string | undefined, depth: number): boolean | undefined {
  if (depth === 1 && name !== undefined && DEFINITIONS.includes(name)) return false;
  return depth < 4;
}

export function bytes(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

export function usd(v: number | null): string {
  return v === null ? 'no price' : `$${v.toFixed(6)}`;
}

/** The sum of the steps' costs; null when a step has no price (or there is no step). */
export function turnCost(xrays: StepXray[] | undefined): number | null {
  if (!xrays?.length) return null;
  let sum = 0;
  for (const x of xrays) {
    if (!x.cost) return null;
    sum += x.cost.usd;
  }
  return sum;
}

export interface ColumnFigures {
  calls: { name: string; args: string }[];
  steps: number;
  inputTokens: number;
  outputTokens: number;
  estimated: boolean;
  cost: number | null;
  ttftMs: number | null;
  durationMs: number | null;
  ended: string;
}

export function figures(turn: ChatTurn | undefined): ColumnFigures | null {
  if (!turn) return null;
  const xrays = turn.xrays ?? [];
  return {
    calls: turn.items.flatMap((i) => (i.kind === 'tool' ? [{ name: `${i.server}/${i.tool}`, args: JSON.stringify(i.arguments ?? null) }] : [])),
    steps: Math.max(turn.steps, xrays.length),
    inputTokens: xrays.reduce((s, x) => s + x.tokens.inputTokens, 0),
    outputTokens: xrays.reduce((s, x) => s + x.tokens.outputTokens, 0),
    estimated: xrays.some((x) => x.tokens.estimated),
    cost: turnCost(xrays),
    ttftMs: turn.timing?.ttftMs ?? null,
    durationMs: turn.timing?.durationMs ?? null,
    ended: turn.status === 'finished' ? (turn.reason ?? 'completed') : turn.status,
  };
}

/** Per column, per call: whether it differs from the first column's call at that place. */
export function differing(columns: (ColumnFigures | null)[]): boolean[][] {
  const first = columns[0]?.calls ?? [];
  const same = (a: { name: string; args: string }, b?: { name: string; args: string }) => !!b && a.name === b.name && canon(a.args) === canon(b.args);
  return columns.map((c, ci) =>
    (c?.calls ?? []).map((call, i) => (ci === 0 ? columns.slice(1).some((o) => !same(call, o?.calls[i])) : !same(call, first[i]))),
  );
}

/** JSON text with object keys sorted, so key order is not a difference. */
function canon(text: string): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sort) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, sort(x)])) : v;
  try {
    return JSON.stringify(sort(JSON.parse(text)));
  } catch {
    return text;
  }
}

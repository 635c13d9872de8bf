// Where a key is being typed inside a one-line YAML flow collection (`checks: [ans`,
// `- toolResult: { to`, `checks: [{ answerContains: x }, { max`), for `listItemKeys`: the
// block part the line starts with (indentation, `- ` items, a `key: `), the steps from there
// into the flow (list items, keys), the keys the flow mapping already has before the cursor,
// and the word typed so far. Quoted text is skipped; a flow that spans lines is not read.
import type { Segment } from './listItemKeys';

export interface FlowKey {
  /** Columns of the `- ` items the line opens before its flow. */
  dashes: number[];
  /** Column of the block key the flow is the value of, else where the flow starts. */
  col: number;
  /** That block key, or null when the flow is a list item's value itself. */
  key: string | null;
  path: Segment[];
  taken: string[];
  word: string;
}

const HEAD = /^( *)((?:- +)*)(?:("[^"]*"|'[^']*'|[^\s#:"'{}[\],-][^:#{}[\]]*?)\s*:\s+)?(?=[[{])/;

interface Frame {
  seq: boolean;
  key: string | null;
  taken: string[];
  depth: number;
}

/** The flow context at the end of `before` (the cursor's line up to it), or null. */
export function flowAt(before: string): FlowKey | null {
  const head = HEAD.exec(before);
  if (!head) return null;
  const dashes: number[] = [];
  let at = head[1].length;
  for (const d of head[2].match(/- +/g) ?? []) {
    dashes.push(at);
    at += d.length;
  }
  const key = head[3] ? head[3].replace(/^["']|["']$/g, '') : null;
  const word = /[A-Za-z_][\w-]*$/.exec(before)?.[0] ?? '';
  const body = before.slice(head[0].length, before.length - word.length);
  const walked = walk(body);
  if (!walked) return null;
  const { path, top } = walked;
  // A key goes right after an opener or a comma; a list's item is a one-pair mapping.
  if (!/[[{,]\s*$/.test(body) || (!top.seq && top.key !== null)) return null;
  return { dashes, col: at, key, path: top.seq ? [...path, { item: true }] : path, taken: top.seq ? [] : top.taken, word };
}

/** Reads the flow text: the path to the innermost open collection and its frame. */
function walk(body: string): { path: Segment[]; top: Frame } | null {
  const path: Segment[] = [];
  const stack: Frame[] = [];
  for (let i = 0; i < body.length; i += 1) {
    const c = body[i];
    const top = stack.at(-1);
    if (c === '"' || c === "'") {
      const end = body.indexOf(c, i + 1);
      if (end < 0) return null;
      i = end;
    } else if (c === '[' || c === '{') {
      if (top) {
        if (!top.seq && top.key === null) return null;
        path.push(top.seq ? { item: true } : { key: top.key as string });
      }
      stack.push({ seq: c === '[', key: null, taken: [], depth: path.length });
    } else if (c === ']' || c === '}') {
      stack.pop();
      const outer = stack.at(-1);
      path.length = outer ? outer.depth : 0;
      if (!outer) return null;
    } else if (c === ',') {
      if (top) top.key = null;
    } else if (top && /[A-Za-z_]/.test(c) && (i === 0 || /[\s[{,]/.test(body[i - 1]))) {
      const m = /^([A-Za-z_][\w-]*)\s*:(?=\s|$)/.exec(body.slice(i));
      if (m) {
        top.key = m[1];
        top.taken.push(m[1]);
        i += m[0].length - 1;
      }
    }
  }
  const top = stack.at(-1);
  return top ? { path, top } : null;
}

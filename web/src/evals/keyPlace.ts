// Where a key is being typed in the suite editor, read from the editor's own syntax tree
// (@codemirror/lang-yaml's or lang-json's): the path from the document's root to the mapping
// the key goes in (keys, list items), the keys that mapping already has, and the word typed so
// far. In YAML a key goes after a flow collection's `[`, `{` or `,` (on the same line or not) or
// at the start of a block line, where the indentation picks the mapping, as YAML reads it; in
// JSON after an object's `{` or `,`. The tree of a half-typed document holds error-recovery
// shapes (a flow mapping parsed as the key of a wrapping one); they are read through.
import { ensureSyntaxTree, syntaxTree } from '@codemirror/language';
import type { EditorState, Line } from '@codemirror/state';

/** One step from the document's root: a mapping's key, or an item of a list. */
export type Segment = { key: string } | { item: true };

export interface KeyPlace {
  path: Segment[];
  taken: Set<string>;
  /** The key typed so far (without JSON's opening quote). */
  word: string;
  /** What a chosen key replaces: from `from` (the word, with JSON's quote) to `to`. */
  from: number;
  to: number;
  json: boolean;
}

type Tree = ReturnType<typeof syntaxTree>;
type Node = ReturnType<Tree['resolveInner']>;

const ITEM: Segment = { item: true };
const WORD = /[A-Za-z_][\w-]*$/;

/** The key place at `pos`, or null where no key goes. */
export function keyPlace(state: EditorState, pos: number): KeyPlace | null {
  const tree = ensureSyntaxTree(state, state.doc.length, 200) ?? syntaxTree(state);
  return tree.type.name === 'JsonText' ? jsonPlace(state, tree, pos) : yamlPlace(state, tree, pos);
}

function yamlPlace(state: EditorState, tree: Tree, pos: number): KeyPlace | null {
  const line = state.doc.lineAt(pos);
  const before = line.text.slice(0, pos - line.from);
  const word = WORD.exec(before)?.[0] ?? '';
  const from = pos - word.length;
  const opener = tokenBefore(state, tree, from);
  const found = opener && ['[', '{', ','].includes(opener.name) ? flowPlace(state, opener, from) : blockPlace(state, tree, line, before.slice(0, before.length - word.length), from);
  return found && { ...found, word, from, to: pos, json: false };
}

/** After a flow collection's opener or comma: a key of that mapping, or of a list's new
 * one-pair item. */
function flowPlace(state: EditorState, opener: Node, from: number): { path: Segment[]; taken: Set<string> } | null {
  let flow: Node | null = opener.parent;
  while (flow && flow.name !== 'FlowSequence' && flow.name !== 'FlowMapping') flow = flow.parent;
  const path = flow && pathOf(state, flow);
  if (!flow || !path) return null;
  return flow.name === 'FlowSequence' ? { path: [...path, ITEM], taken: new Set() } : { path, taken: keysOf(state, flow, from) };
}

/** At the start of a block line (`  key`, `- key`, `- - key`): the mapping its column belongs
 * to, found from the last token above the line outwards. */
function blockPlace(state: EditorState, tree: Tree, line: Line, lead: string, from: number): { path: Segment[]; taken: Set<string> } | null {
  const m = /^( *)((?:- +)*)$/.exec(lead);
  if (!m) return null;
  const dashes: number[] = [];
  let at = m[1].length;
  for (const d of m[2].match(/- +/g) ?? []) {
    dashes.push(at);
    at += d.length;
  }
  const col = lead.length;
  const start = dashes[0] ?? col;
  const items = dashes.map(() => ITEM);
  let child: Node | null = null;
  for (let n = tokenBefore(state, tree, line.from); n; child = n, n = n.parent) {
    if ((n.name === 'FlowSequence' || n.name === 'FlowMapping') && !closed(n)) return null;
    if (n.name === 'BlockMapping') {
      const indent = column(state, n.getChild('Pair')?.from ?? n.from);
      if (indent > start) continue;
      if (indent === start && dashes.length === 0) {
        const path = pathOf(state, n);
        return path && { path, taken: keysOf(state, n, from) };
      }
      // A new mapping or list as the value of the pair above (an indentless list may share
      // its column).
      const pair = child?.name === 'Pair' ? child : null;
      const key = pair && keyText(state, pair);
      const value = pair && valueOf(pair);
      const path = key !== null && pathOf(state, n);
      if (!pair || !path || (value && (value.getChild('Pair') ?? value).from < line.from)) return null;
      const below = value?.name === 'BlockMapping' && dashes.length === 0 ? keysOf(state, value, from) : ownKeys(state, tree, line, from, col);
      return { path: [...path, { key: key as string }, ...items], taken: below };
    }
    if (n.name === 'BlockSequence') {
      const indent = column(state, n.from);
      if (indent > start || (indent === start && dashes.length === 0)) continue;
      if (indent < start) return null;
      const path = pathOf(state, n);
      return path && { path: [...path, ...items], taken: ownKeys(state, tree, line, from, col) };
    }
  }
  return start === 0 && dashes.length === 0 ? { path: [], taken: new Set() } : null;
}

/** Keys at column `col` of the mapping the cursor's own line starts (`- ` then keys below). */
function ownKeys(state: EditorState, tree: Tree, line: Line, from: number, col: number): Set<string> {
  for (let n: Node | null = tree.resolveInner(from, 1); n && n.from >= line.from; n = n.parent) {
    const first = n.name === 'BlockMapping' ? n.getChild('Pair') : null;
    if (first && column(state, first.from) === col) return keysOf(state, n, from);
  }
  return new Set();
}

function jsonPlace(state: EditorState, tree: Tree, pos: number): KeyPlace | null {
  const line = state.doc.lineAt(pos);
  const typed = /"?([A-Za-z_][\w-]*)?$/.exec(line.text.slice(0, pos - line.from));
  const from = pos - (typed?.[0].length ?? 0);
  const opener = tokenBefore(state, tree, from);
  const object = opener && ['{', ','].includes(opener.name) ? opener.parent : null;
  const path = object?.name === 'Object' ? pathOf(state, object) : null;
  if (!object || !path) return null;
  // A quote the editor closed by itself goes with the word.
  const to = typed?.[0].startsWith('"') && state.doc.sliceString(pos, pos + 1) === '"' ? pos + 1 : pos;
  return { path, taken: keysOf(state, object, from), word: typed?.[1] ?? '', from, to, json: true };
}

/** The innermost node of the last token before `pos`, past whitespace and comments. */
function tokenBefore(state: EditorState, tree: Tree, pos: number): Node | null {
  let at = pos;
  for (;;) {
    while (at > 0 && /\s/.test(state.doc.sliceString(at - 1, at))) at -= 1;
    if (at === 0) return null;
    const node = tree.resolveInner(at, -1);
    if (node.name !== 'Comment') return node;
    at = node.from;
  }
}

/** The keys and list items from the root to `node`, reading through a mapping parsed as the
 * key of a wrapping one; null where a key is not plain text. */
function pathOf(state: EditorState, node: Node): Segment[] | null {
  const path: Segment[] = [];
  for (let n = node, p = n.parent; p; p = n.parent) {
    if (p.name === 'Key') {
      const wrapper = p.parent?.parent;
      if (!wrapper) return null;
      n = wrapper;
      continue;
    }
    if (p.name === 'BlockSequence' || p.name === 'FlowSequence' || p.name === 'Array') {
      if (n.name === 'Item' || p.name === 'Array') path.unshift(ITEM);
    } else if ((p.name === 'Pair' || p.name === 'Property') && n.name !== 'Key' && n.name !== 'PropertyName') {
      const key = keyText(state, p);
      if (key === null) return null;
      path.unshift({ key });
    }
    n = p;
  }
  return path;
}

/** The text of a pair's (or JSON property's) key, unquoted; null for anything but text. */
function keyText(state: EditorState, pair: Node): string | null {
  const name = pair.getChild('PropertyName') ?? pair.getChild('Key')?.firstChild;
  if (!name || !['Literal', 'QuotedLiteral', 'PropertyName'].includes(name.name)) return null;
  const text = state.doc.sliceString(name.from, name.to);
  return name.name === 'Literal' ? text : unquote(text);
}

function unquote(text: string): string {
  if (text.startsWith('"')) {
    try {
      return JSON.parse(text) as string;
    } catch {
      return text.slice(1, -1);
    }
  }
  return text.slice(1, -1).replace(/''/g, "'");
}

/** The keys of a mapping's (or object's) pairs, but the one at `except` (being typed). */
function keysOf(state: EditorState, mapping: Node, except: number): Set<string> {
  const keys = new Set<string>();
  for (const pair of [...mapping.getChildren('Pair'), ...mapping.getChildren('Property')]) {
    if (pair.from <= except && except <= pair.to) continue;
    const key = keyText(state, pair);
    if (key !== null) keys.add(key);
  }
  return keys;
}

function valueOf(pair: Node): Node | null {
  const colon = pair.getChild(':');
  return colon?.nextSibling ?? null;
}

function closed(flow: Node): boolean {
  return flow.lastChild?.name === (flow.name === 'FlowSequence' ? ']' : '}');
}

function column(state: EditorState, pos: number): number {
  return pos - state.doc.lineAt(pos).from;
}

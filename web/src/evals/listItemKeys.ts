// Key completion inside YAML list items, from the suite's JSON Schema. codemirror-json-schema
// completes the keys of plain mappings (a case's keys) but offers nothing in a list item whose
// schema is a `oneOf` — a `checks:` item (one check name each: `answerContains`, `maxRenderMs`,
// …) or a check's argument keys under it — since it picks a branch by the data, and a half
// typed item matches none. Here the block-style YAML above the cursor gives the path (keys and
// list items, by indentation), the schema is walked along it through every `$ref`, `oneOf`,
// `anyOf` and `allOf` branch, and the keys of all branches are offered (less those the mapping
// already has), each with its description. One-line flow collections (`checks: [ans`) are read
// by `yamlFlow.ts`. Used only where the library offers nothing, so no key is offered twice.
import { yamlCompletion } from 'codemirror-json-schema/yaml';
import { renderMarkdown } from './schemaMarkdown';
import { flowAt } from './yamlFlow';

type Context = Parameters<ReturnType<typeof yamlCompletion>>[0];

interface Schema {
  $ref?: string;
  properties?: Record<string, SchemaLike>;
  items?: SchemaLike | SchemaLike[];
  oneOf?: SchemaLike[];
  anyOf?: SchemaLike[];
  allOf?: SchemaLike[];
  description?: string;
  const?: unknown;
  [other: string]: unknown;
}
type SchemaLike = Schema | boolean;

/** One step from the document's root: a mapping's key, or an item of a list. */
export type Segment = { key: string } | { item: true };

export interface KeyOption {
  name: string;
  description: string;
  /** What is inserted: `name: ` (with the value when the schema allows only one). */
  apply: string;
}

/** A line's block structure: the columns of its leading `- ` markers, then a `key:` if any. */
interface Shape {
  dashes: number[];
  /** Column of the first thing after the dashes. */
  col: number;
  key: string | null;
  /** The key's value on the line ('' when it opens a block). */
  rest: string;
}

const KEY = /^("[^"]*"|'[^']*'|[^\s#:"'{[\]}-][^:#]*?)\s*:(?:\s+(.*))?$/;

function shape(line: string): Shape | null {
  let i = line.length - line.trimStart().length;
  const dashes: number[] = [];
  while (line[i] === '-' && (line[i + 1] === ' ' || i + 1 === line.length)) {
    dashes.push(i);
    i += 1;
    while (line[i] === ' ') i += 1;
  }
  const body = line.slice(i);
  if ((body === '' && dashes.length === 0) || body.startsWith('#')) return null;
  const m = KEY.exec(body);
  const rest = (m?.[2] ?? '').trim();
  return { dashes, col: i, key: m ? m[1].replace(/^["']|["']$/g, '') : null, rest: rest.startsWith('#') ? '' : rest };
}

/** Where a key is being typed at the end of `before` (the cursor's line up to it): its column,
 * the word so far and the list items the line opens; null when the line holds anything else. */
function typing(before: string): { col: number; word: string; dashes: number[] } | null {
  const m = /^( *)((?:- +)*)([A-Za-z_][\w-]*)?$/.exec(before);
  if (!m) return null;
  const word = m[3] ?? '';
  const dashes: number[] = [];
  let at = m[1].length;
  for (const d of m[2].match(/- +/g) ?? []) {
    dashes.push(at);
    at += d.length;
  }
  return { col: before.length - word.length, word, dashes };
}

/** The path to the mapping whose key is typed at `col` on line `row`, with the keys that
 * mapping already has; null when the lines above do not read as block YAML. */
export function pathAt(lines: string[], row: number, col: number, dashes: number[]): { path: Segment[]; taken: Set<string> } | null {
  const path: Segment[] = [];
  const taken = new Set<string>();
  let need = col;
  let isItem = false;
  let innermost = true;
  const open = (ds: number[]) => {
    for (const d of [...ds].reverse()) {
      path.unshift({ item: true });
      need = d;
      isItem = true;
      innermost = false;
    }
  };
  open(dashes);
  // An item at column 0 may still be a value of a key at column 0 (`cases:` then `- id: a`).
  for (let r = row - 1; r >= 0 && (need > 0 || isItem); r -= 1) {
    const s = shape(lines[r]);
    if (!s) continue;
    const indent = s.dashes[0] ?? s.col;
    if (indent > need) continue;
    const parentKey = s.key !== null && s.rest === '' && (s.col < need || (isItem && s.col === need));
    if (!isItem && s.key !== null && s.col === need) {
      if (innermost) taken.add(s.key);
      open(s.dashes);
    } else if (isItem && s.dashes.includes(need)) {
      open(s.dashes.filter((d) => d < need));
    } else if (parentKey && s.key !== null) {
      path.unshift({ key: s.key });
      need = s.col;
      isItem = false;
      innermost = false;
      open(s.dashes);
    } else return null;
  }
  for (const key of siblingsBelow(lines, row, col)) taken.add(key);
  return { path, taken };
}

/** Keys at `col` below the cursor's line, up to where the mapping ends. */
function siblingsBelow(lines: string[], row: number, col: number): string[] {
  const keys: string[] = [];
  for (const line of lines.slice(row + 1)) {
    const s = shape(line);
    if (!s) continue;
    if ((s.dashes[0] ?? s.col) < col) break;
    if (s.key !== null && s.col === col && s.dashes.length === 0) keys.push(s.key);
  }
  return keys;
}

function resolve(root: Schema, ref: string): SchemaLike {
  let at: unknown = root;
  for (const part of ref.replace(/^#\/?/, '').split('/').filter(Boolean)) at = (at as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return (at as SchemaLike | undefined) ?? false;
}

/** `s` as the object schemas it may be: `$ref`s followed, `oneOf`/`anyOf`/`allOf` spread. */
function branches(root: Schema, s: SchemaLike, depth = 0): Schema[] {
  if (typeof s !== 'object' || depth > 12) return [];
  if (s.$ref) return branches(root, resolve(root, s.$ref), depth + 1).map((b) => ({ ...b, description: s.description ?? b.description }));
  const spread = [...(s.oneOf ?? []), ...(s.anyOf ?? []), ...(s.allOf ?? [])].flatMap((b) => branches(root, b, depth + 1));
  return [s, ...spread];
}

/** The schemas found at the end of `path` from `root`. */
export function schemasAt(root: Schema, path: Segment[]): SchemaLike[] {
  let here: SchemaLike[] = [root];
  for (const seg of path) {
    const all = here.flatMap((s) => branches(root, s));
    here = all.flatMap((s) => {
      if ('key' in seg) return s.properties?.[seg.key] !== undefined ? [s.properties[seg.key]] : [];
      return s.items !== undefined && !Array.isArray(s.items) ? [s.items] : [];
    });
  }
  return here;
}

/** The keys a mapping at `path` may have, each with the description of its own schema or else
 * of the branch that names it (a check's description is on its `oneOf` branch). */
export function keysAt(root: Schema, path: Segment[]): KeyOption[] {
  const seen = new Map<string, KeyOption>();
  for (const branch of schemasAt(root, path).flatMap((s) => branches(root, s))) {
    for (const [name, prop] of Object.entries(branch.properties ?? {})) {
      if (seen.has(name)) continue;
      const own = branches(root, prop)[0];
      const only = own && 'const' in own ? `${name}: ${JSON.stringify(own.const)}` : `${name}: `;
      seen.set(name, { name, description: own?.description ?? branch.description ?? '', apply: only });
    }
  }
  return [...seen.values()];
}

/** The keys offered at `pos` of `text`: from where the typed word starts. */
export function keyCompletions(root: Schema, text: string, pos: number): { from: number; word: string; options: KeyOption[] } | null {
  const lineStart = text.lastIndexOf('\n', pos - 1) + 1;
  const row = text.slice(0, lineStart).split('\n').length - 1;
  const before = text.slice(lineStart, pos);
  const found = blockKey(text.split('\n'), row, before) ?? flowKey(text.split('\n'), row, before);
  if (!found) return null;
  const options = keysAt(root, found.path).filter((o) => !found.taken.has(o.name) && o.name.startsWith(found.word));
  return options.length ? { from: lineStart + before.length - found.word.length, word: found.word, options } : null;
}

interface KeyPlace {
  path: Segment[];
  taken: Set<string>;
  word: string;
}

/** A key typed in block style (`- ans`, `    tur`). */
function blockKey(lines: string[], row: number, before: string): KeyPlace | null {
  const at = typing(before);
  const found = at && pathAt(lines, row, at.col, at.dashes);
  return at && found ? { ...found, word: at.word } : null;
}

/** A key typed in a one-line flow collection (`checks: [ans`, `- toolResult: { to`). */
function flowKey(lines: string[], row: number, before: string): KeyPlace | null {
  const flow = flowAt(before);
  const base = flow && pathAt(lines, row, flow.col, flow.dashes);
  if (!flow || !base) return null;
  const path = [...base.path, ...(flow.key === null ? [] : [{ key: flow.key }]), ...flow.path];
  return { path, taken: new Set(flow.taken), word: flow.word };
}

function info(markdown: string) {
  return () => {
    const div = document.createElement('div');
    div.innerHTML = renderMarkdown(markdown);
    return div;
  };
}

/** The completion source for the YAML editor: the library's answer stands; where it has none,
 * the keys of list items. */
export function listItemKeys(schema: object) {
  const library = yamlCompletion();
  return async (ctx: Context) => {
    const theirs = await library(ctx);
    if (!Array.isArray(theirs) && theirs.options.length > 0) return null;
    const ours = keyCompletions(schema as Schema, ctx.state.doc.toString(), ctx.pos);
    // Typing `- ` or a space asks for nothing; a letter or Ctrl+Space does.
    if (!ours || (!ctx.explicit && ours.word === '')) return null;
    return {
      from: ours.from,
      validFor: /^[\w-]*$/,
      options: ours.options.map((o) => ({ label: o.name, apply: o.apply, type: 'property', info: info(o.description) })),
    };
  };
}

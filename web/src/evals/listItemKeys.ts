// Key completion in the suite editor, from the suite's JSON Schema. codemirror-json-schema
// completes the keys of plain YAML mappings (a case's keys) but offers nothing in a list item
// whose schema is a `oneOf` — a `checks:` item (one check name each: `answerContains`,
// `maxRenderMs`, …) or a check's argument keys under it — since it picks a branch by the data,
// and a half typed item matches none; in JSON it offers little past the root. Here
// `keyPlace.ts` reads the path to the cursor's mapping from the editor's syntax tree (block and
// flow YAML, on one line or many, and JSON), the schema is walked along it through every
// `$ref`, `oneOf`, `anyOf` and `allOf` branch, and the keys of all branches are offered (less
// those the mapping already has), each with its description. Used only where the library
// offers nothing, so no key is offered twice.
import type { EditorState } from '@codemirror/state';
import { jsonCompletion } from 'codemirror-json-schema';
import { yamlCompletion } from 'codemirror-json-schema/yaml';
import { keyPlace, type Segment } from './keyPlace';
import { renderMarkdown } from './schemaMarkdown';

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

export interface KeyOption {
  name: string;
  description: string;
  /** The value inserted with the key when the schema allows only one (JSON text). */
  only: string | null;
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
      const only = own && 'const' in own ? JSON.stringify(own.const) : null;
      seen.set(name, { name, description: own?.description ?? branch.description ?? '', only });
    }
  }
  return [...seen.values()];
}

/** A key and what choosing it inserts (`name: ` in YAML, `"name": ` in JSON, with the value
 * when the schema allows only one). */
export interface KeyChoice extends KeyOption {
  apply: string;
}

/** The keys offered at `pos`: what they replace, from where the typed word (and in JSON its
 * quotes) starts. */
export function keyCompletions(root: Schema, state: EditorState, pos: number): { from: number; to: number; word: string; options: KeyChoice[] } | null {
  const place = keyPlace(state, pos);
  if (!place) return null;
  const options = keysAt(root, place.path)
    .filter((o) => !place.taken.has(o.name) && o.name.startsWith(place.word))
    .map((o) => ({ ...o, apply: `${place.json ? JSON.stringify(o.name) : o.name}: ${o.only ?? ''}` }));
  return options.length ? { from: place.from, to: place.to, word: place.word, options } : null;
}

function info(markdown: string) {
  return () => {
    const div = document.createElement('div');
    div.innerHTML = renderMarkdown(markdown);
    return div;
  };
}

/** The completion source for the suite editor (YAML, or JSON when `json`): the library's
 * answer stands; where it has none, the keys the schema allows at the cursor. */
export function listItemKeys(schema: object, json = false) {
  const library = json ? jsonCompletion() : yamlCompletion();
  return async (ctx: Context) => {
    const theirs = await library(ctx);
    if (!Array.isArray(theirs) && theirs.options.length > 0) return null;
    const ours = keyCompletions(schema as Schema, ctx.state, ctx.pos);
    // Typing `- ` or a space asks for nothing; a letter (or a quote) or Ctrl+Space does.
    if (!ours || (!ctx.explicit && ours.from === ctx.pos)) return null;
    return {
      from: ours.from,
      to: ours.to,
      validFor: /^"?[\w-]*"?$/,
      options: ours.options.map((o) => ({ label: o.name, apply: o.apply, type: 'property', info: info(o.description) })),
    };
  };
}

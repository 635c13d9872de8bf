// The suite editor's completion inside list items: a `checks:` item offers the check names of
// the suite's JSON Schema (every `oneOf` branch of `Check`), a check's block offers its
// argument keys, in block and in flow style (on one line or many), and in a JSON suite; read
// from the editor's syntax tree. The library's own answers (a case's keys) are left to it.
import { describe, expect, it } from 'vitest';
import { EditorState } from '@codemirror/state';
import { jsonSchema } from 'codemirror-json-schema';
import { yamlCompletion, yamlSchema } from 'codemirror-json-schema/yaml';
import schema from '../../../crates/mcplab-evals/suite.schema.json';
import { keyCompletions, listItemKeys } from './listItemKeys';

const HEAD = 'version: 1\nid: s\ncases:\n  - id: a\n    turns: [hi]\n    checks:\n';

/** An editor state of `doc` (YAML, or JSON when `json`) as the suite editor makes it. */
function editor(doc: string, json = false) {
  return EditorState.create({ doc, extensions: [json ? jsonSchema(schema as never) : yamlSchema(schema as never)] });
}

/** What is offered where `|` is in `doc`, or null. */
function completions(doc: string, json = false) {
  return keyCompletions(schema, editor(doc.replace('|', ''), json), doc.indexOf('|'));
}

/** `doc` with `|` where the cursor is: the names offered there, or null. */
function offered(doc: string, json = false): string[] | null {
  return completions(doc, json)?.options.map((o) => o.name) ?? null;
}

const checkNames = schema.$defs.Check.oneOf.flatMap((b) => Object.keys(b.properties));

describe('key completion in list items', () => {
  it('offers every check name of the schema in a `checks:` item', () => {
    const names = offered(`${HEAD}      - |`);
    expect(names).toEqual(checkNames);
    expect(names).toEqual(expect.arrayContaining(['answerContains', 'toolResult', 'noConsoleErrors', 'maxRenderMs', 'appRendered', 'command']));
    expect(names).not.toContain('turns');
    // After other items, and in the indentless style too.
    expect(offered(`${HEAD}      - answerContains: hi\n      - |\n      - noToolErrors: true\n`)).toEqual(checkNames);
    expect(offered('version: 1\nid: s\ncases:\n- id: a\n  checks:\n  - |')).toEqual(checkNames);
    // In a suite's defaults as well: the same schema, another path.
    expect(offered('version: 1\nid: s\ndefaults:\n  checks:\n    - |')).toEqual(checkNames);
  });

  it('narrows to the word typed, replacing it, and says what a check does', () => {
    const doc = `${HEAD}      - maxR|`;
    const pos = doc.indexOf('|');
    const got = completions(doc);
    expect(got?.options.map((o) => o.name)).toEqual(['maxRenderMs']);
    expect(got?.from).toBe(pos - 'maxR'.length);
    expect(got?.options[0].description).toMatch(/milliseconds/);
    // A check that takes only `true` is inserted with it.
    expect(completions(`${HEAD}      - noC|`)?.options[0].apply).toBe('noConsoleErrors: true');
  });

  it("offers a check's argument keys under it, less those it has", () => {
    expect(offered(`${HEAD}      - toolResult:\n          |`)).toEqual(['tool', 'server', 'matches']);
    expect(offered(`${HEAD}      - toolResult:\n          tool: add\n          |\n          matches: {}`)).toEqual(['server']);
    expect(offered(`${HEAD}      - appRendered:\n          |`)).toEqual(['tool']);
    // Lists nested in block lists, and a blank line under a check whose keys follow.
    expect(offered('version: 1\nid: s\ncases:\n- id: a\n  checks:\n  - toolResult:\n      tool: x\n  - answerContains: y\n  - |')).toEqual(checkNames);
    expect(offered(`${HEAD}      - toolResult:\n          |\n          tool: add`)).toEqual(['server', 'matches']);
    expect(offered('version: 1\nid: s\ncases:\n  - id: a\n    checks:\n      - noToolErrors: true\n  - id: b\n    checks:\n      - toolResult:\n          ser|')).toEqual(['server']);
  });

  it('reads flow collections that span lines', () => {
    const open = 'version: 1\nid: s\ncases:\n  - id: a\n    checks: [\n      toolCalled: x,\n      ';
    expect(offered(`${open}|`)).toEqual(checkNames);
    expect(offered(`${open}maxR|`)).toEqual(['maxRenderMs']);
    expect(offered(`${open}toolResult: {\n        tool: a,\n        |`)).toEqual(['server', 'matches']);
    expect(offered(`${open}|\n    ]`)).toEqual(checkNames);
    // A value, not a key, after `key:` on the line above.
    expect(offered(`${open}answerContains:\n        h|`)).toBeNull();
  });

  it('completes a JSON suite the same way', () => {
    const head = '{"version": 1, "id": "s", "cases": [{"id": "a", "checks": [';
    expect(offered(`${head}{|`, true)).toEqual(checkNames);
    expect(offered(`${head}{"maxR|"}]}]}`, true)).toEqual(['maxRenderMs']);
    expect(offered(`${head}{"toolResult": {"tool": "a", "|"}}]}]}`, true)).toEqual(['server', 'matches']);
    expect(offered('{"version": 1, "id": "s", "cases": [{"id": "a", |}]}', true)).toEqual(expect.arrayContaining(['turns', 'checks']));
    // The closing quote the editor added goes with the word; a value is no key.
    const got = completions(`${head}{"noC|"}]}]}`, true);
    expect([got?.options[0].apply, got?.to]).toEqual(['"noConsoleErrors": true', `${head}{"noC"`.length]);
    expect(offered(`${head}{"toolResult": {"tool": "a|"}}]}]}`, true)).toBeNull();
  });

  it('reads one-line flow collections too', () => {
    expect(offered('version: 1\nid: s\ncases:\n  - id: a\n    checks: [|')).toEqual(checkNames);
    expect(offered('version: 1\nid: s\ncases:\n  - id: a\n    checks: [answerContains: hi, maxR|]')).toEqual(['maxRenderMs']);
    expect(offered(`${HEAD}      - { noC|`)).toEqual(['noConsoleErrors']);
    expect(offered(`${HEAD}      - toolResult: { tool: "a, b", |`)).toEqual(['server', 'matches']);
    expect(offered('version: 1\nid: s\ncases:\n  - id: a\n    checks: [{ toolResult: { |')).toEqual(['tool', 'server', 'matches']);
    expect(offered('version: 1\nid: s\ncases:\n  - id: a\n    checks: [{ appRendered: {} }, { t|')).toEqual(['turnFinished', 'toolResult']);
  });

  it('offers nothing where no key goes or the lines do not read as YAML', () => {
    expect(offered(`${HEAD}      - answerContains: h|`)).toBeNull();
    expect(offered(`${HEAD}      - zzz|`)).toBeNull();
    expect(offered(`${HEAD}      - toolResult: { tool: a|`)).toBeNull();
    expect(offered(`${HEAD}      - toolResult: { tool: "a|`)).toBeNull();
    expect(offered('version: 1\nid: s\ncases:\n  - id: a\n    checks: [answerContains: hi] |')).toBeNull();
  });
});

/** A completion context as CodeMirror makes one, for the library's source. */
function context(state: EditorState, pos: number) {
  return {
    state,
    pos,
    explicit: true,
    aborted: false,
    matchBefore(expr: RegExp) {
      const line = state.doc.lineAt(pos);
      const text = line.text.slice(0, pos - line.from);
      const found = text.search(new RegExp(`(?:${expr.source})$`, expr.flags));
      return found < 0 ? null : { from: line.from + found, to: pos, text: text.slice(found) };
    },
  } as unknown as Parameters<ReturnType<typeof listItemKeys>>[0];
}

describe('the editor source', () => {
  const at = (doc: string) => context(EditorState.create({ doc: doc.replace('|', ''), extensions: [yamlSchema(schema as never)] }), doc.indexOf('|'));
  const ask = (doc: string) => listItemKeys(schema)(at(doc));

  it('answers in a checks item, where the library has nothing', async () => {
    const library = await yamlCompletion()(at(`${HEAD}      - ans|`));
    expect(Array.isArray(library) ? library : library.options).toEqual([]);
    const got = await ask(`${HEAD}      - ans|`);
    expect(got?.options.map((o) => o.label)).toEqual(['answerContains', 'answerMatches', 'answerJson']);
  });

  it("leaves a case's keys to the library, so none is offered twice", async () => {
    expect(await ask('version: 1\nid: s\ncases:\n  - id: a\n    tur|')).toBeNull();
  });
});

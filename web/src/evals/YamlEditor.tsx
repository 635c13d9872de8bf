// The suite editor proper, loaded on demand (its own chunk: CodeMirror 6 and the schema tools
// are not part of the first screen): line numbers, YAML (or JSON for a .json file) syntax, the
// suite's JSON Schema (crates/mcplab-evals/suite.schema.json, what `mcplab eval schema` prints)
// for completion (in list items too, `listItemKeys`: a check's name and arguments), hover
// and marks as you type, and the server's own refusal marked at each problem's line:column
// until the next save.
import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import CodeMirror, { type ReactCodeMirrorRef } from '@uiw/react-codemirror';
import { EditorState, StateEffect, StateField } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { linter, type Diagnostic } from '@codemirror/lint';
import { jsonSchema } from 'codemirror-json-schema';
import { yamlSchema } from 'codemirror-json-schema/yaml';
import schema from '../../../crates/mcplab-evals/suite.schema.json';
import { offsetOf, type SuiteProblem } from './suiteErrors';
import { listItemKeys } from './listItemKeys';
import { darkTheme } from './editorTheme';

const setProblems = StateEffect.define<SuiteProblem[]>();
const problemsField = StateField.define<SuiteProblem[]>({
  create: () => [],
  update: (value, tr) => tr.effects.reduce((v, e) => (e.is(setProblems) ? e.value : v), value),
});

/** The server's problems as marks: from the position to the end of its line. */
const serverMarks = linter(
  (view): Diagnostic[] => {
    const doc = view.state.doc.toString();
    return view.state
      .field(problemsField)
      .filter((p) => p.line !== null)
      .map((p) => {
        const from = offsetOf(doc, p.line ?? 1, p.column ?? 1);
        return { from, to: Math.max(from, view.state.doc.lineAt(from).to), severity: 'error', message: p.message, source: 'mcplab' };
      });
  },
  { delay: 0, needsRefresh: (u) => u.transactions.some((t) => t.effects.some((e) => e.is(setProblems))) },
);

const look = EditorView.theme({
  '&': { fontSize: '12px', border: '1px solid var(--border)', borderRadius: '6px' },
  '.cm-scroller': { fontFamily: 'var(--mono)', minHeight: '240px', maxHeight: '60vh' },
});

function themeNow(): 'light' | 'dark' {
  return document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
}

function watchTheme(onChange: () => void) {
  const o = new MutationObserver(onChange);
  o.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => o.disconnect();
}

export default function YamlEditor({ value, onChange, json, problems }: { value: string; onChange: (text: string) => void; json: boolean; problems: SuiteProblem[] }) {
  const ref = useRef<ReactCodeMirrorRef>(null);
  const theme = useSyncExternalStore(watchTheme, themeNow);
  const extensions = useMemo(() => {
    const s = schema as unknown as Parameters<typeof yamlSchema>[0];
    // The keys the schema allows (a check's name, its arguments) where the library has none.
    const keys = listItemKeys(schema, json);
    const items = EditorState.languageData.of(() => [{ autocomplete: keys }]);
    return [json ? jsonSchema(s) : yamlSchema(s), items, problemsField, serverMarks, look, EditorView.contentAttributes.of({ 'aria-label': json ? 'Suite JSON' : 'Suite YAML' })];
  }, [json]);
  useEffect(() => {
    ref.current?.view?.dispatch({ effects: setProblems.of(problems) });
  }, [problems]);
  return (
    <CodeMirror
      ref={ref}
      value={value}
      onChange={onChange}
      extensions={extensions}
      theme={theme === 'dark' ? darkTheme : 'light'}
      onCreateEditor={(view) => view.dispatch({ effects: setProblems.of(problems) })}
      basicSetup={{ lineNumbers: true, foldGutter: true, highlightActiveLine: true, autocompletion: true }}
      data-testid="evals-editor"
      className="evals-code"
    />
  );
}

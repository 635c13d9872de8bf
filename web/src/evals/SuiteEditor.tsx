// One suite file in a code editor (`YamlEditor`, loaded on demand; a plain text box until it
// arrives): a stored one is read when it opens, a new one starts from a template with its file
// name to give. Saving goes through the server's loader, which refuses a suite that does not
// load and says why, line by line: the editor marks each line:column, the text stays as typed.
// A stored suite can have cases drafted into it by a model (`DraftCases`); the file is then
// read again, and shown unless the editor holds unsaved edits.
import { lazy, Suspense, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import { Button } from '../ui/Button';
import { DraftCases } from './DraftCases';
import { evalsKeys, suiteChanged, useSaveSuite, useSuiteText } from './queries';
import { suiteProblems } from './suiteErrors';

const YamlEditor = lazy(() => import('./YamlEditor'));

const NEW_SUITE = `version: 1
id: my-suite
models: [openai::gpt-4.1-mini]
cases:
  - id: first
    turns: [Say hello]
    checks:
      - answerContains: hello
`;

/** `name` '' is a new suite. Remount it (a `key`) for another file. */
export function SuiteEditor({ name, onSaved }: { name: string; onSaved: (name: string) => void }) {
  const [fileName, setFileName] = useState(name || 'new-suite.yaml');
  const stored = useSuiteText(name);
  // What was typed since the file was read; a new suite starts from the template.
  const [draft, setDraft] = useState<string | null>(name ? null : NEW_SUITE);
  const text = draft ?? stored.data?.text ?? '';
  const unsaved = draft !== null && draft !== stored.data?.text;
  const qc = useQueryClient();
  const save = useSaveSuite();
  // "Saved" until the next edit; a refusal stays shown while the text is fixed.
  const [saved, setSaved] = useState(false);
  const failure = save.error ?? (save.isSuccess ? null : stored.error);
  const problems = useMemo(() => (save.error ? suiteProblems(errorMessage(save.error)) : []), [save.error]);
  const edit = (t: string) => {
    setDraft(t);
    setSaved(false);
  };
  const doSave = () =>
    save.mutate(
      { name: fileName, text },
      {
        onSuccess: () => {
          setSaved(true);
          // An open suite shows the file from now on, which holds what was typed (a new one
          // opens afresh as the stored file).
          if (name) {
            qc.setQueryData(evalsKeys.suite(name), { name, text });
            setDraft(null);
          }
          onSaved(fileName);
        },
        onError: () => setSaved(false),
      },
    );
  const json = fileName.endsWith('.json');
  return (
    <div className="evals-editor">
      <div className="evals-row">
        <label>
          File <input value={fileName} onChange={(e) => setFileName(e.target.value)} disabled={!!name} data-testid="evals-file-name" />
        </label>
        <Button small variant="primary" onClick={doSave} data-testid="evals-save">
          Save
        </Button>
        {saved && !failure && (
          <span className="muted small" data-testid="evals-saved">
            Saved
          </span>
        )}
      </div>
      <Suspense fallback={<textarea value={text} onChange={(e) => edit(e.target.value)} spellCheck={false} rows={14} aria-label={json ? 'Suite JSON' : 'Suite YAML'} data-testid="evals-editor-loading" />}>
        <YamlEditor value={text} onChange={edit} json={json} problems={problems} />
      </Suspense>
      {failure && (
        <pre className="evals-error" role="alert" data-testid="evals-save-error">
          {errorMessage(failure)}
        </pre>
      )}
      {name && (
        <DraftCases
          suite={name}
          unsaved={unsaved}
          onAdded={() => void suiteChanged(qc, name)}
          onReload={() => {
            setDraft(null);
            setSaved(false);
          }}
        />
      )}
    </div>
  );
}

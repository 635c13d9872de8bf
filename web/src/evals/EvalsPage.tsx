// The Evals page (`#/evals`): the suites folder (a server-side directory set here), its suite
// files (opened, edited and saved as YAML; the server refuses a suite that does not load and
// says why, line by line), the run launcher with live progress, the selected suite's pass rate
// over its runs (PassRateTrend), and the stored runs, each shown as the case × model matrix
// (RunView).
import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../api/client';
import { Button } from '../ui/Button';
import { EmptyState } from '../ui/States';
import { evalsApi, pct, type RunListItem, type SuiteEntry } from './api';
import { RunLauncher } from './RunLauncher';
import { CompareView } from './CompareView';
import { RunView } from './RunView';
import { PassRateTrend } from './PassRateTrend';
import './evals.css';

const NEW_SUITE = `version: 1
id: my-suite
models: [openai::gpt-4.1-mini]
cases:
  - id: first
    turns: [Say hello]
    checks:
      - answerContains: hello
`;

export function EvalsPage() {
  const [folder, setFolder] = useState('');
  const [folderError, setFolderError] = useState<string | null>(null);
  const [suites, setSuites] = useState<SuiteEntry[] | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [runs, setRuns] = useState<RunListItem[]>([]);
  const [shown, setShown] = useState<string | null>(null);
  // Two runs ticked for compare: the older is the base.
  const [picked, setPicked] = useState<string[]>([]);
  const togglePick = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-1), id]));
  const startedOf = (id: string) => runs.find((r) => r.id === id)?.startedMs ?? 0;
  const [base, run] = [...picked].sort((a, b) => startedOf(a) - startedOf(b));
  const selectedId = suites?.find((s) => s.name === selected)?.id;

  const reloadSuites = useCallback(() => {
    evalsApi.suites().then(
      (s) => {
        setSuites(s);
        setFolderError(null);
      },
      (e) => setFolderError(errorMessage(e)),
    );
  }, []);
  const reloadRuns = useCallback(() => {
    evalsApi.runs().then(setRuns, () => setRuns([]));
  }, []);
  useEffect(() => {
    evalsApi.folder().then((f) => {
      if (f.folder) {
        setFolder(f.folder);
        reloadSuites();
      }
    }, (e) => setFolderError(errorMessage(e)));
    reloadRuns();
  }, [reloadSuites, reloadRuns]);

  const saveFolder = () =>
    evalsApi.setFolder(folder).then(
      (f) => {
        setFolder(f.folder);
        reloadSuites();
      },
      (e) => setFolderError(errorMessage(e)),
    );

  return (
    <div className="page evals-page" data-testid="evals-page">
      <div className="page-head">
        <h1>Evals</h1>
        <span className="muted small">Suites of cases run against models and servers, judged and stored. The same runs as `mcplab eval run`.</span>
      </div>
      <div className="evals-folder">
        <label>
          Suites folder{' '}
          <input value={folder} onChange={(e) => setFolder(e.target.value)} placeholder="/absolute/path/to/suites" data-testid="evals-folder" size={50} className="evals-folder-input" />
        </label>
        <Button small onClick={saveFolder} data-testid="evals-folder-save">
          Use folder
        </Button>
        {folderError && (
          <span className="evals-error" role="alert" data-testid="evals-folder-error">
            {folderError}
          </span>
        )}
      </div>
      <div className="evals-main">
        <aside className="evals-side">
          <h2>Suites</h2>
          {suites && suites.length === 0 && <p className="muted small">No .yaml, .yml or .json files in the folder yet.</p>}
          <ul className="evals-list">
            {suites?.map((s) => (
              <li key={s.name}>
                <button type="button" className={selected === s.name ? 'active' : ''} onClick={() => setSelected(s.name)} data-testid={`evals-suite-${s.name}`}>
                  {s.title || s.id || s.name}
                  <span className="muted small"> {s.name}</span>
                  {s.error && <span className="evals-error small"> does not load</span>}
                </button>
              </li>
            ))}
          </ul>
          <Button small onClick={() => setSelected('')} disabled={!suites} data-testid="evals-new-suite">
            New suite
          </Button>
          <h2>Runs</h2>
          {runs.length > 1 && <p className="muted small">Tick two runs to compare them.</p>}
          <ul className="evals-list" data-testid="evals-runs">
            {runs.map((r) => (
              <li key={r.id} className="evals-run-row">
                <input type="checkbox" checked={picked.includes(r.id)} onChange={() => togglePick(r.id)} aria-label={`Compare run ${r.id}`} data-testid="evals-compare-pick" data-run={r.id} />
                <button type="button" className={shown === r.id ? 'active' : ''} onClick={() => setShown(r.id)} data-testid="evals-run-item" data-run={r.id}>
                  {r.title || r.suiteId} <span className="muted small">{r.status} · {pct(r.passRate)} · {new Date(r.startedMs).toLocaleString()}</span>
                </button>
              </li>
            ))}
          </ul>
        </aside>
        <section className="evals-work">
          {selected === null ? (
            <EmptyState title="No suite selected" testId="evals-empty">
              Choose a folder of suite files, then pick a suite or start a new one.
            </EmptyState>
          ) : (
            <SuiteEditor
              key={selected}
              name={selected}
              onSaved={(name) => {
                reloadSuites();
                setSelected(name);
              }}
            />
          )}
          {selected && (
            <RunLauncher
              suite={selected}
              onEnded={(id) => {
                reloadRuns();
                setShown(id);
              }}
            />
          )}
          {selectedId && <PassRateTrend suiteId={selectedId} refresh={runs[0]?.id ?? ''} />}
          {picked.length === 2 && base && run && <CompareView key={`${base} ${run}`} base={base} run={run} />}
          {shown && <RunView key={shown} id={shown} />}
        </section>
      </div>
    </div>
  );
}

function SuiteEditor({ name, onSaved }: { name: string; onSaved: (name: string) => void }) {
  const [fileName, setFileName] = useState(name || 'new-suite.yaml');
  const [text, setText] = useState(name ? '' : NEW_SUITE);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (name) evalsApi.suite(name).then((s) => setText(s.text), (e) => setError(errorMessage(e)));
  }, [name]);
  const save = () =>
    evalsApi.saveSuite(fileName, text).then(
      () => {
        setError(null);
        setSaved(true);
        onSaved(fileName);
      },
      (e) => {
        setSaved(false);
        setError(errorMessage(e));
      },
    );
  return (
    <div className="evals-editor">
      <div className="evals-row">
        <label>
          File <input value={fileName} onChange={(e) => setFileName(e.target.value)} disabled={!!name} data-testid="evals-file-name" />
        </label>
        <Button small variant="primary" onClick={save} data-testid="evals-save">
          Save
        </Button>
        {saved && !error && <span className="muted small" data-testid="evals-saved">Saved</span>}
      </div>
      <textarea
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setSaved(false);
        }}
        spellCheck={false}
        rows={14}
        aria-label="Suite YAML"
        data-testid="evals-editor"
      />
      {error && (
        <pre className="evals-error" role="alert" data-testid="evals-save-error">
          {error}
        </pre>
      )}
    </div>
  );
}

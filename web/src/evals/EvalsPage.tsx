// The Evals page (`#/evals/<suite>/<run>`, `selection.ts`): the suites folder (a server-side
// directory, typed or picked under the home in `FolderPicker`), its suite files (opened,
// edited and saved in `SuiteEditor`), the run launcher with live progress, the selected
// suite's pass rate over its runs (PassRateTrend), and the stored runs, each shown as the
// case × model matrix (RunView) or two of them compared. The server state is read through
// `queries.ts`; the selected suite and run live in the URL (a reload keeps them; the nav's link
// brings the last back), the runs ticked for compare in this page; old runs are pruned in
// `PruneRuns`.
import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../api/client';
import { FolderOpen } from 'lucide-react';
import { Button } from '../ui/Button';
import { currentArgs, navigate, replaceRoute, usePage, useRouteArgs } from '../ui/route';
import { EmptyState } from '../ui/States';
import { kindLabel, pct, verdictWords, type EvalRunItem } from './api';
import { RunLauncher } from './RunLauncher';
import { CompareView } from './CompareView';
import { RunView } from './RunView';
import { PassRateTrend } from './PassRateTrend';
import { SuiteEditor } from './SuiteEditor';
import { FolderPicker } from './FolderPicker';
import { parseSelection, rememberArgs, rememberedArgs, selectionArgs, type EvalsSelection } from './selection';
import { PruneRuns } from './PruneRuns';
import { useEvalsFolder, useRuns, useSetFolder, useSuites } from './queries';
import './evals.css';

export function EvalsPage() {
  const suites = useSuites().data ?? null;
  const runs = useRuns().data ?? [];
  const args = useRouteArgs();
  const { suite: selected, run: shown } = parseSelection(args);
  // `#/evals` alone (the nav's link) shows the last selection again; what is shown is remembered.
  // Only while the URL is this page's: one on its way out must not write another page's args.
  const live = usePage() === 'evals';
  useEffect(() => {
    if (!live) return;
    if (args.length === 0) {
      const last = rememberedArgs();
      if (last.length > 0) replaceRoute('evals', ...last);
    } else rememberArgs(args);
  }, [live, args]);
  const go = (sel: EvalsSelection) => navigate('evals', ...selectionArgs(sel));
  const setSelected = (suite: string | null) => go({ suite, run: shown });
  const setShown = (run: string) => go({ suite: selected, run });
  // Stable for the launcher's stream: the run that ended is shown beside the suite it ran.
  const showEnded = useCallback((run: string) => navigate('evals', ...selectionArgs({ suite: parseSelection(currentArgs()).suite, run })), []);
  // Two runs ticked for compare: the older is the base.
  const [picked, setPicked] = useState<string[]>([]);
  const togglePick = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-1), id]));
  const startedOf = (id: string) => runs.find((r) => r.id === id)?.startedMs ?? 0;
  const [base, run] = [...picked].sort((a, b) => startedOf(a) - startedOf(b));
  const selectedId = suites?.find((s) => s.name === selected)?.id;

  return (
    <div className="page evals-page" data-testid="evals-page">
      <div className="page-head">
        <h1>Evals</h1>
        <span className="muted small">Suites of cases run against models and servers, judged and stored. The same runs as <code>mcplab eval run</code>.</span>
      </div>
      <FolderBar onStarter={(name) => go({ suite: name, run: null })} />
      <div className="evals-main">
        <aside className="evals-side">
          <SuiteList selected={selected} onSelect={setSelected} />
          <RunList runs={runs} shown={shown} onShow={setShown} picked={picked} onPick={togglePick} />
          {runs.length > 0 && <PruneRuns onPruned={(gone) => shown && gone.includes(shown) && go({ suite: selected, run: null })} />}
        </aside>
        <section className="evals-work">
          {selected === null ? (
            <EmptyState page="evals" title="No suite selected" testId="evals-empty">
              Choose a folder of suite files, then pick a suite or start a new one.
            </EmptyState>
          ) : (
            <SuiteEditor key={selected} name={selected} onSaved={setSelected} />
          )}
          {selected && <RunLauncher suite={selected} onEnded={showEnded} />}
          {selectedId && <PassRateTrend suiteId={selectedId} />}
          {picked.length === 2 && base && run && <CompareView key={`${base} ${run}`} base={base} run={run} />}
          {shown && <RunView key={shown} id={shown} />}
        </section>
      </div>
    </div>
  );
}

/** The suites folder: as the server keeps it, or as typed since; why it or its suites do not load. */
function FolderBar({ onStarter }: { onStarter: (name: string) => void }) {
  const stored = useEvalsFolder();
  const suites = useSuites();
  const setFolder = useSetFolder();
  const [draft, setDraft] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);
  const folder = draft ?? stored.data?.folder ?? '';
  const failure = setFolder.error ?? suites.error ?? stored.error;
  return (
    <div className="evals-folder">
      <label>
        Suites folder{' '}
        <input value={folder} onChange={(e) => setDraft(e.target.value)} placeholder="/absolute/path/to/suites" data-testid="evals-folder" size={50} className="evals-folder-input" />
      </label>
      <Button small onClick={() => setFolder.mutate(folder, { onSuccess: () => setDraft(null) })} data-testid="evals-folder-save">
        Use folder
      </Button>
      <Button small onClick={() => setPicking(true)} data-testid="evals-folder-browse" title="Pick a folder under your home, or create a starter suite in one">
        <FolderOpen size={14} aria-hidden="true" /> Browse…
      </Button>
      {picking && (
        <FolderPicker
          start={stored.data?.folder ?? null}
          onClose={() => {
            setPicking(false);
            setDraft(null);
          }}
          onStarter={onStarter}
        />
      )}
      {failure && (
        <span className="evals-error" role="alert" data-testid="evals-folder-error">
          {errorMessage(failure)}
        </span>
      )}
    </div>
  );
}

function SuiteList({ selected, onSelect }: { selected: string | null; onSelect: (name: string) => void }) {
  const suites = useSuites().data ?? null;
  const folder = useEvalsFolder();
  return (
    <>
      <h2>Suites</h2>
      {folder.isSuccess && !folder.data?.folder && <p className="muted small">Choose a suites folder above first.</p>}
      {suites && suites.length === 0 && <p className="muted small">No .yaml, .yml or .json files in the folder yet.</p>}
      <ul className="evals-list">
        {suites?.map((s) => (
          <li key={s.name}>
            <button type="button" className={selected === s.name ? 'active' : ''} onClick={() => onSelect(s.name)} data-testid={`evals-suite-${s.name}`}>
              {s.title || s.id || s.name}
              <span className="muted small"> {s.name}</span>
              {s.error && <span className="evals-error small"> does not load</span>}
            </button>
          </li>
        ))}
      </ul>
      <Button small onClick={() => onSelect('')} disabled={!suites} data-testid="evals-new-suite">
        New suite
      </Button>
    </>
  );
}

interface RunListProps {
  runs: EvalRunItem[];
  shown: string | null;
  onShow: (id: string) => void;
  picked: string[];
  onPick: (id: string) => void;
}

function RunList({ runs, shown, onShow, picked, onPick }: RunListProps) {
  return (
    <>
      <h2>Runs</h2>
      {runs.length === 0 && <p className="muted small" data-testid="evals-runs-none">None yet.</p>}
      {runs.length > 1 && <p className="muted small">Tick two runs to compare them.</p>}
      <ul className="evals-list" data-testid="evals-runs">
        {runs.map((r) => (
          <li key={r.id} className="evals-run-row">
            <input type="checkbox" checked={picked.includes(r.id)} onChange={() => onPick(r.id)} aria-label={`Compare run ${r.id}`} data-testid="evals-compare-pick" data-run={r.id} />
            <button type="button" className={shown === r.id ? 'active' : ''} onClick={() => onShow(r.id)} data-testid="evals-run-item" data-run={r.id}>
              {r.title || r.suiteId}{' '}
              <span className="muted small">
                {kindLabel(r.kind)} · {r.status} · {pct(r.passRate)} · {verdictWords(r.exitCode)} · {new Date(r.startedMs).toLocaleString()}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}

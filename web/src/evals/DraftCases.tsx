// "Draft cases with a model" on a stored suite (`POST /api/evals/suites/{name}/drafts`, what
// `mcplab eval init --generate N` does from the CLI): a model (the chat's picker: usable models by
// provider, the others listed with why they are not usable), how many cases (1–20), and the
// connected servers whose tools it reads. While the model writes, Cancel aborts the request
// (the server writes nothing then). The ids of the added cases are shown and the editor reads
// the file again — unless it holds unsaved edits: those stay, and the page says so and offers
// to reload. A refusal shows the server's own words.
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../api/client';
import { ModelPicker } from '../chat/ModelPicker';
import { defaultModel, useProviders } from '../chat/store';
import { useServers } from '../servers/store';
import { getPref } from '../settings/prefs';
import { Button } from '../ui/Button';
import { evalsApi } from './api';

/** Most cases one request may ask for (the server's limit too). */
const MAX_DRAFTS = 20;

type Phase =
  | { kind: 'idle' }
  | { kind: 'pending'; model: string; count: number }
  | { kind: 'added'; ids: string[] }
  | { kind: 'failed'; message: string }
  | { kind: 'cancelled' };

/** The count as typed, when it is a whole number from 1 to 20. */
export function draftCount(raw: string): number | null {
  const t = raw.trim();
  const n = Number(t);
  return /^\d+$/.test(t) && n >= 1 && n <= MAX_DRAFTS ? n : null;
}

interface Props {
  suite: string;
  /** The editor holds edits not saved yet (a reload would drop them). */
  unsaved: boolean;
  /** Cases were added to the file. */
  onAdded: () => void;
  /** Show the file as it is now, dropping the editor's edits. */
  onReload: () => void;
}

export function DraftCases(props: Props) {
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <Button small variant="ghost" onClick={() => setOpen(true)} data-testid="evals-draft-open" title="A model writes cases from the connected servers' tools">
        Draft cases with a model…
      </Button>
    );
  }
  return <DraftForm {...props} onClose={() => setOpen(false)} />;
}

function DraftForm({ suite, unsaved, onAdded, onReload, onClose }: Props & { onClose: () => void }) {
  const providers = useProviders();
  const servers = useServers().list ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const model = chosen ?? defaultModel(providers.list, getPref<string | null>('chatModel', null));
  const [countText, setCountText] = useState('5');
  const [off, setOff] = useState<string[]>([]);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const request = useRef<AbortController | null>(null);
  // Leaving the suite (or the page) cancels a draft under way.
  useEffect(() => () => request.current?.abort(), []);

  const connected = servers.filter((v) => v.status.state === 'connected').map((v) => v.config.name);
  const picked = connected.filter((n) => !off.includes(n));
  const count = draftCount(countText);
  const problem = whyNot(providers.list, model, count, connected.length, picked.length);
  const pending = phase.kind === 'pending';

  const start = () => {
    if (problem !== null || count === null) return;
    const abort = new AbortController();
    request.current = abort;
    setPhase({ kind: 'pending', model, count });
    evalsApi.draft(suite, { model, count, servers: picked }, abort.signal).then(
      (r) => {
        request.current = null;
        setPhase({ kind: 'added', ids: r.caseIds });
        onAdded();
      },
      (e) => {
        if (abort.signal.aborted) return;
        request.current = null;
        setPhase({ kind: 'failed', message: errorMessage(e) });
      },
    );
  };
  const cancel = () => {
    request.current?.abort();
    request.current = null;
    setPhase({ kind: 'cancelled' });
  };
  const toggle = (name: string, on: boolean) => setOff((o) => (on ? o.filter((x) => x !== name) : [...o, name]));

  return (
    <fieldset className="evals-draft" data-testid="evals-draft">
      <legend>Draft cases with a model</legend>
      <p className="muted small">
        The model reads the tools of the servers ticked below and writes requests a person might make, each expecting one tool call. They are added to {suite}, as{' '}
        <code>mcplab eval init --generate</code> does: read them before you trust them.
      </p>
      <div className="evals-row">
        <ModelPicker model={model} providers={providers.list ?? []} onPick={setChosen} testId="evals-draft-model" />
        <label className="small">
          Cases <input type="number" min={1} max={MAX_DRAFTS} value={countText} onChange={(e) => setCountText(e.target.value)} disabled={pending} size={3} data-testid="evals-draft-count" />
        </label>
      </div>
      <div className="evals-row" role="group" aria-label="Tools from">
        <span className="small muted">Tools from</span>
        {servers.map((v) => {
          const name = v.config.name;
          const st = v.status.state;
          return (
            <label key={name} className="small" title={st === 'connected' ? 'connected' : `${st}: connect it to draft from its tools`}>
              <input type="checkbox" checked={st === 'connected' && !off.includes(name)} disabled={st !== 'connected' || pending} onChange={(e) => toggle(name, e.target.checked)} data-testid={`evals-draft-server-${name}`} /> {name}
              {st !== 'connected' && <span className="muted"> ({st})</span>}
            </label>
          );
        })}
      </div>
      <div className="evals-row">
        <Button small variant="primary" onClick={start} disabled={problem !== null} busy={pending} data-testid="evals-draft-start">
          Draft
        </Button>
        {pending ? (
          <Button small variant="danger" onClick={cancel} data-testid="evals-draft-cancel">
            Cancel
          </Button>
        ) : (
          <Button small variant="ghost" onClick={onClose} data-testid="evals-draft-close">
            Close
          </Button>
        )}
        {problem !== null && !pending && (
          <span className="muted small" data-testid="evals-draft-problem">
            {problem}
          </span>
        )}
      </div>
      <Outcome phase={phase} suite={suite} unsaved={unsaved} onReload={onReload} />
    </fieldset>
  );
}

/** Why Draft cannot start now, or null. */
function whyNot(providers: { usable: boolean; models: string[] }[] | null, model: string, count: number | null, connected: number, picked: number): string | null {
  if (providers !== null && !providers.some((p) => p.usable && p.models.length > 0)) return 'No model is usable: add a key or an endpoint in Settings → Model providers.';
  if (!model) return 'Choose a model.';
  if (count === null) return `Ask for 1 to ${MAX_DRAFTS} cases.`;
  if (connected === 0) return 'No server is connected: connect the servers whose tools the cases should call (Servers page).';
  if (picked === 0) return 'Tick a server whose tools the cases should call.';
  return null;
}

function Outcome({ phase, suite, unsaved, onReload }: { phase: Phase; suite: string; unsaved: boolean; onReload: () => void }) {
  switch (phase.kind) {
    case 'idle':
      return null;
    case 'pending':
      return (
        <div className="small" role="status" data-testid="evals-draft-pending">
          Asking {phase.model} for {phase.count} {phase.count === 1 ? 'case' : 'cases'}…
        </div>
      );
    case 'cancelled':
      return (
        <div className="small" role="status" data-testid="evals-draft-cancelled">
          Cancelled: nothing was added.
        </div>
      );
    case 'failed':
      return (
        <pre className="evals-error" role="alert" data-testid="evals-draft-error">
          {phase.message}
        </pre>
      );
    case 'added':
      return (
        <div className="small" role="status" data-testid="evals-draft-added" data-ids={phase.ids.join(' ')}>
          {phase.ids.length === 0
            ? "The model's reply held no usable case (each needs a prompt and a tool): nothing was added."
            : `Added ${phase.ids.length} ${phase.ids.length === 1 ? 'case' : 'cases'} to ${suite}: ${phase.ids.join(', ')}.`}
          {phase.ids.length > 0 && unsaved && (
            <div className="evals-draft-unsaved" data-testid="evals-draft-unsaved">
              The editor still shows your unsaved edits, without the new cases; saving them would drop those cases.{' '}
              <Button small onClick={onReload} data-testid="evals-draft-reload">
                Reload the file
              </Button>{' '}
              (drops your edits)
            </div>
          )}
        </div>
      );
  }
}

import { useMemo, useState } from 'react';
import { api, errorMessage, type Prompt } from '../api/client';
import type { CallOutcome } from '../api/types.gen';
import { useServer } from '../servers/store';
import { Button } from '../ui/Button';
import { JsonTree } from '../ui/JsonTree';
import { EmptyState, ErrorState } from '../ui/States';
import { Loading } from '../ui/Spinner';
import { CompletingInput } from './CompletingInput';
import { ContentView } from './ContentView';
import { NeedsServer } from './NeedsServer';
import { useServerList } from './useServerList';
import { cachedLoader } from '../modern/cacheInfo';
import { ListCacheHint } from '../modern/ListCacheHint';

const loadPrompts = cachedLoader<Prompt>('prompts', 'prompts', 'prompts');

export function PromptsPage() {
  return <NeedsServer>{(server) => <Prompts key={server} server={server} />}</NeedsServer>;
}

function Prompts({ server }: { server: string }) {
  const view = useServer(server);
  const caps = view?.info?.capabilities ?? {};
  const prompts = useServerList<Prompt>(server, 'prompts', loadPrompts);
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const filtered = useMemo(() => {
    const q = query.toLowerCase();
    return (prompts.data ?? []).filter((p) => !q || p.name.toLowerCase().includes(q) || (p.description ?? '').toLowerCase().includes(q));
  }, [prompts.data, query]);
  const prompt = prompts.data?.find((p) => p.name === selected);

  if (!caps.prompts) {
    return (
      <div className="page">
        <EmptyState title={`${server} does not offer prompts`} testId="no-prompts-capability">
          Its initialize result has no <code>prompts</code> capability.
        </EmptyState>
      </div>
    );
  }

  return (
    <div className="page inspector" data-testid="prompts-page">
      <aside className="side-list">
        <div className="side-list-head">
          <input type="search" placeholder="Search prompts" value={query} onChange={(e) => setQuery(e.target.value)} data-testid="prompt-search" aria-label="Search prompts" />
          <Button small variant="ghost" onClick={prompts.reload} aria-label="Reload prompts" data-testid="prompts-reload">
            ↻
          </Button>
        </div>
        <ListCacheHint server={server} list="prompts" reload={prompts.reload} />
        {prompts.error ? (
          <ErrorState title="Could not list prompts" message={prompts.error} onRetry={prompts.reload} />
        ) : !prompts.data ? (
          <Loading />
        ) : filtered.length === 0 ? (
          <EmptyState title={prompts.data.length ? 'No prompt matches' : 'This server has no prompts'} />
        ) : (
          <ul className="items">
            {filtered.map((p) => (
              <li key={p.name}>
                <button type="button" className={`item${p.name === selected ? ' selected' : ''}`} onClick={() => setSelected(p.name)} data-testid={`prompt-item-${p.name}`}>
                  <span className="item-name">{p.title ?? p.name}</span>
                  {p.arguments?.length ? <span className="item-sub">{p.arguments.map((a) => a.name + (a.required ? '*' : '')).join(', ')}</span> : null}
                  {p.description && <span className="item-desc">{p.description}</span>}
                </button>
              </li>
            ))}
          </ul>
        )}
      </aside>
      <section className="detail">
        {prompt ? (
          <PromptDetail key={prompt.name} server={server} prompt={prompt} completions={!!caps.completions} />
        ) : (
          <EmptyState title="Select a prompt" testId="prompt-none" />
        )}
      </section>
    </div>
  );
}

function PromptDetail({ server, prompt, completions }: { server: string; prompt: Prompt; completions: boolean }) {
  const args = prompt.arguments ?? [];
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<CallOutcome | null>(null);
  const [error, setError] = useState<string | null>(null);
  const missing = args.filter((a) => a.required && !values[a.name]).map((a) => a.name);

  const get = async () => {
    setBusy(true);
    setError(null);
    try {
      const filled = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
      setOutcome(await api.getPrompt(server, { name: prompt.name, arguments: filled }));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const messages: any[] = outcome?.result?.messages ?? [];
  return (
    <div className="prompt-detail">
      <div className="detail-head">
        <h2 className="mono">{prompt.name}</h2>
        {prompt.title && <span className="muted">{prompt.title}</span>}
      </div>
      {prompt.description && <div className="muted">{prompt.description}</div>}
      <form
        className="fields"
        onSubmit={(e) => {
          e.preventDefault();
          if (!missing.length) void get();
        }}
      >
        {args.map((a) => (
          <label key={a.name} className="field">
            <span className="field-label">
              <span className="mono">{a.name}</span>
              {a.required && <span className="req"> *</span>}
              {a.description && <span className="muted small"> — {a.description}</span>}
            </span>
            <CompletingInput
              server={server}
              reference={{ type: 'ref/prompt', name: prompt.name }}
              name={a.name}
              value={values[a.name] ?? ''}
              context={values}
              onChange={(v) => setValues((p) => ({ ...p, [a.name]: v }))}
              enabled={completions}
              testId={`prompt-arg-${a.name}`}
              required={a.required}
            />
          </label>
        ))}
        {args.length === 0 && <div className="muted small">No arguments.</div>}
        <div className="actions">
          <Button variant="primary" type="submit" busy={busy} disabled={missing.length > 0} data-testid="prompt-get" title={missing.length ? `Required: ${missing.join(', ')}` : undefined}>
            Get prompt
          </Button>
          {missing.length > 0 && <span className="small muted">Required: {missing.join(', ')}</span>}
        </div>
      </form>
      {error && <ErrorState title="Request failed" message={error} onRetry={get} />}
      {outcome?.error && <ErrorState title={`prompts/get failed (${outcome.error.kind})`} message={outcome.error.message} testId="prompt-error" />}
      {outcome?.result && (
        <div className="messages" data-testid="prompt-messages">
          <div className="small muted">
            {outcome.result.description ?? ''} · {outcome.durationMs} ms
          </div>
          {messages.map((m, i) => (
            <div key={i} className={`message role-${m?.role}`} data-testid="prompt-message" data-role={m?.role}>
              <div className="message-role">{String(m?.role)}</div>
              <ContentView content={m?.content} />
            </div>
          ))}
          {messages.length === 0 && <JsonTree value={outcome.result} />}
        </div>
      )}
    </div>
  );
}

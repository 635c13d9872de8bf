// Settings → Model providers: each provider with whether it is usable (or why not), the
// stored key's hint, base URL and models; a key / base URL / model list can be stored for a
// built-in provider, and custom OpenAI- or Anthropic-compatible endpoints added. Keys are sent
// once and kept by mcplab; the page only ever sees the hint.
import { useState } from 'react';
import { errorMessage } from '../api/client';
import type { ProviderInput, ProviderKind, ProviderView } from '../api/types.gen';
import { useChatCache, useProviders } from '../chat/store';
import { Button } from '../ui/Button';
import { ErrorState } from '../ui/States';
import { Loading } from '../ui/Spinner';

/** The kinds a custom endpoint may have (the built-in ones have their own rows). */
const CUSTOM_KINDS: { kind: ProviderKind; label: string }[] = [
  { kind: 'openai_compatible', label: 'OpenAI-compatible' },
  { kind: 'anthropic_compatible', label: 'Anthropic-compatible' },
];

const splitModels = (s: string) => s.split(/[\n,]/).map((m) => m.trim()).filter(Boolean);

export function ProvidersSection() {
  const { list, error, reload } = useProviders();
  return (
    <section className="card" data-testid="providers-section">
      <h2>Model providers</h2>
      <p className="small muted">
        Used by the Chat page. A key set in the environment (e.g. <code>OPENAI_API_KEY</code>) works without storing anything here; a key stored here is kept by mcplab in its data directory (readable only by you).
      </p>
      {error && !list ? <ErrorState title="Could not load providers" message={error} onRetry={reload} /> : !list ? <Loading /> : (
        <div className="provider-list">
          {list.map((p) => (
            <ProviderRow key={p.id} p={p} />
          ))}
        </div>
      )}
      <CustomProviderForm taken={(list ?? []).map((p) => p.id)} />
    </section>
  );
}

function ProviderRow({ p }: { p: ProviderView }) {
  const [key, setKey] = useState('');
  const [baseUrl, setBaseUrl] = useState(p.baseUrl ?? '');
  const [models, setModels] = useState(p.models.join(', '));
  const [busy, setBusy] = useState<'save' | 'delete' | null>(null);
  const cache = useChatCache();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  const run = async (what: 'save' | 'delete') => {
    setBusy(what);
    setMessage(null);
    try {
      if (what === 'delete') {
        await cache.deleteProvider(p.id);
        return;
      }
      const input: ProviderInput = { kind: p.kind, models: splitModels(models) };
      if (key.trim()) input.apiKey = key.trim();
      if (baseUrl.trim()) input.baseUrl = baseUrl.trim();
      const view = await cache.saveProvider(p.id, input);
      setKey('');
      setMessage(!view || view.usable ? { ok: true, text: 'Saved.' } : { ok: false, text: `Saved, but not usable: ${view.reason ?? 'unknown reason'}` });
    } catch (e) {
      setMessage({ ok: false, text: errorMessage(e) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className={`provider-row${p.usable ? ' usable' : ''}`} data-testid={`provider-row-${p.id}`} data-usable={p.usable}>
      <div className="provider-head">
        {/* Red only for a provider someone set up that does not work; untouched ones are grey. */}
        <span className={`dot ${p.usable ? 'dot-ok' : p.keyHint || p.custom ? 'dot-err' : 'dot-cancelled'}`} aria-hidden="true" />
        <strong>{p.displayName}</strong>
        <span className="badge mono">{p.id}</span>
        {p.custom && <span className="badge badge-info">custom · {p.kind}</span>}
        {p.usable ? <span className="badge badge-ok">usable</span> : <span className="small muted" data-testid={`provider-reason-${p.id}`}>{hereReason(p.reason)}</span>}
        {p.keyHint && <span className="small muted mono" title="Stored key">key {p.keyHint}</span>}
        <span className="spacer" />
        {(p.custom || p.keyHint) && (
          <Button small variant="ghost" onClick={() => run('delete')} busy={busy === 'delete'} data-testid={`provider-delete-${p.id}`} title={p.custom ? 'Remove this endpoint' : 'Forget the key and base URL stored here (a key from the environment stays)'}>
            {p.custom ? 'Remove' : 'Forget'}
          </Button>
        )}
      </div>
      <form
        className="provider-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run('save');
        }}
      >
        <label className="field">
          <span className="field-label">API key</span>
          <input type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} placeholder={p.keyHint ? 'empty: keep the stored key (a new base URL needs it again)' : 'paste a key'} aria-label={`${p.displayName} API key`} data-testid={`provider-key-${p.id}`} />
        </label>
        <label className="field">
          <span className="field-label">Base URL</span>
          <input value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} placeholder="the provider's default" className="mono" aria-label={`${p.displayName} base URL`} data-testid={`provider-url-${p.id}`} />
        </label>
        <label className="field">
          <span className="field-label">Models (comma-separated)</span>
          <input value={models} onChange={(e) => setModels(e.target.value)} placeholder="none listed" className="mono" aria-label={`${p.displayName} models (comma-separated)`} data-testid={`provider-models-${p.id}`} />
        </label>
        <Button small variant="primary" type="submit" busy={busy === 'save'} data-testid={`provider-save-${p.id}`}>
          Save
        </Button>
      </form>
      {message && (
        <div className={message.ok ? 'ok-text small' : 'inline-error'} role="status" data-testid={`provider-message-${p.id}`}>
          {message.text}
        </div>
      )}
    </div>
  );
}

function CustomProviderForm({ taken }: { taken: string[] }) {
  const [f, setF] = useState<{ id: string; kind: ProviderKind; baseUrl: string; apiKey: string; models: string }>({ id: '', kind: 'openai_compatible', baseUrl: '', apiKey: '', models: '' });
  const [busy, setBusy] = useState(false);
  const cache = useChatCache();
  const [error, setError] = useState<string | null>(null);
  const set = (p: Partial<typeof f>) => setF((x) => ({ ...x, ...p }));
  const idOk = /^[a-z0-9][a-z0-9_-]*$/i.test(f.id);
  const problem = !f.id ? null : !idOk ? 'The id may use letters, digits, - and _.' : taken.includes(f.id) ? 'That id is taken.' : null;

  const blocked = !f.id || !!problem || !f.baseUrl.trim() || splitModels(f.models).length === 0;
  const add = async () => {
    setBusy(true);
    setError(null);
    try {
      const input: ProviderInput = { kind: f.kind, baseUrl: f.baseUrl.trim(), models: splitModels(f.models) };
      if (f.apiKey.trim()) input.apiKey = f.apiKey.trim();
      await cache.saveProvider(f.id, input);
      setF({ id: '', kind: f.kind, baseUrl: '', apiKey: '', models: '' });
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <details className="provider-custom">
      <summary>Add a custom endpoint</summary>
      <p className="small muted">Any server that speaks the OpenAI chat completions or Anthropic messages API (a local gateway, vLLM, LM Studio…). Models are then chosen as <code>id::model</code>.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!blocked) void add();
        }}
      >
        <div className="provider-custom-grid">
          <label className="field">
            <span className="field-label">Id</span>
            <input value={f.id} onChange={(e) => set({ id: e.target.value })} placeholder="my-gateway" aria-invalid={!!problem || undefined} data-testid="provider-new-id" />
          </label>
          <label className="field">
            <span className="field-label">Kind</span>
            <select value={f.kind} onChange={(e) => set({ kind: CUSTOM_KINDS.find((k) => k.kind === e.target.value)?.kind ?? f.kind })} data-testid="provider-new-kind">
              {CUSTOM_KINDS.map((k) => (
                <option key={k.kind} value={k.kind}>
                  {k.label}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field-label">Base URL</span>
            <input value={f.baseUrl} onChange={(e) => set({ baseUrl: e.target.value })} placeholder="http://127.0.0.1:8000/v1/" className="mono" data-testid="provider-new-url" />
          </label>
          <label className="field">
            <span className="field-label">API key (optional)</span>
            <input type="password" autoComplete="off" value={f.apiKey} onChange={(e) => set({ apiKey: e.target.value })} data-testid="provider-new-key" />
          </label>
          <label className="field provider-custom-models">
            <span className="field-label">Models (comma-separated)</span>
            <input value={f.models} onChange={(e) => set({ models: e.target.value })} placeholder="llama-3.1-8b, qwen2.5" className="mono" data-testid="provider-new-models" />
          </label>
        </div>
        {problem && <div className="field-error">{problem}</div>}
        {error && <div className="inline-error" role="alert" data-testid="provider-new-error">{error}</div>}
        <div className="actions">
          <Button variant="primary" small type="submit" busy={busy} disabled={blocked} data-testid="provider-new-save">
            Add endpoint
          </Button>
        </div>
      </form>
    </details>
  );
}

/** A provider's reason as said on this page: "add a key in Settings" is the form below. */
export function hereReason(reason: string | null | undefined): string {
  return (reason ?? 'not usable').replace(/ or add a key in Settings$/, ' or add a key below');
}

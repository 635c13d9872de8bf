// Settings → Model providers: a row per provider (`ProviderRow`: its state, opening to its
// key / base URL / models form; only configured ones start open), and custom OpenAI- or
// Anthropic-compatible endpoints added. Keys are sent once and kept by mcplab; the page only
// ever sees the hint.
import { useState } from 'react';
import { errorMessage } from '../api/client';
import type { ProviderInput, ProviderKind } from '../api/types.gen';
import { useChatCache, useProviders } from '../chat/store';
import { Button } from '../ui/Button';
import { ErrorState } from '../ui/States';
import { Loading } from '../ui/Spinner';
import { ProviderRow, splitModels } from './ProviderRow';

/** The kinds a custom endpoint may have (the built-in ones have their own rows). */
const CUSTOM_KINDS: { kind: ProviderKind; label: string }[] = [
  { kind: 'openai_compatible', label: 'OpenAI-compatible' },
  { kind: 'anthropic_compatible', label: 'Anthropic-compatible' },
];

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

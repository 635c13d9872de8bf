// One built-in or custom provider on Settings → Model providers: a row with its name and state
// ("usable", "configured, not usable", "not configured") that opens to its form (key, base URL,
// models). Configured rows start open, the others folded; `#/settings/<id>` opens that one.
import { useEffect, useState } from 'react';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { errorMessage } from '../api/client';
import type { ProviderInput, ProviderView } from '../api/types.gen';
import { useChatCache } from '../chat/store';
import { Button } from '../ui/Button';
import { useRouteArg } from '../ui/route';

export const splitModels = (s: string) => s.split(/[\n,]/).map((m) => m.trim()).filter(Boolean);

/** Set up here or in the environment: usable, a stored key, or a custom endpoint. */
const configured = (p: ProviderView) => p.usable || !!p.keyHint || p.custom;

export function ProviderRow({ p }: { p: ProviderView }) {
  const linked = useRouteArg() === p.id;
  const [shown, setOpen] = useState(() => configured(p) || linked);
  useEffect(() => {
    if (linked) setOpen(true);
  }, [linked]);
  const [deleting, setDeleting] = useState(false);
  const cache = useChatCache();
  const forget = async () => {
    setDeleting(true);
    try {
      await cache.deleteProvider(p.id);
    } finally {
      setDeleting(false);
    }
  };
  return (
    <div className={`provider-row${p.usable ? ' usable' : ''}`} data-testid={`provider-row-${p.id}`} data-usable={p.usable} data-open={shown}>
      <div className="provider-head">
        <button type="button" className="provider-toggle" aria-expanded={shown} aria-controls={`provider-form-${p.id}`} onClick={() => setOpen(!shown)} data-testid={`provider-toggle-${p.id}`}>
          {shown ? <ChevronDown size={14} aria-hidden="true" /> : <ChevronRight size={14} aria-hidden="true" />}
          {/* Red only for a provider someone set up that does not work; untouched ones are grey. */}
          <span className={`dot ${p.usable ? 'dot-ok' : p.keyHint || p.custom ? 'dot-err' : 'dot-cancelled'}`} aria-hidden="true" />
          <strong>{p.displayName}</strong>
        </button>
        <span className="badge mono">{p.id}</span>
        {p.custom && <span className="badge badge-info">custom · {p.kind}</span>}
        {p.usable ? <span className="badge badge-ok">usable</span> : <span className="small muted" data-testid={`provider-state-${p.id}`}>{configured(p) ? 'configured, not usable' : 'not configured'}</span>}
        {p.keyHint && <span className="small muted mono" title="Stored key">key {p.keyHint}</span>}
        <span className="spacer" />
        {(p.custom || p.keyHint) && (
          <Button small variant="ghost" onClick={() => void forget()} busy={deleting} data-testid={`provider-delete-${p.id}`} title={p.custom ? 'Remove this endpoint' : 'Forget the key and base URL stored here (a key from the environment stays)'}>
            {p.custom ? 'Remove' : 'Forget'}
          </Button>
        )}
      </div>
      {shown && <ProviderForm p={p} />}
    </div>
  );
}

/** Why it is not usable (when it is not), the fields, Save, and how saving went. */
function ProviderForm({ p }: { p: ProviderView }) {
  const [key, setKey] = useState('');
  const [baseUrl, setBaseUrl] = useState(p.baseUrl ?? '');
  const [models, setModels] = useState(p.models.join(', '));
  const [busy, setBusy] = useState(false);
  const cache = useChatCache();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  const save = async () => {
    setBusy(true);
    setMessage(null);
    try {
      const input: ProviderInput = { kind: p.kind, models: splitModels(models) };
      if (key.trim()) input.apiKey = key.trim();
      if (baseUrl.trim()) input.baseUrl = baseUrl.trim();
      const view = await cache.saveProvider(p.id, input);
      setKey('');
      setMessage(!view || view.usable ? { ok: true, text: 'Saved.' } : { ok: false, text: `Saved, but not usable: ${view.reason ?? 'unknown reason'}` });
    } catch (e) {
      setMessage({ ok: false, text: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      {!p.usable && (
        <div className="small muted" data-testid={`provider-reason-${p.id}`}>
          {hereReason(p.reason)}
        </div>
      )}
      <form
        className="provider-form"
        id={`provider-form-${p.id}`}
        onSubmit={(e) => {
          e.preventDefault();
          void save();
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
        <Button small variant="primary" type="submit" busy={busy} data-testid={`provider-save-${p.id}`}>
          Save
        </Button>
      </form>
      {message && (
        <div className={message.ok ? 'ok-text small' : 'inline-error'} role="status" data-testid={`provider-message-${p.id}`}>
          {message.text}
        </div>
      )}
    </>
  );
}

/** A provider's reason as said on this page: "add a key in Settings" is the form below. */
function hereReason(reason: string | null | undefined): string {
  return (reason ?? 'not usable').replace(/ or add a key in Settings$/, ' or add a key below');
}

// The debugger's form: server URL and transport, the revision whose rules to follow, how to
// get a client id, client settings and scopes, interactive or not; Start runs the flow.
import { useState } from 'react';
import { errorMessage } from '../api/client';
import type { OAuthRevision, RegistrationMethod } from '../api/types.gen';
import { Button } from '../ui/Button';
import { navigate } from '../ui/route';
import { oauthApi } from './api';
import { REGISTRATIONS, REVISIONS, formToRequest, rememberForm, setDebugForm, useDebugForm, type DebugForm as Form } from './form';
import { holdTab, openBlankTab, sendTabWhenAsked } from './popup';
import { addRecentRun } from './recent';

export function DebugForm() {
  const f = useDebugForm();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = (p: Partial<Form>) => setDebugForm({ ...f, ...p });
  const clientOpen = !!(f.clientId || f.clientSecret || f.clientMetadataUrl || f.scope);

  const start = async () => {
    const r = formToRequest(f);
    if ('error' in r) {
      setError(r.error);
      return;
    }
    setError(null);
    // Opened during the click, or the browser would block it; sent on when the URL is known.
    const tab = f.interactive ? openBlankTab() : null;
    setBusy(true);
    try {
      const { runId } = await oauthApi.startDebug(r.request);
      holdTab(runId, tab);
      sendTabWhenAsked(runId);
      rememberForm(f);
      addRecentRun({ id: runId, url: r.request.url, startedMs: Date.now(), interactive: f.interactive, state: 'running' });
      navigate('oauth', runId);
    } catch (e) {
      tab?.close();
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="oauth-form card"
      data-testid="oauth-form"
      onSubmit={(e) => {
        e.preventDefault();
        void start();
      }}
    >
      <div className="oauth-form-row">
        <label className="field oauth-url">
          <span className="field-label">MCP server URL</span>
          <input value={f.url} onChange={(e) => set({ url: e.target.value })} placeholder="https://example.com/mcp" className="mono" spellCheck={false} data-testid="oauth-url" />
        </label>
        <div className="field">
          <span className="field-label">Transport</span>
          <div className="segmented" role="radiogroup" aria-label="Transport">
            {(['http', 'sse'] as const).map((t) => (
              <label key={t} className={f.transport === t ? 'on' : ''} data-testid={`oauth-transport-${t}`}>
                <input type="radio" name="oauth-transport" checked={f.transport === t} onChange={() => set({ transport: t })} />
                {t === 'http' ? 'Streamable HTTP' : 'SSE (legacy)'}
              </label>
            ))}
          </div>
        </div>
      </div>
      <div className="oauth-form-row">
        <label className="field">
          <span className="field-label">Protocol revision</span>
          <select value={f.revision} onChange={(e) => set({ revision: e.target.value as '' | OAuthRevision })} data-testid="oauth-revision">
            <option value="">default (latest, with fallbacks)</option>
            {REVISIONS.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">Client registration</span>
          <select value={f.registration} onChange={(e) => set({ registration: e.target.value as RegistrationMethod })} data-testid="oauth-registration">
            {REGISTRATIONS.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        <div className="field">
          <span className="field-label">Sign-in</span>
          <div className="segmented" role="radiogroup" aria-label="Sign-in">
            <label className={f.interactive ? 'on' : ''} data-testid="oauth-mode-interactive" title="Open the authorization page in this browser; the redirect comes back to mcplab">
              <input type="radio" name="oauth-mode" checked={f.interactive} onChange={() => set({ interactive: true })} />
              Interactive
            </label>
            <label className={!f.interactive ? 'on' : ''} data-testid="oauth-mode-noninteractive" title="mcplab fetches the authorization URL itself and follows the redirect (servers that approve without a person)">
              <input type="radio" name="oauth-mode" checked={!f.interactive} onChange={() => set({ interactive: false })} />
              Non-interactive
            </label>
          </div>
        </div>
      </div>
      <details className="oauth-form-client" open={clientOpen || undefined}>
        <summary data-testid="oauth-client-toggle">Client and scopes</summary>
        <div className="oauth-form-grid">
          <label className="field">
            <span className="field-label">Client id <span className="muted small">(pre-registered)</span></span>
            <input value={f.clientId} onChange={(e) => set({ clientId: e.target.value })} className="mono" autoComplete="off" data-testid="oauth-client-id" />
          </label>
          <label className="field">
            <span className="field-label">Client secret</span>
            <input type="password" value={f.clientSecret} onChange={(e) => set({ clientSecret: e.target.value })} autoComplete="off" data-testid="oauth-client-secret" />
          </label>
          <label className="field">
            <span className="field-label">Client ID Metadata Document URL</span>
            <input value={f.clientMetadataUrl} onChange={(e) => set({ clientMetadataUrl: e.target.value })} placeholder="https://example.com/client.json" className="mono" data-testid="oauth-cimd-url" />
          </label>
          <label className="field">
            <span className="field-label">Scopes <span className="muted small">(space-separated; empty: what the server asks for)</span></span>
            <input value={f.scope} onChange={(e) => set({ scope: e.target.value })} className="mono" data-testid="oauth-scope" />
          </label>
        </div>
      </details>
      <div className="oauth-form-actions">
        <Button type="submit" variant="primary" busy={busy} data-testid="oauth-start">
          Start
        </Button>
        <span className="muted small">
          {f.interactive ? 'A new tab opens for the sign-in; it comes back here when you are done.' : 'mcplab follows the authorization redirect itself; nobody signs in.'}
        </span>
      </div>
      {error && (
        <div className="inline-error" role="alert" data-testid="oauth-form-error">
          {error}
        </div>
      )}
    </form>
  );
}

// The debugger's form: server URL and transport, the revision whose rules to follow, how to
// get a client id, client settings and scopes, interactive or not; Start runs the flow.
import { useState } from 'react';
import { errorMessage } from '../api/client';
import { Button } from '../ui/Button';
import { navigate } from '../ui/route';
import { oauthApi } from './api';
import { formToRequest, rememberForm, setDebugForm, useDebugForm, type DebugForm as Form, type OAuthValues } from './form';
import { OAuthFields, type OAuthField } from './OAuthFields';
import { holdTab, openBlankTab, sendTabWhenAsked } from './popup';
import { addRecentRun } from './recent';

const TEST_IDS: Record<OAuthField, string> = {
  revision: 'oauth-revision',
  registration: 'oauth-registration',
  clientId: 'oauth-client-id',
  clientSecret: 'oauth-client-secret',
  clientMetadataUrl: 'oauth-cimd-url',
  scope: 'oauth-scope',
};

export function DebugForm() {
  const f = useDebugForm();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = (p: Partial<Form>) => setDebugForm({ ...f, ...p });
  const clientOpen = !!(f.clientId || f.clientSecret || f.clientMetadataUrl || f.scope);
  const fields = {
    values: f,
    // The registration select offers no empty choice here, so `registration` is never ''.
    onChange: ({ registration, ...p }: Partial<OAuthValues>) => set({ ...p, ...(registration ? { registration } : {}) }),
    testIds: TEST_IDS,
    emptyScope: 'hint' as const,
  };

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
        <OAuthFields part="choices" {...fields} />
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
          <OAuthFields part="client" {...fields} />
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

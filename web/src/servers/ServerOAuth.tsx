// A remote server's sign-in (GET /api/servers/{name}/oauth): signed in or not, the masked
// token and its expiry, scopes, client and issuer, a sign-in waiting for the browser, the
// last flow's steps; Sign in / Sign out, and the server's settings handed to the debugger.
import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../api/client';
import type { OAuthStatusView, ServerView } from '../api/types.gen';
import { oauthApi } from '../oauth/api';
import { openSignInTab } from '../oauth/popup';
import { serverToForm, setDebugForm } from '../oauth/form';
import { StepList } from '../oauth/StepList';
import { failingStep, relativeTime } from '../oauth/steps';
import { Button } from '../ui/Button';
import { navigate } from '../ui/route';
import { signIn } from './signIn';
import { setPendingSignIn, usePendingSignIn } from './store';
import '../oauth/oauth.css';

export function ServerOAuth({ view }: { view: ServerView }) {
  const name = view.config.name;
  const pending = usePendingSignIn(name);
  const [st, setSt] = useState<OAuthStatusView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'signin' | 'signout' | null>(null);
  const configKey = JSON.stringify(view.config);

  const load = useCallback(() => {
    oauthApi.status(name).then(
      (s) => {
        setSt(s);
        setError(null);
      },
      (e) => setError(errorMessage(e)),
    );
  }, [name]);
  // Reloaded whenever the connection, the pending sign-in or the config changes.
  useEffect(load, [load, view.status.state, pending?.url, configKey]);

  const doSignIn = async (force: boolean) => {
    setBusy('signin');
    setError(null);
    try {
      const r = await signIn(name, force);
      if (r.outcome === 'failed') setError(r.message);
      load();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(null);
    }
  };
  const doSignOut = async () => {
    setBusy('signout');
    setError(null);
    try {
      await oauthApi.signOut(name);
      setPendingSignIn(name, null);
      load();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(null);
    }
  };
  const openDebugger = () => {
    setDebugForm(serverToForm(view.config));
    navigate('oauth');
  };

  if (view.config.type === 'stdio') return null;
  const waitingUrl = pending?.url ?? st?.pendingAuthorizationUrl ?? null;
  const oauth = view.config.oauth;
  const applicable = st?.applicable ?? true;
  const state = !st ? 'loading' : !applicable ? 'off' : waitingUrl ? (pending?.opened ? 'waiting' : 'required') : st.signedIn ? 'signedIn' : 'signedOut';
  const stateLabel = { loading: '…', off: 'OAuth off', required: 'Sign-in required', waiting: 'Waiting for sign-in', signedIn: 'Signed in', signedOut: 'Not signed in' }[state];
  const stateTone = { loading: 'muted', off: 'muted', required: 'warn', waiting: 'info', signedIn: 'ok', signedOut: 'warn' }[state];
  const failed = st ? failingStep(st.lastSteps) : undefined;

  return (
    <section className="server-oauth" data-testid="server-oauth" data-state={state}>
      <div className="server-oauth-head">
        <h3>Authorization</h3>
        <span className={`server-oauth-state tone-${stateTone}`} data-testid="server-oauth-state">
          {stateLabel}
        </span>
        <span className="spacer" />
        {applicable && st && !waitingUrl && (
          <Button small variant={st.signedIn ? 'default' : 'primary'} onClick={() => doSignIn(st.signedIn)} busy={busy === 'signin'} data-testid="server-oauth-signin">
            {st.signedIn ? 'Sign in again' : 'Sign in'}
          </Button>
        )}
        {st && (st.signedIn || st.clientId) && (
          <Button small variant="ghost" onClick={doSignOut} busy={busy === 'signout'} data-testid="server-oauth-signout" title="Forget the tokens and the client registration, and disconnect">
            Sign out
          </Button>
        )}
      </div>
      {st && !applicable && (
        <div className="muted small">
          {oauth?.disabled ? 'OAuth is turned off for this server (edit it to change that).' : 'This server sends its own Authorization header, so mcplab does not sign in to it.'}
        </div>
      )}
      {waitingUrl && applicable && (
        <div className="server-oauth-waiting" data-testid="server-oauth-waiting">
          <span>
            {pending?.opened
              ? 'Sign in and approve in the tab that opened; the connection carries on by itself once the authorization server redirects back.'
              : 'The connection waits for you to sign in: open the authorization page, sign in and approve; it carries on by itself once the authorization server redirects back.'}
          </span>
          <a
            className="btn btn-sm btn-primary"
            href={waitingUrl}
            target="_blank"
            rel="noopener noreferrer"
            onClick={(e) => {
              setPendingSignIn(name, { url: waitingUrl, opened: true });
              if (openSignInTab(waitingUrl)) e.preventDefault();
            }}
            data-testid="server-oauth-open"
          >
            Open the authorization page ↗
          </a>
        </div>
      )}
      {st && applicable && (st.signedIn || st.clientId) && (
        <dl className="kv-grid server-oauth-grid">
          {st.signedIn && (
            <>
              <dt>Access token</dt>
              <dd className="mono" data-testid="server-oauth-token">
                {st.accessToken}
              </dd>
              <dt>Expires</dt>
              <dd data-testid="server-oauth-expiry">
                {st.expiresAtMs ? (
                  <span title={new Date(st.expiresAtMs).toLocaleString()}>
                    {relativeTime(st.expiresAtMs)} <span className="muted">({new Date(st.expiresAtMs).toLocaleTimeString()})</span>
                  </span>
                ) : (
                  <span className="muted">not said</span>
                )}
                {st.hasRefreshToken && <span className="badge">refresh token</span>}
              </dd>
              <dt>Scopes</dt>
              <dd className="mono" data-testid="server-oauth-scope">
                {st.scope || <span className="muted">none</span>}
              </dd>
            </>
          )}
          <dt>Client</dt>
          <dd data-testid="server-oauth-client">
            <span className="mono">{st.clientId}</span> {st.registration && <span className="badge" data-testid="server-oauth-registration">{st.registration}</span>}
          </dd>
          {st.issuer && (
            <>
              <dt>Issuer</dt>
              <dd className="mono wrap-any" data-testid="server-oauth-issuer">
                {st.issuer}
              </dd>
            </>
          )}
        </dl>
      )}
      {st && applicable && !st.signedIn && !st.clientId && !waitingUrl && (
        <div className="muted small">No token or client registration stored. Sign in (or connect) and mcplab discovers the authorization server, registers itself and opens the sign-in page.</div>
      )}
      {error && (
        <div className="inline-error" role="alert" data-testid="server-oauth-error">
          {error}
        </div>
      )}
      {st && st.lastSteps.length > 0 && (
        <details className="server-oauth-steps" data-testid="server-oauth-steps">
          <summary>
            Last sign-in flow: {st.lastSteps.length} steps{failed ? <span className="field-error"> · failed at step {failed.seq}</span> : null}
          </summary>
          <StepList steps={st.lastSteps} idPrefix="server-oauth-step-" compact />
        </details>
      )}
      {applicable && (
        <div>
          <button type="button" className="linkish small" onClick={openDebugger} data-testid="server-oauth-debug">
            Open in the OAuth debugger →
          </button>
        </div>
      )}
    </section>
  );
}

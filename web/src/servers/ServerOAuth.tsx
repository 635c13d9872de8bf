// A remote server's sign-in (GET /api/servers/{name}/oauth): signed in or not, the masked
// token and its expiry, scopes, client and issuer, a sign-in waiting for the browser, the
// last flow's steps; Sign in / Sign out, and the server's settings handed to the debugger.
// Draws only: the status and the actions are `useServerOAuth` (oauthStatus.ts).
import type { OAuthStatusView, ServerConfig, ServerView } from '../api/types.gen';
import { openSignInTab } from '../oauth/popup';
import { serverToForm, setDebugForm } from '../oauth/form';
import { StepList } from '../oauth/StepList';
import { failingStep, relativeTime } from '../oauth/steps';
import { Button } from '../ui/Button';
import { navigate } from '../ui/route';
import { useServerOAuth, type OAuthPanelState, type ServerOAuthModel } from './oauthStatus';
import { setPendingSignIn } from './store';
import '../oauth/oauth.css';

const STATE_LABEL: Record<OAuthPanelState, string> = {
  loading: '…',
  off: 'OAuth off',
  required: 'Sign-in required',
  waiting: 'Waiting for sign-in',
  signedIn: 'Signed in',
  signedOut: 'Not signed in',
};
const STATE_TONE: Record<OAuthPanelState, string> = { loading: 'muted', off: 'muted', required: 'warn', waiting: 'info', signedIn: 'ok', signedOut: 'warn' };

export function ServerOAuth({ view }: { view: ServerView }) {
  const m = useServerOAuth(view);
  if (view.config.type === 'stdio') return null;
  const { st, applicable, waitingUrl } = m;
  return (
    <section className="server-oauth" data-testid="server-oauth" data-state={m.state}>
      <PanelHead m={m} />
      {st && !applicable && (
        <div className="muted small">
          {view.config.oauth?.disabled ? 'OAuth is turned off for this server (edit it to change that).' : 'This server sends its own Authorization header, so mcplab does not sign in to it.'}
        </div>
      )}
      {waitingUrl && applicable && <WaitingForSignIn name={m.name} url={waitingUrl} opened={m.opened} />}
      {st && applicable && (st.signedIn || st.clientId) && <Credentials st={st} />}
      {st && applicable && !st.signedIn && !st.clientId && !waitingUrl && (
        <div className="muted small">No token or client registration stored. Sign in (or connect) and mcplab discovers the authorization server, registers itself and opens the sign-in page.</div>
      )}
      {m.error && (
        <div className="inline-error" role="alert" data-testid="server-oauth-error">
          {m.error}
        </div>
      )}
      {st && st.lastSteps.length > 0 && <LastFlow st={st} />}
      {applicable && <DebuggerLink config={view.config} />}
    </section>
  );
}

/** The title, the state and the Sign in / Sign out buttons. */
function PanelHead({ m }: { m: ServerOAuthModel }) {
  const { st } = m;
  return (
    <div className="server-oauth-head">
      <h3>Authorization</h3>
      <span className={`server-oauth-state tone-${STATE_TONE[m.state]}`} data-testid="server-oauth-state">
        {STATE_LABEL[m.state]}
      </span>
      <span className="spacer" />
      {m.applicable && st && !m.waitingUrl && (
        <Button small variant={st.signedIn ? 'default' : 'primary'} onClick={() => m.signIn(st.signedIn)} busy={m.busy === 'signin'} data-testid="server-oauth-signin">
          {st.signedIn ? 'Sign in again' : 'Sign in'}
        </Button>
      )}
      {st && (st.signedIn || st.clientId) && (
        <Button small variant="ghost" onClick={m.signOut} busy={m.busy === 'signout'} data-testid="server-oauth-signout" title="Forget the tokens and the client registration, and disconnect">
          Sign out
        </Button>
      )}
    </div>
  );
}

/** A connection waiting for the person to sign in: what to do, and the authorization page. */
function WaitingForSignIn({ name, url, opened }: { name: string; url: string; opened: boolean }) {
  return (
    <div className="server-oauth-waiting" data-testid="server-oauth-waiting">
      <span>
        {opened
          ? 'Sign in and approve in the tab that opened; the connection carries on by itself once the authorization server redirects back.'
          : 'The connection waits for you to sign in: open the authorization page, sign in and approve; it carries on by itself once the authorization server redirects back.'}
      </span>
      <a
        className="btn btn-sm btn-primary"
        href={url}
        target="_blank"
        rel="noopener noreferrer"
        onClick={(e) => {
          setPendingSignIn(name, { url, opened: true });
          if (openSignInTab(url)) e.preventDefault();
        }}
        data-testid="server-oauth-open"
      >
        Open the authorization page ↗
      </a>
    </div>
  );
}

/** The stored token (masked), its expiry and scopes, the client and the issuer. */
function Credentials({ st }: { st: OAuthStatusView }) {
  return (
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
  );
}

/** The last sign-in flow's steps, collapsed, with the step it failed at. */
function LastFlow({ st }: { st: OAuthStatusView }) {
  const failed = failingStep(st.lastSteps);
  return (
    <details className="server-oauth-steps" data-testid="server-oauth-steps">
      <summary>
        Last sign-in flow: {st.lastSteps.length} steps{failed ? <span className="field-error"> · failed at step {failed.seq}</span> : null}
      </summary>
      <StepList steps={st.lastSteps} idPrefix="server-oauth-step-" compact />
    </details>
  );
}

/** Hands the server's URL and OAuth settings to the debugger's form and opens it. */
function DebuggerLink({ config }: { config: ServerConfig }) {
  const open = () => {
    setDebugForm(serverToForm(config));
    navigate('oauth');
  };
  return (
    <div>
      <button type="button" className="linkish small" onClick={open} data-testid="server-oauth-debug">
        Open in the OAuth debugger →
      </button>
    </div>
  );
}

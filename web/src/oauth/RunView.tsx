// One debugger run: where it is (running, waiting for the browser, succeeded, failed with the
// fix, cancelled), the token it obtained (masked), the sequence diagram and the steps.
import { useState } from 'react';
import { errorMessage } from '../api/client';
import type { OAuthDebugRun, OAuthTokenSummary } from '../api/types.gen';
import { Button } from '../ui/Button';
import { CopyButton } from '../ui/CopyButton';
import { Spinner } from '../ui/Spinner';
import { oauthApi } from './api';
import { openSignInTab } from './popup';
import { SequenceDiagram } from './SequenceDiagram';
import { StepList } from './StepList';
import { PHASE_LABEL, duration, failingStep } from './steps';

const STATE_LABEL: Record<OAuthDebugRun['state'], string> = {
  running: 'running',
  succeeded: 'succeeded',
  failed: 'failed',
  cancelled: 'cancelled',
  notRequired: 'no authorization required',
};

export function RunView({ run, waitingUrl, onReuse }: { run: OAuthDebugRun; waitingUrl: string | null; onReuse: () => void }) {
  const [focusSeq, setFocusSeq] = useState<number | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const [cancelError, setCancelError] = useState<string | null>(null);
  const running = run.state === 'running';
  const failed = failingStep(run.steps);
  const elapsed = (run.finishedMs ?? Date.now()) - run.startedMs;

  const cancel = async () => {
    setCancelling(true);
    setCancelError(null);
    try {
      await oauthApi.cancelDebug(run.id);
    } catch (e) {
      setCancelError(errorMessage(e));
    } finally {
      setCancelling(false);
    }
  };
  const select = (seq: number) => {
    setFocusSeq(null);
    window.setTimeout(() => setFocusSeq(seq), 0);
  };

  return (
    <div className="oauth-run" data-testid="oauth-run" data-run-id={run.id} data-state={run.state}>
      <div className="oauth-run-head">
        <span className={`oauth-run-state state-${run.state}`} data-testid="oauth-run-state">
          {running && <Spinner small />}
          {STATE_LABEL[run.state]}
        </span>
        <span className="oauth-run-url mono wrap-any" title={run.request.url}>
          {run.request.url}
        </span>
        <span className="badges">
          <span className="badge">{run.request.transport ?? 'http'}</span>
          <span className="badge">{run.request.revision ?? 'latest rules'}</span>
          <span className="badge">registration: {run.request.registration ?? 'auto'}</span>
          <span className="badge">{run.request.interactive ? 'interactive' : 'non-interactive'}</span>
        </span>
        <span className="spacer" />
        <span className="muted small">
          {run.steps.length} steps · {duration(elapsed)}
        </span>
        {running ? (
          <Button small variant="danger" onClick={cancel} busy={cancelling} data-testid="oauth-cancel">
            Cancel
          </Button>
        ) : (
          <Button small onClick={onReuse} data-testid="oauth-reuse" title="Put this run's settings into the form">
            Edit & run again
          </Button>
        )}
      </div>
      {cancelError && <div className="inline-error">{cancelError}</div>}

      {waitingUrl && (
        <div className="oauth-callout oauth-callout-browser" data-testid="oauth-awaiting-browser">
          <div className="oauth-callout-body">
            <div className="oauth-callout-title">Sign in in your browser</div>
            <div className="small">
              mcplab is waiting for the authorization server to redirect back to its <code>/oauth/callback</code>. After you sign in
              and approve, that tab returns here and the run goes on.
            </div>
          </div>
          <a
            className="btn btn-primary oauth-open-btn"
            href={waitingUrl}
            target="_blank"
            rel="noopener noreferrer"
            onClick={(e) => {
              if (openSignInTab(waitingUrl)) e.preventDefault();
            }}
            data-testid="oauth-open-authorization"
          >
            Open the authorization page ↗
          </a>
        </div>
      )}

      {run.state === 'failed' && run.failure && (
        <div className="oauth-callout oauth-callout-failed" role="alert" data-testid="oauth-failure">
          <div className="oauth-callout-body">
            <div className="oauth-callout-title">
              Failed{failed ? ` at step ${failed.seq}` : ''}
              {failed && <span className="oauth-callout-phase"> · {PHASE_LABEL[failed.phase]}</span>}
            </div>
            <div className="oauth-failure-message" data-testid="oauth-failure-message">
              {run.failure.message}
            </div>
            {run.failure.fix && (
              <div className="oauth-fix oauth-fix-big" data-testid="oauth-failure-fix">
                <span className="oauth-fix-label">How to fix</span>
                <span>{run.failure.fix}</span>
              </div>
            )}
          </div>
          {failed && (
            <Button small onClick={() => select(failed.seq)} data-testid="oauth-failure-step">
              Show step {failed.seq}
            </Button>
          )}
        </div>
      )}
      {run.state === 'cancelled' && (
        <div className="oauth-callout" data-testid="oauth-cancelled">
          <div className="oauth-callout-body">
            <div className="oauth-callout-title">Cancelled</div>
            <div className="small muted">The run was stopped before it finished.</div>
          </div>
        </div>
      )}
      {run.state === 'notRequired' && (
        <div className="oauth-callout" data-testid="oauth-not-required">
          <div className="oauth-callout-body">
            <div className="oauth-callout-title">No authorization required</div>
            <div className="small muted">The server answered without asking for a token and publishes no OAuth metadata: clients connect to it without signing in. The discovery steps below are for information.</div>
          </div>
        </div>
      )}
      {run.state === 'succeeded' && run.result && <TokenSummary result={run.result} />}

      <div className="oauth-run-body">
        <div className="oauth-run-diagram">
          <SequenceDiagram steps={run.steps} serverUrl={run.request.url} running={running} focusSeq={focusSeq} onSelect={select} />
        </div>
        <div className="oauth-run-steps">
          {run.steps.length === 0 ? <Spinner label="Starting…" /> : <StepList steps={run.steps} focusSeq={focusSeq} running={running && !waitingUrl} />}
        </div>
      </div>
    </div>
  );
}

function TokenSummary({ result }: { result: OAuthTokenSummary }) {
  return (
    <div className="oauth-callout oauth-callout-ok" data-testid="oauth-result">
      <div className="oauth-callout-body">
        <div className="oauth-callout-title">Authorization works: the server accepted the token</div>
        <dl className="kv-grid oauth-token-grid">
          <dt>Access token</dt>
          <dd className="mono" data-testid="oauth-result-token">
            {result.tokenType} {result.accessToken}
          </dd>
          <dt>Scope</dt>
          <dd className="mono">{result.scope ?? <span className="muted">none</span>}</dd>
          <dt>Expires</dt>
          <dd>{result.expiresInSecs != null ? `in ${Math.round(result.expiresInSecs / 60)} min (${result.expiresInSecs} s)` : <span className="muted">not said</span>}</dd>
          <dt>Refresh token</dt>
          <dd>{result.hasRefreshToken ? 'yes' : 'no'}</dd>
          <dt>Client</dt>
          <dd>
            <span className="mono">{result.clientId}</span> <span className="badge">{result.registration}</span>
          </dd>
          <dt>Resource</dt>
          <dd className="mono wrap-any">{result.resource ?? <span className="muted">not sent</span>}</dd>
          <dt>Issuer</dt>
          <dd className="mono wrap-any">{result.issuer ?? <span className="muted">unknown</span>}</dd>
        </dl>
      </div>
      <CopyButton text={() => JSON.stringify(result, null, 2)} label="Copy summary" />
    </div>
  );
}

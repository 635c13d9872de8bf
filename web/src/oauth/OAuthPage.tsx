// The OAuth debugger (`#/oauth`, a run at `#/oauth/<runId>`, where the sign-in's redirect also
// lands): the form, the recent runs, and the selected run step by step.
import { Button } from '../ui/Button';
import { EmptyState, ErrorState } from '../ui/States';
import { Loading } from '../ui/Spinner';
import { navigate, useRouteArg } from '../ui/route';
import { DebugForm } from './DebugForm';
import { requestToForm, setDebugForm } from './form';
import { forgetRecentRuns, useRecentRuns, type RecentRun } from './recent';
import { RunView } from './RunView';
import { useDebugRun } from './useDebugRun';
import './oauth.css';

export function OAuthPage() {
  const runId = useRouteArg();
  return (
    <div className="page oauth-page" data-testid="oauth-page">
      <div className="page-head">
        <h1>OAuth debugger</h1>
        <span className="muted small">Runs the MCP authorization flow for a server URL step by step and shows where it breaks.</span>
      </div>
      <div className="oauth-top">
        <DebugForm />
        <RecentRuns current={runId} />
      </div>
      {runId ? (
        <Run id={runId} />
      ) : (
        <EmptyState page="oauth" title="No run selected" testId="oauth-no-run">
          Give a server URL and press Start. Each step appears as it happens: the HTTP exchanges, what was discovered and chosen, and
          where it failed with the fix.
        </EmptyState>
      )}
    </div>
  );
}

function Run({ id }: { id: string }) {
  const { run, loading, error, notFound, reload, waitingUrl } = useDebugRun(id);
  if (run && run.id === id) return <RunView run={run} waitingUrl={waitingUrl} onReuse={() => setDebugForm(requestToForm(run.request))} />;
  if (notFound)
    return (
      <EmptyState page="oauth" title="This run is no longer kept" testId="oauth-run-gone">
        mcplab keeps the newest 20 runs while it runs. Start it again from the form.
      </EmptyState>
    );
  if (error) return <ErrorState title="Could not load the run" message={error} onRetry={reload} />;
  return loading ? <Loading label="Loading the run…" /> : null;
}

const STATE_TONE: Record<RecentRun['state'], string> = { running: 'info', succeeded: 'ok', failed: 'err', cancelled: 'warn', notRequired: '', gone: '' };

function RecentRuns({ current }: { current: string | null }) {
  const runs = useRecentRuns();
  return (
    <div className="oauth-recent card" data-testid="oauth-recent">
      <div className="section-head">
        <span className="section-label">Recent runs</span>
        <span className="spacer" />
        {runs.length > 0 && (
          <Button small variant="ghost" onClick={forgetRecentRuns} data-testid="oauth-recent-clear">
            Clear
          </Button>
        )}
      </div>
      {runs.length === 0 ? (
        <div className="muted small">None yet.</div>
      ) : (
        <ul className="oauth-recent-list">
          {runs.map((r) => (
            <li key={r.id}>
              <button
                type="button"
                className={`oauth-recent-item${r.id === current ? ' selected' : ''}`}
                onClick={() => navigate('oauth', r.id)}
                aria-current={r.id === current || undefined}
                data-testid={`oauth-recent-${r.id}`}
                data-state={r.state}
              >
                <span className="oauth-recent-url mono" title={r.url}>
                  {r.url.replace(/^https?:\/\//, '')}
                </span>
                <span className="oauth-recent-meta">
                  <span className={`badge${STATE_TONE[r.state] ? ` badge-${STATE_TONE[r.state]}` : ''}`}>{r.state === 'gone' ? 'no longer kept' : r.state === 'notRequired' ? 'no authorization required' : r.state}</span>
                  <span className="muted small">{new Date(r.startedMs).toLocaleTimeString()}</span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

// Reads one resource, shows its contents, and (when the server supports it) subscribes to
// updates: each `resourceUpdated` for this URI re-reads it.
import { useCallback, useEffect, useState } from 'react';
import { api, errorMessage, type Resource } from '../api/client';
import { useServerEvents } from '../api/events';
import type { CallOutcome } from '../api/types.gen';
import { Button } from '../ui/Button';
import { CopyButton } from '../ui/CopyButton';
import { ErrorState } from '../ui/States';
import { Loading } from '../ui/Spinner';
import { JsonTree } from '../ui/JsonTree';
import { ResourceContentsView } from './ContentView';
import { isSubscribed, setSubscribed } from './subscriptions';

export function ResourceViewer({ server, uri, resource, canSubscribe }: { server: string; uri: string; resource?: Resource; canSubscribe: boolean }) {
  const [outcome, setOutcome] = useState<CallOutcome | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [subscribed, setSub] = useState(() => isSubscribed(server, uri));
  const [subBusy, setSubBusy] = useState(false);
  const [updates, setUpdates] = useState(0);
  const [raw, setRaw] = useState(false);

  const read = useCallback(() => {
    setLoading(true);
    setError(null);
    api.readResource(server, uri).then(
      (o) => {
        setOutcome(o);
        setLoading(false);
      },
      (e) => {
        setError(errorMessage(e));
        setLoading(false);
      },
    );
  }, [server, uri]);

  useEffect(read, [read]);

  useServerEvents((e) => {
    if (e.type === 'resourceUpdated' && e.server === server && e.uri === uri) {
      setUpdates((n) => n + 1);
      read();
    }
  });

  const toggleSub = async () => {
    setSubBusy(true);
    setError(null);
    try {
      const out = subscribed ? await api.unsubscribe(server, uri) : await api.subscribe(server, uri);
      if (out.error) setError(`${subscribed ? 'Unsubscribe' : 'Subscribe'} failed: ${out.error.message}`);
      else {
        setSubscribed(server, uri, !subscribed);
        setSub(!subscribed);
      }
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSubBusy(false);
    }
  };

  const contents: unknown[] = outcome?.result?.contents ?? [];
  return (
    <div className="resource-viewer" data-testid="resource-viewer">
      <div className="detail-head">
        <h2 className="mono wrap-any">{uri}</h2>
      </div>
      {resource?.description && <div className="muted">{resource.description}</div>}
      <div className="actions">
        <Button onClick={read} busy={loading} data-testid="resource-read">
          Read again
        </Button>
        {canSubscribe && (
          <Button variant={subscribed ? 'primary' : 'default'} onClick={toggleSub} busy={subBusy} aria-pressed={subscribed} data-testid="resource-subscribe">
            {subscribed ? 'Subscribed ✓ (unsubscribe)' : 'Subscribe'}
          </Button>
        )}
        {updates > 0 && (
          <span className="badge badge-info" data-testid="resource-updates">
            {updates} update{updates > 1 ? 's' : ''} received
          </span>
        )}
        <span className="spacer" />
        {outcome?.result && (
          <>
            <button type="button" className="linkish small" onClick={() => setRaw(!raw)}>
              {raw ? 'formatted' : 'raw JSON'}
            </button>
            <CopyButton text={() => JSON.stringify(outcome.result, null, 2)} />
          </>
        )}
        {outcome && <span className="muted small">{outcome.durationMs} ms</span>}
      </div>
      {error && <ErrorState title="Request failed" message={error} onRetry={read} />}
      {loading && !outcome ? (
        <Loading label="Reading…" />
      ) : outcome?.error ? (
        <ErrorState title={`resources/read failed (${outcome.error.kind})`} message={outcome.error.message} onRetry={read} testId="resource-error" />
      ) : outcome ? (
        <div data-testid="resource-content">{raw ? <JsonTree value={outcome.result} expandDepth={4} /> : <ResourceContentsView contents={contents} />}</div>
      ) : null}
    </div>
  );
}

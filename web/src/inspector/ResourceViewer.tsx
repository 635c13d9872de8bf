// Reads one resource, shows its contents, and (when the server supports it) subscribes to
// updates: each `resourceUpdated` for this URI re-reads it. Reads on open only when a person
// opened it inside mcplab (`autoRead`); a URL alone shows a Read button.
import { useCallback, useEffect, useState } from 'react';
import { BellOff, BellRing, RefreshCw } from 'lucide-react';
import { api, errorMessage, type Resource } from '../api/client';
import { useServerEvents } from '../api/events';
import type { CallOutcome } from '../api/types.gen';
import { Button } from '../ui/Button';
import { CopyButton } from '../ui/CopyButton';
import { EmptyState, ErrorState } from '../ui/States';
import { Loading } from '../ui/Spinner';
import { JsonTree } from '../ui/JsonTree';
import { ResourceContentsView } from './ContentView';
import { openInInspector } from './inspectorRoute';
import { isSubscribed, setSubscribed } from './subscriptions';

export function ResourceViewer({ server, uri, resource, canSubscribe, autoRead = true }: { server: string; uri: string; resource?: Resource; canSubscribe: boolean; autoRead?: boolean }) {
  const [outcome, setOutcome] = useState<CallOutcome | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(autoRead);
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

  // Decided when the viewer opens: a later change of `autoRead` (the URL moving on) must not
  // read again.
  const [readOnOpen] = useState(autoRead);
  useEffect(() => {
    if (readOnOpen) read();
  }, [read, readOnOpen]);

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
  // The name a person gave it (as the list shows it), beside the URI the protocol uses.
  const label = resource?.title ?? (resource?.name && resource.name !== uri ? resource.name : undefined);
  return (
    <div className="resource-viewer" data-testid="resource-viewer">
      <div className="detail-head">
        <h2 className="mono wrap-any">{uri}</h2>
        {label && <span className="muted" data-testid="resource-title">{label}</span>}
        {resource?.mimeType && <span className="badge badge-plain">{resource.mimeType}</span>}
      </div>
      {resource?.description && <div className="muted">{resource.description}</div>}
      <div className="actions">
        <Button onClick={read} busy={loading} data-testid="resource-read" variant={outcome ? 'default' : 'primary'}>
          <RefreshCw size={14} aria-hidden="true" /> {outcome ? 'Read again' : 'Read'}
        </Button>
        {canSubscribe && (
          <Button variant={subscribed ? 'primary' : 'default'} onClick={toggleSub} busy={subBusy} aria-pressed={subscribed} data-testid="resource-subscribe">
            {subscribed ? <BellRing size={14} aria-hidden="true" /> : <BellOff size={14} aria-hidden="true" />}
            {subscribed ? 'Subscribed' : 'Subscribe'}
          </Button>
        )}
        {updates > 0 && (
          <span className="badge badge-info" data-testid="resource-updates">
            {updates} update{updates > 1 ? 's' : ''} received
          </span>
        )}
        <span className="spacer" />
        {outcome?.result && (
          <span className="toolbar">
            <Button small variant="ghost" onClick={() => setRaw(!raw)} aria-pressed={raw} data-testid="resource-raw">
              {raw ? 'Formatted' : 'Raw'}
            </Button>
            <CopyButton text={() => JSON.stringify(outcome.result, null, 2)} />
            <span className="muted small">{outcome.durationMs} ms</span>
          </span>
        )}
      </div>
      {error && <ErrorState title="Request failed" message={error} onRetry={read} />}
      {loading && !outcome ? (
        <Loading label="Reading…" />
      ) : outcome?.error ? (
        <ErrorState title={`resources/read failed (${outcome.error.kind})`} message={outcome.error.message} onRetry={read} testId="resource-error" />
      ) : outcome ? (
        <div data-testid="resource-content">
          {raw ? <JsonTree value={outcome.result} expandDepth={Infinity} /> : <ResourceContentsView contents={contents} onOpenResource={(u) => openInInspector('resources', server, u)} />}
        </div>
      ) : (
        <EmptyState page="resources" title="Not read yet" testId="resource-unread">
          Opened from a link: choose Read to fetch it from {server}.
        </EmptyState>
      )}
    </div>
  );
}

// Guards an inspector page: it needs a known, connected server. Otherwise it says why and
// offers the fix (add a server, connect, or read the failure). A page whose server lacks the
// capability it shows says so with `MissingCapability`.
import type { ReactNode } from 'react';
import { useState } from 'react';
import { api, errorMessage } from '../api/client';
import { navigate } from '../ui/route';
import { upsertServer, useServer, useServers } from '../servers/store';
import { Button } from '../ui/Button';
import { EmptyState, ErrorState } from '../ui/States';
import { Loading } from '../ui/Spinner';

export function NeedsServer({ server, children }: { server: string | null; children: (server: string) => ReactNode }) {
  const { list, error } = useServers();
  const view = useServer(server);
  const [busy, setBusy] = useState(false);
  const [connectError, setConnectError] = useState<string | null>(null);

  if (!list) return error ? <ErrorState title="Could not load servers" message={error} /> : <Loading />;
  if (!server || !view)
    return (
      <EmptyState page="servers" title={server ? `No server named ${server}` : 'No server yet'} testId="no-server">
        <Button variant="primary" onClick={() => navigate('servers')}>
          {server ? 'Go to Servers' : 'Add a server'}
        </Button>
      </EmptyState>
    );
  const st = view.status;
  if (st.state === 'connected') return <>{children(server)}</>;
  if (st.state === 'connecting') return <Loading label={`Connecting to ${server}…`} />;
  const connect = async () => {
    setBusy(true);
    setConnectError(null);
    try {
      upsertServer(await api.connect(server));
    } catch (e) {
      setConnectError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="state-stack">
      {st.state === 'failed' ? (
        <ErrorState title={`${server} failed`} message={st.message} onRetry={connect} testId="server-failed" />
      ) : (
        <EmptyState page="servers" title={`${server} is not connected`} testId="server-disconnected">
          <Button variant="primary" busy={busy} onClick={connect} data-testid={`inspector-connect-${server}`}>
            Connect
          </Button>
        </EmptyState>
      )}
      {connectError && <ErrorState title="Connect failed" message={connectError} />}
    </div>
  );
}

/** The page of a capability the connected server did not declare (`no-<capability>-capability`). */
export function MissingCapability({ server, capability }: { server: string; capability: 'prompts' | 'resources' }) {
  return (
    <div className="page">
      <EmptyState page={capability} title={`${server} does not offer ${capability}`} testId={`no-${capability}-capability`}>
        Its initialize result has no <code>{capability}</code> capability.
      </EmptyState>
    </div>
  );
}

// The chat's host picker: run the session as Claude, ChatGPT, VS Code, Cursor, goose or mcplab
// (a host profile from `/api/hosts`, built in or the data directory's own), and "what differs":
// field by field how the chosen profile differs from mcplab's, each value with its public
// source or "unknown". Choosing one PATCHes the session's HostConfig like every other setting.
// The web's servers are shared by every session, so a profile's client declaration (revision,
// capabilities) reaches a server only when it is connected "as" that host: the picker names the
// session's servers that declared something else and reconnects them as this host.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { errorMessage, request } from '../api/client';
import type { HostConfig, HostProfile, HostProfileView, ServerView } from '../api/types.gen';
import { upsertServer, useServers } from '../servers/store';
import { Button } from '../ui/Button';
import { applyProfile, matchingProfile, serversDeclaredOtherwise, sourceText } from './hostProfiles';

interface Props {
  config: HostConfig;
  onChange: (c: HostConfig) => void;
}

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

export function HostProfilePicker({ config, onChange }: Props) {
  const list = useQuery({ queryKey: ['hosts'], queryFn: () => request<HostProfile[]>('GET', '/api/hosts') });
  const profiles = list.data ?? [];
  const current = matchingProfile(config, profiles);
  const view = useQuery({
    queryKey: ['hosts', current?.name],
    queryFn: () => request<HostProfileView>('GET', `/api/hosts/${encodeURIComponent(current?.name ?? 'mcplab')}`),
    enabled: !!current && current.name !== 'mcplab',
  });
  return (
    <details className="chat-more" data-testid="chat-host-profile">
      <summary className="small muted">Host profile: {current ? current.title || current.name : list.isLoading ? '…' : 'custom'}</summary>
      <div className="chat-more-body">
        {list.error && (
          <div className="inline-error small" role="alert">
            Could not load host profiles: {String(list.error)}
          </div>
        )}
        <label className="small">
          Run as{' '}
          <select
            value={current?.name ?? ''}
            onChange={(e) => {
              const p = profiles.find((x) => x.name === e.target.value);
              if (p) onChange(applyProfile(config, p));
            }}
            data-testid="chat-host-profile-select"
          >
            {!current && <option value="">custom</option>}
            {profiles.map((p) => (
              <option key={p.name} value={p.name}>
                {p.title || p.name}
                {p.builtin ? '' : ' (yours)'}
              </option>
            ))}
          </select>
        </label>
        {current && <p className="small muted">{current.description}</p>}
        <p className="small muted">
          Applies the host's tool naming and limit, what of a tool result the model sees, approval and app host here. The
          protocol revision and client capabilities it declares reach a server when it is connected as this host (servers
          are shared by every session).
        </p>
        <ReconnectAsHost config={config} profiles={profiles} host={current} />
        {view.data && view.data.diff.length > 0 && (
          <table className="small" data-testid="chat-host-profile-diff">
            <caption className="muted">What differs from mcplab's defaults</caption>
            <thead>
              <tr>
                <th>field</th>
                <th>{view.data.against}</th>
                <th>{view.data.profile.name}</th>
                <th>source</th>
              </tr>
            </thead>
            <tbody>
              {view.data.diff.map((d) => (
                <tr key={d.field}>
                  <td>
                    <code>{d.field}</code>
                  </td>
                  <td>{show(d.a)}</td>
                  <td>{show(d.b)}</td>
                  <td className="muted">{sourceText(d.sourceB)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </details>
  );
}

/** "Reconnect servers as this host" for the session's servers that declared something else. */
function ReconnectAsHost({ config, profiles, host }: { config: HostConfig; profiles: HostProfile[]; host: HostProfile | null }) {
  const { list } = useServers();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const stale = serversDeclaredOtherwise(config, list ?? [], profiles);
  if (stale.length === 0 && !error) return null;
  // A custom mix declares what its `client` section says, which no profile names: mcplab's own is
  // the nearest the servers can be given, so only a matching profile offers the reconnect.
  const reconnect = async () => {
    setBusy(true);
    setError(null);
    try {
      for (const v of stale) {
        const body = { host: host && host.name !== 'mcplab' ? host.name : null };
        upsertServer(await request<ServerView>('POST', `/api/servers/${encodeURIComponent(v.config.name)}/connect`, body));
      }
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="small" data-testid="chat-host-reconnect">
      <p className="muted">
        {stale.map((v) => `${v.config.name} (connected as ${v.connectedAs ?? 'mcplab'})`).join(', ')} declared other client
        capabilities than {host?.title || host?.name || 'this config'}.
      </p>
      {host && (
        <Button small busy={busy} onClick={reconnect} disabled={busy} data-testid="chat-host-reconnect-button">
          {busy ? 'Reconnecting…' : `Reconnect ${stale.length === 1 ? 'it' : 'them'} as ${host.title || host.name}`}
        </Button>
      )}
      {error && (
        <div className="inline-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

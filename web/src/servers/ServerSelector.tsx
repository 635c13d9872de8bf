import { selectServer, useSelectedServer, useServers } from './store';

/** The server the inspector pages work on (in the header). */
export function ServerSelector() {
  const { list } = useServers();
  const selected = useSelectedServer();
  if (!list || list.length === 0) return null;
  const view = list.find((v) => v.config.name === selected);
  return (
    <label className="server-selector">
      <span className={`status-dot status-${view?.status.state ?? 'disconnected'}`} aria-hidden="true" />
      <select value={selected ?? ''} onChange={(e) => selectServer(e.target.value)} data-testid="server-selector" aria-label="Server to inspect">
        {list.map((v) => (
          <option key={v.config.name} value={v.config.name}>
            {v.config.name} ({v.status.state})
          </option>
        ))}
      </select>
    </label>
  );
}

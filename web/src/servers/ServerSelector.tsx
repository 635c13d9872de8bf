// The server the inspector pages use (in the header). Choosing one moves the page's URL to it
// (`#/<page>/<server>`), so the URL keeps saying what is shown. The dot beside it shows the
// selected server's state.
import { openInInspector } from '../inspector/inspectorRoute';
import { rememberedSelection, type InspectorPage } from '../inspector/selection';
import { selectServer, useSelectedServer, useServers } from './store';

export function ServerSelector({ page }: { page?: InspectorPage }) {
  const { list } = useServers();
  const selected = useSelectedServer();
  if (!list || list.length === 0) return null;
  const view = list.find((v) => v.config.name === selected);
  return (
    <label className="server-selector">
      <span className={`status-dot status-${view?.status.state ?? 'disconnected'}`} aria-hidden="true" />
      <select
        value={selected ?? ''}
        onChange={(e) => {
          selectServer(e.target.value);
          if (page) openInInspector(page, e.target.value, rememberedSelection(page, e.target.value));
        }}
        data-testid="server-selector"
        aria-label={`Server to inspect (${view ? `${view.config.name}, ${view.status.state}` : 'none'})`}
        title={view ? `${view.config.name}: ${view.status.state}` : undefined}
      >
        {list.map((v) => (
          // A connected server is its name (the dot beside says so): "demo (connected)" was cut
          // to "demo (connect" at phone width. Any other state stays in words.
          <option key={v.config.name} value={v.config.name} data-state={v.status.state}>
            {v.status.state === 'connected' ? v.config.name : `${v.config.name} (${v.status.state})`}
          </option>
        ))}
      </select>
    </label>
  );
}

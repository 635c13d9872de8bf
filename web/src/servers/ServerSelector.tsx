// The server the inspector pages use (in the header). Choosing one moves the page's URL to it
// (`#/<page>/<server>`), so the URL keeps saying what is shown.
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
        aria-label="Server to inspect"
      >
        {list.map((v) => (
          <option key={v.config.name} value={v.config.name}>
            {v.config.name} ({v.status.state})
          </option>
        ))}
      </select>
    </label>
  );
}

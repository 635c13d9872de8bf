import { useMemo, useState } from 'react';
import type { Tool } from '../api/client';
import { EmptyState, ErrorState } from '../ui/States';
import { Loading } from '../ui/Spinner';
import { Button } from '../ui/Button';
import { NeedsServer } from './NeedsServer';
import { ToolDetail } from './ToolDetail';
import { toolBadges } from './toolMeta';
import { useServerList } from './useServerList';
import { cachedLoader } from '../modern/cacheInfo';
import { ListCacheHint } from '../modern/ListCacheHint';

const loadTools = cachedLoader<Tool>('tools', 'tools', 'tools');

export function ToolsPage() {
  return <NeedsServer>{(server) => <Tools key={server} server={server} />}</NeedsServer>;
}

function Tools({ server }: { server: string }) {
  const tools = useServerList<Tool>(server, 'tools', loadTools);
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const [preset, setPreset] = useState<{ args: Record<string, unknown>; n: number } | null>(null);

  const filtered = useMemo(() => {
    const q = query.toLowerCase();
    return (tools.data ?? []).filter(
      (t) => !q || t.name.toLowerCase().includes(q) || (t.title ?? '').toLowerCase().includes(q) || (t.description ?? '').toLowerCase().includes(q),
    );
  }, [tools.data, query]);
  const tool = tools.data?.find((t) => t.name === selected) ?? null;

  return (
    <div className="page inspector" data-testid="tools-page">
      <aside className="side-list">
        <div className="side-list-head">
          <input type="search" placeholder={`Search ${tools.data?.length ?? ''} tools`} value={query} onChange={(e) => setQuery(e.target.value)} data-testid="tool-search" aria-label="Search tools" />
          <Button small variant="ghost" onClick={tools.reload} title="Reload the list" data-testid="tools-reload" aria-label="Reload tools">
            ↻
          </Button>
        </div>
        <ListCacheHint server={server} list="tools" reload={tools.reload} />
        {tools.error ? (
          <ErrorState title="Could not list tools" message={tools.error} onRetry={tools.reload} />
        ) : !tools.data ? (
          <Loading />
        ) : filtered.length === 0 ? (
          <EmptyState title={tools.data.length ? 'No tool matches' : 'This server has no tools'} />
        ) : (
          <ul className="items" role="listbox" aria-label="Tools">
            {filtered.map((t) => (
              <li key={t.name}>
                <button
                  type="button"
                  className={`item${t.name === selected ? ' selected' : ''}`}
                  onClick={() => {
                    setSelected(t.name);
                    setPreset(null);
                  }}
                  data-testid={`tool-item-${t.name}`}
                  role="option"
                  aria-selected={t.name === selected}
                >
                  <span className="item-name">{t.title ?? t.name}</span>
                  {t.title && <span className="item-sub mono">{t.name}</span>}
                  <span className="badges">
                    {toolBadges(t).map((b) => (
                      <span key={b.key} className={`badge badge-${b.tone ?? 'plain'}`} title={b.title} data-testid={`tool-badge-${b.key}`}>
                        {b.label}
                      </span>
                    ))}
                  </span>
                  {t.description && <span className="item-desc">{t.description}</span>}
                </button>
              </li>
            ))}
          </ul>
        )}
      </aside>
      <section className="detail">
        {tool ? (
          <ToolDetail
            key={`${tool.name}:${preset?.n ?? 0}`}
            server={server}
            tool={tool}
            initialArgs={preset?.args}
            onLoadHistory={(name, args) => {
              setSelected(name);
              setPreset((p) => ({ args, n: (p?.n ?? 0) + 1 }));
            }}
          />
        ) : (
          <EmptyState title="Select a tool" testId="tool-none">
            Pick a tool on the left to see its schema and call it.
          </EmptyState>
        )}
      </section>
    </div>
  );
}

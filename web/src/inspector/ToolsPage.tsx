// The Tools page: a server's tools beside the selected one, both in the URL
// (`#/tools/<server>/<tool>`). Calls live in the calls store, so the list marks tools whose
// call is still running and leaving the page loses nothing.
import { useMemo, useState } from 'react';
import { Loader } from 'lucide-react';
import type { Tool } from '../api/client';
import { useServerList } from '../api/queries';
import { ItemList } from '../ui/ItemList';
import { EmptyState, ErrorState } from '../ui/States';
import { Loading } from '../ui/Spinner';
import { useRunningTools } from './calls';
import { useInspectorRoute } from './inspectorRoute';
import { ListCacheHint } from '../modern/ListCacheHint';
import { MasterDetail } from './MasterDetail';
import { NeedsServer } from './NeedsServer';
import { ToolDetail } from './ToolDetail';
import { toolBadges } from './toolMeta';

export function ToolsPage() {
  const route = useInspectorRoute('tools');
  return <NeedsServer server={route.server}>{(server) => <Tools key={server} server={server} tool={route.item} select={route.select} />}</NeedsServer>;
}

export function toolMatches(t: Tool, q: string): boolean {
  const s = q.toLowerCase();
  return !s || t.name.toLowerCase().includes(s) || (t.title ?? '').toLowerCase().includes(s) || (t.description ?? '').toLowerCase().includes(s);
}

function Tools({ server, tool: selected, select }: { server: string; tool: string | null; select: (t: string | null) => void }) {
  const tools = useServerList(server, 'tools');
  const running = useRunningTools(server);
  const [query, setQuery] = useState('');
  const filtered = useMemo(() => (tools.data ?? []).filter((t) => toolMatches(t, query)), [tools.data, query]);
  const tool = tools.data?.find((t) => t.name === selected) ?? null;

  const list = tools.error ? (
    <ErrorState title="Could not list tools" message={tools.error} onRetry={tools.reload} />
  ) : !tools.data ? (
    <Loading />
  ) : filtered.length === 0 ? (
    <EmptyState title={tools.data.length ? 'No tool matches' : 'This server has no tools'} />
  ) : (
    <ItemList
      label="Tools"
      selected={selected}
      onSelect={select}
      items={filtered.map((t) => ({
        key: t.name,
        testId: `tool-item-${t.name}`,
        className: running.has(t.name) ? 'running' : undefined,
        content: (
          <>
            <span className="item-top">
              <span className="item-name">
                {t.title ?? t.name}
                {running.has(t.name) && <Loader size={12} className="spin" aria-label="call running" data-testid={`tool-running-${t.name}`} />}
              </span>
              {toolBadges(t).map((b) => (
                <span key={b.key} className={`badge badge-${b.tone ?? 'plain'}`} title={b.title} data-testid={`tool-badge-${b.key}`}>
                  {b.label}
                </span>
              ))}
            </span>
            {t.title && <span className="item-sub mono">{t.name}</span>}
            {t.description && <span className="item-desc">{t.description}</span>}
          </>
        ),
      }))}
    />
  );

  return (
    <MasterDetail
      testId="tools-page"
      hasSelection={!!selected}
      search={{ value: query, onChange: setQuery, placeholder: `Search ${tools.data?.length ?? ''} tools`, label: 'Search tools', testId: 'tool-search' }}
      onReload={tools.reload}
      reloadLabel="Reload tools"
      onBack={() => select(null)}
      backLabel="All tools"
      head={<ListCacheHint server={server} list="tools" reload={tools.reload} />}
      list={list}
      detail={
        tool ? (
          <ToolDetail key={tool.name} server={server} tool={tool} onSelect={select} />
        ) : selected && tools.data ? (
          <EmptyState title={`${server} has no tool named ${selected}`} testId="tool-missing" />
        ) : (
          <EmptyState title="Select a tool" testId="tool-none">
            Pick a tool on the left to see its schema and call it.
          </EmptyState>
        )
      }
    />
  );
}

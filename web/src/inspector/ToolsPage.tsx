// The Tools page: a server's tools beside the selected one, both in the URL
// (`#/tools/<server>/<tool>`). Calls live in the calls store, so the list marks tools whose
// call is still running and leaving the page loses nothing. A tool whose definition breaks one
// of `mcplab check`'s rules carries a mark (toolMarks.ts), drawn in a corner every row keeps
// free, so the marks arriving after the list move nothing.
import { useState } from 'react';
import { CircleX, Loader, TriangleAlert } from 'lucide-react';
import type { Tool } from '../api/client';
import type { Finding } from '../api/types.gen';
import { useServerList } from '../api/queries';
import type { ListItem } from '../ui/ItemList';
import { EmptyState } from '../ui/States';
import { useRunningTools } from './calls';
import { useInspectorRoute } from './inspectorRoute';
import { ListCacheHint } from '../modern/ListCacheHint';
import { MasterDetail } from './MasterDetail';
import { NeedsServer } from './NeedsServer';
import { SearchableList } from './SearchableList';
import { ToolDetail } from './ToolDetail';
import { toolBadges } from './toolMeta';
import { toolMark, useToolMarks } from './toolMarks';
import './toolMarks.css';

export function ToolsPage() {
  const route = useInspectorRoute('tools');
  return <NeedsServer server={route.server}>{(server) => <Tools key={server} server={server} tool={route.item} select={route.select} />}</NeedsServer>;
}

const toolFields = (t: Tool) => [t.name, t.title, t.description];

function ToolMark({ findings }: { findings: Finding[] | undefined }) {
  const mark = toolMark(findings);
  if (!mark) return null;
  const Icon = mark.severity === 'error' ? CircleX : TriangleAlert;
  return (
    <span className={`tool-mark tool-mark-${mark.severity}`} role="img" aria-label={mark.label} title={mark.label} data-testid="tool-mark" data-severity={mark.severity}>
      <Icon size={14} aria-hidden="true" />
    </span>
  );
}

function toolItem(t: Tool, running: boolean, findings: Finding[] | undefined): ListItem {
  return {
    key: t.name,
    testId: `tool-item-${t.name}`,
    className: running ? 'tool-item running' : 'tool-item',
    content: (
      <>
        <ToolMark findings={findings} />
        <span className="item-top">
          <span className="item-name">
            {t.title ?? t.name}
            {running && <Loader size={12} className="spin" aria-label="call running" data-testid={`tool-running-${t.name}`} />}
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
  };
}

function Tools({ server, tool: selected, select }: { server: string; tool: string | null; select: (t: string | null) => void }) {
  const tools = useServerList(server, 'tools');
  const running = useRunningTools(server);
  const marks = useToolMarks(server);
  const [query, setQuery] = useState('');
  const tool = tools.data?.find((t) => t.name === selected) ?? null;

  const list = (
    <SearchableList
      list={tools}
      query={query}
      fields={toolFields}
      noun="tools"
      empty={{ noMatch: 'No tool matches', none: 'This server has no tools' }}
      label="Tools"
      selected={selected}
      onSelect={select}
      item={(t) => toolItem(t, running.has(t.name), marks.byTool?.get(t.name))}
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
          <ToolDetail key={tool.name} server={server} tool={tool} onSelect={select} checks={marks} />
        ) : selected && tools.data ? (
          <EmptyState page="tools" title={`${server} has no tool named ${selected}`} testId="tool-missing" />
        ) : (
          <EmptyState page="tools" title="Select a tool" testId="tool-none">
            Pick a tool on the left to see its schema and call it.
          </EmptyState>
        )
      }
    />
  );
}

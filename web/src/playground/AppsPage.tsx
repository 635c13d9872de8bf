// The Apps overview (`#/apps`): every tool with an app on every connected server, as cards —
// server, title and name, description, the app's flavour (MCP Apps, the OpenAI Apps SDK), its
// UI resource — filtered by text, each opening that tool in the Playground
// (`#/playground/<server>/<tool>`). What makes a tool an app is `apps/linkage.ts`'s `uiLink`,
// the rule the Playground and the Tools page's "Open in Playground" use; the lists are the
// shared `['list', server, 'tools']` queries. It runs nothing.
import { useQueries } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { ExternalLink } from 'lucide-react';
import { errorMessage, metaUi, type Tool } from '../api/client';
import { listQuery } from '../api/queries';
import { uiLink, type UiLink } from '../apps/linkage';
import { useServers } from '../servers/store';
import { routeHash } from '../ui/route';
import { SearchBox } from '../ui/SearchBox';
import { Loading } from '../ui/Spinner';
import { EmptyState, ErrorState } from '../ui/States';
import { Ticks } from '../ui/Ticks';
import { expectedFailure } from './defaultTool';
import './apps.css';

/** The MCP Apps specification (SEP-1865, stable 2026-01-26), as `reference/ui-protocols.md` names it. */
export const MCP_APPS_SPEC = 'https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx';

export interface AppTool {
  server: string;
  tool: Tool;
  link: UiLink;
  flavour: string;
}

/** How a card names the app's flavour, from the key `uiLink` found. */
export function flavour(tool: Tool, link: UiLink): string {
  if (link.kind === 'openaiWidget') return 'OpenAI Apps SDK';
  return typeof metaUi(tool._meta).resourceUri === 'string' ? 'MCP App' : 'MCP App (ui/resourceUri, deprecated)';
}

/** The app tools of `lists` (one per server, in the servers' order), those `filter` matches. */
export function appTools(lists: { server: string; tools: Tool[] | undefined }[], filter: string): AppTool[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const out: AppTool[] = [];
  for (const { server, tools } of lists) {
    for (const tool of tools ?? []) {
      const link = uiLink(tool);
      if (!link) continue;
      const app = { server, tool, link, flavour: flavour(tool, link) };
      const text = [server, tool.name, tool.title, tool.description, link.uri, app.flavour].join('\n').toLowerCase();
      if (words.every((w) => text.includes(w))) out.push(app);
    }
  }
  return out;
}

export function AppsPage() {
  const { list } = useServers();
  const [filter, setFilter] = useState('');
  const connected = useMemo(() => (list ?? []).filter((v) => v.status.state === 'connected').map((v) => v.config.name), [list]);
  const queries = useQueries({ queries: connected.map((name) => listQuery('tools', name)) });
  const lists = connected.map((server, i) => ({ server, tools: queries[i]?.data }));
  const apps = appTools(lists, filter);
  const all = filter ? appTools(lists, '').length : apps.length;
  const loading = queries.some((q) => q.isPending);
  const failed = connected.flatMap((server, i) => (queries[i]?.error ? [{ server, error: queries[i].error, retry: queries[i].refetch }] : []));
  const idle = (list ?? []).filter((v) => v.status.state !== 'connected').map((v) => v.config.name);

  return (
    <div className="page apps-page" data-testid="apps-page">
      <div className="page-head">
        <h1>Apps</h1>
        {all > 0 && <SearchBox value={filter} onChange={setFilter} placeholder="Filter apps" label="Filter apps" testId="apps-filter" />}
        {all > 0 && (
          <span className="small muted" data-testid="apps-count">
            {filter ? `${apps.length} of ${all}` : all} app {all === 1 ? 'tool' : 'tools'} on {connected.length} connected {connected.length === 1 ? 'server' : 'servers'}
          </span>
        )}
      </div>
      {idle.length > 0 && connected.length > 0 && (
        <p className="small muted">
          Not connected, so not listed: {idle.join(', ')} (<a href="#/servers">connect on Servers</a>).
        </p>
      )}
      {failed.map((f) => (
        <ErrorState key={f.server} title={`Could not list the tools of ${f.server}`} message={errorMessage(f.error)} onRetry={() => void f.retry()} />
      ))}
      {list && connected.length === 0 ? (
        <EmptyState page="apps" title="No connected server" testId="apps-no-server">
          Connect a server on the <a href="#/servers">Servers</a> page: its tools that have an app are listed here.
        </EmptyState>
      ) : all === 0 && loading ? (
        <Loading label="Listing the tools…" />
      ) : all === 0 ? (
        <NoApps />
      ) : apps.length === 0 ? (
        <EmptyState page="apps" title={`No app matches “${filter}”`} testId="apps-no-match" />
      ) : (
        <ul className="app-cards" aria-label="Apps">
          {apps.map((a) => (
            <AppCard key={`${a.server}\n${a.tool.name}`} app={a} />
          ))}
        </ul>
      )}
    </div>
  );
}

function NoApps() {
  return (
    <EmptyState page="apps" title="No tool with an app" testId="apps-empty">
      A tool is an app when its definition names a UI resource: <code>_meta.ui.resourceUri</code> (MCP Apps) or <code>openai/outputTemplate</code> (the OpenAI Apps SDK). The built-in demo server has several.{' '}
      <a href={MCP_APPS_SPEC} target="_blank" rel="noreferrer">
        The MCP Apps specification <ExternalLink size={12} aria-hidden="true" />
      </a>
    </EmptyState>
  );
}

function AppCard({ app }: { app: AppTool }) {
  const { server, tool, link } = app;
  const fails = expectedFailure(tool);
  return (
    <li>
      <a className="app-card" href={routeHash('playground', server, tool.name)} data-testid={`app-card-${server}-${tool.name}`} title={`Open ${tool.name} in the Playground`}>
        <span className="app-card-head">
          <span className="app-card-title">{tool.title ?? tool.name}</span>
          <span className={`badge ${link.kind === 'openaiWidget' ? 'badge-warn' : 'badge-info'}`}>{app.flavour}</span>
        </span>
        <span className="app-card-id mono small">{tool.title ? `${server} · ${tool.name}` : server}</span>
        {tool.description && (
          <span className="app-card-desc small">
            <Ticks text={tool.description} />
          </span>
        )}
        {fails && <span className="small app-card-fails">{fails === 'fails on purpose' ? 'Fails on purpose' : `Fails on purpose: ${fails}`}</span>}
        <span className="app-card-uri mono small muted">{link.uri}</span>
      </a>
    </li>
  );
}

import { useMemo, useState } from 'react';
import { api, type Resource, type ResourceTemplate } from '../api/client';
import { useServer } from '../servers/store';
import { Button } from '../ui/Button';
import { EmptyState, ErrorState } from '../ui/States';
import { Loading } from '../ui/Spinner';
import { NeedsServer } from './NeedsServer';
import { ResourceViewer } from './ResourceViewer';
import { TemplateForm } from './TemplateForm';
import { useServerList } from './useServerList';
import { cachedLoader } from '../modern/cacheInfo';
import { ListCacheHint } from '../modern/ListCacheHint';

const loadResources = cachedLoader<Resource>('resources', 'resources', 'resources');
const loadTemplates = (s: string) => api.resourceTemplates(s).then((r) => r.resourceTemplates ?? []);

type Selection = { kind: 'resource'; uri: string } | { kind: 'template'; template: ResourceTemplate } | null;

export function ResourcesPage() {
  return <NeedsServer>{(server) => <Resources key={server} server={server} />}</NeedsServer>;
}

function Resources({ server }: { server: string }) {
  const view = useServer(server);
  const caps = view?.info?.capabilities ?? {};
  const resources = useServerList<Resource>(server, 'resources', loadResources);
  const templates = useServerList<ResourceTemplate>(server, 'resources:templates', loadTemplates);
  const [query, setQuery] = useState('');
  const [sel, setSel] = useState<Selection>(null);

  const q = query.toLowerCase();
  const res = useMemo(
    () => (resources.data ?? []).filter((r) => !q || r.uri.toLowerCase().includes(q) || (r.name ?? '').toLowerCase().includes(q)),
    [resources.data, q],
  );
  const tpls = useMemo(
    () => (templates.data ?? []).filter((t) => !q || t.uriTemplate.toLowerCase().includes(q) || (t.name ?? '').toLowerCase().includes(q)),
    [templates.data, q],
  );

  if (!caps.resources) {
    return (
      <div className="page">
        <EmptyState title={`${server} does not offer resources`} testId="no-resources-capability">
          Its initialize result has no <code>resources</code> capability.
        </EmptyState>
      </div>
    );
  }

  return (
    <div className="page inspector" data-testid="resources-page">
      <aside className="side-list">
        <div className="side-list-head">
          <input type="search" placeholder="Search resources" value={query} onChange={(e) => setQuery(e.target.value)} data-testid="resource-search" aria-label="Search resources" />
          <Button small variant="ghost" onClick={() => { resources.reload(); templates.reload(); }} aria-label="Reload resources" data-testid="resources-reload">
            ↻
          </Button>
        </div>
        <ListCacheHint server={server} list="resources" reload={resources.reload} />
        <div className="list-section">Resources {resources.data && <span className="muted">({resources.data.length})</span>}</div>
        {resources.error ? (
          <ErrorState title="Could not list resources" message={resources.error} onRetry={resources.reload} />
        ) : !resources.data ? (
          <Loading />
        ) : res.length === 0 ? (
          <div className="muted small pad">{resources.data.length ? 'No match' : 'None'}</div>
        ) : (
          <ul className="items">
            {res.map((r) => (
              <li key={r.uri}>
                <button
                  type="button"
                  className={`item${sel?.kind === 'resource' && sel.uri === r.uri ? ' selected' : ''}`}
                  onClick={() => setSel({ kind: 'resource', uri: r.uri })}
                  data-testid={`resource-item-${r.uri}`}
                >
                  <span className="item-name">{r.title ?? r.name ?? r.uri}</span>
                  <span className="item-sub mono">{r.uri}</span>
                  {r.mimeType && <span className="item-sub">{r.mimeType}</span>}
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="list-section">Templates {templates.data && <span className="muted">({templates.data.length})</span>}</div>
        {templates.error ? (
          <ErrorState title="Could not list templates" message={templates.error} onRetry={templates.reload} />
        ) : !templates.data ? (
          <Loading />
        ) : tpls.length === 0 ? (
          <div className="muted small pad">{templates.data.length ? 'No match' : 'None'}</div>
        ) : (
          <ul className="items">
            {tpls.map((t) => (
              <li key={t.uriTemplate}>
                <button
                  type="button"
                  className={`item${sel?.kind === 'template' && sel.template.uriTemplate === t.uriTemplate ? ' selected' : ''}`}
                  onClick={() => setSel({ kind: 'template', template: t })}
                  data-testid={`template-item-${t.uriTemplate}`}
                >
                  <span className="item-name">{t.title ?? t.name ?? t.uriTemplate}</span>
                  <span className="item-sub mono">{t.uriTemplate}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </aside>
      <section className="detail">
        {sel?.kind === 'resource' ? (
          <ResourceViewer
            key={sel.uri}
            server={server}
            uri={sel.uri}
            resource={resources.data?.find((r) => r.uri === sel.uri)}
            canSubscribe={!!caps.resources?.subscribe}
          />
        ) : sel?.kind === 'template' ? (
          <TemplateForm
            key={sel.template.uriTemplate}
            server={server}
            template={sel.template}
            completions={!!caps.completions}
            canSubscribe={!!caps.resources?.subscribe}
          />
        ) : (
          <EmptyState title="Select a resource or a template" testId="resource-none" />
        )}
      </section>
    </div>
  );
}

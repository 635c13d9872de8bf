// The Resources page: a server's resources and templates beside the selected one, both in the
// URL (`#/resources/<server>/<uri or template>`). A resource opened by a click is read at
// once; one named by a typed or reloaded URL waits for "Read" (URLs never call anything).
import { useMemo, useState } from 'react';
import { useServerList } from '../api/queries';
import { useServer } from '../servers/store';
import { ItemList } from '../ui/ItemList';
import { EmptyState, ErrorState } from '../ui/States';
import { Loading } from '../ui/Spinner';
import { useInspectorRoute, userIntended } from './inspectorRoute';
import { ListCacheHint } from '../modern/ListCacheHint';
import { MasterDetail } from './MasterDetail';
import { NeedsServer } from './NeedsServer';
import { ResourceViewer } from './ResourceViewer';
import { TemplateForm } from './TemplateForm';

export function ResourcesPage() {
  const route = useInspectorRoute('resources');
  return <NeedsServer server={route.server}>{(server) => <Resources key={server} server={server} item={route.item} select={route.select} />}</NeedsServer>;
}

function Resources({ server, item, select }: { server: string; item: string | null; select: (i: string | null) => void }) {
  const view = useServer(server);
  const caps = view?.info?.capabilities ?? {};
  const resources = useServerList(caps.resources ? server : null, 'resources');
  const templates = useServerList(caps.resources ? server : null, 'resourceTemplates');
  const [query, setQuery] = useState('');

  const q = query.toLowerCase();
  const res = useMemo(
    () => (resources.data ?? []).filter((r) => !q || r.uri.toLowerCase().includes(q) || (r.name ?? '').toLowerCase().includes(q) || (r.title ?? '').toLowerCase().includes(q)),
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

  const template = item ? templates.data?.find((t) => t.uriTemplate === item) : undefined;
  const list = (
    <>
      <div className="list-section">Resources {resources.data && <span className="muted">({resources.data.length})</span>}</div>
      {resources.error ? (
        <ErrorState title="Could not list resources" message={resources.error} onRetry={resources.reload} />
      ) : !resources.data ? (
        <Loading />
      ) : res.length === 0 ? (
        <div className="muted small pad">{resources.data.length ? 'No match' : 'None'}</div>
      ) : (
        <ItemList
          label="Resources"
          selected={template ? null : item}
          onSelect={select}
          items={res.map((r) => ({
            key: r.uri,
            testId: `resource-item-${r.uri}`,
            content: (
              <>
                <span className="item-name">{r.title ?? r.name ?? r.uri}</span>
                <span className="item-sub mono">{r.uri}</span>
                {r.mimeType && <span className="item-sub">{r.mimeType}</span>}
              </>
            ),
          }))}
        />
      )}
      <div className="list-section">Templates {templates.data && <span className="muted">({templates.data.length})</span>}</div>
      {templates.error ? (
        <ErrorState title="Could not list templates" message={templates.error} onRetry={templates.reload} />
      ) : !templates.data ? (
        <Loading />
      ) : tpls.length === 0 ? (
        <div className="muted small pad">{templates.data.length ? 'No match' : 'None'}</div>
      ) : (
        <ItemList
          label="Resource templates"
          selected={template ? item : null}
          onSelect={select}
          items={tpls.map((t) => ({
            key: t.uriTemplate,
            testId: `template-item-${t.uriTemplate}`,
            content: (
              <>
                <span className="item-name">{t.title ?? t.name ?? t.uriTemplate}</span>
                <span className="item-sub mono">{t.uriTemplate}</span>
              </>
            ),
          }))}
        />
      )}
    </>
  );

  return (
    <MasterDetail
      testId="resources-page"
      hasSelection={!!item}
      search={{ value: query, onChange: setQuery, placeholder: 'Search resources', label: 'Search resources', testId: 'resource-search' }}
      onReload={() => {
        resources.reload();
        templates.reload();
      }}
      reloadLabel="Reload resources"
      onBack={() => select(null)}
      backLabel="All resources"
      head={<ListCacheHint server={server} list="resources" reload={resources.reload} />}
      list={list}
      detail={
        template ? (
          <TemplateForm key={template.uriTemplate} server={server} template={template} completions={!!caps.completions} canSubscribe={!!caps.resources?.subscribe} />
        ) : item && !templates.data && !templates.error ? (
          <Loading />
        ) : item ? (
          <ResourceViewer
            key={item}
            server={server}
            uri={item}
            resource={resources.data?.find((r) => r.uri === item)}
            canSubscribe={!!caps.resources?.subscribe}
            autoRead={userIntended('resources', server, item)}
          />
        ) : (
          <EmptyState title="Select a resource or a template" testId="resource-none" />
        )
      }
    />
  );
}

// The Resources page: a server's resources and templates beside the selected one, both in the
// URL (`#/resources/<server>/<uri or template>`). A resource opened by a click is read at
// once; one named by a typed or reloaded URL waits for "Read" (URLs never call anything).
import { useState } from 'react';
import type { Resource, ResourceTemplate } from '../api/client';
import { useServerList } from '../api/queries';
import { useServer } from '../servers/store';
import type { ListItem } from '../ui/ItemList';
import { EmptyState } from '../ui/States';
import { Loading } from '../ui/Spinner';
import { useInspectorRoute, userIntended } from './inspectorRoute';
import { ListCacheHint } from '../modern/ListCacheHint';
import { MasterDetail } from './MasterDetail';
import { MissingCapability, NeedsServer } from './NeedsServer';
import { ResourceViewer } from './ResourceViewer';
import { SearchableList } from './SearchableList';
import { TemplateForm } from './TemplateForm';

export function ResourcesPage() {
  const route = useInspectorRoute('resources');
  return <NeedsServer server={route.server}>{(server) => <Resources key={server} server={server} item={route.item} select={route.select} />}</NeedsServer>;
}

const NONE = { noMatch: 'No match', none: 'None' };
const resourceFields = (r: Resource) => [r.uri, r.name, r.title];
const templateFields = (t: ResourceTemplate) => [t.uriTemplate, t.name];

function resourceItem(r: Resource): ListItem {
  return {
    key: r.uri,
    testId: `resource-item-${r.uri}`,
    content: (
      <>
        <span className="item-name">{r.title ?? r.name ?? r.uri}</span>
        <span className="item-sub mono">{r.uri}</span>
        {r.mimeType && <span className="item-sub">{r.mimeType}</span>}
      </>
    ),
  };
}

function templateItem(t: ResourceTemplate): ListItem {
  return {
    key: t.uriTemplate,
    testId: `template-item-${t.uriTemplate}`,
    content: (
      <>
        <span className="item-name">{t.title ?? t.name ?? t.uriTemplate}</span>
        <span className="item-sub mono">{t.uriTemplate}</span>
      </>
    ),
  };
}

function Resources({ server, item, select }: { server: string; item: string | null; select: (i: string | null) => void }) {
  const view = useServer(server);
  const caps = view?.info?.capabilities ?? {};
  const resources = useServerList(caps.resources ? server : null, 'resources');
  const templates = useServerList(caps.resources ? server : null, 'resourceTemplates');
  const [query, setQuery] = useState('');

  if (!caps.resources) return <MissingCapability server={server} capability="resources" />;

  const template = item ? templates.data?.find((t) => t.uriTemplate === item) : undefined;
  const list = (
    <>
      <div className="list-section">Resources {resources.data && <span className="muted">({resources.data.length})</span>}</div>
      <SearchableList
        list={resources}
        query={query}
        fields={resourceFields}
        noun="resources"
        empty={NONE}
        compact
        label="Resources"
        selected={template ? null : item}
        onSelect={select}
        item={resourceItem}
      />
      <div className="list-section">Templates {templates.data && <span className="muted">({templates.data.length})</span>}</div>
      <SearchableList
        list={templates}
        query={query}
        fields={templateFields}
        noun="templates"
        empty={NONE}
        compact
        label="Resource templates"
        selected={template ? item : null}
        onSelect={select}
        item={templateItem}
      />
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
          <EmptyState page="resources" title="Select a resource or a template" testId="resource-none" />
        )
      }
    />
  );
}

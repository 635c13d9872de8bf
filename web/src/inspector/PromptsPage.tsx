// The Prompts page: a server's prompts beside the selected one, both in the URL
// (`#/prompts/<server>/<name>`).
import { useMemo, useState } from 'react';
import { useServerList } from '../api/queries';
import { useServer } from '../servers/store';
import { ItemList } from '../ui/ItemList';
import { EmptyState, ErrorState } from '../ui/States';
import { Loading } from '../ui/Spinner';
import { useInspectorRoute } from './inspectorRoute';
import { ListCacheHint } from '../modern/ListCacheHint';
import { MasterDetail } from './MasterDetail';
import { NeedsServer } from './NeedsServer';
import { PromptDetail } from './PromptDetail';

export function PromptsPage() {
  const route = useInspectorRoute('prompts');
  return <NeedsServer server={route.server}>{(server) => <Prompts key={server} server={server} selected={route.item} select={route.select} />}</NeedsServer>;
}

function Prompts({ server, selected, select }: { server: string; selected: string | null; select: (p: string | null) => void }) {
  const view = useServer(server);
  const caps = view?.info?.capabilities ?? {};
  const prompts = useServerList(caps.prompts ? server : null, 'prompts');
  const [query, setQuery] = useState('');
  const filtered = useMemo(() => {
    const q = query.toLowerCase();
    return (prompts.data ?? []).filter((p) => !q || p.name.toLowerCase().includes(q) || (p.title ?? '').toLowerCase().includes(q) || (p.description ?? '').toLowerCase().includes(q));
  }, [prompts.data, query]);
  const prompt = prompts.data?.find((p) => p.name === selected);

  if (!caps.prompts) {
    return (
      <div className="page">
        <EmptyState title={`${server} does not offer prompts`} testId="no-prompts-capability">
          Its initialize result has no <code>prompts</code> capability.
        </EmptyState>
      </div>
    );
  }

  const list = prompts.error ? (
    <ErrorState title="Could not list prompts" message={prompts.error} onRetry={prompts.reload} />
  ) : !prompts.data ? (
    <Loading />
  ) : filtered.length === 0 ? (
    <EmptyState title={prompts.data.length ? 'No prompt matches' : 'This server has no prompts'} />
  ) : (
    <ItemList
      label="Prompts"
      selected={selected}
      onSelect={select}
      items={filtered.map((p) => ({
        key: p.name,
        testId: `prompt-item-${p.name}`,
        content: (
          <>
            <span className="item-name">{p.title ?? p.name}</span>
            {p.arguments?.length ? <span className="item-sub">{p.arguments.map((a) => a.name + (a.required ? '*' : '')).join(', ')}</span> : null}
            {p.description && <span className="item-desc">{p.description}</span>}
          </>
        ),
      }))}
    />
  );

  return (
    <MasterDetail
      testId="prompts-page"
      hasSelection={!!selected}
      search={{ value: query, onChange: setQuery, placeholder: 'Search prompts', label: 'Search prompts', testId: 'prompt-search' }}
      onReload={prompts.reload}
      reloadLabel="Reload prompts"
      onBack={() => select(null)}
      backLabel="All prompts"
      head={<ListCacheHint server={server} list="prompts" reload={prompts.reload} />}
      list={list}
      detail={
        prompt ? (
          <PromptDetail key={prompt.name} server={server} prompt={prompt} completions={!!caps.completions} />
        ) : selected && prompts.data ? (
          <EmptyState title={`${server} has no prompt named ${selected}`} testId="prompt-missing" />
        ) : (
          <EmptyState title="Select a prompt" testId="prompt-none" />
        )
      }
    />
  );
}

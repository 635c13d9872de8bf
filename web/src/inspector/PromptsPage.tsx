// The Prompts page: a server's prompts beside the selected one, both in the URL
// (`#/prompts/<server>/<name>`).
import { useState } from 'react';
import type { Prompt } from '../api/client';
import { useServerList } from '../api/queries';
import { useServer } from '../servers/store';
import type { ListItem } from '../ui/ItemList';
import { EmptyState } from '../ui/States';
import { useInspectorRoute } from './inspectorRoute';
import { ListCacheHint } from '../modern/ListCacheHint';
import { MasterDetail } from './MasterDetail';
import { MissingCapability, NeedsServer } from './NeedsServer';
import { PromptDetail } from './PromptDetail';
import { SearchableList } from './SearchableList';

export function PromptsPage() {
  const route = useInspectorRoute('prompts');
  return <NeedsServer server={route.server}>{(server) => <Prompts key={server} server={server} selected={route.item} select={route.select} />}</NeedsServer>;
}

const promptFields = (p: Prompt) => [p.name, p.title, p.description];

function promptItem(p: Prompt): ListItem {
  return {
    key: p.name,
    testId: `prompt-item-${p.name}`,
    content: (
      <>
        <span className="item-name">{p.title ?? p.name}</span>
        {p.arguments?.length ? <span className="item-sub">{p.arguments.map((a) => a.name + (a.required ? '*' : '')).join(', ')}</span> : null}
        {p.description && <span className="item-desc">{p.description}</span>}
      </>
    ),
  };
}

function Prompts({ server, selected, select }: { server: string; selected: string | null; select: (p: string | null) => void }) {
  const view = useServer(server);
  const caps = view?.info?.capabilities ?? {};
  const prompts = useServerList(caps.prompts ? server : null, 'prompts');
  const [query, setQuery] = useState('');
  const prompt = prompts.data?.find((p) => p.name === selected);

  if (!caps.prompts) return <MissingCapability server={server} capability="prompts" />;

  const list = (
    <SearchableList
      list={prompts}
      query={query}
      fields={promptFields}
      noun="prompts"
      empty={{ noMatch: 'No prompt matches', none: 'This server has no prompts' }}
      label="Prompts"
      selected={selected}
      onSelect={select}
      item={promptItem}
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
          <EmptyState page="prompts" title={`${server} has no prompt named ${selected}`} testId="prompt-missing" />
        ) : (
          <EmptyState page="prompts" title="Select a prompt" testId="prompt-none" />
        )
      }
    />
  );
}

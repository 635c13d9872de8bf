// The chat playground (`#/chat`, `#/chat/<sessionId>`): sessions on the left, the open
// session in the middle (settings, messages, composer); the traffic panel stays beside it.
// Narrow windows give the conversation the height: the sessions and the settings are drawers
// behind two buttons in a bar above it (the session list closes once a chat is picked).
import './chat.css';
import { useEffect, useRef, useState } from 'react';
import { errorMessage, api } from '../api/client';
import type { HostConfig, ProviderView, SessionSummary } from '../api/types.gen';
import { useServers } from '../servers/store';
import { serverNames } from './hostConfig';
import { getPref, setPref } from '../settings/prefs';
import { Button } from '../ui/Button';
import { EmptyState, ErrorState } from '../ui/States';
import { Loading } from '../ui/Spinner';
import { navigate, useRouteArg, useRouteArgs } from '../ui/route';
import { CHAT_DRAWERS_QUERY, useMediaQuery } from '../ui/useMediaQuery';
import { ChatDrawerBar } from './ChatDrawerBar';
import { ComparePane } from './ComparePane';
import { CompareStart } from './CompareStart';
import { AppHostConditions } from './AppHostConditions';
import { Composer } from './Composer';
import { AppContextBar } from './AppContextBar';
import { ChatAppsContext } from './appsContext';
import { Conversation } from './Conversation';
import { SessionList } from './SessionList';
import { SettingsBar } from './SettingsBar';
import { defaultModel, useChatCache, useProviders, useSessions } from './store';
import { useChatSession } from './useChatSession';
import { SaveAsCase } from '../evals/SaveAsCase';

function open(id: string | null, replace = false): void {
  if (id) setPref('chatSession', id);
  if (replace) window.location.replace(id ? `#/chat/${encodeURIComponent(id)}` : '#/chat');
  else navigate('chat', id);
}

export function ChatPage() {
  const arg = useRouteArg();
  const args = useRouteArgs();
  const compare = arg === 'compare' ? args.slice(1) : null;
  const sessions = useSessions();
  const providers = useProviders();
  const { list: servers } = useServers();
  const [creating, setCreating] = useState(false);
  const [createError, setCreateError] = useState<string | null>(null);
  const cache = useChatCache();
  const narrow = useMediaQuery(CHAT_DRAWERS_QUERY);
  // A drawer belongs to the chat it was opened on: opening another chat (or a compare) closes it.
  const [opened, setOpened] = useState<{ drawer: 'sessions' | 'settings'; at: string } | null>(null);
  const at = args.join('/');
  const drawer = opened?.at === at ? opened.drawer : null;
  const setDrawer = (d: 'sessions' | 'settings' | null) => setOpened(d ? { drawer: d, at } : null);

  // `#/chat` opens the last used session (or the newest). The hash is checked again because
  // this page can see a hash change (to another page) before the shell unmounts it.
  useEffect(() => {
    if (arg || !sessions.list?.length || !/^#\/?chat\/?$/.test(window.location.hash)) return;
    const last = getPref<string | null>('chatSession', null);
    open(sessions.list.some((s) => s.id === last) ? last : sessions.list[0].id, true);
  }, [arg, sessions.list]);

  const create = async () => {
    setCreating(true);
    setCreateError(null);
    const connected = (servers ?? []).filter((v) => v.status.state === 'connected');
    const hostConfig: Partial<HostConfig> = {
      model: defaultModel(providers.list, getPref<string | null>('chatModel', null)),
      servers: Object.fromEntries(connected.map((v) => [v.config.name, { allow: null, deny: [] }])),
    };
    try {
      const view = await api.createSession({ hostConfig });
      cache.upsertSession(view.summary);
      setDrawer(null);
      open(view.summary.id);
    } catch (e) {
      setCreateError(errorMessage(e));
    } finally {
      setCreating(false);
    }
  };

  const noModel = providers.list !== null && !providers.list.some((p) => p.usable);
  return (
    <div className={`chat-page${narrow ? ' chat-narrow' : ''}`} data-testid="chat-page">
      {(!narrow || drawer === 'sessions') && (
        <SessionList
          selected={arg}
          comparing={compare}
          onNew={create}
          onSelect={(id) => {
            setDrawer(null);
            open(id);
          }}
          creating={creating}
          onDeleted={(id) => (id === arg || compare?.includes(id)) && open(null, true)}
          onClose={narrow ? () => setDrawer(null) : undefined}
        />
      )}
      <section className="chat-main">
        {narrow && <ChatDrawerBar drawer={drawer} onDrawer={setDrawer} settings={!!arg && !compare} />}
        {createError && (
          <div className="inline-error" role="alert" data-testid="chat-create-error">
            Could not start a chat: {createError}
          </div>
        )}
        {noModel && <NoModel providers={providers.list ?? []} />}
        {providers.error && !providers.list && <div className="inline-error small">Could not load model providers: {providers.error}</div>}
        {compare ? (
          <ComparePane key={compare.join('/')} ids={compare} />
        ) : arg ? (
          <SessionPane key={arg} id={arg} providers={providers.list ?? []} noModel={noModel} showSettings={!narrow || drawer === 'settings'} />
        ) : sessions.list && sessions.list.length === 0 ? (
          <EmptyState page="chat" title="No chats yet" testId="chat-empty">
            <p>Chat with a model that can call the tools of your connected servers.</p>
            <Button variant="primary" onClick={create} busy={creating}>
              + New chat
            </Button>
          </EmptyState>
        ) : (
          !sessions.error && <Loading />
        )}
      </section>
    </div>
  );
}

/** Why no model can run, and how to add one; the per-provider reasons are folded (at every
 * width) so the conversation under it keeps most of the height, each naming its Settings row. */
function NoModel({ providers }: { providers: ProviderView[] }) {
  return (
    <div className="chat-no-model" data-testid="chat-no-model" role="note">
      <strong>No model provider is usable yet.</strong>
      <p className="small">
        Set an API key in the environment before starting mcplab (for example <code>OPENAI_API_KEY</code>, <code>ANTHROPIC_API_KEY</code>, <code>GEMINI_API_KEY</code>; a base URL with <code>OPENAI_BASE_URL</code> …), or add a key or a custom OpenAI-/Anthropic-compatible endpoint in{' '}
        <a href="#/settings">Settings → Model providers</a>.
      </p>
      {providers.length > 0 && (
        <details className="small muted" data-testid="chat-no-model-reasons">
          <summary>Each provider and why it is not usable ({providers.length})</summary>
          <ul>
            {providers.map((p) => (
              <li key={p.id}>
                <a href={`#/settings/${encodeURIComponent(p.id)}`}>
                  <strong>{p.displayName}</strong>
                </a>
                : {p.reason ?? 'not usable'}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

export function SessionPane({ id, providers, noModel, showSettings = true }: { id: string; providers: ProviderView[]; noModel: boolean; showSettings?: boolean }) {
  const chat = useChatSession(id);
  const { list: configured } = useServers();
  const [settingsError, setSettingsError] = useState<string | null>(null);
  const saving = useRef<{ busy: boolean; next: HostConfig | null }>({ busy: false, next: null });
  const cache = useChatCache();

  if (chat.loading) return <Loading label="Loading the chat…" />;
  if (chat.error && !chat.summary) {
    return chat.notFound ? (
      <EmptyState page="chat" title="This chat no longer exists" testId="chat-not-found">
        <a href="#/chat">Back to the chats</a>
      </EmptyState>
    ) : (
      <ErrorState title="Could not load the chat" message={chat.error} onRetry={chat.reload} />
    );
  }
  const summary = chat.summary;
  if (!summary) return null;

  // Shown at once; saved one PATCH at a time, always the latest config, so a reply to an
  // older change never overwrites a newer one (here or on the server).
  const changeHost = (hostConfig: HostConfig) => {
    setSettingsError(null);
    chat.setSummary({ ...summary, hostConfig });
    saving.current.next = hostConfig;
    if (!saving.current.busy) void flushHost(summary);
  };
  const flushHost = async (before: SessionSummary) => {
    const q = saving.current;
    q.busy = true;
    let confirmed = before;
    while (q.next) {
      const next = q.next;
      q.next = null;
      try {
        confirmed = await cache.updateHostConfig(id, next);
      } catch (e) {
        setSettingsError(errorMessage(e));
      }
    }
    q.busy = false;
    chat.setSummary(confirmed);
  };

  const host = summary.hostConfig;
  const servers = serverNames(host, (configured ?? []).map((v) => v.config.name));
  const running = chat.running !== null;
  const disabledReason = noModel ? 'Add a model provider first (see above).' : !host.model ? 'Choose a model above first.' : null;
  return (
    <div className="chat-session" data-testid="chat-session" data-session-id={id} data-host-hash={summary.hostHash}>
      {showSettings ? (
        <SettingsBar key={id} config={host} hash={summary.hostHash} providers={providers} onChange={changeHost} error={settingsError} actions={<CompareStart host={host} providers={providers} discard={chat.turns.length === 0 ? id : undefined} />} />
      ) : (
        settingsError && (
          <div className="inline-error small" role="alert" data-testid="chat-settings-error">
            Could not save settings: {settingsError}
          </div>
        )
      )}
      {chat.turns.length === 0 ? (
        <div className="chat-scroll">
          <EmptyState page="chat" title={summary.title || 'New chat'} testId="chat-start">
            {servers.length ? `The model can call the tools of: ${servers.join(', ')}.` : 'No servers chosen: the model gets no tools. Tick servers above to give it theirs.'}
          </EmptyState>
        </div>
      ) : (
        <ChatAppsContext.Provider value={{ sessionId: id, followUp: chat.followUp, appContext: chat.appContext }}>
          <AppHostConditions profile={host.appHost} mcpApps={host.client?.mcpApps ?? true}>
            <Conversation turns={chat.turns} onRetry={(t) => void chat.send(t.user, t.turnId)} canRetry={!running && disabledReason === null} sessionId={chat.summary?.id} />
          </AppHostConditions>
        </ChatAppsContext.Provider>
      )}
      {chat.turns.length > 0 && !running && <SaveAsCase sessionId={id} />}
      <AppContextBar sessionId={id} entries={chat.appContext} queued={chat.queued} />
      {chat.stream === 'reconnecting' && <div className="chat-note small muted" data-testid="chat-stream-reconnecting">Reconnecting to the live stream…</div>}
      {chat.actionError && (
        <div className="inline-error small" role="alert" data-testid="chat-action-error">
          {chat.actionError}
        </div>
      )}
      <Composer running={running} disabledReason={disabledReason} onSend={(t) => void chat.send(t)} onStop={chat.cancel} />
    </div>
  );
}

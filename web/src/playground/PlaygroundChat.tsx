// The playground's chat mode: a chat session with the chosen server's tools, remembered per
// server, whose apps render under the playground's emulation (the page provides the
// conditions through `HostConditionsContext`).
import { useEffect, useState } from 'react';
import { api, errorMessage } from '../api/client';
import type { ChatSettings } from '../api/types.gen';
import { SessionPane } from '../chat/ChatPage';
import { defaultModel, useChatCache, useProviders } from '../chat/store';
import { getPref, setPref } from '../settings/prefs';

export function PlaygroundChat({ server }: { server: string }) {
  const providers = useProviders();
  const [id, setId] = useState<string | null>(() => getPref<string | null>(`playgroundChat:${server}`, null));
  const [error, setError] = useState<string | null>(null);
  const cache = useChatCache();
  useEffect(() => {
    if (id || !providers.list) return;
    const settings: ChatSettings = { model: defaultModel(providers.list, getPref<string | null>('chatModel', null)), servers: [server] };
    api.createSession({ title: `Playground · ${server}`, settings }).then(
      (view) => {
        cache.upsertSession(view.summary);
        setPref(`playgroundChat:${server}`, view.summary.id);
        setId(view.summary.id);
      },
      (e) => setError(errorMessage(e)),
    );
  }, [id, providers.list, server, cache]);
  if (error) return <div className="inline-error small">Could not start a chat: {error}</div>;
  if (!id) return <div className="muted small">Starting a chat…</div>;
  const noModel = providers.list !== null && !providers.list.some((p) => p.usable);
  return (
    <div className="pg-chat" data-testid="pg-chat">
      <SessionPane key={id} id={id} providers={providers.list ?? []} noModel={noModel} />
    </div>
  );
}

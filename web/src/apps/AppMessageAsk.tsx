// The question an app's message waits on before it becomes a chat turn: shown inside the
// app's own frame (so it is plainly the app speaking), with the exact text, and three answers:
// send it, send it and let this app post without asking for the rest of the session, or
// don't. `useAppMessages` also runs the whole decision (channel limits, one question at a
// time per frame) so MCP Apps, widgets and MCP-UI resources behave the same.
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { Button } from '../ui/Button';
import type { AppIdentity, AppMessageChannel } from './appMessages';

type Answer = 'send' | 'always' | 'decline';

interface Pending {
  app: AppIdentity;
  text: string;
  resolve: (a: Answer) => void;
}

function AppMessageAsk({ pending, onAnswer }: { pending: Pending; onAnswer: (a: Answer) => void }) {
  return (
    <div className="app-message-ask small" data-testid="app-message-ask" role="alertdialog" aria-label="Message from the app">
      <div>
        The app <code>{pending.app.uri}</code> of server <strong>{pending.app.server}</strong> wants to send this to the chat as the next
        message:
      </div>
      <blockquote className="app-message-text" data-testid="app-message-text">
        {pending.text}
      </blockquote>
      <div className="app-message-actions">
        <Button small variant="primary" onClick={() => onAnswer('send')} data-testid="app-message-send">
          Send
        </Button>
        <Button small onClick={() => onAnswer('always')} data-testid="app-message-always">
          Send, and allow this app for this chat
        </Button>
        <Button small variant="ghost" onClick={() => onAnswer('decline')} data-testid="app-message-decline">
          Don't send
        </Button>
      </div>
    </div>
  );
}

export type AppMessageOutcome = { sent: true } | { sent: false; why: string };

/** The question to render (or null) and `post`, which decides and delivers one app message. */
export function useAppMessages(): [ReactNode, (channel: AppMessageChannel, app: AppIdentity, text: string) => Promise<AppMessageOutcome>] {
  const [pending, setPending] = useState<Pending | null>(null);
  // A ref, not state: the bridge's handler keeps the first `post` it was given.
  const busy = useRef(false);
  const post = useCallback(
    async (channel: AppMessageChannel, app: AppIdentity, text: string): Promise<AppMessageOutcome> => {
      if (busy.current) return { sent: false, why: 'The app already waits for an answer about another message.' };
      const refused = channel.admit(app, text);
      if (refused) return { sent: false, why: refused };
      if (!channel.allowed(app)) {
        busy.current = true;
        const answer = await new Promise<Answer>((resolve) => setPending({ app, text, resolve }));
        setPending(null);
        busy.current = false;
        if (answer === 'decline') return { sent: false, why: 'The user did not send the message.' };
        if (answer === 'always') channel.allow(app);
      }
      try {
        await channel.send(app, text);
        return { sent: true };
      } catch (e) {
        return { sent: false, why: e instanceof Error ? e.message : String(e) };
      }
    },
    [],
  );
  const element = pending && <AppMessageAsk pending={pending} onAnswer={(a) => pending.resolve(a)} />;
  return [element, post];
}

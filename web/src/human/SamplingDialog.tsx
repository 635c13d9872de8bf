// sampling/createMessage answered by a person: the server's messages are shown, the person
// writes the assistant reply, and it is returned as a CreateMessageResult.
import { useState } from 'react';
import type { CreateMessageRequestParams } from '../api/client';
import { Button } from '../ui/Button';
import { Modal } from '../ui/Modal';
import { ContentView } from '../inspector/ContentView';
import { RequestMeta } from './HumanDialogs';
import { useHumanAnswer, type PendingHuman } from './store';

/** A number that went through an f32 (0.7 → 0.699999988079071) shown as it was written. */
export function shortFloat(n: number): string {
  for (let digits = 1; digits <= 9; digits++) {
    const s = n.toPrecision(digits);
    if (Math.fround(Number(s)) === Math.fround(n)) return String(Number(s));
  }
  return String(n);
}

export function samplingResult(text: string) {
  return { role: 'assistant', content: { type: 'text', text }, model: 'human', stopReason: 'endTurn' };
}

export function SamplingDialog({ pending, queued }: { pending: PendingHuman; queued: number }) {
  const params = (pending.request.params ?? {}) as CreateMessageRequestParams;
  const messages = Array.isArray(params.messages) ? params.messages : [];
  const [text, setText] = useState('');
  const { busy, error, send } = useHumanAnswer(pending.request.id);

  const accept = () => void send({ action: 'accept', content: samplingResult(text) });

  return (
    <Modal
      wide
      title="The server asks for an LLM completion"
      testId="sampling-dialog"
      onCancel={() => void send({ action: 'decline' })}
      footer={
        <>
          <Button onClick={() => void send({ action: 'decline' })} disabled={busy} data-testid="sampling-decline">
            Decline
          </Button>
          <Button variant="primary" onClick={accept} busy={busy} disabled={!text.trim()} data-testid="sampling-accept">
            Send reply
          </Button>
        </>
      }
    >
      <RequestMeta pending={pending} queued={queued} />
      <div className="kv small">
        {params.maxTokens !== undefined && (
          <span>
            maxTokens <strong>{String(params.maxTokens)}</strong>
          </span>
        )}
        {params.temperature !== undefined && (
          <span>
            temperature <strong>{typeof params.temperature === 'number' ? shortFloat(params.temperature) : String(params.temperature)}</strong>
          </span>
        )}
        {params.includeContext && (
          <span>
            includeContext <strong>{String(params.includeContext)}</strong>
          </span>
        )}
        {!!params.modelPreferences?.hints?.length && (
          <span>
            model hints <strong>{params.modelPreferences.hints.map((h) => h?.name).join(', ')}</strong>
          </span>
        )}
      </div>
      {typeof params.systemPrompt === 'string' && params.systemPrompt && (
        <div className="message role-system" data-testid="sampling-system">
          <div className="message-role">system</div>
          <pre className="wrap">{params.systemPrompt}</pre>
        </div>
      )}
      <div className="messages" data-testid="sampling-messages">
        {messages.map((m, i) => (
          <div key={i} className={`message role-${m?.role}`}>
            <div className="message-role">{String(m?.role)}</div>
            <ContentView content={m?.content} />
          </div>
        ))}
        {messages.length === 0 && <div className="muted small">No messages.</div>}
      </div>
      <label className="field">
        <span className="field-label">Your reply (as the assistant)</span>
        <textarea
          rows={5}
          value={text}
          onChange={(e) => setText(e.target.value)}
          data-testid="sampling-reply"
          data-autofocus
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && text.trim()) accept();
          }}
        />
      </label>
      {error && (
        <div className="inline-error" role="alert">
          {error}
        </div>
      )}
    </Modal>
  );
}

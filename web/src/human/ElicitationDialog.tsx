// elicitation/create: form mode (a form generated from requestedSchema; an answer the schema
// refuses can be sent anyway) or URL mode (the URL is shown and opened only on an explicit
// click, in a new tab without an opener).
import { useRef, useState } from 'react';
import type { ElicitRequestParams } from '../api/client';
import type { JsonValue } from '../api/types.gen';
import { Button } from '../ui/Button';
import { Markdown } from '../ui/Markdown';
import { Modal } from '../ui/Modal';
import { SchemaForm, type SchemaFormHandle } from '../ui/SchemaForm';
import { RequestMeta } from './HumanDialogs';
import { useHumanAnswer, type PendingHuman } from './store';

function safeUrl(u: unknown): URL | null {
  if (typeof u !== 'string') return null;
  try {
    const url = new URL(u);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

export function ElicitationDialog({ pending, queued }: { pending: PendingHuman; queued: number }) {
  const params = (pending.request.params ?? {}) as ElicitRequestParams;
  const isUrl = params.mode === 'url';
  const formRef = useRef<SchemaFormHandle>(null);
  const { busy, error, send } = useHumanAnswer(pending.request.id);
  const [opened, setOpened] = useState(false);
  // The form refused the answer: offer to send it as typed (to test the server's own checks).
  const [rejected, setRejected] = useState(false);
  const url = isUrl ? safeUrl(params.url) : null;


  const accept = () => {
    if (isUrl) return send({ action: 'accept', content: {} });
    const value = formRef.current?.submit();
    setRejected(!value);
    if (value) void send({ action: 'accept', content: value as JsonValue });
  };
  const sendAnyway = () => {
    const v = formRef.current?.current();
    if (v?.ok) void send({ action: 'accept', content: v.value as JsonValue });
  };

  return (
    <Modal
      title={isUrl ? 'The server asks you to open a URL' : 'The server asks for input'}
      testId="elicitation-dialog"
      onCancel={() => void send({ action: 'cancel' })}
      footer={
        <>
          {rejected && !isUrl && (
            <Button onClick={sendAnyway} disabled={busy} data-testid="elicitation-send-anyway" title="Send the answer although it does not match the requested schema">
              Send anyway
            </Button>
          )}
          <Button variant="ghost" onClick={() => void send({ action: 'cancel' })} disabled={busy} data-testid="elicitation-cancel">
            Cancel
          </Button>
          <Button onClick={() => void send({ action: 'decline' })} disabled={busy} data-testid="elicitation-decline">
            Decline
          </Button>
          <Button variant="primary" onClick={accept} busy={busy} data-testid="elicitation-accept">
            {isUrl ? 'Done' : 'Accept'}
          </Button>
        </>
      }
    >
      <RequestMeta pending={pending} queued={queued} />
      {typeof params.message === 'string' && <Markdown text={params.message} testId="elicitation-message" />}
      {isUrl ? (
        <div className="url-box">
          {url ? (
            <>
              <div className="small muted">The server wants you to visit:</div>
              <div className="url-host">{url.host}</div>
              <code className="url-full" data-testid="elicitation-url">
                {url.href}
              </code>
              <Button
                onClick={() => {
                  window.open(url.href, '_blank', 'noopener,noreferrer');
                  setOpened(true);
                }}
                data-testid="elicitation-open-url"
              >
                {opened ? 'Open again' : `Open ${url.host} in a new tab`}
              </Button>
              <div className="small muted">Nothing is opened until you click. Choose Done when you have finished there.</div>
            </>
          ) : (
            <div className="inline-error">
              The URL is missing or not http(s): <code>{String(params.url)}</code>
            </div>
          )}
        </div>
      ) : (
        <SchemaForm ref={formRef} schema={params.requestedSchema} allowRaw={false} testId="elicitation-form" onSubmitShortcut={accept} />
      )}
      {error && (
        <div className="inline-error" role="alert">
          {error}
        </div>
      )}
    </Modal>
  );
}

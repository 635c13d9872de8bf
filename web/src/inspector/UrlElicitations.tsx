// A `-32042` error (URLElicitationRequiredError): the server needs the person to visit one or
// more URLs before it can answer. Each is offered, and opened only after a confirmation that
// names the host, in a new tab without an opener.
import { useState } from 'react';
import { ExternalLink } from 'lucide-react';
import type { CallError } from '../api/types.gen';
import { Button } from '../ui/Button';
import { Modal } from '../ui/Modal';

export const URL_ELICITATION_REQUIRED = -32042;

export interface UrlElicitation {
  url: URL;
  message?: string;
}

export function urlElicitations(error: CallError | null | undefined): UrlElicitation[] {
  if (!error || error.code !== URL_ELICITATION_REQUIRED) return [];
  const list = (error.data as { elicitations?: unknown } | null)?.elicitations;
  if (!Array.isArray(list)) return [];
  const out: UrlElicitation[] = [];
  for (const e of list) {
    const raw = (e as { url?: unknown })?.url;
    if (typeof raw !== 'string') continue;
    try {
      const url = new URL(raw);
      if (url.protocol === 'https:' || url.protocol === 'http:') out.push({ url, message: typeof e.message === 'string' ? e.message : undefined });
    } catch {
      /* not a URL: left in the raw data below */
    }
  }
  return out;
}

export function UrlElicitations({ items }: { items: UrlElicitation[] }) {
  const [confirm, setConfirm] = useState<UrlElicitation | null>(null);
  return (
    <div className="url-elicitations" data-testid="url-elicitations">
      <div className="small">The server needs you to visit {items.length === 1 ? 'a page' : 'these pages'} first, then call the tool again:</div>
      {items.map((it, i) => (
        <div key={i} className="url-box">
          {it.message && <div>{it.message}</div>}
          <code className="url-full">{it.url.href}</code>
          <Button small onClick={() => setConfirm(it)} data-testid="url-elicitation-open">
            <ExternalLink size={13} aria-hidden="true" /> Open {it.url.host}…
          </Button>
        </div>
      ))}
      {confirm && (
        <Modal
          title="Open a page the server asks for?"
          onCancel={() => setConfirm(null)}
          testId="url-elicitation-confirm"
          footer={
            <>
              <Button variant="ghost" onClick={() => setConfirm(null)}>
                Cancel
              </Button>
              <Button
                variant="primary"
                onClick={() => {
                  window.open(confirm.url.href, '_blank', 'noopener,noreferrer');
                  setConfirm(null);
                }}
                data-testid="url-elicitation-confirm-open"
              >
                Open {confirm.url.host}
              </Button>
            </>
          }
        >
          <div className="url-host">{confirm.url.host}</div>
          <code className="url-full">{confirm.url.href}</code>
          <div className="small muted">It opens in a new tab. Only continue if you trust this server and this site.</div>
        </Modal>
      )}
    </div>
  );
}

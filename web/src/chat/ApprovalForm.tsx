// A tool call waiting for the user's approval: the arguments as editable JSON, Allow (with
// the edited arguments) and Deny. The decision goes to the API; the card updates from the
// session stream (approvalResolved, then toolCall and toolResult).
import { useState } from 'react';
import { api, errorMessage } from '../api/client';
import { Button } from '../ui/Button';

export function ApprovalForm({ sessionId, turnId, callId, args }: { sessionId: string; turnId: string; callId: string; args: unknown }) {
  const [text, setText] = useState(() => JSON.stringify(args ?? {}, null, 2));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const decide = async (allow: boolean) => {
    let parsed: unknown = undefined;
    if (allow) {
      try {
        parsed = JSON.parse(text);
      } catch (e) {
        setError(`The arguments are not valid JSON: ${errorMessage(e)}`);
        return;
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        setError('The arguments must be a JSON object.');
        return;
      }
    }
    setBusy(true);
    setError(null);
    try {
      await api.decideApproval(sessionId, turnId, callId, allow ? { decision: 'allow', arguments: parsed } : { decision: 'deny', reason: 'denied in the chat' });
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };

  return (
    <div className="approval-form" data-testid="approval-form">
      <div className="small">Run this tool call? You can edit the arguments first.</div>
      <textarea className="mono small" rows={Math.min(12, text.split('\n').length + 1)} value={text} onChange={(e) => setText(e.target.value)} data-testid="approval-args" spellCheck={false} />
      {error && (
        <div className="inline-error small" role="alert">
          {error}
        </div>
      )}
      <div className="row">
        <Button onClick={() => void decide(true)} disabled={busy} data-testid="approval-allow">
          Allow
        </Button>
        <Button variant="ghost" onClick={() => void decide(false)} disabled={busy} data-testid="approval-deny">
          Deny
        </Button>
      </div>
    </div>
  );
}

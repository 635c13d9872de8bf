// One prompt: its arguments (with completions; typed values kept as a draft), prompts/get,
// and the messages by role. Missing required arguments can be sent anyway, to test the
// server's own checks.
import { useState } from 'react';
import { api, errorMessage, type GetPromptResult, type Prompt } from '../api/client';
import type { CallOutcome } from '../api/types.gen';
import { Button } from '../ui/Button';
import { JsonTree } from '../ui/JsonTree';
import { ErrorState } from '../ui/States';
import { CompletingInput } from './CompletingInput';
import { ContentView } from './ContentView';
import { openInInspector } from './inspectorRoute';
import { getDraft, setDraft } from './selection';

export function PromptDetail({ server, prompt, completions }: { server: string; prompt: Prompt; completions: boolean }) {
  const args = prompt.arguments ?? [];
  const [values, setValues] = useState<Record<string, string>>(() => getDraft<Record<string, string>>('prompt', server, prompt.name) ?? {});
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<CallOutcome | null>(null);
  const [error, setError] = useState<string | null>(null);
  const missing = args.filter((a) => a.required && !values[a.name]).map((a) => a.name);

  const get = async () => {
    setBusy(true);
    setError(null);
    try {
      const filled = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
      setOutcome(await api.getPrompt(server, { name: prompt.name, arguments: filled }));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const change = (name: string, v: string) =>
    setValues((p) => {
      const next = { ...p, [name]: v };
      setDraft('prompt', server, prompt.name, next);
      return next;
    });

  const messages = (outcome?.result as GetPromptResult | null | undefined)?.messages ?? [];
  return (
    <div className="prompt-detail">
      <div className="detail-head">
        <h2 className="mono">{prompt.name}</h2>
        {prompt.title && <span className="muted">{prompt.title}</span>}
      </div>
      {prompt.description && <div className="muted">{prompt.description}</div>}
      <form
        className="fields"
        onSubmit={(e) => {
          e.preventDefault();
          if (!missing.length) void get();
        }}
      >
        {args.map((a) => (
          <label key={a.name} className="field">
            <span className="field-label">
              <span className="mono">{a.name}</span>
              {a.required && <span className="req"> *</span>}
              {a.description && <span className="muted small"> — {a.description}</span>}
            </span>
            <CompletingInput
              server={server}
              reference={{ type: 'ref/prompt', name: prompt.name }}
              name={a.name}
              value={values[a.name] ?? ''}
              context={values}
              onChange={(v) => change(a.name, v)}
              enabled={completions}
              testId={`prompt-arg-${a.name}`}
              required={a.required}
            />
          </label>
        ))}
        {args.length === 0 && <div className="muted small">No arguments.</div>}
        <div className="actions">
          <Button variant="primary" type="submit" busy={busy} disabled={missing.length > 0} data-testid="prompt-get" title={missing.length ? `Required: ${missing.join(', ')}` : undefined}>
            Get prompt
          </Button>
          {missing.length > 0 && (
            <>
              <span className="small muted">Required: {missing.join(', ')}</span>
              <Button small onClick={() => void get()} disabled={busy} data-testid="prompt-send-anyway" title="Send without the required arguments, to test the server's own checks">
                Send anyway
              </Button>
            </>
          )}
        </div>
      </form>
      {error && <ErrorState title="Request failed" message={error} onRetry={get} />}
      {outcome?.error && <ErrorState title={`prompts/get failed (${outcome.error.kind})`} message={outcome.error.message} testId="prompt-error" />}
      {outcome?.result && (
        <div className="messages" data-testid="prompt-messages">
          <div className="small muted">
            {outcome.result.description ?? ''} · {outcome.durationMs} ms
          </div>
          {messages.map((m, i) => (
            <div key={i} className={`message role-${m?.role}`} data-testid="prompt-message" data-role={m?.role}>
              <div className="message-role">{String(m?.role)}</div>
              <ContentView content={m?.content} onOpenResource={(uri) => openInInspector('resources', server, uri)} />
            </div>
          ))}
          {messages.length === 0 && <JsonTree value={outcome.result} expandDepth={Infinity} />}
        </div>
      )}
    </div>
  );
}

// A turn's x-ray beside its messages: per model step what the provider received (headers
// masked, the body as sent) and the raw streamed answer, with sizes (the tool definitions'
// share), tokens (estimates marked), cost (source and date, or "no price"), copy as curl, and
// what changed in the request since the previous step. A session's view carries no bodies
// (`bodiesOmitted`): opening the panel fetches each such step's whole x-ray. A JSON body shows
// as a tree with the conversation first and the tool definitions folded; the text as sent is
// under "Raw body".
import { useState } from 'react';
import { api, errorMessage } from '../api/client';
import type { StepXray } from '../api/types.gen';
import { CopyButton } from '../ui/CopyButton';
import { JsonTree } from '../ui/JsonTree';
import { Loading } from '../ui/Spinner';
import { asCurl, bodyDiff, bytes, conversationFirst, turnCost, usd, xrayOpens } from './xray';

const omitted = (x: StepXray) => x.exchanges.some((e) => e.bodiesOmitted);

/** The steps with their bodies, fetched once when the panel first opens. */
function useBodies(xrays: StepXray[], sessionId?: string, turnId?: string) {
  const [loaded, setLoaded] = useState<Record<number, StepXray>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = async () => {
    const missing = xrays.filter((x) => omitted(x) && !loaded[x.step]);
    if (!sessionId || !turnId || missing.length === 0 || busy) return;
    setBusy(true);
    setError(null);
    try {
      const got = await Promise.all(missing.map((x) => api.stepXray(sessionId, turnId, x.step)));
      setLoaded((l) => ({ ...l, ...Object.fromEntries(got.map((x) => [x.step, x])) }));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return { steps: xrays.map((x) => loaded[x.step] ?? x), load, error, busy };
}

export function XrayPanel({ xrays, sessionId, turnId }: { xrays: StepXray[]; sessionId?: string; turnId?: string }) {
  const bodies = useBodies(xrays, sessionId, turnId);
  return (
    <details className="chat-xray small" data-testid="turn-xray" onToggle={(e) => (e.currentTarget as HTMLDetailsElement).open && void bodies.load()}>
      <summary>
        X-ray: {xrays.length} step{xrays.length === 1 ? '' : 's'} · {usd(turnCost(xrays))}
      </summary>
      {bodies.busy && <Loading label="Loading the request and response bodies…" />}
      {bodies.error && (
        <div className="inline-error small" role="alert" data-testid="xray-load-error">
          Could not load the bodies: {bodies.error}{' '}
          <button type="button" className="link" onClick={() => void bodies.load()}>
            Try again
          </button>
        </div>
      )}
      {bodies.steps.map((x, i) => (
        <Step key={x.step} x={x} prev={bodies.steps[i - 1]} />
      ))}
    </details>
  );
}

function Step({ x, prev }: { x: StepXray; prev?: StepXray }) {
  const t = x.tokens;
  const sent = x.exchanges[x.exchanges.length - 1];
  const before = prev?.exchanges[prev.exchanges.length - 1];
  const diff = sent && before && !sent.bodiesOmitted && !before.bodiesOmitted ? bodyDiff(before.requestBody, sent.requestBody) : null;
  return (
    <section className="xray-step" data-testid="xray-step" data-step={x.step}>
      <div className="xray-head">
        <strong>Step {x.step}</strong> · {x.model} · first token {x.ttftMs ?? '-'} ms · {x.durationMs} ms
      </div>
      <div data-testid="xray-tokens">
        {t.inputTokens} in{t.cachedInputTokens ? <span data-testid="xray-cached"> ({t.cachedInputTokens} cached)</span> : null}
        {t.cacheWriteTokens ? ` (${t.cacheWriteTokens} written to the cache)` : ''} / {t.outputTokens} out{t.estimated ? ' (estimated)' : ''} · tools: {t.toolCount} definitions, {bytes(t.toolDefinitionBytes)} of {bytes(t.requestBytes)} (~{t.toolDefinitionTokens} tokens) ·{' '}
        <span data-testid="xray-cost" title={x.cost ? `price from ${x.cost.source}, ${x.cost.date}` : 'this model is not in the price table'}>
          {x.cost ? `${usd(x.cost.usd)} (${x.cost.date})` : 'no price'}
        </span>
      </div>
      {x.exchanges.map((e) => (
        <div key={e.attempt} className="xray-exchange">
          <div>
            → attempt {e.attempt}: {e.method} <code>{e.url}</code> <CopyButton text={() => asCurl(e)} label="Copy as curl" testId="xray-curl" />
          </div>
          <pre className="xray-headers">{e.requestHeaders.map(([k, v]) => `${k}: ${v}`).join('\n')}</pre>
          <RequestBody body={e.requestBody} />
          <div className="muted">
            {bytes(e.requestBytes)} sent{e.requestTruncated ? ' (truncated)' : ''} · ← {e.status ?? 'no response'} · {bytes(e.responseBytes)} received{e.responseTruncated ? ' (truncated)' : ''}
            {e.error && <span className="inline-error"> {e.error}</span>}
          </div>
          <details>
            <summary>Raw response</summary>
            <pre className="xray-body" data-testid="xray-response">
              {e.responseBody}
            </pre>
          </details>
        </div>
      ))}
      {diff && (
        <details data-testid="xray-diff">
          <summary>
            Changed since step {prev?.step}: +{diff.added.length} / −{diff.removed.length} lines
          </summary>
          <pre className="xray-body">{[...diff.removed.map((l) => `- ${l}`), ...diff.added.map((l) => `+ ${l}`)].join('\n')}</pre>
        </details>
      )}
    </section>
  );
}

/** The request body as a tree (conversation first, tool definitions folded), the text as sent
 * one click away (open at once when the body is not a JSON object, e.g. cut off). The raw
 * text keeps its element while the body loads. */
function RequestBody({ body }: { body: string }) {
  const tree = body ? conversationFirst(body) : null;
  return (
    <>
      {tree && (
        <div className="xray-tree" data-testid="xray-request-tree">
          <JsonTree value={tree} opens={xrayOpens} />
        </div>
      )}
      <details open={!tree}>
        <summary>Raw body</summary>
        <pre className="xray-body" data-testid="xray-request">
          {body}
        </pre>
      </details>
    </>
  );
}

// One iteration's trace, fetched when it is opened: each turn through the chat's own turn view
// (the stored turn events folded by `chat/turns.ts`, shown by `Conversation`: text, tool cards
// with arguments and results), the turn's end, tokens and clocks; then the verdict beside it —
// every check with its reason, the expected-vs-actual tool call differences, the judge — and
// the error of an errored iteration. Nothing here runs anything again.
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import type { TurnEvent } from '../api/types.gen';
import { Conversation } from '../chat/Conversation';
import { applyTurnEvent, newTurn, type ChatTurn } from '../chat/turns';
import { Loading } from '../ui/Spinner';
import { evalsApi, scopeLabel, type CallDiff, type CallView, type IterationRecord, type IterationTurn, type IterationView } from './api';
import { partWord } from './modelLabel';

const DIFF: Record<string, string> = {
  missing: 'Missing',
  extra: 'Extra',
  outOfOrder: 'Out of order',
  argumentMismatch: 'Argument mismatch',
  forbidden: 'Forbidden',
};

const callText = (c: CallView | undefined) => (c ? `${c.server ? `${c.server}/` : ''}${c.tool}${c.arguments === undefined ? '' : ` ${JSON.stringify(c.arguments)}`}` : '');

/** A stored turn as the chat folds it; one that recorded no end shows as interrupted. */
function chatTurn(t: IterationTurn, key: string): ChatTurn {
  const folded = t.events.reduce<ChatTurn>((turn, ev: TurnEvent) => applyTurnEvent(turn, ev), newTurn(key, t.user));
  return folded.status === 'running' ? { ...folded, status: 'interrupted' } : folded;
}

/** One expected-vs-actual difference: what was expected, what was called, each argument off. */
function DiffLine({ d }: { d: CallDiff }) {
  const tolerated = d.kind === 'extra' && d.tolerated;
  const shown = d.kind === 'extra' || d.kind === 'forbidden' ? d.actual : d.expected;
  return (
    <li className={tolerated ? 'muted' : 'evals-failure'} data-testid="evals-call-diff" data-kind={d.kind}>
      {DIFF[d.kind] ?? d.kind}: {callText(shown)}
      {d.kind === 'outOfOrder' && <> (called: {callText(d.actual)})</>}
      {tolerated && ' (within the allowance)'}
      {d.kind === 'argumentMismatch' &&
        d.mismatches.map((x, k) => (
          <div key={k} className="small">
            <code>{x.path}</code>: expected {JSON.stringify(x.expected)}, got {x.actual === null ? 'nothing' : JSON.stringify(x.actual)} — {x.reason}
          </div>
        ))}
    </li>
  );
}

function endText(t: IterationTurn): string {
  switch (t.end.kind) {
    case 'finished':
      return `finished (${t.end.reason})`;
    case 'failed':
      return `failed (${t.end.errorKind}): ${t.end.message}`;
    case 'timedOut':
      return 'timed out (the iteration deadline passed)';
    case 'cancelled':
      return 'cancelled';
    default:
      return 'no end recorded';
  }
}

export function IterationTrace({ runId, it }: { runId: string; it: IterationRecord }) {
  // A stored iteration never changes: fetched once per opening of the page.
  const q = useQuery({
    queryKey: ['evals', 'iteration', runId, it.caseId, it.model, it.iteration],
    queryFn: () => evalsApi.iteration(runId, it.caseId, it.model, it.iteration),
  });
  const trace: IterationView | null = q.data ?? null;
  const error = q.error ? errorMessage(q.error) : null;
  if (error) return <div className="evals-error" role="alert">Cannot load the trace: {error}</div>;
  if (!trace) return <Loading label="Loading the trace…" />;
  const turns = trace.turns.map((t, i) => chatTurn(t, `${runId}/${it.caseId}/${it.model}/${it.iteration}/${i}`));
  return (
    <div className="evals-trace" data-testid="evals-trace" data-outcome={trace.outcome.status}>
      {trace.outcome.status === 'errored' && (
        <div className="evals-error" role="alert" data-testid="evals-trace-error">
          Errored: {trace.outcome.reason}
        </div>
      )}
      <div className="evals-trace-grid">
        <section aria-label="What the model did" className="evals-trace-turns">
          {turns.length === 0 ? <div className="muted small">No turn ran.</div> : <Conversation turns={turns} onRetry={() => undefined} canRetry={false} />}
          <ul className="evals-trace-clocks small muted" data-testid="evals-trace-clocks">
            {trace.turns.map((t, i) => (
              <li key={i}>
                {partWord(trace.model)} {i + 1}: {endText(t)} · {t.steps} step{t.steps === 1 ? '' : 's'} · {t.usage.inputTokens} in / {t.usage.outputTokens} out tokens · {t.latencyMs} ms (LLM{' '}
                {t.llmMs} ms, MCP {t.mcpMs} ms)
              </li>
            ))}
            {trace.costUsd !== null && trace.costUsd !== undefined && <li>cost ${trace.costUsd.toFixed(5)}</li>}
          </ul>
        </section>
        <section aria-label="Verdict" className="evals-trace-verdict">
          <h4>Checks</h4>
          {trace.checks.length === 0 ? (
            <div className="muted small">No checks.</div>
          ) : (
            <ul className="evals-checks">
              {trace.checks.map((c, i) => (
                <li key={i} data-testid="evals-check" data-passed={String(c.passed)} className={c.passed ? 'pass' : 'fail'}>
                  <span aria-label={c.passed ? 'passed' : 'failed'}>{c.passed ? '✓' : '✗'}</span> <span className="muted small">{scopeLabel(c, trace.model)}</span>{' '}
                  <code>{JSON.stringify(c.check)}</code>
                  <div className="small">{c.reason}</div>
                </li>
              ))}
            </ul>
          )}
          {trace.toolCalls.map((m, i) => (
            <div key={i} data-testid="evals-call-match" data-passed={String(m.passed)}>
              <h4>
                {m.passed ? '✓' : '✗'} Expected tool calls <span className="muted small">({scopeLabel(m, trace.model)}, {m.matched} matched)</span>
              </h4>
              <ul>
                {m.diffs.map((d, j) => (
                  <DiffLine key={j} d={d} />
                ))}
              </ul>
            </div>
          ))}
          {trace.judge && (
            <div data-testid="evals-judge">
              <h4>Judge {trace.judge.gating ? '(gating)' : '(advisory)'}</h4>
              {trace.judge.verdict.status === 'scored' ? (
                <div className="small">
                  {trace.judge.verdict.score.toFixed(2)} (threshold {trace.judge.threshold}): {trace.judge.verdict.reason}
                </div>
              ) : (
                <div className="evals-error small">{trace.judge.verdict.message}</div>
              )}
            </div>
          )}
          {trace.appRenders.length > 0 && (
            <>
              <h4>App renders</h4>
              <ul>
                {trace.appRenders.map((r) => (
                  <li key={r.callId} data-testid="evals-app-render" className={r.initialized && r.errors.length === 0 && r.cspViolations.length === 0 ? '' : 'evals-failure'}>
                    {r.server}/{r.tool}: {r.initialized ? `ready after ${r.readyMs ?? '?'} ms` : 'did not initialize'}
                    {[...r.errors, ...r.cspViolations, ...r.consoleErrors.map((e) => `console: ${e}`)].map((e, k) => (
                      <div key={k} className="small">
                        {e}
                      </div>
                    ))}
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      </div>
    </div>
  );
}

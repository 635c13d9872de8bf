import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { HttpExchange, StepXray, TurnEvent, TurnSummary } from '../api/types.gen';
import { asCurl, bodyDiff, conversationFirst, differing, figures, turnCost, xrayOpens } from './xray';
import { applyTurnEvent, newTurn } from './turns';

const exchange: HttpExchange = {
  attempt: 1,
  method: 'POST',
  url: 'http://127.0.0.1:9/v1/chat/completions',
  requestHeaders: [
    ['authorization', 'Bearer sk-t… (7 chars)'],
    ['content-type', 'application/json'],
    ['host', '127.0.0.1:9'],
  ],
  requestBody: `{"model":"m","messages":[{"role":"user","content":"it's"}]}`,
  requestBytes: 60,
  requestTruncated: false,
  toolDefinitionBytes: 0,
  status: 200,
  responseHeaders: [],
  responseBody: '',
  responseBytes: 0,
  responseTruncated: false,
  error: null,
  durationMs: 1,
};

const step = (usd: number | null): StepXray => ({
  step: 1,
  model: 'openai::gpt-4o-mini',
  startedMs: 0,
  ttftMs: 1,
  durationMs: 2,
  tokens: { inputTokens: 1000, outputTokens: 20, reasoningTokens: 0, estimated: false, toolCount: 0, toolDefinitionBytes: 0, requestBytes: 60, toolDefinitionTokens: 0 },
  cost: usd === null ? null : { usd, estimated: false, source: 's', date: 'd' },
  exchanges: [exchange],
});

describe('x-ray helpers', () => {
  it('copies as curl with the masked headers, quoting the body, without host', () => {
    const curl = asCurl(exchange);
    expect(curl).toContain(`-H 'authorization: Bearer sk-t… (7 chars)'`);
    expect(curl).not.toContain('host:');
    expect(curl).toContain(`"content":"it'\\''s"`);
  });

  it('diffs two request bodies by pretty lines', () => {
    const d = bodyDiff('{"messages":[1]}', '{"messages":[1,2]}');
    expect(d.added).toEqual(['    1,', '    2']);
    expect(d.removed).toEqual(['    1']);
  });

  it('sums a turn only when every step is priced', () => {
    expect(turnCost([step(0.25), step(0.5)])).toBeCloseTo(0.75, 12);
    expect(turnCost([step(0.25), step(null)])).toBeNull();
    expect(turnCost([])).toBeNull();
  });

  it('marks calls that differ from the first column, not a key order', () => {
    const withCall = (args: unknown) => ({
      ...newTurn('t', 'u'),
      items: [{ kind: 'tool' as const, callId: 'c', name: 'demo__add', server: 'demo', tool: 'add', arguments: args }],
    });
    const cols = [figures(withCall({ a: 2, b: 3 })), figures(withCall({ b: 3, a: 2 })), figures(withCall({ a: 2, b: 4 })), figures(newTurn('t', 'u'))];
    expect(differing(cols)).toEqual([[true], [false], [true], []]);
  });
});

describe('conversationFirst', () => {
  it('puts the conversation first and the tool definitions last, keeping the rest in order', () => {
    const body = JSON.stringify({ model: 'm', tools: [{ name: 't' }], stream: true, system: 's', messages: [{ role: 'user', content: 'hi' }] });
    expect(Object.keys(conversationFirst(body) ?? {})).toEqual(['system', 'messages', 'model', 'stream', 'tools']);
    expect(conversationFirst(body)?.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('is null for a body that is cut off or not an object', () => {
    expect(conversationFirst('{"model":"m","mess')).toBeNull();
    expect(conversationFirst('[1]')).toBeNull();
  });

  it('folds the top-level tool definitions only', () => {
    expect(xrayOpens('tools', 1)).toBe(false);
    expect(xrayOpens('messages', 1)).toBe(true);
    expect(xrayOpens('tools', 3)).toBe(true);
    expect(xrayOpens('content', 4)).toBe(false);
  });
});

// The comparison's figures against the vectors core's `session::compare` runs too
// (crates/mcplab-core/tests/vectors/compare_figures.json), so the page and `mcplab chat --compare` agree.
interface CompareVectors {
  summaries: { name: string; events: TurnEvent[]; summary: TurnSummary }[];
  differing: { name: string; columns: { server: string; tool: string; arguments: unknown }[][]; differing: boolean[][] }[];
}
const vectors: CompareVectors = JSON.parse(readFileSync(new URL('../../../crates/mcplab-core/tests/vectors/compare_figures.json', import.meta.url), 'utf8'));
const fold = (events: TurnEvent[]) => events.reduce(applyTurnEvent, newTurn('t1', 'u'));

describe('shared compare vectors', () => {
  it('are there', () => {
    expect(vectors.summaries.length).toBeGreaterThan(5);
    expect(vectors.differing.length).toBeGreaterThan(3);
  });
  for (const c of vectors.summaries) {
    it(`figures: ${c.name}`, () => {
      const s = c.summary;
      expect(figures(fold(c.events))).toEqual({
        calls: s.calls.map((k) => ({ name: `${k.server}/${k.tool}`, args: JSON.stringify(k.arguments) })),
        steps: s.steps,
        inputTokens: s.inputTokens,
        outputTokens: s.outputTokens,
        estimated: s.tokensEstimated,
        cost: s.costUsd,
        ttftMs: s.ttftMs,
        durationMs: s.durationMs,
        ended: s.ended,
      });
    });
  }
  for (const c of vectors.differing) {
    it(`differing: ${c.name}`, () => {
      const columns = c.columns.map((calls) =>
        figures(fold(calls.map((k, i): TurnEvent => ({ type: 'toolCall', turnId: 't1', callId: `c${i}`, name: '', server: k.server, tool: k.tool, arguments: k.arguments })))),
      );
      expect(differing(columns)).toEqual(c.differing);
    });
  }
});

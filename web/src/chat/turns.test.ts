import { describe, expect, it } from 'vitest';
import type { HostConfig, SessionEvent, TurnEvent } from '../api/types.gen';
import { applySessionEvent, applyTurnEvent, fromView, newTurn, shownUsage, toolStatus, type ChatTurn } from './turns';

const SUMMARY = { id: 's', title: 'x', createdMs: 0, updatedMs: 0, settings: { model: 'a::b', servers: [] }, hostConfig: {} as HostConfig, hostHash: '' };

const u = (i: number, o: number) => ({ inputTokens: i, outputTokens: o, reasoningTokens: 0 });
const turn = (event: TurnEvent): SessionEvent => ({ kind: 'turn', event });

function fold(events: SessionEvent[]): ChatTurn[] {
  return events.reduce(applySessionEvent, [] as ChatTurn[]);
}

describe('turn fold', () => {
  it('merges deltas, pairs tool calls with results, ends once', () => {
    const turns = fold([
      { kind: 'userMessage', turnId: 't1', text: 'hi' },
      turn({ type: 'turnStarted', turnId: 't1', model: 'openai::gpt' }),
      turn({ type: 'reasoningDelta', turnId: 't1', text: 'think' }),
      turn({ type: 'reasoningDelta', turnId: 't1', text: 'ing' }),
      turn({ type: 'textDelta', turnId: 't1', text: 'Hel' }),
      turn({ type: 'textDelta', turnId: 't1', text: 'lo' }),
      turn({ type: 'toolCall', turnId: 't1', callId: 'c1', name: 'fx__echo', server: 'fx', tool: 'echo', arguments: { a: 1 } }),
      turn({ type: 'toolCall', turnId: 't1', callId: 'c1', name: 'fx__echo', server: 'fx', tool: 'echo', arguments: { a: 1 } }),
      turn({ type: 'traceStep', turnId: 't1', step: 1, model: 'gpt', finishReason: 'tool_calls', usage: u(10, 2) }),
    ]);
    expect(turns).toHaveLength(1);
    const t = turns[0];
    expect(t.status).toBe('running');
    expect(t.items.map((i) => i.kind)).toEqual(['reasoning', 'text', 'tool']);
    expect(t.items[1]).toEqual({ kind: 'text', text: 'Hello' });
    const tool = t.items[2];
    expect(tool.kind === 'tool' && toolStatus(tool)).toBe('running');
    expect(shownUsage(t)).toEqual(u(10, 2));

    const done = [
      turn({ type: 'toolResult', turnId: 't1', callId: 'c1', server: 'fx', tool: 'echo', durationMs: 5, isError: true, result: { isError: true }, error: null }),
      turn({ type: 'textDelta', turnId: 't1', text: '!' }),
      turn({ type: 'turnFinished', turnId: 't1', reason: 'stepLimit', usage: u(30, 9) }),
      turn({ type: 'turnFailed', turnId: 't1', kind: 'network', message: 'late', usage: u(1, 1) }),
    ].reduce(applySessionEvent, turns);
    const d = done[0];
    expect(d.status).toBe('finished');
    expect(d.reason).toBe('stepLimit');
    expect(d.failure).toBeNull();
    expect(shownUsage(d)).toEqual(u(30, 9));
    expect(d.items.map((i) => i.kind)).toEqual(['reasoning', 'text', 'tool', 'text']);
    const tr = d.items[2];
    expect(tr.kind === 'tool' && toolStatus(tr)).toBe('error');
  });

  it('keeps a second userMessage for the same turn out', () => {
    const turns = fold([
      { kind: 'userMessage', turnId: 't1', text: 'hi' },
      { kind: 'userMessage', turnId: 't1', text: 'hi' },
      { kind: 'userMessage', turnId: 't2', text: 'again' },
    ]);
    expect(turns.map((t) => t.turnId)).toEqual(['t1', 't2']);
  });

  it('builds stored turns; an unterminated one that is not running was interrupted', () => {
    const turns = fromView({
      summary: SUMMARY,
      runningTurn: 't3',
      liveTurn: null,
      lastEventId: 0,
      turns: [
        { turnId: 't1', user: 'a', events: [{ type: 'turnFailed', turnId: 't1', kind: 'auth', message: 'bad key', usage: u(0, 0) }] },
        { turnId: 't2', user: 'b', events: [{ type: 'textDelta', turnId: 't2', text: 'half' }] },
        { turnId: 't3', user: 'c', events: [] },
      ],
    });
    expect(turns.map((t) => t.status)).toEqual(['failed', 'interrupted', 'running']);
    expect(turns[0].failure).toEqual({ kind: 'auth', message: 'bad key' });
  });
});

describe('view with a running turn', () => {
  const summary = SUMMARY;
  it('adds the running turn as partial, fills it from the stream, keeps local-only ended turns', () => {
    const local: ChatTurn[] = fold([{ kind: 'userMessage', turnId: 'x', text: 'post failed' }]).map((t) => ({ ...t, status: 'failed' as const }));
    const turns = fromView({ summary, runningTurn: 'r', liveTurn: null, lastEventId: 0, turns: [{ turnId: 't1', user: 'a', events: [] }] }, local);
    expect(turns.map((t) => [t.turnId, t.status, !!t.partial])).toEqual([
      ['t1', 'interrupted', false],
      ['r', 'running', true],
      ['x', 'failed', false],
    ]);
    const next = [
      { kind: 'userMessage', turnId: 'r', text: 'late text' } as SessionEvent,
      turn({ type: 'textDelta', turnId: 'r', text: 'hi' }),
    ].reduce(applySessionEvent, turns);
    expect(next[1].user).toBe('late text');
    expect(next[1].items).toEqual([{ kind: 'text', text: 'hi' }]);
  });
});

describe('view with a live turn', () => {
  it('shows the running turn as recorded so far, not as a placeholder', () => {
    const summary = SUMMARY;
    const turns = fromView({
      summary,
      runningTurn: 'r',
      liveTurn: { turnId: 'r', user: 'hello', events: [{ type: 'textDelta', turnId: 'r', text: 'Hi the' }] },
      lastEventId: 7,
      turns: [],
    });
    expect(turns).toHaveLength(1);
    expect(turns[0].user).toBe('hello');
    expect(turns[0].status).toBe('running');
    expect(turns[0].partial).toBeFalsy();
  });
});

describe('approval', () => {
  it('a call waits for approval, then runs with the final arguments', () => {
    const t = (ev: Record<string, unknown>) => ({ kind: 'turn', event: { turnId: 'a', ...ev } }) as SessionEvent;
    const turns = fold([
      { kind: 'userMessage', turnId: 'a', text: 'go' },
      t({ type: 'approvalRequested', callId: 'c', name: 'demo__add', server: 'demo', tool: 'add', arguments: { a: 1 }, timeoutMs: 1000 }),
    ]);
    const item = turns[0].items[0];
    expect(item.kind === 'tool' && item.approval?.pending).toBe(true);
    const after = [
      t({ type: 'approvalResolved', callId: 'c', approved: true }),
      t({ type: 'toolCall', callId: 'c', name: 'demo__add', server: 'demo', tool: 'add', arguments: { a: 40 } }),
    ].reduce(applySessionEvent, turns);
    const done = after[0].items[0];
    expect(after[0].items).toHaveLength(1);
    expect(done.kind === 'tool' && done.approval?.pending).toBe(false);
    expect(done.kind === 'tool' && done.arguments).toEqual({ a: 40 });
  });
});

describe('streamed tool input', () => {
  it('a call appears while its arguments stream, then takes the final arguments', () => {
    const partial = (text: string) =>
      turn({ type: 'toolInputPartial', turnId: 't1', callId: 'c1', name: 'demo__show', server: 'demo', tool: 'show', argumentsText: text });
    let turns = fold([{ kind: 'userMessage', turnId: 't1', text: 'go' }, partial('{"ci'), partial('{"city":"Par')]);
    let item = turns[0].items[0];
    expect(item.kind === 'tool' && item.partialArgs).toBe('{"city":"Par');
    expect(item.kind === 'tool' && item.arguments).toBeUndefined();
    turns = [turn({ type: 'toolCall', turnId: 't1', callId: 'c1', name: 'demo__show', server: 'demo', tool: 'show', arguments: { city: 'Paris' } }), partial('{"late')].reduce(applySessionEvent, turns);
    item = turns[0].items[0];
    expect(turns[0].items).toHaveLength(1);
    expect(item.kind === 'tool' && item.partialArgs).toBeUndefined();
    expect(item.kind === 'tool' && item.arguments).toEqual({ city: 'Paris' });
  });
});

describe('tools left out', () => {
  it('keeps the host limit and the tools it left out of the model catalog', () => {
    const ev = { type: 'toolsLeftOut', turnId: 't', limit: 2, leftOut: ['demo__echo', 'demo__add'] } as TurnEvent;
    const t = applyTurnEvent(newTurn('t', 'hi'), ev);
    expect(t.leftOut).toEqual({ limit: 2, tools: ['demo__echo', 'demo__add'] });
  });
});

import { describe, expect, it } from 'vitest';
import type { Tool } from '../api/client';
import { outcomeKey, outcomeOf, pickTool } from './defaultTool';

const tool = (name: string, meta?: Record<string, unknown>) => ({ name, inputSchema: { type: 'object' }, _meta: meta }) as unknown as Tool;
const demo = [tool('show_broken_app', { 'mcplab/expectedFailure': 'throws at load' }), tool('show_counter_app'), tool('show_csp_breaker')];

describe('the playground default tool', () => {
  it('skips a tool the server says fails on purpose', () => {
    expect(pickTool('demo', demo, null, {})).toBe('show_counter_app');
  });
  it('prefers a tool whose last run worked, and skips one whose last run broke', () => {
    expect(pickTool('demo', demo, null, { [outcomeKey('demo', 'show_csp_breaker')]: 'worked' })).toBe('show_csp_breaker');
    expect(pickTool('demo', demo, null, { [outcomeKey('demo', 'show_counter_app')]: 'broken' })).toBe('show_csp_breaker');
    // A tool that says it fails but worked here is fine.
    expect(pickTool('demo', demo.slice(0, 1).concat(tool('x')), null, { [outcomeKey('demo', 'show_broken_app')]: 'worked' })).toBe('show_broken_app');
  });
  it('keeps the person\'s own pick while it exists; falls back to the first when all are broken', () => {
    expect(pickTool('demo', demo, 'show_broken_app', {})).toBe('show_broken_app');
    expect(pickTool('demo', demo, 'gone', {})).toBe('show_counter_app');
    const broken = { [outcomeKey('demo', 'show_counter_app')]: 'broken', [outcomeKey('demo', 'show_csp_breaker')]: 'broken' } as const;
    expect(pickTool('demo', demo, null, broken)).toBe('show_broken_app');
    expect(pickTool('demo', [], null, {})).toBeNull();
  });
  it('reads an outcome from the app diagnostics only once it is known', () => {
    expect(outcomeOf({ status: 'starting', error: null, appErrors: [], delivered: false })).toBeNull();
    expect(outcomeOf({ status: 'ready', error: null, appErrors: [], delivered: false })).toBeNull();
    expect(outcomeOf({ status: 'ready', error: null, appErrors: [], delivered: true })).toBe('worked');
    expect(outcomeOf({ status: 'starting', error: 'did not initialize', appErrors: [], delivered: false })).toBe('broken');
    expect(outcomeOf({ status: 'ready', error: null, appErrors: [{}], delivered: true })).toBe('broken');
  });
});

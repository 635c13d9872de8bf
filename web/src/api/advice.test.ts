import { describe, expect, it } from 'vitest';
import { adviceFor, withAdvice } from './advice';

describe('failure advice', () => {
  it('tells how to raise a timeout in this UI, not with a CLI flag', () => {
    const text = withAdvice('timeout', '`tools/call` got no response within 30s (the server may be slow or stuck)');
    expect(text).toContain('Request timeout');
    expect(text).not.toContain('--timeout');
  });

  it('points a misbehaving server at its traffic and adds nothing to codes that say it all', () => {
    expect(adviceFor('server_misbehaved')).toContain('traffic panel');
    expect(withAdvice('not_found', 'no such server')).toBe('no such server');
  });

  it('adds the advice once', () => {
    const once = withAdvice('timeout', 'slow');
    expect(withAdvice('timeout', once)).toBe(once);
  });
});

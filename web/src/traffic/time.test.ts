import { describe, expect, it } from 'vitest';
import { fmtTime } from './time';

describe('the traffic time format', () => {
  it('is the local wall-clock time as toLocaleTimeString gives it, with milliseconds', () => {
    for (const ms of [0, 1_733_480_424_209, 1_733_443_200_007, 1_733_529_599_999]) {
      const d = new Date(ms);
      expect(fmtTime(ms)).toBe(`${d.toLocaleTimeString([], { hour12: false })}.${String(d.getMilliseconds()).padStart(3, '0')}`);
    }
  });
});

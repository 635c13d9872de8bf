import { describe, expect, it } from 'vitest';
import { otlpStatus } from './OtlpSection';

const base = { endpoint: 'http://127.0.0.1:4318/v1/traces', fromFlag: false, sentSpans: 0, droppedSpans: 0, failedBatches: 0, firstError: null };

describe('otlpStatus', () => {
  it('says nothing while nothing is exported', () => {
    expect(otlpStatus({ ...base, endpoint: null })).toBeNull();
  });
  it('counts what went out, what failed and why, and what was dropped', () => {
    expect(otlpStatus({ ...base, sentSpans: 1 })).toBe('1 span sent');
    expect(otlpStatus({ ...base, sentSpans: 6, failedBatches: 2, firstError: 'network error', droppedSpans: 3 })).toBe(
      '6 spans sent · 2 batches failed (network error) · 3 dropped (queue full)',
    );
  });
});

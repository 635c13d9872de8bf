import { describe, expect, it } from 'vitest';
import { shortFloat } from './SamplingDialog';

describe('shortFloat', () => {
  it('shows an f32 round trip as it was written', () => {
    expect(shortFloat(0.699999988079071)).toBe('0.7');
    expect(shortFloat(1)).toBe('1');
    expect(shortFloat(0.25)).toBe('0.25');
    expect(shortFloat(1.2345678)).toBe('1.2345678');
  });
});

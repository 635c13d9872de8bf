import { describe, expect, it } from 'vitest';
import { BEZEL, fitScale, parseZoom, scaleOf } from './zoom';

describe('device zoom', () => {
  it('fits a large device into the stage, bezel included, and never enlarges', () => {
    expect(fitScale({ width: 800, height: 700 }, 1280, 800)).toBe(Math.floor((800 / (1280 + 2 * BEZEL)) * 100) / 100);
    expect(fitScale({ width: 2000, height: 2000 }, 430, 932)).toBe(1);
    expect(fitScale({ width: 400, height: 300 }, 1280, 800)).toBe(0.3);
    expect(fitScale({ width: 100, height: 100 }, 1280, 800)).toBe(0.25);
  });
  it('fixed steps win over fit; unknown stored values mean fit', () => {
    expect(scaleOf(1.5, 0.6)).toBe(1.5);
    expect(scaleOf('fit', 0.6)).toBe(0.6);
    expect(parseZoom(2)).toBe(2);
    expect(parseZoom(0.3)).toBe('fit');
    expect(parseZoom('x')).toBe('fit');
  });
});

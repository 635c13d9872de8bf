import { describe, expect, it } from 'vitest';
import { cloneName } from './cloneName';

describe('cloneName', () => {
  it('adds -copy to a free name', () => {
    expect(cloneName('demo', ['demo'])).toBe('demo-copy');
  });
  it('numbers the copy when -copy is taken', () => {
    expect(cloneName('demo', ['demo', 'demo-copy'])).toBe('demo-copy-2');
    expect(cloneName('demo', ['demo', 'demo-copy', 'demo-copy-2'])).toBe('demo-copy-3');
  });
  it('clones a copy from its base instead of stacking -copy', () => {
    expect(cloneName('demo-copy', ['demo', 'demo-copy'])).toBe('demo-copy-2');
    expect(cloneName('demo-copy-2', ['demo', 'demo-copy', 'demo-copy-2'])).toBe('demo-copy-3');
  });
});

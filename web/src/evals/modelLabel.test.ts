import { describe, expect, it } from 'vitest';
import { modelLabel } from './modelLabel';

describe('modelLabel', () => {
  it('says "no model" for a case of model-free steps, also under a host', () => {
    expect(modelLabel('')).toBe('no model');
    expect(modelLabel(' @ claude')).toBe('no model @ claude');
    expect(modelLabel('openai::gpt-4.1 @ claude')).toBe('openai::gpt-4.1 @ claude');
  });
});

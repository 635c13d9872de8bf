import { describe, expect, it } from 'vitest';
import { modelLabel, partWord } from './modelLabel';
import { kindLabel, scopeLabel } from './api';

describe('modelLabel', () => {
  it('says "no model" for a case of model-free steps, also under a host', () => {
    expect(modelLabel('')).toBe('no model');
    expect(modelLabel(' @ claude')).toBe('no model @ claude');
    expect(modelLabel('openai::gpt-4.1 @ claude')).toBe('openai::gpt-4.1 @ claude');
  });

  it('names the parts of a model-free case steps, of any other case turns', () => {
    expect(partWord(' @ claude')).toBe('step');
    expect(scopeLabel({ scope: 'turn', turn: 1 }, '')).toBe('step 2');
    expect(scopeLabel({ scope: 'turn', turn: 0 }, 'openai::gpt-4.1')).toBe('turn 1');
    expect(scopeLabel({ scope: 'case' }, '')).toBe('case');
  });

  it('says what kind of run a run is', () => {
    expect(kindLabel({ kind: 'shard', index: 2, count: 4 })).toBe('shard 2/4');
    expect(kindLabel({ kind: 'merged', shards: 4 })).toBe('merged (4 shards)');
    expect(kindLabel({ kind: 'subset', cases: 3, of: 10 })).toBe('subset (3 of 10 cases)');
  });
});

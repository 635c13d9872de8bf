import { describe, expect, it } from 'vitest';
import { cleanValue, hasNoFields, normalizeSchema, parseRawArgs, validateAgainst } from './schema';

describe('normalizeSchema', () => {
  it('drops $schema and defaults the root to an object', () => {
    expect(normalizeSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', properties: {} })).toEqual({
      type: 'object',
      properties: {},
    });
    expect(normalizeSchema(undefined)).toEqual({ type: 'object', properties: {} });
  });
  it('detects schemas without fields', () => {
    expect(hasNoFields(normalizeSchema({ type: 'object' }))).toBe(true);
    expect(hasNoFields(normalizeSchema({ type: 'object', properties: { a: { type: 'string' } } }))).toBe(false);
  });
});

describe('cleanValue', () => {
  const schema = {
    type: 'object',
    required: ['name'],
    properties: { name: { type: 'string' }, note: { type: 'string' }, nested: { type: 'object', properties: { x: { type: 'string' } } } },
  };
  it('drops undefined and empty optional strings, keeps required empties', () => {
    expect(cleanValue({ name: '', note: '', extra: undefined, nested: { x: '' } }, schema)).toEqual({ name: '', nested: {} });
  });
  it('keeps numbers, booleans and arrays', () => {
    expect(cleanValue({ n: 0, b: false, a: [1, undefined, 2] })).toEqual({ n: 0, b: false, a: [1, 2] });
  });
});

describe('parseRawArgs', () => {
  it('treats empty text as no arguments', () => {
    expect(parseRawArgs('  ')).toEqual({ ok: true, value: {} });
  });
  it('rejects non-objects and bad JSON', () => {
    expect(parseRawArgs('[1]').ok).toBe(false);
    expect(parseRawArgs('{').ok).toBe(false);
    expect(parseRawArgs('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
  });
});

describe('validateAgainst', () => {
  it('reports mismatches against draft-07 and 2020-12 schemas', () => {
    const s = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    expect(validateAgainst(s, { n: 1 })).toEqual([]);
    expect(validateAgainst(s, { n: 'x' })[0]).toContain('/n');
    const s2 = { ...s, $schema: 'https://json-schema.org/draft/2020-12/schema' };
    expect(validateAgainst(s2, {})).toHaveLength(1);
  });
  it('knows numeric formats from code generators', () => {
    const s = { type: 'object', properties: { n: { type: 'integer', format: 'uint32' } } };
    expect(validateAgainst(s, { n: 3 })).toEqual([]);
    expect(validateAgainst(s, { n: -1 })).toHaveLength(1);
  });
});

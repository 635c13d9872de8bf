import { describe, expect, it } from 'vitest';
import { parsePartialJson } from './partialJson';

describe('parsePartialJson', () => {
  it('parses complete objects', () => {
    expect(parsePartialJson('{"a":1}')).toEqual({ a: 1 });
  });
  it('closes an open string and brackets', () => {
    expect(parsePartialJson('{"city":"Par')).toEqual({ city: 'Par' });
    expect(parsePartialJson('{"a":[1,2')).toEqual({ a: [1, 2] });
    expect(parsePartialJson('{"a":{"b":"c"')).toEqual({ a: { b: 'c' } });
  });
  it('drops a dangling key or comma', () => {
    expect(parsePartialJson('{"a":1,')).toEqual({ a: 1 });
    expect(parsePartialJson('{"a":1,"b":')).toEqual({ a: 1 });
    expect(parsePartialJson('{"a":1,"b')).toEqual({ a: 1 });
  });
  it('gives up on non-objects', () => {
    expect(parsePartialJson('')).toBeNull();
    expect(parsePartialJson('[1,2]')).toBeNull();
    expect(parsePartialJson('nonsense')).toBeNull();
  });
});

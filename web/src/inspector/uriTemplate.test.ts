import { describe, expect, it } from 'vitest';
import { expandTemplate, templateVariables } from './uriTemplate';

describe('uri templates', () => {
  it('lists variables', () => {
    expect(templateVariables('file:///{path}/{+rest}{?q,page}')).toEqual(['path', 'rest', 'q', 'page']);
  });
  it('expands simple, reserved and query expressions', () => {
    expect(expandTemplate('test://static/resource/{id}', { id: '42' })).toBe('test://static/resource/42');
    expect(expandTemplate('x://{a}', { a: 'a b/c' })).toBe('x://a%20b%2Fc');
    expect(expandTemplate('x://{+a}', { a: 'a b/c' })).toBe('x://a%20b/c');
    expect(expandTemplate('x://s{?q,page}', { q: 'hi', page: '' })).toBe('x://s?q=hi');
  });
  // RFC 6570 §3.2.1 examples (prefix and explode), which a hand version got wrong.
  it('applies a prefix modifier', () => {
    expect(expandTemplate('x://{var:3}', { var: 'value' })).toBe('x://val');
    expect(expandTemplate('x://s{?var:3}', { var: 'value' })).toBe('x://s?var=val');
  });
  it('explodes a list', () => {
    const list = ['red', 'green', 'blue'];
    expect(expandTemplate('x://c{/list*}', { list })).toBe('x://c/red/green/blue');
    expect(expandTemplate('x://c{?list*}', { list })).toBe('x://c?list=red&list=green&list=blue');
    expect(expandTemplate('x://c/{list}', { list })).toBe('x://c/red,green,blue');
  });
});

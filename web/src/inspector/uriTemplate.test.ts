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
});

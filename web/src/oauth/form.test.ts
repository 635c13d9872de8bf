import { describe, expect, it } from 'vitest';
import { defaultForm, formToRequest, requestToForm, serverToForm } from './form';

describe('OAuth debugger form', () => {
  it('builds the request with only the fields that are set', () => {
    expect(formToRequest({ ...defaultForm, url: ' https://x.example.com/mcp ', scope: ' a b ', revision: '2025-06-18' })).toEqual({
      request: { url: 'https://x.example.com/mcp', transport: 'http', registration: 'auto', interactive: true, revision: '2025-06-18', scope: 'a b' },
    });
  });
  it('needs an http(s) URL', () => {
    expect(formToRequest(defaultForm)).toHaveProperty('error');
    expect(formToRequest({ ...defaultForm, url: 'ftp://x' })).toEqual({ error: 'Use an http:// or https:// URL' });
  });
  it('reads a run back without its (masked) secret', () => {
    const f = requestToForm({ url: 'http://h/mcp', transport: 'sse', registration: 'pre', clientId: 'c', clientSecret: 'abcd… (40 chars)', interactive: false });
    expect(f).toMatchObject({ url: 'http://h/mcp', transport: 'sse', registration: 'pre', clientId: 'c', clientSecret: '', interactive: false, revision: '' });
  });
  it('takes a configured server URL and OAuth settings', () => {
    const f = serverToForm({ name: 's', type: 'sse', url: 'http://h/sse', oauth: { clientId: 'c', registration: 'pre', revision: '2025-03-26' } });
    expect(f).toMatchObject({ url: 'http://h/sse', transport: 'sse', clientId: 'c', registration: 'pre', revision: '2025-03-26' });
  });
});

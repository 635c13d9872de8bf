import { describe, expect, it } from 'vitest';
import { configToForm, emptyForm, formToConfig, oauthPatch, oauthValues } from './configForm';

describe('server config form', () => {
  it('builds a stdio config with args per line and env pairs', () => {
    const r = formToConfig({ ...emptyForm, name: ' demo ', command: 'npx', args: '-y\n@scope/server arg\n', env: [{ key: 'A', value: '1' }, { key: ' ', value: 'x' }], timeoutMs: '5000' });
    expect(r).toEqual({ config: { name: 'demo', type: 'stdio', command: 'npx', args: ['-y', '@scope/server arg'], env: { A: '1' }, timeoutMs: 5000 } });
  });
  it('stores the bearer token as an Authorization header and reads it back', () => {
    const r = formToConfig({ ...emptyForm, name: 'web', type: 'http', url: 'http://127.0.0.1:3000/mcp', bearer: 'tok', headers: [{ key: 'X-A', value: 'b' }] });
    expect(r).toEqual({ config: { name: 'web', type: 'http', url: 'http://127.0.0.1:3000/mcp', headers: { 'X-A': 'b', Authorization: 'Bearer tok' } } });
    if (!('config' in r)) throw new Error('expected a config');
    const back = configToForm(r.config);
    expect(back.bearer).toBe('tok');
    expect(back.headers).toEqual([{ key: 'X-A', value: 'b' }]);
  });
  it('reports missing fields', () => {
    const r = formToConfig({ ...emptyForm, type: 'sse', url: 'ftp://x', timeoutMs: '-1' });
    expect(r).toEqual({ errors: { name: 'A name is required', url: 'Use an http:// or https:// URL', timeoutMs: 'A positive whole number of milliseconds' } });
  });
  it('maps the OAuth fields to `oauth`, keeps settings it has no fields for, and omits an empty one', () => {
    const base = { ...emptyForm, name: 'r', type: 'http' as const, url: 'https://r.example.com/mcp' };
    expect(formToConfig(base)).toEqual({ config: { name: 'r', type: 'http', url: 'https://r.example.com/mcp', headers: {} } });
    const r = formToConfig({ ...base, oauthClientId: ' id ', oauthClientSecret: 's', oauthScope: ' a  b ', oauthRegistration: 'pre', oauthRevision: '2025-06-18', oauthRest: { grant: 'clientCredentials' } });
    expect(r).toEqual({
      config: { name: 'r', type: 'http', url: 'https://r.example.com/mcp', headers: {}, oauth: { grant: 'clientCredentials', clientId: 'id', clientSecret: 's', scope: 'a b', registration: 'pre', revision: '2025-06-18' } },
    });
    if (!('config' in r)) throw new Error('expected a config');
    const back = configToForm(r.config);
    expect(back).toMatchObject({ oauthClientId: 'id', oauthClientSecret: 's', oauthScope: 'a b', oauthRegistration: 'pre', oauthRevision: '2025-06-18', oauthDisabled: false, oauthRest: { grant: 'clientCredentials' } });
    expect(formToConfig({ ...base, oauthDisabled: true })).toEqual({ config: { name: 'r', type: 'http', url: 'https://r.example.com/mcp', headers: {}, oauth: { disabled: true } } });
  });
  it('checks the OAuth fields', () => {
    const base = { ...emptyForm, name: 'r', type: 'sse' as const, url: 'https://r.example.com/sse' };
    expect(formToConfig({ ...base, oauthMetadataUrl: 'http://example.com/client.json' })).toEqual({ errors: { oauthMetadataUrl: 'An https:// URL with a path, e.g. https://example.com/client.json' } });
    expect(formToConfig({ ...base, oauthMetadataUrl: 'http://127.0.0.1:9/client.json' })).toHaveProperty('config');
    expect(formToConfig({ ...base, oauthRegistration: 'pre' })).toEqual({ errors: { oauthClientId: 'Pre-registration needs the client id' } });
    expect(formToConfig({ ...base, oauthRegistration: 'cimd' })).toEqual({ errors: { oauthMetadataUrl: 'Give the Client ID Metadata Document URL' } });
  });
  it('hands its OAuth fields to the shared OAuthFields and takes their edits back', () => {
    const f = { ...emptyForm, oauthClientId: 'id', oauthClientSecret: 's', oauthMetadataUrl: 'https://c.example/m.json', oauthScope: 'a', oauthRegistration: 'cimd' as const, oauthRevision: '2025-11-25' as const };
    const v = oauthValues(f);
    expect(v).toEqual({ revision: '2025-11-25', registration: 'cimd', clientId: 'id', clientSecret: 's', clientMetadataUrl: 'https://c.example/m.json', scope: 'a' });
    expect({ ...emptyForm, ...oauthPatch(v) }).toEqual(f);
    expect(oauthPatch({ scope: 'b' })).toEqual({ oauthScope: 'b' });
  });
});

import { describe, expect, it } from 'vitest';
import { configToForm, emptyForm, formToConfig } from './configForm';

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
});

import { describe, expect, it } from 'vitest';
import { appMayCall, uiLink } from './linkage';

describe('tool linkage', () => {
  it('finds the UI in order of precedence', () => {
    expect(uiLink({ name: 'a', _meta: { ui: { resourceUri: 'ui://a' }, 'ui/resourceUri': 'ui://b' } } as any)).toEqual({ uri: 'ui://a', kind: 'mcpApp' });
    expect(uiLink({ name: 'a', _meta: { 'openai/outputTemplate': 'ui://w' } } as any)).toEqual({ uri: 'ui://w', kind: 'openaiWidget' });
    expect(uiLink({ name: 'a' })).toBeNull();
  });
  it('says which tools an app may call, as the server enforces', () => {
    const plain = { name: 'echo' };
    const appOnly = { name: 'x', _meta: { ui: { visibility: ['app'] } } };
    const modelOnly = { name: 'y', _meta: { ui: { visibility: ['model'] } } };
    const widget = { name: 'z', _meta: { 'openai/widgetAccessible': true } };
    expect([plain, appOnly, modelOnly, widget].map((t) => appMayCall(t as any, 'mcpApp'))).toEqual([true, true, false, true]);
    expect([plain, appOnly, modelOnly, widget].map((t) => appMayCall(t as any, 'openaiWidget'))).toEqual([false, true, false, true]);
  });
});

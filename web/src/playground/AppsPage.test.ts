// The Apps overview's list: the tools `uiLink` says have an app, in the servers' order, named
// by flavour, and narrowed by every word of the filter.
import { describe, expect, it } from 'vitest';
import type { Tool } from '../api/client';
import { appTools } from './AppsPage';

const tool = (name: string, _meta?: Record<string, unknown>, description?: string) => ({ name, inputSchema: { type: 'object' }, _meta, description }) as unknown as Tool;

describe('apps overview', () => {
  const lists = [
    { server: 'b', tools: [tool('plain'), tool('counter', { ui: { resourceUri: 'ui://b/counter' } }, 'Counts clicks')] },
    { server: 'a', tools: [tool('widget', { 'openai/outputTemplate': 'ui://a/w' }), tool('old', { 'ui/resourceUri': 'ui://a/old' })] },
    { server: 'c', tools: undefined },
  ];

  it('lists the app tools with their flavour, in the order given', () => {
    const apps = appTools(lists, '');
    expect(apps.map((x) => `${x.server}/${x.tool.name}: ${x.flavour} ${x.link.uri}`)).toEqual([
      'b/counter: MCP App ui://b/counter',
      'a/widget: OpenAI Apps SDK ui://a/w',
      'a/old: MCP App (ui/resourceUri, deprecated) ui://a/old',
    ]);
  });

  it('keeps what matches every word of the filter, in any field', () => {
    expect(appTools(lists, 'CLICKS').map((x) => x.tool.name)).toEqual(['counter']);
    expect(appTools(lists, 'a ui://a/w').map((x) => x.tool.name)).toEqual(['widget']);
    expect(appTools(lists, 'openai counter')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { Emulation } from './devices';
import { parsePlaygroundArgs, playgroundArgs } from './usePlaygroundRoute';

describe('the playground URL', () => {
  it('names server, tool, device, theme and host, and reads them back', () => {
    const e = { device: 'mobile', width: 430, height: 932, host: 'claude-ai', conditions: { theme: 'dark' } } as unknown as Emulation;
    const args = playgroundArgs('demo', 'show_counter_app', e);
    expect(args).toEqual(['demo', 'show_counter_app', 'device=mobile', 'theme=dark', 'host=claude-ai']);
    expect(parsePlaygroundArgs(args)).toEqual({ server: 'demo', tool: 'show_counter_app', device: 'mobile', theme: 'dark' });
  });

  it('takes a URL with only a server, or a value holding "="', () => {
    expect(parsePlaygroundArgs(['demo'])).toEqual({ server: 'demo', tool: undefined, device: undefined, theme: undefined });
    expect(parsePlaygroundArgs(['demo', 't', 'device=a=b', 'junk'])).toMatchObject({ device: 'a=b' });
  });
});

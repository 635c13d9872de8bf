import { describe, expect, it } from 'vitest';
import { APP_MESSAGE_LIMITS, appIdentity, createAppMessageChannel } from './appMessages';

const app = appIdentity('demo', 'ui://demo/app.html');
const other = appIdentity('demo', 'ui://demo/other.html');

describe('app message channel', () => {
  it('labels the turn with the app and its server', async () => {
    const sent: string[] = [];
    const channel = createAppMessageChannel(async (t) => void sent.push(t));
    await channel.send(app, 'hello');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^\[Message from the app ui:\/\/demo\/app\.html of server "demo", sent with the user's approval\]/);
    expect(sent[0].endsWith('\n\nhello')).toBe(true);
  });

  it('rate-limits each app on its own and forgets old attempts', () => {
    const channel = createAppMessageChannel(async () => undefined);
    const t0 = 1_000_000;
    for (let i = 0; i < APP_MESSAGE_LIMITS.perApp; i++) expect(channel.admit(app, 'x', t0 + i)).toBeNull();
    expect(channel.admit(app, 'x', t0 + 10)).toMatch(/already posted 5 messages/);
    expect(channel.admit(other, 'x', t0 + 10)).toBeNull();
    expect(channel.admit(app, 'x', t0 + APP_MESSAGE_LIMITS.windowMs + 10)).toBeNull();
  });

  it('refuses overlong text and remembers "allow" per app', () => {
    const channel = createAppMessageChannel(async () => undefined);
    expect(channel.admit(app, 'x'.repeat(APP_MESSAGE_LIMITS.maxChars + 1))).toMatch(/at most/);
    expect(channel.allowed(app)).toBe(false);
    channel.allow(app);
    expect(channel.allowed(app)).toBe(true);
    expect(channel.allowed(other)).toBe(false);
  });

  it('passes on a full queue as a rejection', async () => {
    const channel = createAppMessageChannel(async () => {
      throw new Error('5 app messages already wait');
    });
    await expect(channel.send(app, 'x')).rejects.toThrow(/already wait/);
  });
});

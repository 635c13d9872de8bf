// The sign-in panel reads its status through the query cache: signing out or a failed sign-in
// fetches the status again, and so do the server's `status` and `authorizationRequired`
// events and a resync — another server's events do not.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { OAuthStatusView, ServerView } from '../api/types.gen';
import { fakeApiEachTest, ok } from '../test/fakeApi';
import { renderWithQuery } from '../test/queryHarness';
import { ServerOAuth } from './ServerOAuth';
import { signInStore } from './store';

const STATUS = '/api/servers/remote/oauth';
const view = { config: { name: 'remote', type: 'http', url: 'http://127.0.0.1:9/mcp' }, status: { state: 'connected' }, info: null, stderr: [] } as unknown as ServerView;

const status = (p: Partial<OAuthStatusView>): OAuthStatusView => ({
  server: 'remote',
  applicable: true,
  url: 'http://127.0.0.1:9/mcp',
  signedIn: false,
  accessToken: null,
  expiresAtMs: null,
  hasRefreshToken: false,
  scope: null,
  clientId: null,
  registration: null,
  issuer: null,
  pendingAuthorizationUrl: null,
  lastSteps: [],
  ...p,
});
const signedIn = status({ signedIn: true, accessToken: 'eyJh…(masked)', clientId: 'client-1', registration: 'dcr' });
const signedOut = status({});

const api = fakeApiEachTest();
beforeEach(() => {
  signInStore.set({});
  // The sign-in tab: a browser that refused it (jsdom has no windows to open).
  vi.spyOn(window, 'open').mockReturnValue(null);
});

const panelState = () => screen.getByTestId('server-oauth').dataset.state;

describe('ServerOAuth', () => {
  it('fetches the status again after a sign-out', async () => {
    api.on('GET', STATUS, ok(signedIn), ok(signedOut));
    api.on('DELETE', STATUS, ok());
    renderWithQuery(<ServerOAuth view={view} />);
    await waitFor(() => expect(panelState()).toBe('signedIn'));
    fireEvent.click(screen.getByTestId('server-oauth-signout'));
    await waitFor(() => expect(panelState()).toBe('signedOut'));
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual([`GET ${STATUS}`, `DELETE ${STATUS}`, `GET ${STATUS}`]);
  });

  it('shows why a sign-in failed and fetches the status again', async () => {
    api.on('GET', STATUS, ok(signedOut), ok(status({ clientId: 'client-1' })));
    api.on('POST', `${STATUS}/authorize`, ok({ outcome: 'failed', message: 'the authorization server refused the client' }));
    renderWithQuery(<ServerOAuth view={view} />);
    await waitFor(() => expect(panelState()).toBe('signedOut'));
    fireEvent.click(screen.getByTestId('server-oauth-signin'));
    expect(await screen.findByTestId('server-oauth-error')).toHaveProperty('textContent', 'the authorization server refused the client');
    await screen.findByTestId('server-oauth-client');
    expect(api.count('GET', STATUS)).toBe(2);
  });

  it("refetches on the server's status and authorizationRequired events, not on another server's", async () => {
    const waiting = status({ pendingAuthorizationUrl: 'http://127.0.0.1:9/authorize?x=1' });
    api.on('GET', STATUS, ok(signedOut), ok(waiting), ok(signedIn));
    const { emit } = renderWithQuery(<ServerOAuth view={view} />);
    await waitFor(() => expect(panelState()).toBe('signedOut'));

    emit({ type: 'status', server: 'other', status: { state: 'connecting' } });
    emit({ type: 'authorizationRequired', server: 'remote', url: 'http://127.0.0.1:9/authorize?x=1' });
    await waitFor(() => expect(panelState()).toBe('required'));
    expect(screen.getByTestId('server-oauth-open').getAttribute('href')).toBe('http://127.0.0.1:9/authorize?x=1');

    emit({ type: 'status', server: 'remote', status: { state: 'connected' } });
    await waitFor(() => expect(panelState()).toBe('signedIn'));
    expect(api.count('GET', STATUS)).toBe(3);
  });

  it('refetches after a resync', async () => {
    api.on('GET', STATUS, ok(signedOut), ok(signedIn));
    const { resync } = renderWithQuery(<ServerOAuth view={view} />);
    await waitFor(() => expect(panelState()).toBe('signedOut'));
    resync();
    await waitFor(() => expect(panelState()).toBe('signedIn'));
  });
});

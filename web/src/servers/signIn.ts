// Signing in to a server: `POST /api/servers/{name}/oauth/authorize` connects (signing in on
// the way). When it answers with an authorization URL, the tab opened by the click goes there;
// the authorization server redirects it to mcplab's `/oauth/callback`, which sends it on to
// `/#/servers/<name>`, and the connection carries on by itself (its status arrives as events).
import type { OAuthAuthorizeResult } from '../api/types.gen';
import { oauthApi } from '../oauth/api';
import { dropTab, holdTab, openBlankTab, sendTab } from '../oauth/popup';
import { setPendingSignIn } from './store';

const tabKey = (name: string) => `server:${name}`;

/** Opens the empty sign-in tab; call it in the click handler, before `authorize`. */
export function holdSignInTab(name: string): void {
  holdTab(tabKey(name), openBlankTab());
}

/** Connects, signing in on the way: sends the held tab to the authorization URL, or closes it. */
export async function authorize(name: string, force = false): Promise<OAuthAuthorizeResult> {
  const key = tabKey(name);
  try {
    const r = await oauthApi.authorize(name, force);
    if (r.outcome === 'authorizationUrl') {
      const opened = sendTab(key, r.url);
      setPendingSignIn(name, { url: r.url, opened });
    } else {
      dropTab(key);
      setPendingSignIn(name, null);
    }
    return r;
  } catch (e) {
    dropTab(key);
    throw e;
  }
}

/** Call from a click handler (the sign-in tab is opened during the click). */
export function signIn(name: string, force = false): Promise<OAuthAuthorizeResult> {
  holdSignInTab(name);
  return authorize(name, force);
}

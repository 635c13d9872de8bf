// Signing in to a server: `POST /api/servers/{name}/oauth/authorize` connects (signing in on
// the way). When it answers with an authorization URL, the tab opened by the click goes there;
// the authorization server redirects it to mcplab's `/oauth/callback`, which sends it on to
// `/#/servers/<name>`, and the connection carries on by itself (its status arrives as events).
import type { OAuthAuthorizeResult } from '../api/types.gen';
import { oauthApi } from '../oauth/api';
import { dropTab, holdTab, openBlankTab, sendTab } from '../oauth/popup';
import { setPendingSignIn } from './store';

/** Call from a click handler (the sign-in tab is opened during the click). */
export async function signIn(name: string, force = false): Promise<OAuthAuthorizeResult> {
  const key = `server:${name}`;
  holdTab(key, openBlankTab());
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

// Sign-in tabs. A browser lets a page open a window only during a click, but the
// authorization URL is known only after a request (or a step) arrives; so the click opens an
// empty tab at once, and it is sent to the authorization URL when that is known, or closed
// when no sign-in is needed after all. The authorization server's redirect then brings that
// tab back to mcplab (`/oauth/callback` → `/#/oauth/<runId>` or `/#/servers/<name>`).
import { openSessionStream } from '../api/events';
import type { OAuthDebugEvent } from '../api/types.gen';
import { oauthApi } from './api';
import { authorizationUrlOf, awaitingBrowser } from './steps';

const tabs = new Map<string, Window>();

/** Opens an empty tab now (call it in a click handler); null when the browser refused. */
export function openBlankTab(message = 'mcplab is preparing the sign-in…'): Window | null {
  let w: Window | null;
  try {
    w = window.open('', '_blank');
  } catch {
    return null;
  }
  if (!w) return null;
  try {
    // The authorization page must not reach back into mcplab through `opener`.
    w.opener = null;
    w.document.title = 'mcplab sign-in';
    const p = w.document.createElement('p');
    p.textContent = message;
    p.style.cssText = 'font: 14px system-ui, sans-serif; padding: 24px; color: #5a6374';
    w.document.body.appendChild(p);
  } catch {
    /* a browser that already navigated it */
  }
  return w;
}

/**
 * Opens `url` in a new tab from a click, keeping this tab's sign-in for it (a tab opened with
 * an opener starts with a copy of its sessionStorage), so the tab the authorization server
 * redirects back to mcplab is signed in; `opener` is cleared before it leaves for the
 * authorization server. False when the browser refused a tab.
 */
export function openSignInTab(url: string): boolean {
  const w = openBlankTab();
  if (!w) return false;
  try {
    w.location.href = url;
    return true;
  } catch {
    return false;
  }
}

/** Keeps a tab for `key` (a run id, or `server:<name>`). */
export function holdTab(key: string, w: Window | null): void {
  if (w) tabs.set(key, w);
}

/** Sends the held tab to `url`; false when there is none (or it was closed): show a button. */
export function sendTab(key: string, url: string): boolean {
  const w = tabs.get(key);
  tabs.delete(key);
  if (!w || w.closed) return false;
  try {
    w.location.href = url;
    return true;
  } catch {
    return false;
  }
}

/** Closes the held tab if it is still empty (no sign-in was needed). */
export function dropTab(key: string): void {
  const w = tabs.get(key);
  tabs.delete(key);
  try {
    if (w && !w.closed) w.close();
  } catch {
    /* gone already */
  }
}

export function hasTab(key: string): boolean {
  const w = tabs.get(key);
  return !!w && !w.closed;
}

/**
 * Follows a debugger run in the background (whatever page is shown meanwhile) until it asks
 * for the browser, then sends the run's held tab to the authorization URL; a run that ends
 * first closes the tab.
 */
export function sendTabWhenAsked(runId: string): void {
  if (!hasTab(runId)) return;
  let done = false;
  const finish = (url: string | null) => {
    if (done) return;
    done = true;
    if (url) sendTab(runId, url);
    else dropTab(runId);
    stop();
  };
  const stop = openSessionStream<OAuthDebugEvent>(oauthApi.debugEventsPath(runId), {
    onEvent: (ev) => {
      if (ev.kind === 'step') {
        const url = authorizationUrlOf(ev.step);
        if (url) finish(url);
      } else if (ev.kind === 'finished') finish(null);
    },
    onResync: () => {
      oauthApi.debugRun(runId).then(
        (run) => {
          const url = awaitingBrowser(run);
          if (url) finish(url);
          else if (run.state !== 'running') finish(null);
        },
        () => finish(null),
      );
    },
  });
}

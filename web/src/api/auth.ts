// The tab's sign-in. mcplab gives a browser no cookie: the page redeems a one-time login code
// (`/auth?code=…`, from the URL mcplab printed or `mcplab open`) for a session secret, keeps it
// in sessionStorage (this tab and this origin only — so no other loopback port ever sees it,
// and a reload keeps it) and sends it as `Authorization: Bearer` on every API request.
import type { SessionGranted, SessionRequest } from './types.gen';

const KEY = 'mcplab.session';

export function sessionSecret(): string | null {
  try {
    return window.sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** The header every API request carries (none when the tab is not signed in). */
export function authHeaders(): Record<string, string> {
  const secret = sessionSecret();
  return secret ? { Authorization: `Bearer ${secret}` } : {};
}

export type SignInResult = { ok: true; next: string } | { ok: false; message: string };

/** Redeems `code` (once) and keeps the session secret; `next` is where to go after. */
export async function redeemLoginCode(code: string, next: string | null): Promise<SignInResult> {
  const body: SessionRequest = next ? { code, next } : { code };
  let res: Response;
  try {
    res = await fetch('/api/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (e) {
    return { ok: false, message: `Cannot reach mcplab (${(e as Error).message}). Is it still running?` };
  }
  if (!res.ok) {
    let message = `${res.status} ${res.statusText}`;
    try {
      message = ((await res.json()) as { message?: string }).message ?? message;
    } catch {
      /* not JSON */
    }
    return { ok: false, message };
  }
  const granted = (await res.json()) as SessionGranted;
  window.sessionStorage.setItem(KEY, granted.secret);
  return { ok: true, next: granted.next };
}

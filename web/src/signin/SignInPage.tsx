// `/auth?code=…&next=…`: the page a login URL opens. It redeems the one-time code for this
// tab's session secret (api/auth.ts), takes the code out of the address bar, and moves on to
// where the server says `next` may go; a code that was used or expired gets the server's
// explanation of where to find a new one.
import { useEffect, useState } from 'react';
import { redeemLoginCode } from '../api/auth';

let started = false;

export function SignInPage() {
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    if (started) return;
    started = true;
    const params = new URLSearchParams(window.location.search);
    const code = params.get('code') ?? '';
    // The code is useless after this, but it has no business in history either.
    window.history.replaceState(null, '', '/auth');
    void redeemLoginCode(code, params.get('next')).then((r) => {
      if (r.ok) window.location.replace(r.next);
      else setFailure(r.message);
    });
  }, []);
  return (
    <div className="boot">
      <div className="brand">mcplab</div>
      {failure ? (
        <div className="state state-error" role="alert" data-testid="login-refused">
          {failure}
        </div>
      ) : (
        <div className="muted" data-testid="signing-in">
          Signing in…
        </div>
      )}
    </div>
  );
}

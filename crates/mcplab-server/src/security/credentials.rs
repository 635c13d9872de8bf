//! The secrets that open `/api`, and their lifecycles. The **launch secret** is made once per
//! process and never reaches a browser: scripts and `mcplab open` read it from the data
//! directory (the binary writes it there). A **login code** is what a URL carries: valid once,
//! for [`LOGIN_CODE_TTL`]; redeeming it yields a fresh **session secret** that the page keeps
//! in `sessionStorage` (origin-scoped, so port-scoped: unlike a cookie, no other loopback port
//! ever sees it). Every comparison is constant-time over every live entry. Nothing here reads
//! headers or knows about HTTP; nothing here is ever logged.

use std::time::{Duration, Instant};

use parking_lot::{Mutex, MutexGuard};
use subtle::ConstantTimeEq;

/// How long a login code may wait to be used.
pub const LOGIN_CODE_TTL: Duration = Duration::from_secs(120);
/// Live login codes at most (a script minting in a loop evicts the oldest, never grows memory).
const MAX_CODES: usize = 64;
/// Browser sessions at most; the oldest is forgotten first (that tab then says "signed out").
const MAX_SESSIONS: usize = 256;

/// `bytes` random bytes from the OS generator, hex.
fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::fill(buf.as_mut_slice());
    hex::encode(buf)
}

/// A fresh launch secret (256 bits, hex).
pub fn generate_token() -> String {
    random_hex(32)
}

fn same(a: &str, b: &str) -> bool {
    a.as_bytes().ct_eq(b.as_bytes()).into()
}

struct Code {
    value: String,
    expires: Instant,
}

/// The launch secret, the live login codes and the session secrets of one process.
pub struct Credentials {
    launch: String,
    codes: Mutex<Vec<Code>>,
    sessions: Mutex<Vec<String>>,
}

impl Credentials {
    pub fn new(launch: String) -> Self {
        Self {
            launch,
            codes: Mutex::new(Vec::new()),
            sessions: Mutex::new(Vec::new()),
        }
    }

    pub fn launch_secret(&self) -> &str {
        &self.launch
    }

    fn codes(&self) -> MutexGuard<'_, Vec<Code>> {
        let mut codes = self.codes.lock();
        let now = Instant::now();
        codes.retain(|c| c.expires > now);
        codes
    }

    /// A new one-time login code (128 bits, hex), valid for [`LOGIN_CODE_TTL`].
    pub fn mint_login_code(&self) -> String {
        let value = random_hex(16);
        let mut codes = self.codes();
        if codes.len() >= MAX_CODES {
            codes.remove(0);
        }
        codes.push(Code {
            value: value.clone(),
            expires: Instant::now() + LOGIN_CODE_TTL,
        });
        value
    }

    /// Whether `code` could still be redeemed (unused and not expired).
    pub fn code_is_live(&self, code: &str) -> bool {
        self.codes()
            .iter()
            .fold(false, |hit, c| hit | same(&c.value, code))
    }

    /// Uses up `code` and returns a new session secret; `None` when the code is unknown, used
    /// or expired.
    pub fn redeem(&self, code: &str) -> Option<String> {
        {
            let mut codes = self.codes();
            let index = codes.iter().enumerate().fold(None, |hit, (i, c)| {
                if same(&c.value, code) { Some(i) } else { hit }
            })?;
            codes.remove(index);
        }
        let secret = random_hex(32);
        let mut sessions = self.sessions.lock();
        if sessions.len() >= MAX_SESSIONS {
            sessions.remove(0);
        }
        sessions.push(secret.clone());
        Some(secret)
    }

    /// Whether `candidate` is the launch secret or a live session secret.
    pub fn bearer_is_valid(&self, candidate: &str) -> bool {
        let session = self
            .sessions
            .lock()
            .iter()
            .fold(false, |hit, s| hit | same(s, candidate));
        same(&self.launch, candidate) | session
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_works_once_and_its_session_secret_opens_the_api() {
        let c = Credentials::new(generate_token());
        let code = c.mint_login_code();
        assert!(c.code_is_live(&code));
        let secret = c.redeem(&code).expect("first use");
        assert!(c.bearer_is_valid(&secret));
        assert!(c.bearer_is_valid(c.launch_secret()));
        assert!(!c.code_is_live(&code));
        assert_eq!(c.redeem(&code), None, "second use");
        assert!(!c.bearer_is_valid(&code), "a code is not a bearer");
        assert!(!c.bearer_is_valid(""));
        assert!(!c.bearer_is_valid(&secret[..secret.len() - 1]));
    }

    #[test]
    fn codes_and_sessions_are_bounded() {
        let c = Credentials::new(generate_token());
        let first = c.mint_login_code();
        for _ in 0..MAX_CODES {
            c.mint_login_code();
        }
        assert!(!c.code_is_live(&first), "the oldest code was evicted");
        assert_eq!(c.codes().len(), MAX_CODES);
        let oldest = c.redeem(&c.mint_login_code()).unwrap();
        for _ in 0..MAX_SESSIONS {
            let code = c.mint_login_code();
            c.redeem(&code).unwrap();
        }
        assert!(!c.bearer_is_valid(&oldest));
        assert_eq!(c.sessions.lock().len(), MAX_SESSIONS);
    }
}

//! PKCE (RFC 7636) with S256, and the random values of a flow (`state`, `jti`): a code
//! verifier of 43 unreserved characters (32 random bytes, base64url), its SHA-256 challenge.
//! Randomness comes from the operating system.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::rand::{SecureRandom, SystemRandom};

/// A code verifier and its S256 challenge.
pub(crate) struct Pkce {
    pub verifier: String,
    pub challenge: String,
}

impl Pkce {
    pub(crate) fn new() -> Self {
        let verifier = random_token(32);
        let challenge = s256(&verifier);
        Self {
            verifier,
            challenge,
        }
    }
}

/// BASE64URL(SHA256(ASCII(verifier))) without padding.
pub(crate) fn s256(verifier: &str) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA256, verifier.as_bytes());
    URL_SAFE_NO_PAD.encode(digest.as_ref())
}

/// `bytes` random bytes, base64url without padding.
pub(crate) fn random_token(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    // The system RNG only fails when the OS has no entropy source at all, and then no
    // secret this flow could make would be safe.
    SystemRandom::new()
        .fill(&mut buf)
        .expect("the operating system offers no random number source");
    URL_SAFE_NO_PAD.encode(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc7636_appendix_b_example() {
        assert_eq!(
            s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }

    #[test]
    fn verifiers_are_43_unreserved_characters_and_differ() {
        let a = Pkce::new();
        let b = Pkce::new();
        assert_eq!(a.verifier.len(), 43);
        assert!(
            a.verifier
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        );
        assert_ne!(a.verifier, b.verifier);
        assert_eq!(a.challenge, s256(&a.verifier));
    }
}

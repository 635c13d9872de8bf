//! DPoP (RFC 9449, the MCP DPoP extension SEP-1932): when an authorization server advertises
//! `dpop_signing_alg_values_supported` with ES256, mcplab makes a P-256 key for the
//! authorization, proves possession of it with a fresh signed proof on every token request
//! and every request to the MCP server (`Authorization: DPoP <token>` plus a `DPoP` header
//! whose `ath` hashes the token), and retries once with the server's nonce when a token
//! endpoint (`400 use_dpop_nonce`) or the MCP server (`401 … error="use_dpop_nonce"`) asks
//! for one. The key lives with the tokens it is bound to.

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use ring::rand::SystemRandom;
use ring::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair};
use serde_json::{Value, json};
use url::Url;

use super::OAuthError;
use super::pkce::random_token;

/// The only proof algorithm mcplab signs with.
pub(crate) const ALGORITHM: &str = "ES256";
/// The header a server sends its nonce in.
pub(crate) const NONCE_HEADER: &str = "DPoP-Nonce";

/// A DPoP key pair (EC P-256).
pub(crate) struct DpopKey {
    pkcs8: Vec<u8>,
    pair: EcdsaKeyPair,
    rng: SystemRandom,
}

impl std::fmt::Debug for DpopKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DpopKey").field("jwk", &self.jwk()).finish()
    }
}

fn key_error(e: impl std::fmt::Display) -> OAuthError {
    OAuthError::setup(
        format!("the DPoP key could not be made or read ({e})"),
        "sign out and sign in again for a new key",
    )
}

impl DpopKey {
    /// A new random key.
    pub(crate) fn generate() -> Result<Self, OAuthError> {
        let rng = SystemRandom::new();
        let doc = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng)
            .map_err(key_error)?;
        Self::from_pkcs8(doc.as_ref().to_vec())
    }

    /// The key stored with a token set (base64 PKCS#8).
    pub(crate) fn from_stored(text: &str) -> Result<Self, OAuthError> {
        Self::from_pkcs8(STANDARD.decode(text.trim()).map_err(key_error)?)
    }

    fn from_pkcs8(pkcs8: Vec<u8>) -> Result<Self, OAuthError> {
        let rng = SystemRandom::new();
        let pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &pkcs8, &rng)
            .map_err(key_error)?;
        Ok(Self { pkcs8, pair, rng })
    }

    /// What is stored with the tokens (base64 PKCS#8; the store is private to the user).
    pub(crate) fn to_stored(&self) -> String {
        STANDARD.encode(&self.pkcs8)
    }

    /// The public key as a JWK (never the private part).
    pub(crate) fn jwk(&self) -> Value {
        // Uncompressed point: 0x04 || X (32 bytes) || Y (32 bytes).
        let point = self.pair.public_key().as_ref();
        json!({
            "kty": "EC",
            "crv": "P-256",
            "x": URL_SAFE_NO_PAD.encode(&point[1..33]),
            "y": URL_SAFE_NO_PAD.encode(&point[33..65]),
        })
    }

    /// A proof for one request: `htm` and `htu` of the request, `ath` when an access token
    /// goes with it, `nonce` when the server gave one.
    pub(crate) fn proof(
        &self,
        htm: &str,
        url: &Url,
        access_token: Option<&str>,
        nonce: Option<&str>,
    ) -> Result<String, OAuthError> {
        let header = json!({ "typ": "dpop+jwt", "alg": ALGORITHM, "jwk": self.jwk() });
        let mut claims = json!({
            "jti": random_token(16),
            "htm": htm,
            "htu": htu(url),
            "iat": super::now_ms() / 1000,
        });
        if let Some(token) = access_token {
            claims["ath"] = json!(URL_SAFE_NO_PAD.encode(ring::digest::digest(
                &ring::digest::SHA256,
                token.as_bytes()
            )));
        }
        if let Some(nonce) = nonce {
            claims["nonce"] = json!(nonce);
        }
        let input = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(header.to_string()),
            URL_SAFE_NO_PAD.encode(claims.to_string())
        );
        let signature = self
            .pair
            .sign(&self.rng, input.as_bytes())
            .map_err(|_| key_error("signing failed"))?;
        Ok(format!(
            "{input}.{}",
            URL_SAFE_NO_PAD.encode(signature.as_ref())
        ))
    }
}

/// The `htu` of a URL: without query and fragment (RFC 9449 §4.2).
pub(crate) fn htu(url: &Url) -> String {
    let mut u = url.clone();
    u.set_query(None);
    u.set_fragment(None);
    u.to_string()
}

/// Whether metadata's `dpop_signing_alg_values_supported` lets mcplab use DPoP.
pub(crate) fn supported(algorithms: Option<&Vec<String>>) -> bool {
    algorithms.is_some_and(|a| a.iter().any(|x| x == ALGORITHM))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proofs_carry_the_public_key_and_the_request() {
        let key = DpopKey::generate().unwrap();
        let again = DpopKey::from_stored(&key.to_stored()).unwrap();
        assert_eq!(key.jwk(), again.jwk());
        assert!(key.jwk().get("d").is_none());
        let url = Url::parse("http://127.0.0.1:1/mcp?x=1#f").unwrap();
        let proof = key.proof("POST", &url, Some("tok"), Some("n1")).unwrap();
        let parts: Vec<&str> = proof.split('.').collect();
        assert_eq!(parts.len(), 3);
        let claims: Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).unwrap()).unwrap();
        assert_eq!(claims["htu"], "http://127.0.0.1:1/mcp");
        assert_eq!(claims["htm"], "POST");
        assert_eq!(claims["nonce"], "n1");
        assert!(claims["ath"].as_str().is_some_and(|a| a.len() == 43));
        let header: Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[0]).unwrap()).unwrap();
        assert_eq!(header["typ"], "dpop+jwt");
        // The signature verifies with the public key.
        let point = key.pair.public_key().as_ref().to_vec();
        let verifier = ring::signature::UnparsedPublicKey::new(
            &ring::signature::ECDSA_P256_SHA256_FIXED,
            point,
        );
        let signed = format!("{}.{}", parts[0], parts[1]);
        let sig = URL_SAFE_NO_PAD.decode(parts[2]).unwrap();
        assert!(verifier.verify(signed.as_bytes(), &sig).is_ok());
    }
}

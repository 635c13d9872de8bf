//! Client assertions for `private_key_jwt` (RFC 7523 §2.2, SEP-1046): a JWT signed with the
//! client's EC P-256 key (ES256) whose `iss` and `sub` are the client id and whose `aud` is the
//! authorization server's issuer. Only ES256 is supported; other keys are refused with a
//! message saying so.

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use ring::rand::SystemRandom;
use ring::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair};
use serde_json::json;

use super::OAuthError;
use super::pkce::random_token;

/// How long an assertion is valid.
const LIFETIME_SECS: u64 = 300;

/// A signed client assertion.
pub(crate) fn client_assertion(
    pem: &str,
    client_id: &str,
    audience: &str,
) -> Result<String, OAuthError> {
    let der = pem_to_der(pem)?;
    let rng = SystemRandom::new();
    let key =
        EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &der, &rng).map_err(|e| {
            OAuthError::setup(
                format!("the private key is not a PKCS#8 EC P-256 key ({e})"),
                "give an unencrypted PKCS#8 PEM EC P-256 key (ES256 is the only algorithm \
                 mcplab signs with)",
            )
        })?;
    let now = super::now_ms() / 1000;
    let header = json!({"alg": "ES256", "typ": "JWT"});
    let claims = json!({
        "iss": client_id,
        "sub": client_id,
        "aud": audience,
        "iat": now,
        "exp": now + LIFETIME_SECS,
        "jti": random_token(16),
    });
    let signing_input = format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(header.to_string()),
        URL_SAFE_NO_PAD.encode(claims.to_string())
    );
    let signature = key
        .sign(&rng, signing_input.as_bytes())
        .map_err(|_| OAuthError::setup("signing the client assertion failed", "check the key"))?;
    Ok(format!(
        "{signing_input}.{}",
        URL_SAFE_NO_PAD.encode(signature.as_ref())
    ))
}

fn pem_to_der(pem: &str) -> Result<Vec<u8>, OAuthError> {
    let body: String = pem
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("-----") && !l.is_empty())
        .collect();
    if pem.contains("ENCRYPTED") {
        return Err(OAuthError::setup(
            "the private key is encrypted",
            "give the key unencrypted (PKCS#8 PEM)",
        ));
    }
    STANDARD.decode(body).map_err(|e| {
        OAuthError::setup(
            format!("the private key is not PEM ({e})"),
            "give a PKCS#8 PEM (-----BEGIN PRIVATE KEY-----)",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ring::signature::{ECDSA_P256_SHA256_FIXED, KeyPair, UnparsedPublicKey};

    #[test]
    fn assertion_is_a_verifiable_es256_jwt() {
        let rng = SystemRandom::new();
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng).unwrap();
        let pem = format!(
            "-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----\n",
            STANDARD.encode(pkcs8.as_ref())
        );
        let jwt = client_assertion(&pem, "client-1", "https://as.test").unwrap();
        let parts: Vec<&str> = jwt.split('.').collect();
        assert_eq!(parts.len(), 3);
        let claims: serde_json::Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).unwrap()).unwrap();
        assert_eq!(claims["iss"], "client-1");
        assert_eq!(claims["sub"], "client-1");
        assert_eq!(claims["aud"], "https://as.test");
        let key = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8.as_ref(), &rng)
            .unwrap();
        let public = UnparsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, key.public_key().as_ref());
        let signed = format!("{}.{}", parts[0], parts[1]);
        let signature = URL_SAFE_NO_PAD.decode(parts[2]).unwrap();
        public.verify(signed.as_bytes(), &signature).unwrap();
        assert!(client_assertion("not a key", "c", "a").is_err());
    }
}

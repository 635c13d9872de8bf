//! What a flow leaves behind for a server: the client registration and the tokens, with what
//! refreshing them needs (token endpoint, `resource`, client authentication). They persist per
//! server and URL through [`CredentialStore`]; the SQLite store implements it, and
//! [`MemoryCredentials`] serves tests and debugger runs, which must not touch stored sign-ins.

use std::collections::HashMap;

use mcplab_protocol::oauth::RegistrationMethod;
use parking_lot::Mutex;
use serde::{Deserialize, Serialize};

use super::token::TokenAuthMethod;
use super::{OAuthError, now_ms};

/// How long before expiry a token is refreshed (or at most a tenth of its lifetime).
const REFRESH_MARGIN_MS: u64 = 60_000;

/// A client id the authorization server knows, and how the client authenticates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientRegistration {
    pub client_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_secret: Option<String>,
    /// How the client id was obtained (`dcr`, `cimd` or `pre`).
    pub method: RegistrationMethod,
    /// How the client authenticates at the token endpoint.
    #[serde(default)]
    pub auth_method: TokenAuthMethod,
    /// `token_endpoint_auth_method` as the registration response gave it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registered_auth_method: Option<String>,
    #[serde(default)]
    pub redirect_uris: Vec<String>,
    /// Where a dynamic registration was made (it is only reused with the same endpoint).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registration_endpoint: Option<String>,
    /// Seconds since the epoch; 0 or absent: the secret does not expire.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_secret_expires_at: Option<u64>,
    #[serde(default)]
    pub registered_at_ms: u64,
}

impl ClientRegistration {
    /// A pre-registered client.
    pub fn pre(client_id: String, client_secret: Option<String>) -> Self {
        Self {
            client_id,
            client_secret,
            method: RegistrationMethod::Pre,
            auth_method: TokenAuthMethod::None,
            registered_auth_method: None,
            redirect_uris: Vec::new(),
            registration_endpoint: None,
            client_secret_expires_at: None,
            registered_at_ms: now_ms(),
        }
    }

    /// Whether the secret has expired (RFC 7591 `client_secret_expires_at`).
    pub fn secret_expired(&self) -> bool {
        match self.client_secret_expires_at {
            Some(at) if at > 0 => at.saturating_mul(1000) <= now_ms(),
            _ => false,
        }
    }
}

/// The tokens of one authorization.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenSet {
    pub access_token: String,
    pub token_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh_token: Option<String>,
    /// Milliseconds since the epoch; None: the server did not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at_ms: Option<u64>,
    /// The granted scope (the requested one when the response named none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    #[serde(default)]
    pub obtained_at_ms: u64,
    /// The DPoP key the tokens are bound to (base64 PKCS#8), when they are (RFC 9449).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dpop_key: Option<String>,
}

impl TokenSet {
    /// Whether the token expires soon enough, at `now_ms`, to refresh it before use.
    pub fn needs_refresh(&self, now_ms: u64) -> bool {
        let Some(expires) = self.expires_at_ms else {
            return false;
        };
        let lifetime = expires.saturating_sub(self.obtained_at_ms);
        let margin = REFRESH_MARGIN_MS.min(lifetime / 10);
        now_ms + margin >= expires
    }

    pub fn expires_in_secs(&self) -> Option<u64> {
        self.expires_at_ms
            .map(|at| at.saturating_sub(now_ms()) / 1000)
    }
}

/// Everything stored for one server URL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Credentials {
    pub server_url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issuer: Option<String>,
    pub token_endpoint: String,
    /// The `resource` parameter the tokens were requested for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
    pub client: ClientRegistration,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<TokenSet>,
}

/// Where credentials persist, keyed by server name and server URL (a configured server's URL
/// may change; ad-hoc targets share a name).
pub trait CredentialStore: Send + Sync {
    fn load_credentials(&self, server: &str, url: &str) -> Result<Option<Credentials>, OAuthError>;
    fn save_credentials(&self, server: &str, creds: &Credentials) -> Result<(), OAuthError>;
    /// Removes everything stored for `server` (every URL); returns how many were removed.
    fn clear_credentials(&self, server: &str) -> Result<usize, OAuthError>;
    /// Every stored (server, credentials) pair.
    fn all_credentials(&self) -> Result<Vec<(String, Credentials)>, OAuthError>;
}

/// Credentials in memory only.
#[derive(Default)]
pub struct MemoryCredentials {
    map: Mutex<HashMap<(String, String), Credentials>>,
}

impl CredentialStore for MemoryCredentials {
    fn load_credentials(&self, server: &str, url: &str) -> Result<Option<Credentials>, OAuthError> {
        Ok(self.map.lock().get(&(server.into(), url.into())).cloned())
    }

    fn save_credentials(&self, server: &str, creds: &Credentials) -> Result<(), OAuthError> {
        self.map
            .lock()
            .insert((server.into(), creds.server_url.clone()), creds.clone());
        Ok(())
    }

    fn clear_credentials(&self, server: &str) -> Result<usize, OAuthError> {
        let mut map = self.map.lock();
        let before = map.len();
        map.retain(|(s, _), _| s != server);
        Ok(before - map.len())
    }

    fn all_credentials(&self) -> Result<Vec<(String, Credentials)>, OAuthError> {
        let mut all: Vec<_> = self
            .map
            .lock()
            .iter()
            .map(|((s, _), c)| (s.clone(), c.clone()))
            .collect();
        all.sort_by(|a, b| (&a.0, &a.1.server_url).cmp(&(&b.0, &b.1.server_url)));
        Ok(all)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refresh_margin_is_bounded_by_the_lifetime() {
        let now = now_ms();
        let token = |lifetime_ms: u64, left_ms: u64| TokenSet {
            dpop_key: None,
            access_token: "a".into(),
            token_type: "Bearer".into(),
            refresh_token: None,
            expires_at_ms: Some(now + left_ms),
            scope: None,
            obtained_at_ms: now + left_ms - lifetime_ms,
        };
        assert!(!token(3_600_000, 3_000_000).needs_refresh(now));
        assert!(token(3_600_000, 30_000).needs_refresh(now));
        // A 10 s token is not refreshed at once, only in its last second.
        assert!(!token(10_000, 9_000).needs_refresh(now));
        assert!(token(10_000, 500).needs_refresh(now));
        let mut forever = token(1, 1);
        forever.expires_at_ms = None;
        assert!(!forever.needs_refresh(now));
    }
}

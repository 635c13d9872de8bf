//! The two metadata documents of discovery, as the flow reads them: protected resource metadata
//! (RFC 9728) and authorization server metadata (RFC 8414, which OpenID configuration extends).
//! Unknown fields are kept in `raw` for display; only what the flow uses is typed.

use serde::Deserialize;
use serde_json::Value;
use url::Url;

/// RFC 9728 protected resource metadata.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct ResourceMetadata {
    pub resource: Option<String>,
    #[serde(default)]
    pub authorization_servers: Vec<String>,
    pub scopes_supported: Option<Vec<String>>,
}

/// RFC 8414 authorization server metadata (or the 2025-03-26 defaults when none was served).
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct AuthServerMetadata {
    pub issuer: Option<String>,
    pub authorization_endpoint: Option<String>,
    pub token_endpoint: Option<String>,
    pub registration_endpoint: Option<String>,
    pub scopes_supported: Option<Vec<String>>,
    pub response_types_supported: Option<Vec<String>>,
    pub grant_types_supported: Option<Vec<String>>,
    pub code_challenge_methods_supported: Option<Vec<String>>,
    pub token_endpoint_auth_methods_supported: Option<Vec<String>>,
    pub client_id_metadata_document_supported: Option<bool>,
    pub authorization_response_iss_parameter_supported: Option<bool>,
    /// RFC 9449: the proof algorithms the token endpoint accepts (DPoP).
    pub dpop_signing_alg_values_supported: Option<Vec<String>>,
}

impl AuthServerMetadata {
    pub(crate) fn supports_grant(&self, grant: &str) -> Option<bool> {
        self.grant_types_supported
            .as_ref()
            .map(|g| g.iter().any(|x| x == grant))
    }

    pub(crate) fn lists_scope(&self, scope: &str) -> bool {
        self.scopes_supported
            .as_ref()
            .is_some_and(|s| s.iter().any(|x| x == scope))
    }
}

/// An endpoint URL from metadata, which must be absolute (http or https).
pub(crate) fn endpoint(value: Option<&str>) -> Option<Url> {
    let url = Url::parse(value?.trim()).ok()?;
    matches!(url.scheme(), "http" | "https").then_some(url)
}

/// Parses a metadata document; `Err` says why it is not one, in words.
pub(crate) fn parse<T: for<'de> Deserialize<'de>>(body: &Value) -> Result<T, String> {
    if !body.is_object() {
        return Err("the body is not a JSON object".into());
    }
    serde_json::from_value(body.clone()).map_err(|e| e.to_string())
}

/// Whether two issuer identifiers are the same, a single trailing `/` aside.
pub(crate) fn same_issuer(a: &str, b: &str) -> bool {
    a.trim_end_matches('/') == b.trim_end_matches('/')
}

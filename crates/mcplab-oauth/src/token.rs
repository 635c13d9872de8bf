//! The token endpoint: client authentication (`client_secret_basic`, `client_secret_post`,
//! `none`, and `private_key_jwt` for the SEP-1046 extension), the request, and the response
//! read into a [`TokenSet`] or an OAuth error with the fix that usually cures it.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use mcplab_protocol::oauth::{OAuthParty, OAuthPhase};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use url::Url;

use super::credentials::TokenSet;
use super::flow::Flow;
use super::http::{Purpose, Request};
use super::mask::mask_secret;
use super::{OAuthError, now_ms};

/// How the client authenticates at the token endpoint.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenAuthMethod {
    /// A public client: `client_id` in the body, no secret.
    #[default]
    None,
    /// HTTP Basic with the form-encoded id and secret.
    ClientSecretBasic,
    /// `client_id` and `client_secret` in the body.
    ClientSecretPost,
    /// A signed JWT assertion (RFC 7523).
    PrivateKeyJwt,
}

impl TokenAuthMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            TokenAuthMethod::None => "none",
            TokenAuthMethod::ClientSecretBasic => "client_secret_basic",
            TokenAuthMethod::ClientSecretPost => "client_secret_post",
            TokenAuthMethod::PrivateKeyJwt => "private_key_jwt",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "none" => Some(TokenAuthMethod::None),
            "client_secret_basic" => Some(TokenAuthMethod::ClientSecretBasic),
            "client_secret_post" => Some(TokenAuthMethod::ClientSecretPost),
            "private_key_jwt" => Some(TokenAuthMethod::PrivateKeyJwt),
            _ => None,
        }
    }
}

/// Who the client is at the token endpoint.
pub(crate) struct ClientAuth<'a> {
    pub client_id: &'a str,
    pub client_secret: Option<&'a str>,
    pub method: TokenAuthMethod,
    pub private_key_pem: Option<&'a str>,
    /// The authorization server's issuer (the audience of a client assertion).
    pub audience: &'a str,
    /// Proves possession of this key and asks for DPoP-bound tokens (RFC 9449).
    pub dpop: Option<&'a super::dpop::DpopKey>,
}

/// POSTs `form` (plus client authentication) to the token endpoint and reads the tokens.
pub(crate) async fn token_request(
    flow: &Flow<'_>,
    phase: OAuthPhase,
    endpoint: &Url,
    mut form: Vec<(String, String)>,
    auth: &ClientAuth<'_>,
) -> Result<TokenSet, OAuthError> {
    let mut req = Request::post_form(endpoint.clone(), Vec::new());
    let secret = || {
        auth.client_secret.ok_or_else(|| {
            OAuthError::setup(
                format!(
                    "{} needs a client secret, and there is none",
                    auth.method.as_str()
                ),
                "give the client secret, or register a public client",
            )
        })
    };
    match auth.method {
        TokenAuthMethod::None => form.push(("client_id".into(), auth.client_id.into())),
        TokenAuthMethod::ClientSecretPost => {
            form.push(("client_id".into(), auth.client_id.into()));
            form.push(("client_secret".into(), secret()?.into()));
        }
        TokenAuthMethod::ClientSecretBasic => {
            // RFC 6749 §2.3.1: both parts are form-encoded before joining.
            let enc =
                |s: &str| url::form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>();
            let pair = format!("{}:{}", enc(auth.client_id), enc(secret()?));
            req = req.header("Authorization", format!("Basic {}", STANDARD.encode(pair)));
        }
        TokenAuthMethod::PrivateKeyJwt => {
            let pem = auth.private_key_pem.ok_or_else(|| {
                OAuthError::setup(
                    "private_key_jwt needs the client's private key, and there is none",
                    "give the private key (PKCS#8 PEM, EC P-256)",
                )
            })?;
            let assertion = super::jwt::client_assertion(pem, auth.client_id, auth.audience)?;
            form.push(("client_id".into(), auth.client_id.into()));
            form.push((
                "client_assertion_type".into(),
                "urn:ietf:params:oauth:client-assertion-type:jwt-bearer".into(),
            ));
            form.push(("client_assertion".into(), assertion));
        }
    }
    req.body = Some(super::http::Body::Form(form.clone()));
    let grant = form
        .iter()
        .find(|(k, _)| k == "grant_type")
        .map(|(_, v)| v.as_str())
        .unwrap_or("");
    let title = match grant {
        "authorization_code" => "Exchange the authorization code for tokens",
        "refresh_token" => "Refresh the access token",
        "client_credentials" => "Request a token with the client credentials",
        "urn:ietf:params:oauth:grant-type:jwt-bearer" => {
            "Exchange the identity assertion for an access token (JWT bearer grant)"
        }
        _ => "Request a token",
    };
    let purpose = Purpose {
        phase,
        party: OAuthParty::AuthorizationServer,
        title,
    };
    let resp = send_with_proof(flow, &purpose, &mut req, auth.dpop).await?;
    let body = resp.json();
    if resp.status.is_success() {
        let mut tokens = read_tokens(body.as_ref(), &resp.excerpt(), auth.dpop.is_some())?;
        tokens.dpop_key = auth.dpop.map(|k| k.to_stored());
        flow.log.discovered(
            phase,
            match phase {
                OAuthPhase::Refresh => "Received a refreshed access token",
                _ => "Received an access token",
            },
            json!({
                "access_token": mask_secret(&tokens.access_token),
                "token_type": tokens.token_type,
                "expires_in": tokens.expires_in_secs(),
                "refresh_token": tokens.refresh_token.as_deref().map(mask_secret),
                "scope": tokens.scope,
                "client_authentication": auth.method.as_str(),
            }),
        );
        return Ok(tokens);
    }
    let error = body
        .as_ref()
        .and_then(|b| b.get("error"))
        .and_then(Value::as_str);
    match error {
        Some(error) => Err(OAuthError::Refused {
            endpoint: "token".into(),
            error: error.to_string(),
            description: body
                .as_ref()
                .and_then(|b| b.get("error_description"))
                .and_then(Value::as_str)
                .map(str::to_owned),
            fix: fix_for(error, auth, grant),
        }),
        None => Err(OAuthError::setup(
            format!(
                "the token endpoint answered HTTP {} without an OAuth error ({})",
                resp.status.as_u16(),
                resp.excerpt()
            ),
            "answer token errors with a JSON {\"error\": …} body (RFC 6749 §5.2)",
        )),
    }
}

/// Sends a token request, with a DPoP proof when a key is given; a `400 use_dpop_nonce` with a
/// `DPoP-Nonce` header is answered once with a proof carrying that nonce (RFC 9449 §8).
async fn send_with_proof(
    flow: &Flow<'_>,
    purpose: &Purpose<'_>,
    req: &mut Request,
    key: Option<&super::dpop::DpopKey>,
) -> Result<super::http::Response, OAuthError> {
    let Some(key) = key else {
        return flow.http.send(flow.log, purpose, req).await;
    };
    let mut nonce: Option<String> = None;
    loop {
        req.headers.retain(|(k, _)| !k.eq_ignore_ascii_case("DPoP"));
        let proof = key.proof("POST", &req.url, None, nonce.as_deref())?;
        req.headers.push(("DPoP".into(), proof));
        let resp = flow.http.send(flow.log, purpose, req).await?;
        let asks_nonce = resp.status.as_u16() == 400
            && resp
                .json()
                .and_then(|b| b.get("error").and_then(Value::as_str).map(str::to_owned))
                .as_deref()
                == Some("use_dpop_nonce");
        let given = resp
            .headers
            .get(super::dpop::NONCE_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        match (asks_nonce, given) {
            (true, Some(n)) if nonce.as_deref() != Some(n.as_str()) => {
                flow.log.chose(
                    purpose.phase,
                    "Retry with the authorization server's DPoP nonce",
                    format!("the token endpoint answered use_dpop_nonce with DPoP-Nonce {n}"),
                );
                nonce = Some(n);
            }
            _ => return Ok(resp),
        }
    }
}

/// A successful token response as a [`TokenSet`]; `dpop` says a DPoP proof was sent, so a
/// `DPoP` token type is expected rather than refused.
fn read_tokens(body: Option<&Value>, excerpt: &str, dpop: bool) -> Result<TokenSet, OAuthError> {
    let Some(body) = body.filter(|b| b.is_object()) else {
        return Err(OAuthError::setup(
            format!("the token response is not a JSON object ({excerpt})"),
            "answer with application/json: {\"access_token\": …, \"token_type\": \"Bearer\"}",
        ));
    };
    let text = |k: &str| body.get(k).and_then(Value::as_str).map(str::to_owned);
    let Some(access_token) = text("access_token").filter(|t| !t.is_empty()) else {
        return Err(OAuthError::setup(
            "the token response has no access_token",
            "return access_token and token_type (RFC 6749 §5.1)",
        ));
    };
    let token_type = text("token_type").unwrap_or_else(|| "Bearer".into());
    let dpop_bound = dpop && token_type.eq_ignore_ascii_case("dpop");
    if !token_type.eq_ignore_ascii_case("bearer") && !dpop_bound {
        return Err(OAuthError::setup(
            format!("the token is of type `{token_type}`; MCP uses Bearer tokens"),
            "issue Bearer tokens to MCP clients",
        ));
    }
    let expires_in = match body.get("expires_in") {
        Some(Value::Number(n)) => n.as_u64(),
        Some(Value::String(s)) => s.trim().parse().ok(),
        _ => None,
    };
    let now = now_ms();
    Ok(TokenSet {
        access_token,
        token_type,
        refresh_token: text("refresh_token").filter(|t| !t.is_empty()),
        expires_at_ms: expires_in.map(|s| now + s.saturating_mul(1000)),
        scope: text("scope").filter(|s| !s.trim().is_empty()),
        obtained_at_ms: now,
        dpop_key: None,
    })
}

/// What usually cures a token endpoint error.
fn fix_for(error: &str, auth: &ClientAuth<'_>, grant: &str) -> String {
    match error {
        "invalid_client" => format!(
            "the client was not accepted (client_id {}, authenticated with {}): check the \
             client id and secret, and that the token endpoint accepts {}",
            auth.client_id,
            auth.method.as_str(),
            auth.method.as_str()
        ),
        "invalid_grant" if grant == "refresh_token" => {
            "the refresh token was refused (expired or revoked): sign in again".into()
        }
        "invalid_grant" => "the code was refused: it may have expired or been used already, or \
                            redirect_uri / code_verifier differ from the authorization request; \
                            sign in again"
            .into(),
        "unauthorized_client" => format!(
            "allow the `{grant}` grant for client {} at the authorization server",
            auth.client_id
        ),
        "unsupported_grant_type" => format!(
            "enable the `{grant}` grant at the authorization server (and list it in \
             grant_types_supported)"
        ),
        "invalid_scope" => {
            "request scopes the authorization server knows (see its scopes_supported)".into()
        }
        "invalid_target" => "the `resource` parameter was refused (RFC 8707): register the \
                             MCP server's URL as a resource at the authorization server"
            .into(),
        _ => "see the authorization server's error_description".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_tokens_t(body: Option<&Value>, excerpt: &str) -> Result<TokenSet, OAuthError> {
        read_tokens(body, excerpt, false)
    }

    #[test]
    fn token_responses_are_read_with_their_quirks() {
        let t = read_tokens_t(
            Some(&json!({"access_token": "a", "token_type": "bearer", "expires_in": "60", "scope": ""})),
            "",
        )
        .unwrap();
        assert_eq!(t.token_type, "bearer");
        assert!(t.expires_at_ms.unwrap() > now_ms() + 59_000);
        assert_eq!(t.scope, None);
        let no_type = read_tokens_t(Some(&json!({"access_token": "a"})), "").unwrap();
        assert_eq!(no_type.token_type, "Bearer");
        assert!(read_tokens_t(Some(&json!({"token_type": "Bearer"})), "").is_err());
        let dpop = json!({"access_token": "a", "token_type": "DPoP"});
        // A DPoP token is refused unless a proof was sent for it.
        let refused = read_tokens(Some(&dpop), "", false);
        assert!(refused.unwrap_err().to_string().contains("Bearer"));
        assert_eq!(
            read_tokens(Some(&dpop), "", true).unwrap().token_type,
            "DPoP"
        );
        assert!(read_tokens_t(None, "<html>").is_err());
    }

    #[test]
    fn auth_methods_round_trip_their_names() {
        for m in [
            TokenAuthMethod::None,
            TokenAuthMethod::ClientSecretBasic,
            TokenAuthMethod::ClientSecretPost,
            TokenAuthMethod::PrivateKeyJwt,
        ] {
            assert_eq!(TokenAuthMethod::parse(m.as_str()), Some(m));
        }
        assert_eq!(TokenAuthMethod::parse("tls_client_auth"), None);
    }
}

//! The grants of the MCP authorization extensions, which need no browser: client credentials
//! (SEP-1046: the client's own token, authenticated by secret or `private_key_jwt`) and
//! cross-app access (SEP-990, enterprise-managed: the user's ID token is exchanged at the
//! identity provider for an identity assertion, ID-JAG, per RFC 8693, which the MCP server's
//! authorization server takes in the JWT bearer grant, RFC 7523). Both start after discovery.

use mcplab_protocol::oauth::{OAuthParty, OAuthPhase};
use serde_json::{Value, json};
use url::Url;

use super::OAuthError;
use super::credentials::{ClientRegistration, Credentials};
use super::discovery::Discovery;
use super::flow::{Flow, with_requested_scope};
use super::http::{Purpose, Request};
use super::mask::mask_secret;
use super::registration::choose_auth_method;
use super::token::{ClientAuth, token_request};

const TOKEN_EXCHANGE: &str = "urn:ietf:params:oauth:grant-type:token-exchange";
const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const ID_TOKEN_TYPE: &str = "urn:ietf:params:oauth:token-type:id_token";
const ID_JAG_TYPE: &str = "urn:ietf:params:oauth:token-type:id-jag";

/// The pre-registered client these grants authenticate as.
fn pre_registered(flow: &Flow<'_>, grant: &str) -> Result<ClientRegistration, OAuthError> {
    let Some(client_id) = flow.opts.client_id.clone() else {
        return Err(OAuthError::setup(
            format!("the {grant} grant needs a pre-registered client"),
            "give the client id and its secret (or private key)",
        ));
    };
    Ok(ClientRegistration::pre(
        client_id,
        flow.opts.client_secret.clone(),
    ))
}

fn warn_unlisted(flow: &Flow<'_>, found: &Discovery, grant: &str) {
    if found.metadata.supports_grant(grant) == Some(false) {
        flow.log.warn(
            OAuthPhase::AuthServerMetadata,
            format!("The authorization server does not list `{grant}` in grant_types_supported"),
            format!("add {grant} to grant_types_supported, or use another grant"),
        );
    }
}

/// Asks the token endpoint for a token with `form` as `client`, and wraps the result.
async fn finish(
    flow: &Flow<'_>,
    found: &Discovery,
    client: ClientRegistration,
    form: Vec<(String, String)>,
    scope: Option<String>,
) -> Result<Credentials, OAuthError> {
    let method = choose_auth_method(flow, &found.metadata, &client)?;
    let dpop = flow.dpop_key(found, None)?;
    let auth = ClientAuth {
        client_id: &client.client_id,
        client_secret: client.client_secret.as_deref(),
        method,
        private_key_pem: flow.opts.private_key_pem.as_deref(),
        audience: found.issuer_text(),
        dpop: dpop.as_ref(),
    };
    let tokens = token_request(flow, OAuthPhase::Token, &found.token_endpoint, form, &auth).await?;
    let mut client = client;
    client.auth_method = method;
    Ok(Credentials {
        server_url: flow.server.to_string(),
        issuer: found.issuer.clone(),
        token_endpoint: found.token_endpoint.to_string(),
        resource: found.resource.clone(),
        client,
        tokens: Some(with_requested_scope(tokens, scope)),
    })
}

/// SEP-1046: a token for the client itself.
pub(crate) async fn client_credentials(
    flow: &Flow<'_>,
    found: &Discovery,
    scope: Option<String>,
) -> Result<Credentials, OAuthError> {
    let fail = |e| flow.log.fail(OAuthPhase::Token, e);
    warn_unlisted(flow, found, "client_credentials");
    let client = pre_registered(flow, "client credentials").map_err(fail)?;
    let mut form = vec![("grant_type".to_string(), "client_credentials".to_string())];
    if let Some(scope) = &scope {
        form.push(("scope".into(), scope.clone()));
    }
    if let Some(resource) = &found.resource {
        form.push(("resource".into(), resource.clone()));
    }
    finish(flow, found, client, form, scope).await.map_err(fail)
}

/// SEP-990: ID token → ID-JAG at the identity provider → access token at the authorization
/// server.
pub(crate) async fn cross_app_access(
    flow: &Flow<'_>,
    found: &Discovery,
    scope: Option<String>,
) -> Result<Credentials, OAuthError> {
    let fail = |e| flow.log.fail(OAuthPhase::Token, e);
    let Some(idp) = flow.opts.enterprise.clone() else {
        return Err(fail(OAuthError::setup(
            "cross-app access needs the enterprise identity provider",
            "give its token endpoint and the user's ID token (and this client's id there)",
        )));
    };
    warn_unlisted(flow, found, JWT_BEARER);
    let client = pre_registered(flow, "cross-app access").map_err(fail)?;
    let endpoint = Url::parse(&idp.token_endpoint).map_err(|e| {
        fail(OAuthError::setup(
            format!("the identity provider's token endpoint is not a URL: {e}"),
            "give its absolute https URL",
        ))
    })?;
    let audience = found.issuer_text().to_string();
    flow.log.chose(
        OAuthPhase::Token,
        "Exchange the ID token for an identity assertion (ID-JAG)",
        format!(
            "cross-app access: the identity provider issues an assertion for the authorization \
             server {audience} and the resource {}",
            found.resource.as_deref().unwrap_or("(none)")
        ),
    );
    let mut form = vec![
        ("grant_type".to_string(), TOKEN_EXCHANGE.to_string()),
        ("requested_token_type".into(), ID_JAG_TYPE.into()),
        ("subject_token".into(), idp.id_token.clone()),
        ("subject_token_type".into(), ID_TOKEN_TYPE.into()),
        ("audience".into(), audience),
    ];
    if let Some(resource) = &found.resource {
        form.push(("resource".into(), resource.clone()));
    }
    if let Some(scope) = &scope {
        form.push(("scope".into(), scope.clone()));
    }
    if let Some(id) = &idp.client_id {
        form.push(("client_id".into(), id.clone()));
    }
    if let Some(secret) = &idp.client_secret {
        form.push(("client_secret".into(), secret.clone()));
    }
    let purpose = Purpose {
        phase: OAuthPhase::Token,
        party: OAuthParty::IdentityProvider,
        title: "Token exchange at the identity provider (RFC 8693)",
    };
    let resp = flow
        .http
        .send(flow.log, &purpose, &Request::post_form(endpoint, form))
        .await
        .map_err(fail)?;
    let body = resp.json().unwrap_or(Value::Null);
    let text = |k: &str| body.get(k).and_then(Value::as_str).map(str::to_owned);
    let assertion = match (resp.status.is_success(), text("access_token")) {
        (true, Some(jag)) => jag,
        _ => {
            return Err(fail(OAuthError::Refused {
                endpoint: "identity provider token".into(),
                error: text("error").unwrap_or_else(|| format!("HTTP {}", resp.status.as_u16())),
                description: text("error_description").or_else(|| Some(resp.excerpt())),
                fix: "check the ID token (issuer, audience, expiry) and that the identity \
                      provider may issue assertions for this authorization server"
                    .into(),
            }));
        }
    };
    if text("issued_token_type").as_deref() != Some(ID_JAG_TYPE) {
        flow.log.warn(
            OAuthPhase::Token,
            "The identity provider did not say it issued an ID-JAG",
            format!("answer the exchange with issued_token_type {ID_JAG_TYPE}"),
        );
    }
    flow.log.discovered(
        OAuthPhase::Token,
        "Received an identity assertion (ID-JAG)",
        json!({ "assertion": mask_secret(&assertion), "issued_token_type": text("issued_token_type") }),
    );
    let mut form = vec![
        ("grant_type".to_string(), JWT_BEARER.to_string()),
        ("assertion".into(), assertion),
    ];
    if let Some(scope) = &scope {
        form.push(("scope".into(), scope.clone()));
    }
    finish(flow, found, client, form, scope).await.map_err(fail)
}

/// SEP-1933 workload identity federation: the workload's own JWT (issued by its platform) goes
/// to the token endpoint with the JWT bearer grant. A refusal is reported as it is: the grant is
/// not retried and no other grant is tried.
pub(crate) async fn workload_identity(
    flow: &Flow<'_>,
    found: &Discovery,
    scope: Option<String>,
) -> Result<Credentials, OAuthError> {
    let fail = |e| flow.log.fail(OAuthPhase::Token, e);
    let Some(assertion) = flow.opts.assertion.clone() else {
        return Err(fail(OAuthError::setup(
            "the workload identity grant needs the workload's JWT",
            "give the JWT your platform issued for this workload (its audience must be the \
             authorization server)",
        )));
    };
    warn_unlisted(flow, found, JWT_BEARER);
    let client = pre_registered(flow, "workload identity").map_err(fail)?;
    flow.log.chose(
        OAuthPhase::Token,
        "Present the workload's JWT with the JWT bearer grant (RFC 7523)",
        format!(
            "workload identity federation: the authorization server {} trusts the workload's \
             issuer; no user, no browser",
            found.issuer_text()
        ),
    );
    let mut form = vec![
        ("grant_type".to_string(), JWT_BEARER.to_string()),
        ("assertion".into(), assertion),
    ];
    if let Some(resource) = &found.resource {
        form.push(("resource".into(), resource.clone()));
    }
    if let Some(scope) = &scope {
        form.push(("scope".into(), scope.clone()));
    }
    finish(flow, found, client, form, scope).await.map_err(fail)
}

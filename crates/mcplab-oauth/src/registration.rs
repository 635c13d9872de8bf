//! Getting a client id, in the 2025-11-25 order of preference: a pre-registered client, a
//! Client ID Metadata Document URL when the authorization server supports them, dynamic client
//! registration (RFC 7591) otherwise; and choosing how the client authenticates at the token
//! endpoint from what the registration returned and what the metadata supports. A stored
//! dynamic registration is reused while it fits (same endpoint, a matching redirect URI,
//! a secret that has not expired).

use mcplab_protocol::oauth::{OAuthParty, OAuthPhase, RegistrationMethod};
use serde_json::{Value, json};
use url::Url;

use super::credentials::{ClientRegistration, Credentials};
use super::discovery::Discovery;
use super::flow::Flow;
use super::http::{Body, Purpose, Request};
use super::mask::mask_step_value;
use super::metadata::AuthServerMetadata;
use super::token::TokenAuthMethod;
use super::urls::redirect_matches;
use super::{OAuthError, now_ms};

/// The client id to use for this authorization, registering one if needed.
pub(crate) async fn obtain_client(
    flow: &Flow<'_>,
    found: &Discovery,
    redirect_uri: &str,
    previous: Option<&Credentials>,
    scope: Option<&str>,
) -> Result<ClientRegistration, OAuthError> {
    let phase = OAuthPhase::Registration;
    let opts = flow.opts;
    let cimd_supported = found.metadata.client_id_metadata_document_supported == Some(true);
    let (method, why) = match opts.registration {
        RegistrationMethod::Auto if opts.client_id.is_some() => (
            RegistrationMethod::Pre,
            "a client id is configured (pre-registration comes first)".to_string(),
        ),
        RegistrationMethod::Auto
            if opts.client_metadata_url.is_some()
                && cimd_supported
                && flow.rules.client_metadata_documents() =>
        {
            (
                RegistrationMethod::Cimd,
                "a Client ID Metadata Document URL is configured and the authorization server \
                 advertises client_id_metadata_document_supported"
                    .to_string(),
            )
        }
        RegistrationMethod::Auto => (
            RegistrationMethod::Dcr,
            match (opts.client_metadata_url.is_some(), cimd_supported) {
                (true, false) => "the authorization server does not advertise Client ID \
                                  Metadata Documents, so dynamic registration"
                    .to_string(),
                _ => "no client id is configured: dynamic client registration".to_string(),
            },
        ),
        chosen => (chosen, "chosen explicitly".to_string()),
    };
    let label = match method {
        RegistrationMethod::Pre => "Use the pre-registered client",
        RegistrationMethod::Cimd => "Use the Client ID Metadata Document URL as client id",
        _ => "Use dynamic client registration",
    };
    flow.log.chose(phase, label, why);
    match method {
        RegistrationMethod::Pre => {
            let Some(id) = opts.client_id.clone() else {
                return Err(OAuthError::setup(
                    "pre-registration was chosen but no client id is configured",
                    "give the client id (and secret) that the authorization server issued",
                ));
            };
            Ok(ClientRegistration::pre(id, opts.client_secret.clone()))
        }
        RegistrationMethod::Cimd => cimd_client(flow, cimd_supported),
        _ => dynamic_client(flow, found, redirect_uri, previous, scope).await,
    }
}

fn cimd_client(flow: &Flow<'_>, supported: bool) -> Result<ClientRegistration, OAuthError> {
    let Some(text) = flow.opts.client_metadata_url.clone() else {
        return Err(OAuthError::setup(
            "Client ID Metadata Document registration was chosen but no document URL is \
             configured",
            "give the HTTPS URL where this client's metadata document is served",
        ));
    };
    let url = Url::parse(&text).map_err(|e| {
        OAuthError::setup(
            format!("the Client ID Metadata Document URL `{text}` is not a URL: {e}"),
            "give an https:// URL with a path, e.g. https://example.com/client.json",
        )
    })?;
    let loopback = matches!(url.host_str(), Some("127.0.0.1" | "localhost" | "[::1]"));
    if (url.scheme() != "https" && !loopback) || url.path() == "/" {
        return Err(OAuthError::setup(
            format!("the Client ID Metadata Document URL {url} must be https with a path"),
            "serve the document at an https:// URL with a path, e.g. https://example.com/client.json",
        ));
    }
    if !supported {
        return Err(OAuthError::setup(
            "the authorization server does not advertise client_id_metadata_document_supported",
            "enable Client ID Metadata Documents on the authorization server, or choose dynamic \
             registration or a pre-registered client",
        ));
    }
    let mut client = ClientRegistration::pre(text, None);
    client.method = RegistrationMethod::Cimd;
    Ok(client)
}

async fn dynamic_client(
    flow: &Flow<'_>,
    found: &Discovery,
    redirect_uri: &str,
    previous: Option<&Credentials>,
    scope: Option<&str>,
) -> Result<ClientRegistration, OAuthError> {
    let phase = OAuthPhase::Registration;
    let endpoint = found.registration_endpoint.as_ref();
    if let (Some(prev), Some(endpoint)) = (previous.map(|p| &p.client), endpoint)
        && prev.method == RegistrationMethod::Dcr
        && prev.registration_endpoint.as_deref() == Some(endpoint.as_str())
        && prev
            .redirect_uris
            .iter()
            .any(|r| redirect_matches(r, redirect_uri))
        && !prev.secret_expired()
    {
        flow.log.chose(
            phase,
            format!("Reuse the registered client {}", prev.client_id),
            "it was registered at the same endpoint for a matching redirect URI",
        );
        return Ok(prev.clone());
    }
    let Some(endpoint) = endpoint else {
        let also = if found.metadata.client_id_metadata_document_supported == Some(true) {
            ", or a Client ID Metadata Document URL (the server supports them)"
        } else {
            ""
        };
        return Err(OAuthError::setup(
            "the authorization server offers no dynamic client registration (its metadata has \
             no registration_endpoint) and no client id is configured",
            format!(
                "register a client for mcplab at the authorization server and give its client \
                 id (and secret){also}; or enable dynamic client registration"
            ),
        ));
    };
    let mut metadata = json!({
        "client_name": flow.opts.client_name,
        "redirect_uris": [redirect_uri],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        // SEP-837: mcplab's redirect URIs are loopback URLs, which OpenID Connect registers
        // for native applications only.
        "application_type": "native",
    });
    if let Some(method) = requested_auth_method(&found.metadata) {
        metadata["token_endpoint_auth_method"] = json!(method);
    }
    if let Some(scope) = scope {
        metadata["scope"] = json!(scope);
    }
    let req = Request {
        method: reqwest::Method::POST,
        url: endpoint.clone(),
        headers: vec![("Accept".into(), "application/json".into())],
        body: Some(Body::Json(metadata)),
    };
    let purpose = Purpose {
        phase,
        party: OAuthParty::AuthorizationServer,
        title: "Register the client (RFC 7591)",
    };
    let resp = flow.http.send(flow.log, &purpose, &req).await?;
    let body = resp.json().unwrap_or(Value::Null);
    let text = |k: &str| body.get(k).and_then(Value::as_str).map(str::to_owned);
    if !resp.status.is_success() && !found.metadata_found && resp.status.as_u16() == 404 {
        return Err(OAuthError::setup(
            "the server publishes no OAuth metadata (neither protected resource nor \
             authorization server metadata) and has no /register endpoint",
            "if the server uses OAuth, publish its protected resource metadata (RFC 9728), or \
             give a pre-registered client id; if it uses another scheme, set an Authorization \
             header",
        ));
    }
    if !resp.status.is_success() {
        let error = text("error").unwrap_or_else(|| format!("HTTP {}", resp.status.as_u16()));
        let fix = match error.as_str() {
            "invalid_redirect_uri" => format!(
                "allow the loopback redirect URI {redirect_uri} (RFC 8252 lets the port vary)"
            ),
            "invalid_client_metadata" => {
                "see the error description: the server refused part of the client metadata".into()
            }
            _ => "check that dynamic client registration is enabled for public clients".into(),
        };
        return Err(OAuthError::Refused {
            endpoint: "registration".into(),
            error,
            description: text("error_description").or_else(|| Some(resp.excerpt())),
            fix,
        });
    }
    let Some(client_id) = text("client_id").filter(|c| !c.is_empty()) else {
        return Err(OAuthError::setup(
            "the registration response has no client_id",
            "return the issued client_id (RFC 7591 §3.2.1)",
        ));
    };
    flow.log.discovered(
        phase,
        format!("Registered as client {client_id}"),
        mask_step_value(&body),
    );
    Ok(ClientRegistration {
        client_id,
        client_secret: text("client_secret").filter(|s| !s.is_empty()),
        method: RegistrationMethod::Dcr,
        auth_method: TokenAuthMethod::None,
        registered_auth_method: text("token_endpoint_auth_method"),
        redirect_uris: body
            .get("redirect_uris")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .filter(|v: &Vec<String>| !v.is_empty())
            .unwrap_or_else(|| vec![redirect_uri.to_string()]),
        registration_endpoint: Some(endpoint.to_string()),
        client_secret_expires_at: body.get("client_secret_expires_at").and_then(Value::as_u64),
        registered_at_ms: now_ms(),
    })
}

/// What to ask for at registration: a public client when the server allows it, else the
/// first secret-based method it lists; nothing when it lists none (its default applies).
fn requested_auth_method(metadata: &AuthServerMetadata) -> Option<&'static str> {
    let supported = metadata.token_endpoint_auth_methods_supported.as_ref()?;
    ["none", "client_secret_basic", "client_secret_post"]
        .into_iter()
        .find(|m| supported.iter().any(|s| s == m))
}

/// How the client authenticates at the token endpoint, and the step that says why.
pub(crate) fn choose_auth_method(
    flow: &Flow<'_>,
    metadata: &AuthServerMetadata,
    client: &ClientRegistration,
) -> Result<TokenAuthMethod, OAuthError> {
    let phase = OAuthPhase::Registration;
    let supported = metadata.token_endpoint_auth_methods_supported.as_deref();
    let lists = |m: TokenAuthMethod| supported.is_some_and(|s| s.iter().any(|x| x == m.as_str()));
    let (method, why): (TokenAuthMethod, String) = if flow.opts.private_key_pem.is_some() {
        (
            TokenAuthMethod::PrivateKeyJwt,
            "a private key is configured: the client signs a JWT assertion (RFC 7523)".into(),
        )
    } else if let Some(registered) = client
        .registered_auth_method
        .as_deref()
        .and_then(TokenAuthMethod::parse)
        .filter(|m| *m != TokenAuthMethod::PrivateKeyJwt)
    {
        (
            registered,
            format!(
                "the registration response set token_endpoint_auth_method to {}",
                registered.as_str()
            ),
        )
    } else if client.client_secret.is_none() {
        (
            TokenAuthMethod::None,
            "the client has no secret (a public client)".into(),
        )
    } else {
        match supported {
            None => (
                TokenAuthMethod::ClientSecretBasic,
                "the metadata lists no token_endpoint_auth_methods_supported, whose default is \
                 client_secret_basic (RFC 8414)"
                    .into(),
            ),
            Some(_) if lists(TokenAuthMethod::ClientSecretBasic) => (
                TokenAuthMethod::ClientSecretBasic,
                "the client has a secret and the server supports client_secret_basic".into(),
            ),
            Some(_) if lists(TokenAuthMethod::ClientSecretPost) => (
                TokenAuthMethod::ClientSecretPost,
                "the client has a secret and the server supports client_secret_post (not \
                 client_secret_basic)"
                    .into(),
            ),
            Some(_) if lists(TokenAuthMethod::None) => (
                TokenAuthMethod::None,
                "the server supports only public clients (`none`), so the secret is not sent"
                    .into(),
            ),
            Some(list) => {
                return Err(OAuthError::setup(
                    format!(
                        "the token endpoint supports only [{}], none of which mcplab can use \
                         with a client secret",
                        list.join(", ")
                    ),
                    "support client_secret_basic, client_secret_post or none",
                ));
            }
        }
    };
    if supported.is_some() && !lists(method) {
        flow.log.warn(
            phase,
            format!(
                "Using {} although token_endpoint_auth_methods_supported does not list it",
                method.as_str()
            ),
            format!(
                "list {} in token_endpoint_auth_methods_supported",
                method.as_str()
            ),
        );
    }
    flow.log.chose(
        phase,
        format!(
            "Authenticate at the token endpoint with {}",
            method.as_str()
        ),
        why,
    );
    Ok(method)
}

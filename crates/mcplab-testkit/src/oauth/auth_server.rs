//! The test authorization server: metadata (RFC 8414 or OpenID configuration, at the URL its
//! issuer path calls for), `/authorize` (validates the request, then approves at once and
//! redirects back with `code` and `state`), `/token` (authorization code with PKCE S256 and
//! `resource`, refresh, client credentials; client authentication by the registered method),
//! and `/register` (RFC 7591). Errors are OAuth error responses.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Json;
use axum::Router;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use base64::Engine;
use serde_json::{Value, json};

use super::{Client, Grant, MetadataMode, Recorded, Shared, Token, s256};

pub(super) fn router(shared: Arc<Shared>) -> Router {
    let prefix = shared.config.issuer_path.clone();
    let mut router = Router::new()
        .route(&format!("{prefix}/authorize"), get(authorize))
        .route(&format!("{prefix}/token"), post(token))
        .route(&format!("{prefix}/register"), post(register));
    match shared.config.metadata {
        MetadataMode::OAuth => {
            router = router.route(
                &format!("/.well-known/oauth-authorization-server{prefix}"),
                get(metadata),
            );
        }
        MetadataMode::OpenId => {
            router = router.route(
                &format!("{prefix}/.well-known/openid-configuration"),
                get(metadata),
            );
        }
        MetadataMode::Missing => {}
    }
    router.with_state(shared)
}

fn oauth_error(status: StatusCode, error: &str, description: &str) -> Response {
    (
        status,
        Json(json!({"error": error, "error_description": description})),
    )
        .into_response()
}

async fn metadata(State(s): State<Arc<Shared>>, uri: axum::http::Uri) -> Json<Value> {
    s.records().metadata_requests.push(uri.path().to_string());
    let c = &s.config;
    let issuer = s.issuer();
    let mut doc = json!({
        "issuer": c.issuer_override.clone().unwrap_or_else(|| issuer.clone()),
        "authorization_endpoint": format!("{issuer}/authorize"),
        "token_endpoint": format!("{issuer}/token"),
        "response_types_supported": ["code"],
        "grant_types_supported": c.grant_types,
        "token_endpoint_auth_methods_supported": c.token_auth_methods,
    });
    if c.dcr {
        doc["registration_endpoint"] = json!(format!("{issuer}/register"));
    }
    if let Some(methods) = &c.pkce_methods {
        doc["code_challenge_methods_supported"] = json!(methods);
    }
    if let Some(scopes) = &c.as_scopes {
        doc["scopes_supported"] = json!(scopes);
    }
    if c.cimd {
        doc["client_id_metadata_document_supported"] = json!(true);
    }
    if c.metadata == MetadataMode::OpenId {
        doc["jwks_uri"] = json!(format!("{issuer}/jwks"));
        doc["subject_types_supported"] = json!(["public"]);
        doc["id_token_signing_alg_values_supported"] = json!(["RS256"]);
    }
    Json(doc)
}

fn loopback_match(registered: &str, wanted: &str) -> bool {
    let strip = |u: &str| -> Option<(String, String)> {
        let rest = u.strip_prefix("http://")?;
        let (hostport, path) = rest.split_once('/').unwrap_or((rest, ""));
        let host = hostport.rsplit_once(':').map_or(hostport, |(h, _)| h);
        Some((host.to_string(), path.to_string()))
    };
    registered == wanted
        || matches!((strip(registered), strip(wanted)), (Some(a), Some(b)) if a == b
            && matches!(a.0.as_str(), "127.0.0.1" | "localhost"))
}

async fn authorize(
    State(s): State<Arc<Shared>>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    s.records().authorize.push(Recorded {
        path: "/authorize".into(),
        params: q.clone(),
        authorization: None,
        body: Value::Null,
    });
    let get = |k: &str| q.get(k).cloned().unwrap_or_default();
    let (client_id, redirect_uri) = (get("client_id"), get("redirect_uri"));
    let known = {
        let clients = s.clients.lock();
        match clients.get(&client_id) {
            Some(c) => {
                c.redirect_uris.is_empty()
                    || c.redirect_uris
                        .iter()
                        .any(|r| loopback_match(r, &redirect_uri))
            }
            None => s.config.cimd && client_id.starts_with("http"),
        }
    };
    if !known {
        return (
            StatusCode::BAD_REQUEST,
            "unknown client_id, or a redirect_uri it did not register",
        )
            .into_response();
    }
    let back = |params: &[(&str, &str)]| {
        let sep = if redirect_uri.contains('?') { '&' } else { '?' };
        let query = url_encode(params);
        Redirect::to(&format!("{redirect_uri}{sep}{query}")).into_response()
    };
    let state = get("state");
    if get("response_type") != "code" {
        return back(&[("error", "unsupported_response_type"), ("state", &state)]);
    }
    if get("code_challenge").is_empty() || get("code_challenge_method") != "S256" {
        return back(&[
            ("error", "invalid_request"),
            ("error_description", "PKCE S256 is required"),
            ("state", &state),
        ]);
    }
    let code = s.next("code");
    s.codes.lock().insert(
        code.clone(),
        Grant {
            client_id,
            redirect_uri: redirect_uri.clone(),
            challenge: get("code_challenge"),
            scope: get("scope").split_whitespace().map(str::to_owned).collect(),
            resource: q.get("resource").cloned(),
        },
    );
    back(&[("code", &code), ("state", &state)])
}

fn url_encode(pairs: &[(&str, &str)]) -> String {
    url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish()
}

fn form_decode(body: &str) -> HashMap<String, String> {
    url::form_urlencoded::parse(body.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

/// One form-encoded component, decoded (RFC 6749 §2.3.1 encodes Basic credentials so).
fn form_component(text: &str) -> String {
    url::form_urlencoded::parse(format!("a={text}").as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default()
}

/// The client a token request authenticates as, by its registered method.
fn authenticate(
    s: &Shared,
    headers: &HeaderMap,
    form: &HashMap<String, String>,
) -> Result<String, Box<Response>> {
    let invalid = |why: &str| {
        Err(Box::new(oauth_error(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            why,
        )))
    };
    let basic = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Basic "))
        .and_then(|b| {
            base64::engine::general_purpose::STANDARD
                .decode(b.trim())
                .ok()
        })
        .and_then(|b| String::from_utf8(b).ok())
        .and_then(|pair| {
            let (id, secret) = pair.split_once(':')?;
            Some((form_component(id), form_component(secret)))
        });
    let (id, secret, used) = match (&basic, form.get("client_secret")) {
        (Some((id, secret)), _) => (id.clone(), Some(secret.clone()), "client_secret_basic"),
        (None, Some(secret)) => (
            form.get("client_id").cloned().unwrap_or_default(),
            Some(secret.clone()),
            "client_secret_post",
        ),
        (None, None) => (
            form.get("client_id").cloned().unwrap_or_default(),
            None,
            "none",
        ),
    };
    let clients = s.clients.lock();
    let Some(client) = clients.get(&id) else {
        if s.config.cimd && id.starts_with("http") && used == "none" {
            return Ok(id);
        }
        return invalid("unknown client");
    };
    if client.auth_method != used {
        return invalid(&format!(
            "this client authenticates with {}, not {used}",
            client.auth_method
        ));
    }
    if client.secret.is_some() && client.secret != secret {
        return invalid("wrong client secret");
    }
    Ok(id)
}

async fn token(State(s): State<Arc<Shared>>, headers: HeaderMap, body: String) -> Response {
    let form = form_decode(&body);
    s.records().token.push(Recorded {
        path: "/token".into(),
        params: form.clone(),
        authorization: headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned),
        body: Value::Null,
    });
    let client_id = match authenticate(&s, &headers, &form) {
        Ok(id) => id,
        Err(resp) => return *resp,
    };
    let grant_type = form.get("grant_type").cloned().unwrap_or_default();
    if !s.config.grant_types.contains(&grant_type) {
        return oauth_error(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            &grant_type,
        );
    }
    let grant = match grant_type.as_str() {
        "authorization_code" => {
            let code = form.get("code").cloned().unwrap_or_default();
            let Some(grant) = s.codes.lock().remove(&code) else {
                return oauth_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_grant",
                    "unknown or used code",
                );
            };
            let verifier = form.get("code_verifier").cloned().unwrap_or_default();
            if grant.client_id != client_id
                || Some(&grant.redirect_uri) != form.get("redirect_uri")
                || s256(&verifier) != grant.challenge
                || grant.resource.as_ref() != form.get("resource")
            {
                return oauth_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_grant",
                    "client, redirect_uri, code_verifier or resource differ from the authorization request",
                );
            }
            grant
        }
        "refresh_token" => {
            let refresh = form.get("refresh_token").cloned().unwrap_or_default();
            let refreshes = s.refresh.lock();
            let Some(grant) = refreshes.get(&refresh) else {
                return oauth_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_grant",
                    "unknown refresh token",
                );
            };
            Grant {
                client_id: grant.client_id.clone(),
                redirect_uri: String::new(),
                challenge: String::new(),
                scope: grant.scope.clone(),
                resource: grant.resource.clone(),
            }
        }
        "client_credentials" => Grant {
            client_id: client_id.clone(),
            redirect_uri: String::new(),
            challenge: String::new(),
            scope: form
                .get("scope")
                .map(|s| s.split_whitespace().map(str::to_owned).collect())
                .unwrap_or_default(),
            resource: form.get("resource").cloned(),
        },
        other => return oauth_error(StatusCode::BAD_REQUEST, "unsupported_grant_type", other),
    };
    let mut grant = grant;
    if let Some(never) = &s.config.impossible_scope {
        grant.scope.retain(|x| x != never);
    }
    let access = s.next("access");
    s.tokens.lock().insert(
        access.clone(),
        Token {
            client_id: grant.client_id.clone(),
            scope: grant.scope.clone(),
            resource: grant.resource.clone(),
            expires_at: Instant::now() + Duration::from_secs(s.config.expires_in),
        },
    );
    let mut reply = json!({
        "access_token": access,
        "token_type": "Bearer",
        "expires_in": s.config.expires_in,
    });
    if !grant.scope.is_empty() {
        reply["scope"] = json!(grant.scope.join(" "));
    }
    if s.config.refresh_tokens && grant_type == "authorization_code" {
        let refresh = s.next("refresh");
        reply["refresh_token"] = json!(refresh);
        s.refresh.lock().insert(refresh, grant);
    }
    Json(reply).into_response()
}

async fn register(State(s): State<Arc<Shared>>, Json(body): Json<Value>) -> Response {
    s.records().register.push(Recorded {
        path: "/register".into(),
        params: HashMap::new(),
        authorization: None,
        body: body.clone(),
    });
    if !s.config.dcr {
        return oauth_error(
            StatusCode::NOT_FOUND,
            "not_found",
            "no dynamic registration",
        );
    }
    let redirect_uris: Vec<String> = body["redirect_uris"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    if redirect_uris.is_empty() {
        return oauth_error(
            StatusCode::BAD_REQUEST,
            "invalid_redirect_uri",
            "redirect_uris is required",
        );
    }
    let method = body["token_endpoint_auth_method"]
        .as_str()
        .unwrap_or("client_secret_basic")
        .to_string();
    if !s.config.token_auth_methods.contains(&method) {
        return oauth_error(
            StatusCode::BAD_REQUEST,
            "invalid_client_metadata",
            "unsupported token_endpoint_auth_method",
        );
    }
    let id = s.next("client");
    let secret = (method != "none").then(|| s.next("secret"));
    s.clients.lock().insert(
        id.clone(),
        Client {
            secret: secret.clone(),
            auth_method: method.clone(),
            redirect_uris: redirect_uris.clone(),
        },
    );
    let mut reply = json!({
        "client_id": id,
        "client_name": body["client_name"],
        "redirect_uris": redirect_uris,
        "token_endpoint_auth_method": method,
        "grant_types": body["grant_types"],
    });
    if let Some(secret) = secret {
        reply["client_secret"] = json!(secret);
        reply["client_secret_expires_at"] = json!(0);
    }
    (StatusCode::CREATED, Json(reply)).into_response()
}

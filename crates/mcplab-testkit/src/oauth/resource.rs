//! The protected MCP server: JSON-RPC over streamable HTTP (`POST /mcp`, JSON responses, no
//! sessions, `GET` and `DELETE` answered 405) and over the legacy HTTP+SSE transport (`GET
//! /sse` announces `/messages?session=N`, answers arrive on the stream), its protected resource
//! metadata at the URL the config chooses, and the Bearer checks: 401 with a challenge
//! (`resource_metadata`, `scope`) without a valid token, 403 `insufficient_scope` when a tool
//! needs more scope.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};

use super::{PrmMode, Shared};

pub(super) fn router(shared: Arc<Shared>) -> Router {
    let mut router = Router::new()
        .route(
            "/mcp",
            axum::routing::post(mcp)
                .get(|| async { StatusCode::METHOD_NOT_ALLOWED })
                .delete(|| async { StatusCode::METHOD_NOT_ALLOWED }),
        )
        .route("/sse", get(sse))
        .route("/messages", axum::routing::post(messages));
    if let Some(path) = prm_path(shared.config.prm) {
        router = router.route(path, get(resource_metadata));
    }
    router.with_state(shared)
}

fn prm_path(mode: PrmMode) -> Option<&'static str> {
    match mode {
        PrmMode::InChallenge | PrmMode::WellKnownPath => {
            Some("/.well-known/oauth-protected-resource/mcp")
        }
        PrmMode::WellKnownRoot => Some("/.well-known/oauth-protected-resource"),
        PrmMode::None => None,
    }
}

async fn resource_metadata(State(s): State<Arc<Shared>>) -> Json<Value> {
    let default = match s.config.prm {
        PrmMode::WellKnownRoot => s.mcp_origin.clone(),
        _ => s.mcp_url(),
    };
    let mut doc = json!({
        "resource": s.config.prm_resource.clone().unwrap_or(default),
        "authorization_servers": [s.issuer()],
        "bearer_methods_supported": ["header"],
    });
    if let Some(scopes) = &s.config.prm_scopes {
        doc["scopes_supported"] = json!(scopes);
    }
    Json(doc)
}

fn challenge(
    s: &Shared,
    status: StatusCode,
    error: &str,
    description: &str,
    scope: &[String],
) -> Response {
    let mut value = format!("Bearer error=\"{error}\", error_description=\"{description}\"");
    if !scope.is_empty() {
        value.push_str(&format!(", scope=\"{}\"", scope.join(" ")));
    }
    if s.config.prm == PrmMode::InChallenge {
        value.push_str(&format!(
            ", resource_metadata=\"{}/.well-known/oauth-protected-resource/mcp\"",
            s.mcp_origin
        ));
    }
    let mut resp = (
        status,
        Json(json!({"error": error, "error_description": description})),
    )
        .into_response();
    if let Ok(v) = HeaderValue::from_str(&value) {
        resp.headers_mut().insert(header::WWW_AUTHENTICATE, v);
    }
    resp
}

/// The scopes a request needs.
fn required(s: &Shared, method: &str, tool: Option<&str>) -> Vec<String> {
    let mut scopes = s.config.required_scopes.clone();
    if method == "tools/call"
        && let Some((_, extra)) = s
            .config
            .tool_scopes
            .iter()
            .find(|(t, _)| Some(t.as_str()) == tool)
    {
        scopes.extend(extra.iter().cloned());
    }
    if let Some(impossible) = &s.config.impossible_scope {
        scopes.push(impossible.clone());
    }
    scopes.dedup();
    scopes
}

/// Checks the Bearer token; returns the client and scopes, or the 401/403 to send.
fn check(
    s: &Shared,
    headers: &HeaderMap,
    method: &str,
    tool: Option<&str>,
) -> Result<Option<(String, Vec<String>)>, Box<Response>> {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    let needed = required(s, method, tool);
    let challenge_scope: Vec<String> = if s.config.challenge_scope {
        needed.clone()
    } else {
        Vec::new()
    };
    let Some(token) = bearer else {
        if s.config.open_methods.iter().any(|m| m == method) {
            return Ok(None);
        }
        return Err(Box::new(challenge(
            s,
            StatusCode::UNAUTHORIZED,
            "invalid_token",
            "Missing Authorization header",
            &challenge_scope,
        )));
    };
    let tokens = s.tokens.lock();
    let Some(t) = tokens
        .get(token)
        .filter(|t| t.expires_at > std::time::Instant::now())
    else {
        return Err(Box::new(challenge(
            s,
            StatusCode::UNAUTHORIZED,
            "invalid_token",
            "The access token is invalid or expired",
            &challenge_scope,
        )));
    };
    let ours = [s.mcp_url(), s.mcp_origin.clone()];
    if let Some(resource) = &t.resource
        && !ours
            .iter()
            .any(|o| o.trim_end_matches('/') == resource.trim_end_matches('/'))
    {
        return Err(Box::new(challenge(
            s,
            StatusCode::UNAUTHORIZED,
            "invalid_token",
            "The token was issued for another resource",
            &challenge_scope,
        )));
    }
    if !needed.iter().all(|n| t.scope.contains(n)) {
        return Err(Box::new(challenge(
            s,
            StatusCode::FORBIDDEN,
            "insufficient_scope",
            "The token lacks a required scope",
            &needed,
        )));
    }
    Ok(Some((t.client_id.clone(), t.scope.clone())))
}

async fn mcp(
    State(s): State<Arc<Shared>>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    let method = body["method"].as_str().unwrap_or_default().to_string();
    let tool = body.pointer("/params/name").and_then(Value::as_str);
    let who = match check(&s, &headers, &method, tool) {
        Ok(who) => who,
        Err(resp) => return *resp,
    };
    match answer(&s, &body, who) {
        Some(reply) => Json(reply).into_response(),
        None => StatusCode::ACCEPTED.into_response(),
    }
}

/// Legacy SSE: the stream (it needs a token like any request) announces where to POST.
async fn sse(State(s): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    if let Err(resp) = check(&s, &headers, "sse", None) {
        return *resp;
    }
    let session = s.next("session");
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let _ = tx.send(format!(
        "event: endpoint\ndata: /messages?session={session}\n\n"
    ));
    s.streams.lock().insert(session, tx);
    let body = futures::stream::unfold(rx, |mut rx| async move {
        rx.recv()
            .await
            .map(|chunk| (Ok::<_, std::convert::Infallible>(chunk), rx))
    });
    (
        [(header::CONTENT_TYPE, "text/event-stream")],
        axum::body::Body::from_stream(body),
    )
        .into_response()
}

/// Legacy SSE: a POSTed frame; its answer goes out on the session's stream.
async fn messages(
    State(s): State<Arc<Shared>>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
    Json(body): Json<Value>,
) -> Response {
    let method = body["method"].as_str().unwrap_or_default().to_string();
    let tool = body.pointer("/params/name").and_then(Value::as_str);
    let who = match check(&s, &headers, &method, tool) {
        Ok(who) => who,
        Err(resp) => return *resp,
    };
    let stream = q
        .get("session")
        .and_then(|id| s.streams.lock().get(id).cloned());
    let Some(stream) = stream else {
        return (StatusCode::NOT_FOUND, "no such session").into_response();
    };
    if let Some(reply) = answer(&s, &body, who) {
        let _ = stream.send(format!("event: message\ndata: {reply}\n\n"));
    }
    (StatusCode::ACCEPTED, "Accepted").into_response()
}

/// The JSON-RPC answer to a frame (None for notifications and responses).
fn answer(s: &Shared, body: &Value, who: Option<(String, Vec<String>)>) -> Option<Value> {
    let method = body["method"].as_str().unwrap_or_default();
    if who.is_some() {
        s.records().mcp_calls.push(method.to_string());
    }
    let id = body.get("id").cloned().filter(|_| !method.is_empty())?;
    let result = match method {
        "initialize" => json!({
            "protocolVersion": body
                .pointer("/params/protocolVersion")
                .cloned()
                .unwrap_or(json!("2025-11-25")),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "oauth-protected-test-server", "version": "1.0.0"},
        }),
        "ping" => json!({}),
        "tools/list" => json!({"tools": [
            {"name": "whoami", "description": "Who the token belongs to",
             "inputSchema": {"type": "object"}},
            {"name": "write_note", "description": "Needs more scope",
             "inputSchema": {"type": "object"}},
        ]}),
        "tools/call" => {
            let (client, scope) = who.unwrap_or_default();
            let text = format!("client {client}, scope [{}]", scope.join(" "));
            json!({"content": [{"type": "text", "text": text}]})
        }
        other => {
            let message = format!("unknown method {other}");
            return Some(json!({
                "jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": message},
            }));
        }
    };
    Some(json!({"jsonrpc": "2.0", "id": id, "result": result}))
}

//! Who is at fault, as each edge says it: a caller's bad params are a usage error (CLI exit 2,
//! HTTP 400 `invalid_params`); a server that breaks the protocol (here one that repeats its
//! `tools/list` cursor forever, `tests/interop/rawsrv.py loop-cursor`) is the server's fault,
//! named (CLI exit 1, HTTP 502 `server_misbehaved`) — never "your config is invalid".

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use mcplab_llm::ProviderSettings;
use mcplab_mcp::{ConnectionManager, ManagerOptions};
use mcplab_server::{AppState, Security, router};
use mcplab_store::Store;
use serde_json::{Value, json};
use tower::ServiceExt;

use super::peer_support::{BIN, mcplab, raw, rawsrv};

const TOKEN: &str = "test-token-0123456789";

fn api() -> axum::Router {
    let store = Arc::new(Store::open_in_memory().unwrap());
    let manager = ConnectionManager::new(ManagerOptions::default());
    router(AppState::new(
        manager,
        store,
        Security::new(TOKEN.into(), 6274, None),
        ProviderSettings::from_vars(&std::collections::HashMap::new()),
    ))
}

async fn call(
    app: &axum::Router,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut b = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, "127.0.0.1:6274")
        .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"));
    if body.is_some() {
        b = b.header(header::CONTENT_TYPE, "application/json");
    }
    let body = body.map_or(Body::empty(), |v| Body::from(v.to_string()));
    let resp = app.clone().oneshot(b.body(body).unwrap()).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// Adds `config` and connects it; panics unless it is connected.
async fn connected(app: &axum::Router, config: Value) {
    let name = config["name"].as_str().unwrap().to_owned();
    let (s, v) = call(app, "POST", "/api/servers?connect=false", Some(config)).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let (s, v) = call(app, "POST", &format!("/api/servers/{name}/connect"), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["status"]["state"], "connected", "{v}");
}

#[tokio::test]
async fn a_looping_cursor_is_the_servers_fault_in_the_cli() {
    let stdio = raw("loop-cursor");
    let o = mcplab(&["--stdio", &stdio, "tools", "list"]).await;
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        o.status.code(),
        Some(1),
        "exit 1 (the call failed), not 2: {stderr}"
    );
    assert!(stderr.contains("repeated the cursor"), "{stderr}");
    // The ad-hoc target is named by what was typed (shortened), not its internal name.
    assert!(
        stderr.contains("server `python3 "),
        "names the server: {stderr}"
    );

    let o = mcplab(&["--json", "--stdio", &stdio, "tools", "list"]).await;
    let v: Value = serde_json::from_slice(&o.stderr).expect("--json failure on stderr");
    assert_eq!(v["error"]["kind"], "server-misbehaved", "{v}");
    assert_eq!(v["error"]["exit"], 1, "{v}");
}

#[tokio::test]
async fn a_callers_bad_params_are_a_usage_error_in_the_cli() {
    let demo = format!("{BIN} demo-server");
    let o = mcplab(&[
        "--stdio",
        &demo,
        "--protocol",
        "2026-07-28",
        "skills",
        "read",
        "no-such-skill",
    ])
    .await;
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("no skill `no-such-skill`"), "{stderr}");
}

#[tokio::test]
async fn a_looping_cursor_is_a_bad_gateway_naming_the_server() {
    let app = api();
    let config = json!({"name": "looper", "type": "stdio", "command": "python3", "args": [rawsrv(), "loop-cursor"]});
    connected(&app, config).await;
    let (s, v) = call(&app, "GET", "/api/servers/looper/tools", None).await;
    assert_eq!(s, StatusCode::BAD_GATEWAY, "{v}");
    assert_eq!(v["code"], "server_misbehaved", "{v}");
    let message = v["message"].as_str().unwrap();
    assert!(message.contains("`looper`"), "{message}");
    assert!(message.contains("repeated the cursor"), "{message}");
}

#[tokio::test]
async fn a_callers_bad_params_are_a_bad_request() {
    let app = api();
    let config = json!({"name": "demo", "type": "stdio", "command": BIN, "args": ["demo-server"]});
    connected(&app, config).await;
    let (s, v) = call(
        &app,
        "POST",
        "/api/servers/demo/skills/load",
        Some(json!({"uri": "no-such-skill"})),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["code"], "invalid_params", "{v}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("no skill `no-such-skill`"),
        "{v}"
    );
}

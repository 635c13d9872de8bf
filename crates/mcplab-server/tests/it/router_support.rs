//! Shared by the router tests (`*_api.rs`): the web server's `AppState` over an in-memory
//! store and a real connection manager, requests as the UI sends them (Host header, JSON body,
//! bearer token), and answers read back as JSON. Requests go through the real router with
//! `tower::ServiceExt::oneshot`; nothing is mocked. [`SocketApp`] serves the router on a real
//! loopback socket instead, for what `oneshot` cannot show. The mcplab crate's router tests,
//! which need its binary as their demo server, use this file too (its
//! `tests/it/router_support.rs`).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use http_body_util::BodyExt;
use mcplab_llm::ProviderSettings;
use mcplab_mcp::{ConnectionManager, ManagerOptions};
use mcplab_server::{AppState, Security};
use mcplab_store::Store;
use serde_json::Value;
use tower::ServiceExt;

/// The session secret the tests' server accepts.
pub const TOKEN: &str = "test-token-0123456789";
/// The port the server believes it listens on (it only checks Host headers against it).
pub const PORT: u16 = 6274;
/// The Host header of a request to that server.
pub const HOST: &str = "127.0.0.1:6274";

/// The state `mcplab serve` builds, on [`PORT`], with no LLM provider configured.
pub fn state() -> Arc<AppState> {
    state_on(PORT)
}

/// [`state`] for a server listening on `port`.
pub fn state_on(port: u16) -> Arc<AppState> {
    let manager = ConnectionManager::new(ManagerOptions::default());
    state_with(manager, port, &HashMap::new())
}

/// The general form: `manager`, an in-memory store, `port`, providers read from `env` (as
/// `serve` reads the process environment).
pub fn state_with(
    manager: Arc<ConnectionManager>,
    port: u16,
    env: &HashMap<String, String>,
) -> Arc<AppState> {
    let security = Security::new(TOKEN.into(), port, None);
    state_secured(manager, security, env)
}

/// The most general form: `security` decides the Host allow-list (e.g. a non-loopback
/// `--host`) and the launch secret.
pub fn state_secured(
    manager: Arc<ConnectionManager>,
    security: Security,
    env: &HashMap<String, String>,
) -> Arc<AppState> {
    let store = Arc::new(Store::open_in_memory().expect("an in-memory store"));
    AppState::new(manager, store, security, providers(env))
}

/// Provider settings from `env` (empty: no provider configured).
pub fn providers(env: &HashMap<String, String>) -> ProviderSettings {
    ProviderSettings::from_vars(env)
}

/// A request to [`HOST`] without credentials, JSON-typed when it will carry `body`.
pub fn req(method: &str, path: &str, body: Option<Value>) -> axum::http::request::Builder {
    let b = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, HOST);
    if body.is_some() {
        b.header(header::CONTENT_TYPE, "application/json")
    } else {
        b
    }
}

/// Sends `builder` with `body` through the router.
pub async fn send(
    app: &axum::Router,
    builder: axum::http::request::Builder,
    body: Option<Value>,
) -> (StatusCode, Value, HeaderMap) {
    let body = body.map_or(Body::empty(), |b| Body::from(b.to_string()));
    send_request(app, builder.body(body).expect("a valid request")).await
}

/// Sends `request` through the router. The answer's body as JSON; a body that is not JSON
/// as a string (so a failure message shows it), an empty one as `null`.
pub async fn send_request(
    app: &axum::Router,
    request: Request<Body>,
) -> (StatusCode, Value, HeaderMap) {
    let resp = app
        .clone()
        .oneshot(request)
        .await
        .expect("the router answers");
    let status = resp.status();
    let headers = resp.headers().clone();
    let bytes = resp
        .into_body()
        .collect()
        .await
        .expect("a whole body")
        .to_bytes();
    let value = match serde_json::from_slice(&bytes) {
        Ok(v) => v,
        Err(_) if bytes.is_empty() => Value::Null,
        Err(_) => Value::String(String::from_utf8_lossy(&bytes).into_owned()),
    };
    (status, value, headers)
}

/// A request with the session secret, as the signed-in UI sends it.
pub async fn authed(
    app: &axum::Router,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let b =
        req(method, path, body.clone()).header(header::AUTHORIZATION, format!("Bearer {TOKEN}"));
    let (s, v, _) = send(app, b, body).await;
    (s, v)
}

/// The router served on a real loopback socket, for what `oneshot` cannot show (event streams
/// read as they come, downloads with their headers): its store a SQLite file in a directory,
/// requests signed in with [`TOKEN`].
pub struct SocketApp {
    pub base: String,
    pub client: reqwest::Client,
}

impl SocketApp {
    /// Serves `manager`'s connections, the providers of `env` and a store in `dir`.
    pub async fn start(
        manager: Arc<ConnectionManager>,
        env: &HashMap<String, String>,
        dir: &Path,
    ) -> SocketApp {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let store = Arc::new(Store::open(&dir.join("mcplab.db")).unwrap());
        let security = Security::new(TOKEN.into(), port, None);
        let state = AppState::new(manager, store, security, providers(env));
        tokio::spawn(axum::serve(listener, mcplab_server::router(state)).into_future());
        SocketApp {
            base: format!("http://127.0.0.1:{port}"),
            client: mcplab_net::tls::client_builder()
                .no_proxy()
                .build()
                .unwrap(),
        }
    }

    /// A signed-in request to `path`, to send and read as it comes.
    pub fn request(&self, method: &str, path: &str) -> reqwest::RequestBuilder {
        self.client
            .request(method.parse().unwrap(), format!("{}{path}", self.base))
            .bearer_auth(TOKEN)
    }

    /// The answer's status and body text.
    pub async fn text(&self, method: &str, path: &str, body: Option<Value>) -> (u16, String) {
        let mut req = self.request(method, path);
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp = req.send().await.unwrap();
        (resp.status().as_u16(), resp.text().await.unwrap())
    }

    /// The answer's status and body as JSON (a body that is not JSON as a string).
    pub async fn call(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let (status, text) = self.text(method, path, body).await;
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }
}

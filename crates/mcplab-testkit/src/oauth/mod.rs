//! A small real OAuth 2.1 setup on loopback for tests and the debugger's browser test: an
//! authorization server (metadata, `/authorize` that approves at once and redirects back,
//! `/token` with PKCE, client authentication, refresh and client credentials, `/register`) and
//! an MCP server it protects (JSON-RPC over streamable HTTP, protected resource metadata, Bearer
//! challenges with `resource_metadata` and `scope`, 403 `insufficient_scope` per tool). Every
//! part of it is a knob in [`OAuthTestConfig`], including the broken setups a debugger must
//! diagnose. It records what clients sent ([`OAuthRecords`]) and can revoke every access token.
//! It must never reach the internet and never outlive its [`OAuthTestServer`] handle.

mod auth_server;
mod resource;

use std::collections::HashMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;

use parking_lot::{Mutex, MutexGuard};
use serde_json::Value;
use tokio::sync::watch;

/// Where the protected resource metadata is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrmMode {
    /// At the path-based well-known URL, and named by `resource_metadata` in challenges.
    InChallenge,
    /// At the path-based well-known URL only.
    WellKnownPath,
    /// At the root well-known URL only.
    WellKnownRoot,
    /// Nowhere (a 2025-03-26 server: its origin is the authorization server).
    None,
}

/// Which authorization server metadata document is served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetadataMode {
    /// RFC 8414, with path insertion for an issuer path.
    OAuth,
    /// OpenID configuration, path appended to an issuer path.
    OpenId,
    /// None (404), for the 2025-03-26 default endpoints.
    Missing,
}

/// Everything the test server can be made to do.
#[derive(Debug, Clone)]
pub struct OAuthTestConfig {
    pub prm: PrmMode,
    /// Overrides the metadata's `resource` (to break it).
    pub prm_resource: Option<String>,
    /// `scopes_supported` of the protected resource metadata.
    pub prm_scopes: Option<Vec<String>>,
    pub metadata: MetadataMode,
    /// A path in the issuer (`/tenant1`), for path-insertion discovery.
    pub issuer_path: String,
    /// Overrides the metadata's `issuer` (to break it).
    pub issuer_override: Option<String>,
    /// Dynamic client registration at `/register`.
    pub dcr: bool,
    /// Advertise `client_id_metadata_document_supported` (URL client ids are accepted).
    pub cimd: bool,
    /// Pre-registered clients: id and optional secret (with a secret: client_secret_basic).
    pub clients: Vec<(String, Option<String>)>,
    /// `token_endpoint_auth_methods_supported`.
    pub token_auth_methods: Vec<String>,
    /// `code_challenge_methods_supported`; None leaves it out.
    pub pkce_methods: Option<Vec<String>>,
    /// `scopes_supported` of the authorization server.
    pub as_scopes: Option<Vec<String>>,
    /// Scopes every request needs; named in the 401's `scope` when `challenge_scope`.
    pub required_scopes: Vec<String>,
    pub challenge_scope: bool,
    /// Extra scopes per tool name for `tools/call` (403 insufficient_scope without them).
    pub tool_scopes: Vec<(String, Vec<String>)>,
    /// MCP methods allowed without a token (e.g. `initialize`).
    pub open_methods: Vec<String>,
    /// A scope no token ever gets: every authenticated request is answered 403 for it.
    pub impossible_scope: Option<String>,
    /// `expires_in` of access tokens, seconds.
    pub expires_in: u64,
    pub refresh_tokens: bool,
    /// Grant types the authorization server advertises and accepts.
    pub grant_types: Vec<String>,
}

impl Default for OAuthTestConfig {
    fn default() -> Self {
        Self {
            prm: PrmMode::InChallenge,
            prm_resource: None,
            prm_scopes: Some(vec!["mcp:basic".into()]),
            metadata: MetadataMode::OAuth,
            issuer_path: String::new(),
            issuer_override: None,
            dcr: true,
            cimd: false,
            clients: Vec::new(),
            token_auth_methods: vec![
                "none".into(),
                "client_secret_basic".into(),
                "client_secret_post".into(),
            ],
            pkce_methods: Some(vec!["S256".into()]),
            as_scopes: None,
            required_scopes: Vec::new(),
            challenge_scope: false,
            tool_scopes: Vec::new(),
            open_methods: Vec::new(),
            impossible_scope: None,
            expires_in: 3600,
            refresh_tokens: true,
            grant_types: vec![
                "authorization_code".into(),
                "refresh_token".into(),
                "client_credentials".into(),
            ],
        }
    }
}

/// One request a client made, as the server saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct Recorded {
    pub path: String,
    /// Query or form parameters.
    pub params: HashMap<String, String>,
    /// The `Authorization` header, if any.
    pub authorization: Option<String>,
    /// A JSON body, if any.
    pub body: Value,
}

/// What clients did.
#[derive(Debug, Clone, Default)]
pub struct OAuthRecords {
    pub metadata_requests: Vec<String>,
    pub authorize: Vec<Recorded>,
    pub token: Vec<Recorded>,
    pub register: Vec<Recorded>,
    /// MCP methods received with a valid token, in order.
    pub mcp_calls: Vec<String>,
}

pub(crate) struct Client {
    pub secret: Option<String>,
    pub auth_method: String,
    pub redirect_uris: Vec<String>,
}

pub(crate) struct Grant {
    pub client_id: String,
    pub redirect_uri: String,
    pub challenge: String,
    pub scope: Vec<String>,
    pub resource: Option<String>,
}

pub(crate) struct Token {
    pub client_id: String,
    pub scope: Vec<String>,
    pub resource: Option<String>,
    pub expires_at: std::time::Instant,
}

/// Shared by both listeners.
pub(crate) struct Shared {
    pub config: OAuthTestConfig,
    /// `http://127.0.0.1:<mcp port>`.
    pub mcp_origin: String,
    /// `http://127.0.0.1:<auth port>` (the MCP origin in 2025-03-26 mode).
    pub auth_origin: String,
    pub records: Mutex<OAuthRecords>,
    pub clients: Mutex<HashMap<String, Client>>,
    pub codes: Mutex<HashMap<String, Grant>>,
    pub tokens: Mutex<HashMap<String, Token>>,
    pub refresh: Mutex<HashMap<String, Grant>>,
    /// Legacy SSE streams by session id.
    pub streams: Mutex<HashMap<String, tokio::sync::mpsc::UnboundedSender<String>>>,
    pub counter: Mutex<u64>,
}

impl Shared {
    pub(crate) fn issuer(&self) -> String {
        format!("{}{}", self.auth_origin, self.config.issuer_path)
    }

    pub(crate) fn mcp_url(&self) -> String {
        format!("{}/mcp", self.mcp_origin)
    }

    pub(crate) fn records(&self) -> MutexGuard<'_, OAuthRecords> {
        self.records.lock()
    }

    pub(crate) fn next(&self, prefix: &str) -> String {
        let mut n = self.counter.lock();
        *n += 1;
        format!("{prefix}-{}-{}", *n, std::process::id())
    }
}

/// A running test setup; stops when dropped.
pub struct OAuthTestServer {
    shared: Arc<Shared>,
    _stop: watch::Sender<bool>,
}

impl OAuthTestServer {
    /// Binds 127.0.0.1:0 (twice, unless the metadata is at the MCP server's origin in
    /// 2025-03-26 mode) and serves until dropped.
    pub async fn start(config: OAuthTestConfig) -> OAuthTestServer {
        let (stop, stopped) = watch::channel(false);
        let mcp = bind().await;
        let legacy = config.prm == PrmMode::None;
        let auth = if legacy { None } else { Some(bind().await) };
        let origin = |l: &tokio::net::TcpListener| {
            let addr: SocketAddr = l.local_addr().expect("bound");
            format!("http://127.0.0.1:{}", addr.port())
        };
        let mcp_origin = origin(&mcp);
        let auth_origin = auth
            .as_ref()
            .map(origin)
            .unwrap_or_else(|| mcp_origin.clone());
        let clients = config
            .clients
            .iter()
            .map(|(id, secret)| {
                let method = if secret.is_some() {
                    "client_secret_basic"
                } else {
                    "none"
                };
                (
                    id.clone(),
                    Client {
                        secret: secret.clone(),
                        auth_method: method.into(),
                        redirect_uris: Vec::new(),
                    },
                )
            })
            .collect();
        let shared = Arc::new(Shared {
            config,
            mcp_origin,
            auth_origin,
            records: Mutex::new(OAuthRecords::default()),
            clients: Mutex::new(clients),
            codes: Mutex::new(HashMap::new()),
            tokens: Mutex::new(HashMap::new()),
            refresh: Mutex::new(HashMap::new()),
            streams: Mutex::new(HashMap::new()),
            counter: Mutex::new(0),
        });
        let auth_routes = auth_server::router(shared.clone());
        let mcp_routes = resource::router(shared.clone());
        match auth {
            Some(auth) => {
                serve(auth, auth_routes, stopped.clone());
                serve(mcp, mcp_routes, stopped);
            }
            None => serve(mcp, mcp_routes.merge(auth_routes), stopped),
        }
        OAuthTestServer {
            shared,
            _stop: stop,
        }
    }

    /// The MCP endpoint (`http://127.0.0.1:<port>/mcp`).
    pub fn mcp_url(&self) -> String {
        self.shared.mcp_url()
    }

    /// The legacy HTTP+SSE endpoint (`http://127.0.0.1:<port>/sse`).
    pub fn sse_url(&self) -> String {
        format!("{}/sse", self.shared.mcp_origin)
    }

    /// The authorization server's issuer identifier.
    pub fn issuer(&self) -> String {
        self.shared.issuer()
    }

    /// Everything recorded so far.
    pub fn records(&self) -> OAuthRecords {
        self.shared.records().clone()
    }

    /// The access tokens currently valid (what a masked token must not reveal).
    pub fn access_tokens(&self) -> Vec<String> {
        self.shared.tokens.lock().keys().cloned().collect()
    }

    /// Invalidates every access token (refresh tokens stay valid).
    pub fn revoke_access_tokens(&self) {
        self.shared.tokens.lock().clear();
    }
}

async fn bind() -> tokio::net::TcpListener {
    tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .expect("bind the OAuth test server on 127.0.0.1:0")
}

fn serve(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    mut stopped: watch::Receiver<bool>,
) {
    tokio::spawn(async move {
        let serve = axum::serve(listener, router).with_graceful_shutdown(async move {
            let _ = stopped.wait_for(|s| *s).await;
        });
        if let Err(error) = serve.await {
            tracing::warn!(%error, "OAuth test server stopped with an error");
        }
    });
}

/// BASE64URL(SHA256(verifier)), for checking PKCE.
pub(crate) fn s256(verifier: &str) -> String {
    use base64::Engine;
    let digest = ring::digest::digest(&ring::digest::SHA256, verifier.as_bytes());
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(digest.as_ref())
}

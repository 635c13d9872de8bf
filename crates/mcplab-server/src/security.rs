//! The security model of DESIGN.md §3 at the HTTP edge: a random per-launch token required on
//! every `/api` request (cookie set by a one-time `/auth?token=` visit, or a bearer header for
//! scripts), a Host allow-list against DNS rebinding, and an Origin check on state-changing
//! requests. The token is never logged.

use std::sync::Arc;

use axum::extract::{Query, Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use subtle::ConstantTimeEq;

use crate::AppState;
use crate::error::ApiFailure;

/// Name of the session cookie.
pub const COOKIE: &str = "mcplab_token";

/// The launch's secret and the hosts the server answers to.
pub struct Security {
    token: String,
    /// `host:port` values accepted in the Host header (lower case).
    allowed_hosts: Vec<String>,
}

/// A fresh random token (256 bits, hex).
pub fn generate_token() -> String {
    let bytes: [u8; 32] = rand::random();
    hex::encode(bytes)
}

impl Security {
    /// `port` is the port actually bound; `extra_host` the non-loopback bind address, if any.
    pub fn new(token: String, port: u16, extra_host: Option<&str>) -> Self {
        let mut allowed_hosts = vec![
            format!("127.0.0.1:{port}"),
            format!("localhost:{port}"),
            format!("[::1]:{port}"),
        ];
        if let Some(h) = extra_host {
            allowed_hosts.push(format!("{}:{port}", h.to_ascii_lowercase()));
        }
        Self {
            token,
            allowed_hosts,
        }
    }

    pub fn token(&self) -> &str {
        &self.token
    }

    /// This server's loopback origin (`http://127.0.0.1:<port>`), e.g. for OAuth redirects.
    pub fn origin(&self) -> String {
        format!("http://{}", self.allowed_hosts[0])
    }

    fn token_matches(&self, candidate: &str) -> bool {
        candidate.as_bytes().ct_eq(self.token.as_bytes()).into()
    }

    fn host_allowed(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        self.allowed_hosts.contains(&host)
    }

    /// An Origin is acceptable when it is `http://` + an allowed host.
    fn origin_allowed(&self, origin: &str) -> bool {
        origin
            .strip_prefix("http://")
            .is_some_and(|host| self.host_allowed(host))
    }
}

fn forbidden(message: &str) -> Response {
    ApiFailure::new(StatusCode::FORBIDDEN, "forbidden", message).into_response()
}

/// Every request: the Host must be ours (DNS rebinding), and a state-changing request that
/// carries an Origin must come from our own page.
pub async fn check_host_and_origin(
    State(state): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    let sec = &state.security;
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !sec.host_allowed(host) {
        return forbidden(
            "this Host is not allowed (mcplab answers only on its own loopback address)",
        );
    }
    let safe = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    if let Some(origin) = request.headers().get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        // GETs with a foreign Origin are refused too: nothing here is meant for other sites.
        if !sec.origin_allowed(origin) && (!safe || request.uri().path().starts_with("/api")) {
            return forbidden("cross-origin requests are not allowed");
        }
    }
    // A subresource request from another site or origin (e.g. an `<img>` in an app running on
    // the sandbox origin, which is same-site because only the port differs) carries the
    // cookie but no Origin; the browser's fetch metadata says where it came from.
    let fetched_from_elsewhere = request
        .headers()
        .get("sec-fetch-site")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|site| matches!(site, "same-site" | "cross-site"));
    if fetched_from_elsewhere && request.uri().path().starts_with("/api") {
        return forbidden("requests from other origins are not allowed");
    }
    next.run(request).await
}

fn presented_token(headers: &HeaderMap) -> Option<&str> {
    if let Some(auth) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        && let Some(t) = auth.strip_prefix("Bearer ")
    {
        return Some(t.trim());
    }
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v)
}

/// `/api/*`: the launch token is required.
pub async fn require_token(
    State(state): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    match presented_token(request.headers()) {
        Some(t) if state.security.token_matches(t) => next.run(request).await,
        _ => ApiFailure::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "missing or wrong token: open the URL mcplab printed when it started",
        )
        .into_response(),
    }
}

#[derive(serde::Deserialize)]
pub struct AuthQuery {
    token: Option<String>,
    /// Where to go after signing in: a path on this origin (`/…`, never `//…`), e.g. the
    /// headless renderer's `/#/render/<spec>`.
    next: Option<String>,
}

/// `next` when it is a plain path on this origin, else `/`.
fn local_path(next: Option<&str>) -> &str {
    match next {
        Some(n)
            if n.starts_with('/')
                && !n.starts_with("//")
                && !n.starts_with("/\\")
                && !n.contains(['\r', '\n']) =>
        {
            n
        }
        _ => "/",
    }
}

/// `/auth?token=…`: sets the HttpOnly, SameSite=Strict cookie and redirects to a clean URL.
pub async fn auth_redirect(
    State(state): State<Arc<AppState>>,
    Query(q): Query<AuthQuery>,
) -> Response {
    match q.token {
        Some(t) if state.security.token_matches(&t) => {
            let cookie = format!("{COOKIE}={t}; HttpOnly; SameSite=Strict; Path=/");
            let to = local_path(q.next.as_deref());
            ([(header::SET_COOKIE, cookie)], Redirect::to(to)).into_response()
        }
        _ => (
            StatusCode::UNAUTHORIZED,
            "This link is not valid for this mcplab launch. Open the URL mcplab printed when it started.",
        )
            .into_response(),
    }
}

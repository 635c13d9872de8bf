//! The security model of DESIGN.md §3 at the HTTP edge: a Host allow-list against DNS
//! rebinding (exactly one Host header), an Origin / fetch-metadata check against other sites
//! and origins, and the per-launch [`Security`] that holds the credentials (`credentials`).
//! How a browser signs in and how `/api` is guarded is `signin`; the main origin's defence
//! headers are `headers`. No secret is ever logged.

mod credentials;
pub mod headers;
pub mod signin;

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::AppState;
use crate::error::ApiFailure;

pub use credentials::{Credentials, LOGIN_CODE_TTL, generate_token};

/// The launch's credentials and the hosts the server answers to.
pub struct Security {
    credentials: Credentials,
    /// `host:port` values accepted in the Host header (lower case).
    allowed_hosts: Vec<String>,
}

impl Security {
    /// `launch_secret` opens `/api` for scripts; `port` is the port actually bound;
    /// `extra_host` the non-loopback bind address, if any.
    pub fn new(launch_secret: String, port: u16, extra_host: Option<&str>) -> Self {
        let mut allowed_hosts = vec![
            format!("127.0.0.1:{port}"),
            format!("localhost:{port}"),
            format!("[::1]:{port}"),
        ];
        if let Some(h) = extra_host {
            allowed_hosts.push(format!("{}:{port}", h.to_ascii_lowercase()));
        }
        Self {
            credentials: Credentials::new(launch_secret),
            allowed_hosts,
        }
    }

    /// The launch secret, login codes and browser sessions.
    pub fn credentials(&self) -> &Credentials {
        &self.credentials
    }

    /// This server's loopback origin (`http://127.0.0.1:<port>`), e.g. for OAuth redirects.
    pub fn origin(&self) -> String {
        format!("http://{}", self.allowed_hosts[0])
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
    let mut hosts = request.headers().get_all(header::HOST).iter();
    let host = hosts.next().and_then(|h| h.to_str().ok()).unwrap_or("");
    if hosts.next().is_some() {
        // Proxies and servers disagree on which of two Hosts counts; refuse to guess.
        return forbidden("a request may carry only one Host header");
    }
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
    // A subresource request from another site or origin (e.g. an `<img>` in an app) carries
    // no Origin; the browser's fetch metadata says where it came from. No credential rides on
    // such a request any more (no cookies), but nothing in `/api` is meant for it either.
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

//! The sandbox: a second listener that serves nothing but the two proxy pages UI HTML from
//! servers runs in (DESIGN.md §2 "Apps", §3). `/mcp-app-proxy.html` hosts MCP Apps and OpenAI
//! widgets; `/mcp-ui-proxy.html` hosts legacy MCP-UI resources. On loopback every rendered app
//! gets an origin of its own, `http://<label>.localhost:<port>` (the UI picks a fresh random
//! label per app; `origins.rs`), a different *site* from the UI on `127.0.0.1`. Each page is
//! sent with a `Content-Security-Policy` header built here from what the resource declared (the
//! `csp` query, sanitized again, mcplab's own origins dropped: the browser is not trusted to
//! have done it), which the app's srcdoc document inherits, plus `frame-ancestors` so only the
//! mcplab host page can embed it. It has no `/api`, no token, no cookies of its own, and
//! answers only on its own Host names.
//!
//! # An app's lifecycle
//!
//! A tool with a UI is called (by the model, or on the Tools page). The web's `AppFrame` mounts
//! (its `AppSession` does the talking): `/api/host` gives the app origin template,
//! `/apps/resource` the HTML, kind, declared CSP and `allow`. The outer iframe loads
//! `http://<fresh label>.localhost:<sandbox port>/mcp-app-proxy.html?csp=<declared>`. The proxy
//! says `sandbox-proxy-ready`; the bridge sends the HTML (CSP reporter and, for OpenAI widgets,
//! the `window.openai` shim injected first) and the frame's nonce, which the proxy puts on
//! everything it relays back. The app gets tool input (partial while the model streams),
//! result or cancellation. Its `tools/call` goes to `/apps/tools/call` (same server by
//! construction, visibility checked server-side); `ui/message` is asked in the app's frame,
//! then becomes the next chat turn with a provenance line; model context and widget state go to
//! `PUT /api/sessions/{id}/app-context/{key}`, system text on the next turn. Closing sends
//! `ui/resource-teardown` first.
//!
//! # Threat model: app origins
//!
//! - **Where app HTML runs.** Never on the UI's origin or site: each `AppFrame` load and each
//!   MCP-UI resource gets `http://<random 20-char label>.localhost:<sandbox port>`. The proxy
//!   frame has `allow-scripts allow-same-origin allow-forms`; that origin is only the app's own.
//!   Only the two proxy pages, only for `Host: <label>.localhost:<port>` (16–32 `[a-z0-9]`, one
//!   Host header), only framed by the UI (`frame-ancestors`; the proxy script checks too).
//!   Tests: `origins::tests`, `tests`, `apps_isolation.test.js`.
//! - **One app cannot act as another.** App A cannot script B's proxy or document (different
//!   origins). Each bridge listens only to its frame's window and origin and, once the resource
//!   is sent, only to envelopes carrying the frame's 128-bit nonce (given to the proxy in
//!   `sandbox-resource-ready` before the app's document exists, kept in a closure). Reserved
//!   `ui/notifications/sandbox-*` count only from the proxy itself. Test:
//!   `apps_isolation.test.js` (two hostile apps of two servers, judged on each server's
//!   traffic and the violation list; it failed on the old single-origin sandbox).
//! - **What an app may reach.** Only what its resource declares (`_meta.ui.csp` /
//!   `openai/widgetCSP`), sanitized in the API and here; entries naming the UI origin, the
//!   sandbox (any `*.localhost` wildcard, any label on the sandbox port) or the `--host` address
//!   on mcplab's ports are dropped and listed under the app; `form-action 'none'`. An MCP-UI
//!   `text/uri-list` naming mcplab is refused (403). Declared other loopback ports are
//!   cross-site from `localhost` and get no mcplab credential. Tests: `apps::own_origins`,
//!   `apps::csp`, `apps_isolation.test.js`, `apps.test.js`.
//! - **What an app may say.** `ui/message`, `sendFollowUpMessage` and MCP-UI `prompt`/`intent`
//!   become a chat turn only after the user agrees in the app's frame (or allowed that app for
//!   the session); at most 5 per app per minute and 5 queued behind a running turn, each
//!   starting with a provenance line. Test: `apps.test.js`.
//! - **Limits.** Apps on one page share the `localhost` site: a renderer process may be shared
//!   (no Spectre-level isolation) and a `Domain=localhost` cookie reaches every app. Only
//!   Chromium and Firefox resolve `*.localhost` (others untested). An app can invent CSP
//!   reports about itself. A UI opened as `http://localhost:<port>` refuses to render apps and
//!   says to use `127.0.0.1`.
//! - **`--host` on a non-loopback address.** Apps share one origin on the UI's site (see
//!   `origins`); `serve` warns, each app shows a "shared origin" badge, and isolation between
//!   apps rests on the nonce only. Use loopback for one origin per app.

mod origins;

use std::sync::Arc;

use axum::Router;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use mcplab_apps::{build_csp, csp_from_declared};
use serde::Deserialize;

pub use origins::{SandboxConfig, SandboxOrigins, valid_label};

const APP_PROXY: &str = include_str!("mcp_app_proxy.html");
const UI_PROXY: &str = include_str!("mcp_ui_proxy.html");
const COMMON: &str = include_str!("proxy_common.js");
const COMMON_MARKER: &str = "  /*MCPLAB_PROXY_COMMON*/\n";
const HOSTS_MARKER: &str = "/*MCPLAB_HOST_ORIGINS*/[]";

/// A CSP for a first try: everything allowed, clearly not what a real host does.
pub const PERMISSIVE_CSP: &str = "default-src * data: blob: 'unsafe-inline' 'unsafe-eval'; \
     script-src * data: blob: 'unsafe-inline' 'unsafe-eval'; style-src * data: blob: 'unsafe-inline'; \
     img-src * data: blob:; media-src * data: blob:; font-src * data:; connect-src * data: blob:; \
     frame-src * data: blob:; worker-src * data: blob:";

/// The sandbox listener's router.
pub fn sandbox_router(config: SandboxConfig) -> Router {
    let config = Arc::new(config);
    Router::new()
        .route("/mcp-app-proxy.html", get(app_proxy))
        .route("/mcp-ui-proxy.html", get(ui_proxy))
        .fallback(|| async {
            (
                StatusCode::NOT_FOUND,
                "the sandbox origin serves only its proxy pages",
            )
        })
        .layer(axum::middleware::from_fn_with_state(
            config.clone(),
            check_host,
        ))
        .with_state(config)
}

async fn check_host(
    State(cfg): State<Arc<SandboxConfig>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let mut hosts = request.headers().get_all(header::HOST).iter();
    let host = match (hosts.next(), hosts.next()) {
        (Some(h), None) => h.to_str().unwrap_or("").to_ascii_lowercase(),
        _ => String::new(),
    };
    if !cfg.accepts_host(&host) {
        return (
            StatusCode::FORBIDDEN,
            "this Host is not allowed: app proxies are served as http://<label>.localhost:<port> \
             (a label is 16-32 lower-case letters and digits)",
        )
            .into_response();
    }
    next.run(request).await
}

#[derive(Deserialize)]
struct AppProxyQuery {
    /// The resource's declared CSP domains as JSON (camelCase), absent when nothing declared.
    csp: Option<String>,
    /// `permissive` relaxes the CSP for a first try (labelled as such in the UI).
    mode: Option<String>,
}

/// The CSP for an MCP App / widget page: what the resource declared (re-sanitized), or the
/// permissive policy when asked for.
pub fn app_csp(
    declared_json: Option<&str>,
    permissive: bool,
    own: &mcplab_apps::OwnOrigins,
) -> Result<String, String> {
    if permissive {
        return Ok(PERMISSIVE_CSP.to_owned());
    }
    let declared = match declared_json.map(str::trim).filter(|s| !s.is_empty()) {
        None => serde_json::Value::Null,
        Some(s) => serde_json::from_str(s)
            .map_err(|e| format!("the csp parameter is not JSON ({e}); it must be the resource's declared `_meta.ui.csp`"))?,
    };
    let (domains, _rejected) = csp_from_declared(&declared, own);
    Ok(build_csp(domains.as_ref()))
}

async fn app_proxy(
    State(cfg): State<Arc<SandboxConfig>>,
    Query(q): Query<AppProxyQuery>,
) -> Response {
    let permissive = q.mode.as_deref() == Some("permissive");
    match app_csp(q.csp.as_deref(), permissive, &cfg.own) {
        Ok(csp) => page(&cfg, APP_PROXY, &csp),
        Err(why) => (StatusCode::BAD_REQUEST, why).into_response(),
    }
}

#[derive(Deserialize)]
struct UiProxyQuery {
    url: Option<String>,
    mode: Option<String>,
}

/// The origin of an `http(s)` URL, for `frame-src`; `None` when it is not one.
fn http_origin(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    if !matches!(scheme, "http" | "https") {
        return None;
    }
    let authority = rest.split(['/', '?', '#']).next()?;
    let ok = !authority.is_empty()
        && authority
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'));
    ok.then(|| format!("{scheme}://{authority}"))
}

async fn ui_proxy(
    State(cfg): State<Arc<SandboxConfig>>,
    Query(q): Query<UiProxyQuery>,
) -> Response {
    let framed = match q.url.as_deref().map(http_origin) {
        None => None,
        Some(None) => {
            return (
                StatusCode::BAD_REQUEST,
                "the url parameter must be an http(s) URL",
            )
                .into_response();
        }
        Some(Some(origin)) => Some(origin),
    };
    // Even in permissive mode: an MCP-UI resource may not frame mcplab or another app.
    if let Some(why) = framed.as_deref().and_then(|o| cfg.own.refusal(o)) {
        return (StatusCode::FORBIDDEN, why).into_response();
    }
    if q.mode.as_deref() == Some("permissive") {
        return page(&cfg, UI_PROXY, PERMISSIVE_CSP);
    }
    let csp = match framed {
        Some(origin) => format!(
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
             frame-src {origin}; object-src 'none'; base-uri 'none'; form-action 'none'"
        ),
        None => build_csp(None),
    };
    page(&cfg, UI_PROXY, &csp)
}

/// A proxy page with the host origins filled in and the security headers set.
fn page(cfg: &SandboxConfig, template: &str, csp: &str) -> Response {
    let hosts = serde_json::to_string(&cfg.host_origins).unwrap_or_else(|_| "[]".into());
    // JSON of plain origins cannot contain `</script>`, but escape `<` anyway.
    let body = template.replacen(COMMON_MARKER, COMMON, 1).replacen(
        HOSTS_MARKER,
        &hosts.replace('<', "\\u003c"),
        1,
    );
    let ancestors = cfg.host_origins.join(" ");
    let policy = format!("{csp}; frame-ancestors {ancestors}");
    let mut headers = HeaderMap::new();
    let mut set = |name: header::HeaderName, value: &str| {
        if let Ok(v) = HeaderValue::from_str(value) {
            headers.insert(name, v);
        }
    };
    set(header::CONTENT_TYPE, "text/html; charset=utf-8");
    set(header::CONTENT_SECURITY_POLICY, &policy);
    set(header::CACHE_CONTROL, "no-store");
    set(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(header::REFERRER_POLICY, "no-referrer");
    (headers, body).into_response()
}

#[cfg(test)]
mod tests;

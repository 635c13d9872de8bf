//! The headers with which the main origin defends its own page, on every response it sends
//! (UI, `/api`, `/auth`, errors): a strict Content-Security-Policy (no inline script, connect
//! and frame only where mcplab itself lives, never framed), `X-Frame-Options: DENY` for
//! browsers without `frame-ancestors`, `nosniff`, and no referrer (a sign-in URL's code must not
//! travel in a `Referer`). The sandbox listener sends its own, per-app headers; this module
//! does not serve it.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::HeaderValue;
use axum::http::header;
use axum::middleware::Next;
use axum::response::Response;

use crate::AppState;

/// The main origin's policy; `frame_src` is where app frames may come from
/// ([`AppState::frame_src`]). Scripts only from this origin's files, never inline (MCP-UI
/// Remote DOM runs on the sandbox origin, not in a srcdoc frame of this page); `eval` is allowed because the JSON Schema validator
/// (Ajv, under the tool forms and result checks) compiles schemas to functions — an
/// interpreter-based validator would let it go.
pub fn content_security_policy(frame_src: &str) -> String {
    format!(
        "default-src 'self'; script-src 'self' 'unsafe-eval'; \
         style-src 'self' 'unsafe-inline'; \
         img-src 'self' data:; media-src 'self' data:; font-src 'self' data:; \
         connect-src 'self'; frame-src {frame_src}; object-src 'none'; base-uri 'none'; \
         form-action 'self'; frame-ancestors 'none'"
    )
}

/// Adds the defence headers to every response of the main origin.
pub async fn add(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    let csp = content_security_policy(&state.frame_src());
    if let Ok(value) = HeaderValue::from_str(&csp) {
        headers.insert(header::CONTENT_SECURITY_POLICY, value);
    }
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::content_security_policy;

    #[test]
    fn the_policy_frames_only_the_sandbox_and_is_never_framed() {
        let csp = content_security_policy("http://*.localhost:6275");
        for directive in [
            "default-src 'self'",
            "script-src 'self' 'unsafe-eval';",
            "connect-src 'self'",
            "frame-src http://*.localhost:6275;",
            "object-src 'none'",
            "base-uri 'none'",
            "frame-ancestors 'none'",
        ] {
            assert!(csp.contains(directive), "{directive} in {csp}");
        }
        let script_src = csp
            .split(';')
            .find(|d| d.trim().starts_with("script-src"))
            .unwrap();
        assert!(!script_src.contains("unsafe-inline"), "{script_src}");
        assert!(
            !script_src.contains("sha256-"),
            "no inline script by hash: {script_src}"
        );
    }
}

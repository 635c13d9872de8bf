//! How a browser signs in, at the HTTP edge: `GET /auth?code=…&next=…` serves the page that
//! exchanges a live login code (or a refusal page that says where to get a new one),
//! `POST /api/session` redeems the code for a session secret, `POST /api/login-codes` mints a
//! code for a caller that already holds a bearer (`mcplab open`, scripts), and
//! [`require_bearer`] guards `/api`. Only `Authorization: Bearer` is read: cookies are never
//! a credential, so no other loopback port can hold one and no tossed cookie can lock anyone
//! out. It does not decide what a secret is (that is `credentials`).

use std::sync::Arc;

use axum::Json;
use axum::extract::{Query, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Response};
use mcplab_protocol::api::{LoginCode, SessionGranted, SessionRequest};

use super::credentials::LOGIN_CODE_TTL;
use crate::AppState;
use crate::error::ApiFailure;

/// What a person reads when a login link cannot be used (again).
pub const CODE_USED: &str = "This sign-in link was already used or has expired: each link \
    works once, for 2 minutes. Open the newest URL mcplab printed, or run `mcplab open` (or \
    restart mcplab) to get a new one.";

fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then_some(token.trim())
}

/// `/api/*` (but `POST /api/session`): a valid bearer is required.
pub async fn require_bearer(
    State(state): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    match bearer(request.headers()) {
        Some(t) if state.security.credentials().bearer_is_valid(t) => next.run(request).await,
        _ => ApiFailure::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "not signed in: open the newest URL mcplab printed, or run `mcplab open` to open \
             a new one (scripts: send `Authorization: Bearer` with the launch secret from \
             launch.json in mcplab's data directory)",
        )
        .into_response(),
    }
}

/// `next` as a path on this origin when it is one (re-serialized by the URL parser), else
/// `None`. Control characters, spaces and backslashes are refused outright: browsers strip or
/// reinterpret them (`/\t/evil.example` becomes `//evil.example`, another host).
pub fn same_origin_path(next: &str) -> Option<String> {
    if !next.starts_with('/') || next.bytes().any(|b| b < 0x21 || b == 0x7f || b == b'\\') {
        return None;
    }
    let base = url::Url::parse("http://mcplab.invalid/").ok()?;
    let joined = base.join(next).ok()?;
    if joined.origin() != base.origin() {
        return None;
    }
    let mut path = joined.path().to_owned();
    if let Some(q) = joined.query() {
        path.push('?');
        path.push_str(q);
    }
    if let Some(f) = joined.fragment() {
        path.push('#');
        path.push_str(f);
    }
    // `//host` paths survive the join when written as `/.//host`; refuse what a browser would
    // read as a network-path reference.
    (!path.starts_with("//")).then_some(path)
}

/// `POST /api/session`: redeems a login code for a session secret.
pub async fn exchange(
    State(state): State<Arc<AppState>>,
    Json(request): Json<SessionRequest>,
) -> Result<Json<SessionGranted>, ApiFailure> {
    let secret = state
        .security
        .credentials()
        .redeem(request.code.trim())
        .ok_or_else(|| {
            ApiFailure::new(StatusCode::UNAUTHORIZED, "login_code_invalid", CODE_USED)
        })?;
    let next = request
        .next
        .as_deref()
        .and_then(same_origin_path)
        .unwrap_or_else(|| "/".to_owned());
    Ok(Json(SessionGranted { secret, next }))
}

/// `POST /api/login-codes`: a fresh code and the URL to open, on the host the caller used.
pub async fn mint(State(state): State<Arc<AppState>>, headers: HeaderMap) -> Json<LoginCode> {
    let code = state.security.credentials().mint_login_code();
    // The Host was checked against the allow-list before this runs.
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_owned)
        .unwrap_or_else(|| {
            state
                .security
                .origin()
                .trim_start_matches("http://")
                .to_owned()
        });
    Json(LoginCode {
        url: format!("http://{host}/auth?code={code}"),
        code,
        expires_in_secs: LOGIN_CODE_TTL.as_secs(),
    })
}

#[derive(serde::Deserialize)]
pub struct AuthQuery {
    code: Option<String>,
}

/// `GET /auth?code=…`: the sign-in page (the web UI, which redeems the code with
/// `POST /api/session` and moves on to `next`), or, for a code that cannot be used, a page
/// that says where to get a new one. The code is not used up here: a link previewer or a
/// prefetch must not burn it.
pub async fn page(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    Query(q): Query<AuthQuery>,
) -> Response {
    let live = q
        .code
        .as_deref()
        .is_some_and(|c| state.security.credentials().code_is_live(c));
    let mut response = if live {
        crate::assets::index(&headers)
    } else {
        let page = format!(
            "<!doctype html><meta charset=utf-8><title>mcplab: sign-in link used</title>\
             <body style=\"font-family:system-ui,sans-serif;max-width:40em;margin:4em auto\">\
             <h1>mcplab</h1><p data-testid=\"login-refused\">{CODE_USED}</p>"
        );
        (StatusCode::UNAUTHORIZED, Html(page)).into_response()
    };
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::same_origin_path;

    #[test]
    fn next_is_a_path_on_this_origin_or_nothing() {
        for ok in ["/", "/#/render/abc", "/#/oauth/1?x=y", "/a/b?c=d#e"] {
            assert_eq!(same_origin_path(ok).as_deref(), Some(ok), "{ok}");
        }
        for bad in [
            "//evil.example",
            "/\\evil.example",
            "/\t/evil.example",
            "/\r\n/evil.example",
            "/\u{7f}/evil.example",
            "/ /evil.example",
            "http://evil.example/",
            "https:evil.example",
            "javascript:alert(1)",
            "evil.example",
            "/.//evil.example",
            "",
        ] {
            assert_eq!(same_origin_path(bad), None, "{bad:?}");
        }
        assert_eq!(same_origin_path("/a/../b").as_deref(), Some("/b"));
    }
}

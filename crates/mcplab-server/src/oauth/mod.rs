//! OAuth at the HTTP edge: the browser user agent (the person opens the authorization URL in
//! this browser; the redirect comes back to `GET /oauth/callback` on this origin), the pending
//! sign-ins keyed by their `state`, and the OAuth debugger's runs. The callback needs no API
//! token (the authorization server's redirect cannot carry one) and so accepts nothing but a
//! pending `state`: anything else is refused, and a state is used once.

mod agent;
pub(crate) mod debug;

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect, Response};
use mcplab_mcp::pending::{Pending, Waiter};
use mcplab_oauth::CallbackParams;
use tokio::sync::broadcast;

pub(crate) use agent::BrowserAgent;

use crate::AppState;

/// Path of the loopback redirect endpoint.
pub(crate) const CALLBACK_PATH: &str = "/oauth/callback";
/// How long a sign-in waits for the browser to come back.
pub(crate) const BROWSER_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(600);

/// A sign-in waiting for its redirect.
struct SignIn {
    /// Where the browser goes after the callback (a path of the UI).
    return_to: String,
    /// The server it is for (None for debugger runs).
    server: Option<String>,
    /// The authorization URL the browser was sent to.
    url: String,
}

/// The pending sign-ins (by `state`, answered with the redirect's parameters) and the
/// debugger's runs.
pub struct OAuthState {
    pending: Pending<String, SignIn, CallbackParams>,
    /// `(server, authorization URL)` whenever a server's connection starts waiting for the
    /// browser (the authorize route listens).
    started: broadcast::Sender<(String, String)>,
    pub(crate) runs: debug::Runs,
}

impl Default for OAuthState {
    fn default() -> Self {
        Self {
            pending: Pending::default(),
            started: broadcast::channel(64).0,
            runs: debug::Runs::default(),
        }
    }
}

impl OAuthState {
    /// The authorization URL a server's pending sign-in waits on, if any.
    pub fn pending_url(&self, server: &str) -> Option<String> {
        self.pending
            .find_map(|p| (p.server.as_deref() == Some(server)).then(|| p.url.clone()))
    }

    /// Notified with `(server, url)` when a server's sign-in starts waiting for the browser.
    pub fn subscribe_started(&self) -> broadcast::Receiver<(String, String)> {
        self.started.subscribe()
    }

    /// Registers a sign-in under its `state`; the waiter ends with the redirect's parameters
    /// and forgets the state however it ends.
    fn register(&self, state: &str, sign_in: SignIn) -> Waiter<String, SignIn, CallbackParams> {
        if let Some(server) = &sign_in.server {
            let _ = self.started.send((server.clone(), sign_in.url.clone()));
        }
        self.pending.add(state.to_string(), sign_in)
    }
}

/// `GET /oauth/callback?code=…&state=…` (or `error=…`): hands the parameters to the sign-in
/// waiting on `state` and sends the browser back to the UI.
pub(crate) async fn callback(
    State(app): State<Arc<AppState>>,
    RawQuery(query): RawQuery,
) -> Response {
    let params = CallbackParams::from_query(query.as_deref().unwrap_or(""));
    let Some(state) = params.state.clone().filter(|s| !s.is_empty()) else {
        return refuse("The redirect carries no state parameter.");
    };
    let Some(sign_in) = app.oauth.pending.answer(&state, params) else {
        return refuse(
            "This sign-in is unknown or already finished (the state parameter does not match a \
             pending sign-in). Start it again from mcplab.",
        );
    };
    Redirect::to(&sign_in.return_to).into_response()
}

fn refuse(why: &str) -> Response {
    let page = format!(
        "<!doctype html><meta charset=utf-8><title>mcplab sign-in</title>\
         <p>{why}</p>"
    );
    (StatusCode::BAD_REQUEST, Html(page)).into_response()
}

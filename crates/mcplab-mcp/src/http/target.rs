//! What every request to an HTTP-based MCP server carries (URL, extra headers, bearer token,
//! OAuth session), and sending through the OAuth session so a 401/403 is handled once for every
//! HTTP wire (whose notes it passes up the wire). It does not read responses: that is
//! [`super::response`].

use std::sync::Arc;

use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderName, HeaderValue};
use reqwest::{RequestBuilder, Response, Url};

use super::response::describe_error;
use crate::wire::WireEvent;
use mcplab_oauth::{AuthSendError, AuthSession, send_authorized};

/// Where an HTTP-based MCP server lives and what every request to it carries.
#[derive(Clone)]
pub struct HttpTarget {
    pub url: Url,
    /// Extra request headers, sent on every request (e.g. API keys).
    pub headers: Vec<(String, String)>,
    /// Sent as `Authorization: Bearer <token>` when set.
    pub bearer: Option<String>,
    /// OAuth: the token to send, and what to do on 401 / 403 `insufficient_scope`.
    pub auth: Option<Arc<AuthSession>>,
    /// Largest response body or SSE event accepted (the message limit).
    pub max_message: usize,
}

impl std::fmt::Debug for HttpTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.headers.iter().map(|(k, _)| k.as_str()).collect();
        f.debug_struct("HttpTarget")
            .field("url", &self.url.as_str())
            .field("headers", &names)
            .field("bearer", &self.bearer.as_ref().map(|_| "…"))
            .field("oauth", &self.auth.is_some())
            .finish()
    }
}

/// Sends what `build` makes, through the target's OAuth session when it has one.
pub(crate) async fn send_with_auth(
    target: &HttpTarget,
    build: impl Fn() -> RequestBuilder,
) -> Result<Response, SendFailure> {
    send_authorized(target.auth.as_deref(), build)
        .await
        .map_err(|e| match e {
            AuthSendError::Http(err) if err.is_connect() => {
                SendFailure::Refused(describe_error(&err))
            }
            AuthSendError::Http(err) => SendFailure::Unreachable(describe_error(&err)),
            AuthSendError::Auth(err) => {
                SendFailure::Unauthorized(format!("authorization failed: {err}"))
            }
        })
}

/// Why a request got no response to look at.
pub(crate) enum SendFailure {
    /// No connection could be made (refused, no route): the server is not running there.
    Refused(String),
    /// The server could not be reached (the words say how).
    Unreachable(String),
    /// OAuth could not get a token the server accepts (the words say why and what to fix).
    Unauthorized(String),
}

impl SendFailure {
    /// True when no connection could be made at all (the server is gone).
    pub(crate) fn is_refused(&self) -> bool {
        matches!(self, SendFailure::Refused(_))
    }

    /// What happened, without the URL (the exchange record names it).
    pub(crate) fn text(&self) -> &str {
        match self {
            SendFailure::Refused(why)
            | SendFailure::Unreachable(why)
            | SendFailure::Unauthorized(why) => why,
        }
    }

    /// The message for the user, naming `url` for unreachable servers.
    pub(crate) fn message(self, url: &Url) -> String {
        match self {
            SendFailure::Refused(why) | SendFailure::Unreachable(why) => {
                format!("could not reach {url}: {why}")
            }
            SendFailure::Unauthorized(why) => why,
        }
    }
}

impl HttpTarget {
    /// Passes the OAuth session's notes (sign-in prompts, refreshes) up `inbound` as
    /// [`WireEvent::Note`]s; nothing without a session.
    pub(crate) fn send_auth_notes(&self, inbound: &crate::wire::InboundTx) {
        if let Some(auth) = &self.auth {
            let inbound = inbound.clone();
            auth.attach_notes(Arc::new(move |note| {
                let _ = inbound.try_send(WireEvent::Note(note));
            }));
        }
    }

    /// The headers every request carries, plus a note for each header that cannot be sent.
    pub(crate) fn base_headers(&self) -> (HeaderMap, Vec<String>) {
        let mut map = HeaderMap::new();
        let mut problems = Vec::new();
        for (name, value) in &self.headers {
            match (
                HeaderName::from_bytes(name.trim().as_bytes()),
                HeaderValue::from_str(value.trim()),
            ) {
                (Ok(name), Ok(value)) => {
                    map.append(name, value);
                }
                _ => problems.push(format!(
                    "header `{name}` was not sent: its name or value is not valid in HTTP"
                )),
            }
        }
        if let Some(token) = &self.bearer {
            match HeaderValue::from_str(&format!("Bearer {}", token.trim())) {
                Ok(mut value) => {
                    value.set_sensitive(true);
                    map.insert(AUTHORIZATION, value);
                }
                Err(_) => problems.push(
                    "the bearer token was not sent: it contains characters not valid in HTTP"
                        .to_string(),
                ),
            }
        }
        (map, problems)
    }
}

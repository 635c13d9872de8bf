//! The record of each HTTP exchange an HTTP wire makes (streamable HTTP, legacy HTTP+SSE,
//! 2026-07-28): method, URL, why it was made, request headers as sent, status and response
//! headers, when and how long until the headers came — secrets masked the way the x-ray and
//! the OAuth debugger mask them. It only observes: sending stays with [`super::send_with_auth`]
//! and reading the body with the wire.

use std::time::Instant;

use bytes::Bytes;
use mcplab_protocol::TrafficHttpExchange;
use reqwest::header::HeaderMap;
use reqwest::{RequestBuilder, Response};

use super::Outlet;
use super::target::{HttpTarget, SendFailure, send_with_auth};
use mcplab_net::{mask_header, mask_url};

/// Header names whose values are masked besides those `mask_header` knows (a configured
/// header carrying a key or token under a name of its own).
const SECRET_WORDS: &[&str] = &["token", "secret", "key", "password", "auth"];

/// Why a wire made a request (`TrafficHttpExchange::purpose`).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Purpose {
    /// A frame's POST.
    Post,
    /// The standalone GET stream (streamable HTTP) or the event stream (legacy SSE).
    Stream,
    /// A `Last-Event-ID` GET resuming a response stream.
    Resume,
    /// The session's `DELETE`.
    End,
}

impl Purpose {
    fn as_str(self) -> &'static str {
        match self {
            Purpose::Post => "post",
            Purpose::Stream => "stream",
            Purpose::Resume => "resume",
            Purpose::End => "end",
        }
    }
}

/// A request on its way: what it was, and the clock.
pub(crate) struct Started {
    exchange: TrafficHttpExchange,
    clock: Instant,
}

impl Started {
    /// Notes the request `builder` would send to `target` (the OAuth layer's bearer included).
    pub(crate) fn new(purpose: Purpose, target: &HttpTarget, builder: RequestBuilder) -> Self {
        let built = builder.build().ok();
        let (method, url, mut request_headers) = match &built {
            Some(req) => (
                req.method().to_string(),
                mask_url(req.url()),
                shown(req.headers()),
            ),
            None => (String::new(), mask_url(&target.url), Vec::new()),
        };
        let oauth = target.auth.as_ref().and_then(|a| a.current_token());
        if let Some(token) = oauth.filter(|_| !has(&request_headers, "authorization")) {
            let value = mask_header("authorization", &format!("Bearer {token}"));
            request_headers.push(("authorization".into(), value));
        }
        let started_ms = mcplab_protocol::clock::now_ms();
        let exchange = TrafficHttpExchange {
            method,
            url,
            purpose: purpose.as_str().into(),
            status: None,
            request_headers,
            response_headers: Vec::new(),
            started_ms,
            elapsed_ms: 0,
            request_seq: None,
            error: None,
        };
        Self {
            exchange,
            clock: Instant::now(),
        }
    }

    /// The exchange with the response's status and headers.
    pub(crate) fn answered(mut self, resp: &Response) -> TrafficHttpExchange {
        self.exchange.status = Some(resp.status().as_u16());
        self.exchange.response_headers = shown(resp.headers());
        self.finish()
    }

    /// The exchange of a request that got no response.
    pub(crate) fn failed(mut self, why: String) -> TrafficHttpExchange {
        self.exchange.error = Some(why);
        self.finish()
    }

    fn finish(mut self) -> TrafficHttpExchange {
        self.exchange.elapsed_ms = self.clock.elapsed().as_millis() as u64;
        self.exchange
    }
}

fn has(headers: &[(String, String)], name: &str) -> bool {
    headers.iter().any(|(k, _)| k.eq_ignore_ascii_case(name))
}

/// Headers as they may be shown: names lower-case as HTTP/2 writes them, secrets masked (also
/// what `mcplab tap` records of the requests it passes on).
pub fn shown(headers: &HeaderMap) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(name, value)| {
            let name = name.as_str().to_owned();
            let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
            // A challenge (`www-authenticate`) carries no credential, and its
            // resource_metadata URL is what the checker and people need to see.
            let secret = !matches!(name.as_str(), "mcp-session-id" | "www-authenticate")
                && SECRET_WORDS.iter().any(|w| name.contains(w));
            let value = match secret && name != "authorization" {
                true => mcplab_net::mask_secret(&value),
                false => mask_header(&name, &value),
            };
            (name, value)
        })
        .collect()
}

/// Sends what `build` makes (through the target's OAuth session) and reports the exchange to
/// the layer above; returns the response and the exchange's number for the frames it carries.
/// `sent` is the frame a POST carries.
pub(crate) async fn send_recorded(
    out: &Outlet,
    target: &HttpTarget,
    purpose: Purpose,
    sent: Option<&Bytes>,
    build: impl Fn() -> RequestBuilder,
) -> (Result<Response, SendFailure>, u64) {
    let started = Started::new(purpose, target, build());
    let result = send_with_auth(target, build).await;
    let exchange = match &result {
        Ok(resp) => started.answered(resp),
        Err(failure) => started.failed(failure.text().to_owned()),
    };
    let id = out.exchange(exchange, sent.cloned()).await;
    (result, id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::{HeaderName, HeaderValue};

    #[test]
    fn secrets_are_masked_and_protocol_headers_kept() {
        let mut map = HeaderMap::new();
        for (k, v) in [
            ("authorization", "Bearer abcdefghijklmnopqrstuvwxyz"),
            ("cookie", "sid=abcdefghijklmnop"),
            ("x-my-token", "tok-1234567890abcdef"),
            ("mcp-session-id", "session-1234567890"),
            ("mcp-protocol-version", "2025-11-25"),
        ] {
            map.insert(
                HeaderName::from_static(k),
                HeaderValue::from_str(v).unwrap(),
            );
        }
        let shown: std::collections::HashMap<_, _> = shown(&map).into_iter().collect();
        assert_eq!(shown["authorization"], "Bearer abcd… (26 chars)");
        assert!(!shown["cookie"].contains("abcdefghijklmnop"));
        assert!(!shown["x-my-token"].contains("1234567890abcdef"));
        assert_eq!(shown["mcp-session-id"], "session-1234567890");
        assert_eq!(shown["mcp-protocol-version"], "2025-11-25");
    }
}

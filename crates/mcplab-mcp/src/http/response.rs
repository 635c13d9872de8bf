//! Reading what an HTTP-based MCP server answered, for both HTTP wires: the body's kind from
//! its content type, a bounded one-line excerpt of an error body, a non-2xx status in words the
//! user can act on, and a reqwest error with its causes.

use std::time::Duration;

use reqwest::header::CONTENT_TYPE;
use reqwest::{Response, StatusCode, Url};

/// Bounds on reading an error body for the excerpt shown to the user.
const EXCERPT_TIMEOUT: Duration = Duration::from_secs(5);
const EXCERPT_READ_LIMIT: usize = 16 * 1024;
const EXCERPT_CHARS: usize = 300;

pub(crate) enum BodyKind {
    EventStream,
    Json,
    Other(String),
}

pub(crate) fn body_kind(resp: &Response) -> BodyKind {
    let Some(value) = resp.headers().get(CONTENT_TYPE) else {
        // No content type: try JSON, which also shows the user whatever came.
        return BodyKind::Json;
    };
    let raw = String::from_utf8_lossy(value.as_bytes());
    let essence = raw
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    match essence.as_str() {
        "text/event-stream" => BodyKind::EventStream,
        "application/json" => BodyKind::Json,
        other if other.ends_with("+json") => BodyKind::Json,
        other => BodyKind::Other(other.to_string()),
    }
}

/// The start of an error body, bounded in size and time, on one line.
pub(crate) async fn body_excerpt(mut resp: Response) -> String {
    let mut body = Vec::new();
    let read = async {
        while body.len() < EXCERPT_READ_LIMIT {
            match resp.chunk().await {
                Ok(Some(chunk)) => body.extend_from_slice(&chunk),
                _ => break,
            }
        }
    };
    let _ = tokio::time::timeout(EXCERPT_TIMEOUT, read).await;
    let text = String::from_utf8_lossy(&body);
    let mut excerpt: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if let Some((cut, _)) = excerpt.char_indices().nth(EXCERPT_CHARS) {
        excerpt.truncate(cut);
        excerpt.push('…');
    }
    excerpt
}

/// A non-2xx answer in words the user can act on.
pub(crate) fn status_problem(
    status: StatusCode,
    excerpt: &str,
    url: &Url,
    session: Option<&str>,
) -> String {
    let advice = match status.as_u16() {
        401 | 403 => {
            ": the server requires authorization; sign in with OAuth (mcplab does so by \
             itself unless OAuth is off for this server), or set a bearer token or an \
             Authorization header, and reconnect"
        }
        404 if session.is_some() => {
            ": the server no longer knows this session (it expired or the server restarted); \
             reconnect to start a new one"
        }
        // B10: a legacy HTTP+SSE server refuses the streamable POST with 404 or 405.
        404 if url.path().trim_end_matches('/').ends_with("/sse") => {
            ": nothing takes POST here; a URL ending in /sse is usually a legacy HTTP+SSE \
             server: use --transport sse (or \"type\": \"sse\" in the config)"
        }
        404 => {
            ": nothing answers at this URL; check the endpoint path (often /mcp), or use \
             --transport sse for a legacy HTTP+SSE server"
        }
        405 => {
            ": the server does not take POST here; if it is a legacy HTTP+SSE server, use \
             --transport sse (or \"type\": \"sse\" in the config)"
        }
        _ => "",
    };
    let mut message = format!("HTTP {status} from {url}{advice}");
    if !excerpt.is_empty() {
        message.push_str(&format!(" (server said: {excerpt})"));
    }
    message
}

pub(crate) use mcplab_net::tls::describe_error;

//! What the HTTP tap records of one exchange, as mcplab records its own (`mcplab-mcp`'s
//! `http/exchange.rs`): the posted JSON-RPC frame (with the 2026-07-28 `Mcp-*` headers it
//! travelled with), a note holding the request and response — method, masked URL, why, status,
//! headers with `Authorization`, cookies and key/token headers masked, time to the headers —
//! and every frame the response carried (each SSE message, or the JSON body), linked to that
//! note. Bodies that are not JSON-RPC (OAuth metadata, token responses, pages) are never
//! recorded: only their exchange, masked. A frame belongs to the host session named by
//! `Mcp-Session-Id` (request or response) or a legacy SSE `sessionId`; a legacy event stream
//! learns its session from its `endpoint` event, so its note waits for that.

use std::time::Duration;

use bytes::Bytes;
use http::{HeaderMap, Method};
use mcplab_mcp::sse::SseParser;
use mcplab_protocol::{Direction, TrafficHttpExchange};
use url::Url;

use crate::recorder::{Raw, Recorder};

const SESSION_HEADER: &str = "mcp-session-id";

/// Header name and value pairs, as recorded.
type Headers = Vec<(String, String)>;

/// A request on its way to the server.
pub(super) struct Exchange {
    note: TrafficHttpExchange,
    session: Option<String>,
    posted: Option<(Bytes, Option<Headers>)>,
}

impl Exchange {
    pub(super) fn start(method: &Method, url: &Url, headers: &HeaderMap, body: &Bytes) -> Self {
        let purpose = match *method {
            Method::POST => "post",
            Method::GET if headers.contains_key("last-event-id") => "resume",
            Method::GET => "stream",
            Method::DELETE => "end",
            _ => "other",
        };
        let note = TrafficHttpExchange {
            method: method.to_string(),
            url: mcplab_net::mask_url(url),
            purpose: purpose.into(),
            status: None,
            request_headers: mcplab_mcp::http::shown_headers(headers),
            response_headers: Vec::new(),
            started_ms: mcplab_protocol::clock::now_ms(),
            elapsed_ms: 0,
            request_seq: None,
            error: None,
        };
        let session = header(headers, SESSION_HEADER).or_else(|| query_session(url));
        let posted = is_jsonrpc(body).then(|| (body.clone(), protocol_headers(headers)));
        Self {
            note,
            session,
            posted,
        }
    }

    /// The request is about to go: its frame is recorded now when its session is known (all
    /// but a first `initialize`), so that an answer arriving on another stream (the legacy
    /// transport's event stream) cannot be numbered before it.
    pub(super) fn sending(&mut self, rec: &Recorder) {
        if let Some(session) = self.session.clone() {
            self.note.request_seq = self.record_posted(rec, &session);
        }
    }

    /// The request got no answer.
    pub(super) fn failed(mut self, rec: &Recorder, why: &str, elapsed: Duration) {
        let session = self.session.take().unwrap_or_default();
        let posted = self.record_posted(rec, &session);
        self.note.request_seq = posted.or(self.note.request_seq);
        self.note.error = Some(why.to_owned());
        self.note.elapsed_ms = elapsed.as_millis() as u64;
        record_note(rec, &session, self.note);
    }

    /// The answer's headers came: records the request and returns the tee for its body.
    pub(super) fn answered(
        mut self,
        rec: &Recorder,
        response: &reqwest::Response,
        elapsed: Duration,
        max_frame: usize,
    ) -> Tee {
        let given = header(response.headers(), SESSION_HEADER);
        let session = self.session.take().or(given);
        let posted = self.record_posted(rec, session.as_deref().unwrap_or(""));
        self.note.request_seq = posted.or(self.note.request_seq);
        self.note.status = Some(response.status().as_u16());
        self.note.response_headers = mcplab_mcp::http::shown_headers(response.headers());
        self.note.elapsed_ms = elapsed.as_millis() as u64;
        let content_type = header(response.headers(), "content-type").unwrap_or_default();
        let body = if content_type.starts_with("text/event-stream") {
            Body::Sse(SseParser::with_limit(max_frame))
        } else if content_type.contains("json") {
            Body::Json(Vec::new(), 0)
        } else {
            Body::Other
        };
        // A legacy event stream names its session in its first event: its note waits for it.
        let waits = session.is_none() && matches!(body, Body::Sse(_));
        let mut tee = Tee {
            rec: rec.clone(),
            session: session.unwrap_or_default(),
            exchange: None,
            pending: Some(self.note),
            body,
            max_frame,
            finished: false,
        };
        if !waits {
            tee.flush_note();
        }
        tee
    }

    fn record_posted(&mut self, rec: &Recorder, session: &str) -> Option<u64> {
        let (body, headers) = self.posted.take()?;
        Some(rec.record(Raw {
            session: session.to_owned(),
            direction: Some(Direction::Outbound),
            bytes: body.to_vec(),
            ts_ms: Some(self.note.started_ms),
            headers,
            ..Raw::default()
        }))
    }
}

enum Body {
    Sse(SseParser),
    /// The body so far (up to the frame bound) and the bytes beyond it.
    Json(Vec<u8>, u64),
    Other,
}

/// Sees the answer's body as it streams to the host.
pub(super) struct Tee {
    rec: Recorder,
    session: String,
    /// The exchange note's number, once recorded.
    exchange: Option<u64>,
    pending: Option<TrafficHttpExchange>,
    body: Body,
    max_frame: usize,
    finished: bool,
}

impl Tee {
    pub(super) fn feed(&mut self, chunk: &[u8]) {
        match &mut self.body {
            Body::Sse(parser) => {
                for event in parser.feed(chunk) {
                    self.event(event);
                }
            }
            Body::Json(buf, over) => {
                let room = self.max_frame.saturating_sub(buf.len()).min(chunk.len());
                buf.extend_from_slice(&chunk[..room]);
                *over += (chunk.len() - room) as u64;
            }
            Body::Other => {}
        }
    }

    /// The body ended (or broke): a JSON body is one frame.
    pub(super) fn finish(&mut self) {
        if std::mem::replace(&mut self.finished, true) {
            return;
        }
        self.flush_note();
        if let Body::Json(buf, over) = &mut self.body {
            let (bytes, over) = (std::mem::take(buf), *over);
            if over > 0 || is_jsonrpc(&bytes) {
                let full = (over > 0).then(|| bytes.len() as u64 + over);
                self.carried(bytes, full, false);
            }
        }
    }

    fn event(&mut self, event: mcplab_mcp::sse::SseEvent) {
        if event.is_message() {
            if event.data.is_empty() {
                return; // a priming event: an id and a retry for resuming
            }
            self.flush_note();
            self.carried(event.data.into_bytes(), None, false);
            return;
        }
        let name = event.event.unwrap_or_default();
        if name == "endpoint"
            && self.session.is_empty()
            && let Some(s) = Url::parse("http://x")
                .and_then(|base| base.join(&event.data))
                .ok()
                .and_then(|u| query_session(&u))
        {
            self.session = s;
        }
        self.flush_note();
        let text = format!("SSE event `{name}`: {}", event.data);
        self.carried(text.into_bytes(), None, true);
    }

    fn flush_note(&mut self) {
        if let Some(note) = self.pending.take() {
            self.exchange = Some(record_note(&self.rec, &self.session, note));
        }
    }

    fn carried(&self, bytes: Vec<u8>, full: Option<u64>, note: bool) {
        self.rec.record(Raw {
            session: self.session.clone(),
            direction: Some(Direction::Inbound),
            bytes,
            full,
            note,
            exchange: self.exchange,
            ..Raw::default()
        });
    }
}

impl Drop for Tee {
    fn drop(&mut self) {
        self.finish();
    }
}

/// Records the exchange as a note (as mcplab's own wires do); returns its number.
fn record_note(rec: &Recorder, session: &str, note: TrafficHttpExchange) -> u64 {
    let outcome = match (&note.status, &note.error) {
        (Some(status), _) => format!("HTTP {status}"),
        (None, Some(error)) => format!("failed: {error}"),
        (None, None) => "no answer".to_owned(),
    };
    let summary = format!(
        "{} {} → {outcome} ({} ms)",
        note.method, note.url, note.elapsed_ms
    );
    rec.record(Raw {
        session: session.to_owned(),
        direction: Some(Direction::Inbound),
        bytes: summary.into_bytes(),
        note: true,
        ts_ms: Some(note.started_ms),
        http: Some(note),
        ..Raw::default()
    })
}

fn header(headers: &HeaderMap, name: &str) -> Option<String> {
    let value = headers.get(name)?.to_str().ok()?;
    Some(value.to_owned())
}

/// The legacy HTTP+SSE session in a URL's query (`sessionId` in the TypeScript SDK,
/// `session_id` in the Python SDK).
fn query_session(url: &Url) -> Option<String> {
    url.query_pairs()
        .find(|(k, _)| k == "sessionId" || k == "session_id")
        .map(|(_, v)| v.into_owned())
}

/// The 2026-07-28 headers that carry protocol meaning (`MCP-Protocol-Version`, `Mcp-Method`,
/// `Mcp-Name`, `Mcp-Param-*`), as the traffic panel shows them on a frame.
fn protocol_headers(headers: &HeaderMap) -> Option<Vec<(String, String)>> {
    let found: Vec<(String, String)> = headers
        .iter()
        .filter(|(name, _)| name.as_str().starts_with("mcp-") && *name != SESSION_HEADER)
        .map(|(name, value)| {
            let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
            (name.as_str().to_owned(), value)
        })
        .collect();
    (!found.is_empty()).then_some(found)
}

/// Whether a body is a JSON-RPC message (or a batch of them): what the tap records as a frame.
fn is_jsonrpc(body: &[u8]) -> bool {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(body) else {
        return false;
    };
    let one = |v: &serde_json::Value| v.get("jsonrpc").is_some();
    match &value {
        serde_json::Value::Array(items) => !items.is_empty() && items.iter().all(one),
        other => one(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_jsonrpc_bodies_are_frames() {
        assert!(is_jsonrpc(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#));
        assert!(is_jsonrpc(br#"[{"jsonrpc":"2.0","method":"a"}]"#));
        assert!(!is_jsonrpc(
            br#"{"access_token":"secret-token-value","token_type":"Bearer"}"#
        ));
        assert!(!is_jsonrpc(b"code=abc&code_verifier=xyz"));
    }

    #[test]
    fn sessions_from_a_header_or_a_legacy_query() {
        let url = Url::parse("http://h/messages?sessionId=abc").unwrap();
        assert_eq!(query_session(&url).as_deref(), Some("abc"));
        let mut headers = HeaderMap::new();
        headers.insert("mcp-session-id", "s-1".parse().unwrap());
        headers.insert("mcp-method", "tools/call".parse().unwrap());
        headers.insert(
            "authorization",
            "Bearer abcdefghijklmnopqrstuvwxyz".parse().unwrap(),
        );
        let body = Bytes::from_static(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#);
        let x = Exchange::start(&Method::POST, &url, &headers, &body);
        assert_eq!(x.session.as_deref(), Some("s-1"));
        let (_, protocol) = x.posted.as_ref().unwrap();
        assert_eq!(
            protocol.as_deref(),
            Some(&[("mcp-method".to_owned(), "tools/call".to_owned())][..])
        );
        let auth = &x
            .note
            .request_headers
            .iter()
            .find(|(k, _)| k == "authorization")
            .unwrap()
            .1;
        assert!(!auth.contains("ijklmnop"), "{auth}");
    }
}

//! One recorded JSON-RPC frame. Frames keep the exact text that crossed the wire, including
//! lines that do not parse, because those are exactly what a server author needs to see.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Which way a frame travelled, seen from mcplab.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// mcplab → server.
    Outbound,
    /// server → mcplab.
    Inbound,
}

/// What kind of record this is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum FrameKind {
    /// A JSON-RPC message that parsed.
    Message,
    /// Bytes that are not a valid JSON-RPC message; `error` says why.
    Unparsable { error: String },
    /// A message mcplab made up for a failure the transport saw (e.g. an HTTP 500 on a POST).
    Synthetic,
    /// A transport diagnostic, not a message (reconnects, HTTP statuses).
    Note,
}

/// A frame with its place in the recording.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TrafficFrame {
    /// Monotonic across all servers of one mcplab process.
    pub seq: u64,
    pub server: String,
    /// Milliseconds since the Unix epoch.
    pub ts_ms: u64,
    pub direction: Direction,
    #[serde(flatten)]
    pub kind: FrameKind,
    /// The exact text (invalid UTF-8 is replaced, and noted in `kind`); only its start when
    /// `fullBytes` is set.
    pub text: String,
    /// Set when `text` is only the frame's start: the whole frame's length in bytes. The whole
    /// frame is served by `GET /api/servers/{name}/traffic/{seq}` while it is still recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub full_bytes: Option<u64>,
    /// HTTP headers that carried protocol meaning for this frame (2026-07-28 streamable HTTP:
    /// `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`), as sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub headers: Option<Vec<(String, String)>>,
    /// Set on the record of an HTTP exchange (kind `note`, `text` a one-line summary): the
    /// request and response it was, recorded when the response's headers arrived (or the
    /// request failed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub http: Option<TrafficHttpExchange>,
    /// The `seq` of the HTTP exchange record whose response carried this frame (HTTP wires).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub exchange: Option<u64>,
}

impl TrafficFrame {
    /// A message frame as a stdio wire records it: the whole text, no HTTP about it.
    pub fn message(
        seq: u64,
        server: impl Into<String>,
        ts_ms: u64,
        direction: Direction,
        text: impl Into<String>,
    ) -> Self {
        TrafficFrame {
            seq,
            server: server.into(),
            ts_ms,
            direction,
            kind: FrameKind::Message,
            text: text.into(),
            full_bytes: None,
            headers: None,
            http: None,
            exchange: None,
        }
    }
}

/// One JSON-RPC request mcplab sent for a call (a tool call may take several: the rounds of a
/// multi-round-trip result, a task's polls): its id and when it was sent. The id alone is not
/// unique (a reconnect starts the ids over), so a link to a call's frames takes the request
/// frame with this id nearest to `atMs` on the call's server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RequestRef {
    #[ts(type = "string | number")]
    pub id: serde_json::Value,
    /// Milliseconds since the Unix epoch.
    pub at_ms: u64,
}

/// One HTTP request and its response, as an HTTP-based wire (streamable HTTP, legacy HTTP+SSE,
/// 2026-07-28) sent and got it. Secrets (`Authorization`, cookies, API-key headers, key-bearing
/// query parameters) are masked as the OAuth debugger masks them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TrafficHttpExchange {
    /// `POST`, `GET` or `DELETE`.
    pub method: String,
    pub url: String,
    /// Why the wire made it: `post` (a frame), `stream` (the standalone GET or the legacy SSE
    /// stream), `resume` (a `Last-Event-ID` GET), `end` (the session's `DELETE`).
    pub purpose: String,
    /// `None` when no response came (the words are in `error`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub status: Option<u16>,
    pub request_headers: Vec<(String, String)>,
    pub response_headers: Vec<(String, String)>,
    /// When the request was sent, milliseconds since the Unix epoch.
    pub started_ms: u64,
    /// Milliseconds until the response's headers (or the failure).
    pub elapsed_ms: u64,
    /// The `seq` of the frame this request sent (its body), when it sent one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub request_seq: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<String>,
}

//! What `mcplab tap` records and how it reaches a running inspector: the lines of a recording
//! file (JSON Lines: a `start` line, one `frame` line per frame, an `end` line), the API bodies
//! a tap sends to `mcplab serve`, and the view of a tapped session the traffic panel labels its
//! frames with. A recorded frame is a [`TrafficFrame`] whose `seq` is the tap's own numbering
//! and whose `server` is the host session it belongs to (the HTTP `Mcp-Session-Id`; empty for
//! stdio and for sessionless HTTP).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::TrafficFrame;

/// The recording format written in every `start` line.
pub const TAP_FORMAT: u32 = 1;

/// How the host reached the server through the tap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum TapTransport {
    /// `mcplab tap -- CMD…`: the host started the tap as the server's command.
    Stdio,
    /// `mcplab tap --url URL --listen ADDR`: the host connected to the tap by URL.
    Http,
}

/// The first line of a recording file (and of each file it rotates into), and the body of
/// `POST /api/taps`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TapStart {
    /// [`TAP_FORMAT`].
    pub format: u32,
    pub transport: TapTransport,
    /// The server: its command line (stdio) or its URL (HTTP), secrets in the URL masked.
    pub target: String,
    /// The tap's process id.
    pub pid: u32,
    pub started_ms: u64,
}

/// How the tapped server ended (stdio: its exit; HTTP: the tap stopped).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TapEnd {
    pub ended_ms: u64,
    /// In words: `exit code 0`, `killed by SIGTERM`, `stopped`.
    pub how: String,
    /// Frames the tap could not record (its queue was full or over its byte bound); the
    /// traffic itself passed.
    #[serde(default)]
    pub dropped: u64,
}

/// One line of a recording file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum TapLine {
    Start(TapStart),
    Frame(Box<TrafficFrame>),
    End(TapEnd),
}

/// `POST /api/taps` → the tap's id (`tap:N`); its frames go to `POST /api/taps/{id}/frames`
/// as a `TrafficFrame[]` and its end to `POST /api/taps/{id}/end` as a [`TapEnd`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TapRegistered {
    pub id: String,
}

/// The host as it introduced itself (`initialize`'s `clientInfo`, or the 2026-07-28
/// `io.modelcontextprotocol/clientInfo` request metadata).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TapHost {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub title: Option<String>,
}

/// A tapped host session as the inspector shows it (`GET /api/taps`): its frames are recorded
/// under `key`, the name the traffic panel filters by.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TapSessionView {
    /// Where its frames are recorded (`tap:N`, `tap:N.2` for a tap's second HTTP session).
    pub key: String,
    /// The tap (`tap:N`).
    pub tap: String,
    pub transport: TapTransport,
    pub target: String,
    /// `None` until the host introduced itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub host: Option<TapHost>,
    /// The revision the host asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub protocol_version: Option<String>,
    /// The HTTP session (`Mcp-Session-Id`, or the legacy SSE `sessionId`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub session_id: Option<String>,
    pub started_ms: u64,
    /// Set once the tap ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ended: Option<TapEnd>,
    /// `live` (a running tap) or `file` (a recording opened in the inspector).
    pub source: String,
}

/// `POST /api/taps/open`: a recording's text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TapOpen {
    pub text: String,
}

/// `POST /api/taps/open` → the sessions the recording held.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TapOpened {
    pub sessions: Vec<TapSessionView>,
    pub frames: u64,
}

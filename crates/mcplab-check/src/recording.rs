//! The recording of one era's session that every rule set judges: who was checked and how,
//! the negotiated revision and capabilities, every traffic frame in both directions, and what
//! the exercises observed (listings page by page, ping, `logging/setLevel`, tool calls) with
//! each failure classified. Exercises fill it; judges only read it.

use std::time::Duration;

use std::collections::HashMap;

use mcplab_mcp::{Listing, McpError};
use mcplab_protocol::{Direction, Era, FrameKind, ServerConfig, TrafficFrame};
use serde_json::Value;

/// One era's session, as recorded.
#[derive(Debug, Clone)]
pub struct Recording {
    /// The server as people name it.
    pub server: String,
    /// The traffic log (server name) the frames come from.
    pub traffic: String,
    pub config: ServerConfig,
    pub era: Era,
    /// The revision negotiated (or the one judged against when connecting failed).
    pub revision: String,
    /// The `initialize` result, or for 2026-07-28 the same summary built from `server/discover`.
    pub initialize: Value,
    /// Why connecting failed (the era was not checked beyond the frames it left).
    pub connect_error: Option<String>,
    /// Every frame of the session, in order (filled after the exercises; see [`session`]).
    pub frames: Vec<TrafficFrame>,
    /// Frames of this server the traffic log had already evicted (ids may then not match).
    pub frames_dropped: u64,
    /// What was exercised, in order, for people.
    pub exercised: Vec<String>,
    /// `ping` (legacy eras only).
    pub ping: Option<Result<(), ProbeError>>,
    /// Every listing, declared or not.
    pub listings: Vec<ListingRun>,
    /// `logging/setLevel` when `logging` is declared (legacy eras only).
    pub set_level: Option<Result<(), ProbeError>>,
    /// The tools called, in order.
    pub calls: Vec<CallRun>,
    /// The app resources (`ui://`) the tools link, read (None: not read in this check).
    pub apps: Option<Vec<crate::apps::AppRead>>,
    /// The fuzz inputs sent, with what came back.
    pub fuzz: Vec<crate::fuzz::FuzzCase>,
    /// The apps rendered live under host profiles that speak this era.
    pub live: Vec<crate::live::LiveRun>,
}

impl Recording {
    /// A recording about to be exercised: the session's identity and handshake, nothing
    /// observed yet.
    pub fn new(
        server: &str,
        traffic: &str,
        config: ServerConfig,
        era: Era,
        revision: &str,
        initialize: Value,
    ) -> Self {
        Self {
            server: server.to_owned(),
            traffic: traffic.to_owned(),
            config,
            era,
            revision: revision.to_owned(),
            initialize,
            connect_error: None,
            frames: Vec::new(),
            frames_dropped: 0,
            exercised: Vec::new(),
            ping: None,
            listings: Vec::new(),
            set_level: None,
            calls: Vec::new(),
            apps: None,
            fuzz: Vec::new(),
            live: Vec::new(),
        }
    }

    /// A recording of frames alone (e.g. a host session recorded by the tap): judges that
    /// read frames work on it; nothing was exercised.
    pub fn from_frames(era: Era, revision: &str, frames: Vec<TrafficFrame>) -> Self {
        let config = ServerConfig {
            name: "recording".into(),
            transport: mcplab_protocol::ServerTransport::Stdio {
                command: String::new(),
                args: Vec::new(),
                env: Default::default(),
                cwd: None,
            },
            timeout_ms: None,
            inherit_env: false,
            protocol: Default::default(),
        };
        let mut rec = Self::new("recording", "recording", config, era, revision, Value::Null);
        rec.frames = frames;
        rec
    }

    /// The declared capabilities (`Null` when unknown).
    pub fn capabilities(&self) -> &Value {
        self.initialize.get("capabilities").unwrap_or(&Value::Null)
    }

    /// Whether the server declared `capability`.
    pub fn declares(&self, capability: &str) -> bool {
        self.capabilities()
            .get(capability)
            .is_some_and(|c| !c.is_null())
    }

    /// The items of a listing that succeeded (empty otherwise).
    pub fn items(&self, listing: Listing) -> &[Value] {
        self.listed(listing).unwrap_or(&[])
    }

    /// The items of a listing that ran and succeeded: whole, unlike a recorded frame, which
    /// the traffic log may keep only in part. None when it was not run (a recording of
    /// frames alone) or failed.
    pub fn listed(&self, listing: Listing) -> Option<&[Value]> {
        self.listings
            .iter()
            .find(|l| l.listing == listing)
            .and_then(|l| l.outcome.as_ref().ok())
            .map(|l| l.items.as_slice())
    }

    /// The tools listed.
    pub fn tools(&self) -> &[Value] {
        self.items(Listing::Tools)
    }

    /// The URL of a remote server.
    pub fn url(&self) -> Option<&str> {
        match &self.config.transport {
            mcplab_protocol::ServerTransport::Stdio { .. } => None,
            mcplab_protocol::ServerTransport::Http { url, .. }
            | mcplab_protocol::ServerTransport::Sse { url, .. } => Some(url),
        }
    }

    /// Every result the server sent, with the method of the request it answers (for rules
    /// that read what was listed where: the frame and the JSON path).
    pub fn results(&self) -> Vec<Answer<'_>> {
        let mut asked: HashMap<String, String> = HashMap::new();
        let mut out = Vec::new();
        for frame in &self.frames {
            if frame.kind != FrameKind::Message {
                continue;
            }
            let Ok(v) = serde_json::from_str::<Value>(&frame.text) else {
                continue;
            };
            let id = v.get("id").map(Value::to_string);
            match (frame.direction, id, v.get("method").and_then(Value::as_str)) {
                (Direction::Outbound, Some(id), Some(method)) => {
                    asked.insert(id, method.to_owned());
                }
                (Direction::Inbound, Some(id), None) => {
                    if let (Some(method), Some(result)) = (asked.remove(&id), v.get("result")) {
                        out.push(Answer {
                            method,
                            frame,
                            result: result.clone(),
                        });
                    }
                }
                _ => {}
            }
        }
        out
    }

    pub fn is_stdio(&self) -> bool {
        matches!(
            self.config.transport,
            mcplab_protocol::ServerTransport::Stdio { .. }
        )
    }
}

/// A result the server sent, with the method it answers.
#[derive(Debug, Clone)]
pub struct Answer<'a> {
    pub method: String,
    pub frame: &'a TrafficFrame,
    pub result: Value,
}

/// The frames of one era's session out of a server's whole recording: from its handshake
/// (`initialize`, or `server/discover` for 2026-07-28), including a 2026-07-28 probe `auto`
/// sent first on the same connection, and the lines the server wrote just before. Earlier
/// frames of the same server belong to earlier connections.
pub(crate) fn session(frames: &[TrafficFrame], era: Era) -> &[TrafficFrame] {
    let handshake = match era {
        Era::Legacy => "initialize",
        Era::Modern => "server/discover",
    };
    let method = |fr: &TrafficFrame| -> Option<String> {
        if fr.direction != Direction::Outbound || fr.kind != FrameKind::Message {
            return None;
        }
        let v: Value = serde_json::from_str(&fr.text).ok()?;
        v.get("method")?.as_str().map(str::to_owned)
    };
    // The probe's `ping` belongs to the probe: looking back from `initialize`, skip it.
    let probe_part = |fr: &TrafficFrame| -> Option<String> {
        let v: Value = serde_json::from_str(&fr.text).ok()?;
        match is_probe_ping(&v) {
            true => Some("server/discover".into()),
            false => method(fr),
        }
    };
    let Some(mut start) = frames
        .iter()
        .rposition(|fr| method(fr).as_deref() == Some(handshake))
    else {
        return frames;
    };
    while era == Era::Legacy
        && let Some(probe) = frames[..start]
            .iter()
            .rposition(|fr| method(fr).is_some())
            .filter(|i| probe_part(&frames[*i]).as_deref() == Some("server/discover"))
    {
        start = probe;
    }
    while start > 0 && matches!(frames[start - 1].kind, FrameKind::Unparsable { .. }) {
        start -= 1;
    }
    &frames[start..]
}

/// The `ping` mcplab's connection sends while its `server/discover` probe goes unanswered
/// (`protocol: auto`): the connection's own, judged with the probe, not the session.
pub(crate) fn is_probe_ping(v: &Value) -> bool {
    v.get("id").and_then(Value::as_str) == Some(PROBE_PING_ID)
}

/// The id of that `ping` (mcplab-mcp's `modern::probe`).
const PROBE_PING_ID: &str = "mcplab-discover-probe";

/// One listing followed page by page.
#[derive(Debug, Clone)]
pub struct ListingRun {
    pub listing: Listing,
    /// Whether its capability was declared.
    pub declared: bool,
    pub outcome: Result<Listed, ProbeError>,
}

/// What a listing returned.
#[derive(Debug, Clone, Default)]
pub struct Listed {
    pub items: Vec<Value>,
    pub pages: usize,
    /// Why following the cursors stopped early (a repeated or non-string cursor, too many pages).
    pub cursor_problem: Option<String>,
}

/// One tool call.
#[derive(Debug, Clone)]
pub struct CallRun {
    pub tool: String,
    pub arguments: Value,
    pub outcome: Result<Value, ProbeError>,
}

/// Why a request of an exercise failed, classified for the rules.
#[derive(Debug, Clone, PartialEq)]
pub enum ProbeError {
    /// JSON-RPC -32601: the server does not have the method.
    MethodNotFound,
    /// Another JSON-RPC error.
    Server { code: i64, message: String },
    /// No answer in time.
    Timeout { method: String, after: Duration },
    /// The server answered with an id that matches no request (the `response-id` rule says so).
    StrayResponse(String),
    /// Anything else (transport, unusable response…), in words.
    Other(String),
}

impl ProbeError {
    pub fn from_mcp(e: &McpError) -> Self {
        match e {
            McpError::Server { code: -32601, .. } => ProbeError::MethodNotFound,
            McpError::Server { code, message, .. } => ProbeError::Server {
                code: *code,
                message: message.clone(),
            },
            McpError::Timeout { method, after } => ProbeError::Timeout {
                method: method.clone(),
                after: *after,
            },
            other => ProbeError::Other(other.to_string()),
        }
    }
}

impl std::fmt::Display for ProbeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProbeError::MethodNotFound => f.write_str("error -32601 (method not found)"),
            ProbeError::Server { code, message } => write!(f, "error {code}: {message}"),
            ProbeError::Timeout { method, after } => write!(
                f,
                "`{method}` got no response within {}s",
                after.as_secs_f64()
            ),
            ProbeError::StrayResponse(m) | ProbeError::Other(m) => f.write_str(m),
        }
    }
}

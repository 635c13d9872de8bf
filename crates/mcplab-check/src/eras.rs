//! Checking every era a server speaks. With `protocol: auto` the server is first connected
//! the way every other command connects it (2026-07-28 when it answers `server/discover`,
//! else the `initialize` handshake); a server that spoke 2026-07-28 is then connected again
//! pinned to 2025-11-25, so a dual-era server is checked twice. A server that refuses the
//! other era (an error answer to `initialize`, or no answer) simply does not speak it: a
//! note, not a finding. A pinned protocol checks that era only. How to connect is the
//! caller's ([`Connector`]): the CLI opens sessions, the web server uses its manager.

use futures::future::BoxFuture;
use mcplab_mcp::{Connection, TrafficLog};
use mcplab_protocol::check::{CheckReport, Surface};
use mcplab_protocol::{Direction, Era, FrameKind, ProtocolChoice, ServerConfig, TrafficFrame};
use serde_json::Value;

use crate::baseline::surface_of;
use crate::options::CheckOptions;
use crate::run::{EraResult, attempted_era, check_connection, check_failed_connect, report};

/// A connection the checker may use until it closes it.
pub trait Opened: Send {
    fn connection(&self) -> &Connection;
    fn traffic(&self) -> &TrafficLog;
    fn close(self: Box<Self>) -> BoxFuture<'static, ()>;
}

/// Why a connection did not open.
pub enum OpenError<F> {
    /// Connecting failed: `error` in words, with the frames it left (judged too).
    Failed {
        error: String,
        frames: Vec<TrafficFrame>,
    },
    /// Stop checking altogether (interrupted, a usage error): handed back to the caller.
    Fatal(F),
}

/// What [`Connector::open`] gives.
pub type Opening<'a, F> = BoxFuture<'a, Result<Box<dyn Opened>, OpenError<F>>>;

/// Opens connections for the checker.
pub trait Connector {
    type Fatal;
    /// Connects `config` (its `protocol` says which era to open).
    fn open(&mut self, config: ServerConfig) -> Opening<'_, Self::Fatal>;
}

/// A server checked in every era it speaks.
#[derive(Debug, Clone)]
pub struct ServerCheck {
    pub report: CheckReport,
    /// The surface of each era that connected (what `--write-baseline` writes).
    pub surfaces: Vec<Surface>,
}

/// Checks `config` in every era it speaks (see the module doc) and reports them together.
pub async fn check_server<C: Connector>(
    config: ServerConfig,
    label: &str,
    opts: &CheckOptions,
    connector: &mut C,
) -> Result<ServerCheck, C::Fatal> {
    let mut notes = Vec::new();
    let mut eras = Vec::new();
    let first = one_era(&config, label, opts, connector).await?;
    let auto = config.protocol == ProtocolChoice::Auto;
    let modern_first = first.check.connected && first.check.era == Era::Modern;
    if auto && first.check.connected && first.check.era == Era::Legacy {
        notes.push("2026-07-28: not spoken (auto fell back to the initialize handshake); checked in the 2025 era only".into());
    }
    eras.push(first);
    if auto && modern_first {
        let legacy = ServerConfig {
            protocol: ProtocolChoice::V2025_11_25,
            ..config.clone()
        };
        let second = one_era(&legacy, label, opts, connector).await?;
        match refused(&second) {
            Some(why) => notes.push(format!(
                "2025 era: not spoken ({why}); checked in 2026-07-28 only"
            )),
            None => eras.push(second),
        }
    }
    crate::live::render_all(&mut eras, opts).await;
    let surfaces = eras
        .iter()
        .filter(|e| e.check.connected)
        .map(|e| surface_of(&e.recording))
        .collect();
    Ok(ServerCheck {
        report: report(label, eras, notes, opts),
        surfaces,
    })
}

/// Connects one era and checks it, or judges what the failed connection left.
async fn one_era<C: Connector>(
    config: &ServerConfig,
    label: &str,
    opts: &CheckOptions,
    connector: &mut C,
) -> Result<EraResult, C::Fatal> {
    match connector.open(config.clone()).await {
        Ok(opened) => {
            let result = check_connection(opened.connection(), opened.traffic(), label, opts).await;
            opened.close().await;
            Ok(result)
        }
        Err(OpenError::Failed { error, frames }) => Ok(check_failed_connect(
            label,
            &config.name,
            config.clone(),
            &frames,
            &error,
            opts,
        )),
        Err(OpenError::Fatal(fatal)) => Err(fatal),
    }
}

/// Why a failed legacy attempt means "does not speak that era": `initialize` was answered
/// with an error, or not at all. A result that still failed is a broken era (None).
fn refused(attempt: &EraResult) -> Option<String> {
    if attempt.check.connected || attempted_era(&attempt.recording.frames) != Era::Legacy {
        return None;
    }
    let frames = &attempt.recording.frames;
    let id = frames.iter().find_map(|fr| {
        let v = message(fr, Direction::Outbound)?;
        (v.get("method")?.as_str()? == "initialize").then(|| v.get("id").cloned())?
    })?;
    let answer = frames
        .iter()
        .filter_map(|fr| message(fr, Direction::Inbound))
        .find(|v| v.get("id") == Some(&id) && v.get("method").is_none());
    match answer {
        Some(v) if v.get("result").is_some() => None,
        Some(v) => Some(format!(
            "it answered initialize with error {}: {}",
            v.pointer("/error/code").unwrap_or(&Value::Null),
            v.pointer("/error/message")
                .and_then(Value::as_str)
                .unwrap_or("")
        )),
        None => Some(format!(
            "no answer to initialize: {}",
            attempt.recording.connect_error.as_deref().unwrap_or("")
        )),
    }
}

fn message(fr: &TrafficFrame, direction: Direction) -> Option<Value> {
    (fr.direction == direction && fr.kind == FrameKind::Message)
        .then(|| serde_json::from_str(&fr.text).ok())
        .flatten()
}

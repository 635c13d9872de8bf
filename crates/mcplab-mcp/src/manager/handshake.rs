//! The `initialize` handshake of a started wire, with its deadline, and the small helpers
//! the manager shares with the wires (bounded waits, HTTP targets, stderr tails, init
//! errors in plain words). It opens nothing itself: the manager hands it a started wire.

use super::super::connection::Connection;
use super::super::error::McpError;
use super::super::event_gate::EventGate;
use super::super::frame_transport::{FrameTransport, HeaderRecorder, RawResults};
use super::super::handler::{ClientSide, SUPPORTED_PROTOCOL_VERSIONS};
use super::super::http::HttpTarget;
use super::super::limits::Limits;
use super::super::modern::cache::ResponseCache;
use super::super::modern::era::{Outcome, Plan, describe, not_modern, summary_from_discovery};
use super::super::modern::probe::{DiscoverProbe, StderrHold, StdinGauge};
use super::super::stdio::StderrTail;
use super::super::wire::{BAD_RESPONSE_CODE, TRANSPORT_ERROR_CODE};
use super::{ConnectionManager, EraSetup, HandshakeFailure};
use mcplab_protocol::{Direction, Era, FrameKind, ServerConfig, ServerEvent};
use rmcp::service::{ClientInitializeError, serve_client_with_lifecycle_and_ct};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// How long a server whose handshake failed gets at each step of its stop (exit on its own,
/// then after SIGTERM): enough to flush the stderr the error quotes, without making a person
/// wait a stop grace twice per start for a server that never answered.
const ABANDONED_GRACE: Duration = Duration::from_millis(300);

impl ConnectionManager {
    /// Runs `initialize` over `wire` with a deadline and builds the connection; on failure
    /// stops the transport and the child and returns a message that quotes its stderr.
    pub(super) async fn handshake(
        &self,
        config: ServerConfig,
        started: Started,
        setup: EraSetup,
    ) -> Result<Connection, HandshakeFailure> {
        let Started {
            wire,
            child,
            gauge,
            stderr,
            gate,
            transport_cancel,
            transport_task,
            waiting,
            hold,
        } = started;
        let name = config.name.clone();
        let raw = RawResults::default();
        let mut transport =
            FrameTransport::new(name.clone(), wire, self.traffic.clone(), raw.clone());
        if let Some(tools) = &setup.tools {
            transport = transport.with_headers(HeaderRecorder::new(tools.clone()));
        }
        let cache = Arc::new(ResponseCache::default());
        let handler = ClientSide {
            server: name.clone(),
            protocol_version: setup.plan.handler_version(),
            cache: cache.clone(),
            tasks: self.tasks.clone(),
            identity: self.opts.identity.clone(),
            capabilities: Arc::new(super::super::modern::declared_capabilities(
                &self.client_of(&name),
            )),
            events: gate,
            broker: self.broker.clone(),
            roots: self.roots.clone(),
            progress: Arc::default(),
            human_timeout: self.opts.human_timeout,
        };
        let answerer = handler.clone();
        let mut transport = transport.with_in_order(handler.clone());
        // `auto`'s probe; `server/discover` alone under `auto` is the patient second try after
        // a start that never read it (see `open_after_slow_start`).
        let probe = match setup.plan {
            Plan::Auto => Some(DiscoverProbe::new(self.opts.connect_timeout, gauge)),
            Plan::Discover if config.protocol.is_auto() => {
                Some(DiscoverProbe::patient(self.opts.connect_timeout, gauge))
            }
            _ => None,
        };
        if let Some(probe) = probe {
            transport = transport.with_discover_probe(probe);
        }
        let ct = CancellationToken::new();
        let lifecycle = setup.plan.lifecycle();
        // Time spent waiting for a person to sign in (OAuth) does not count.
        let started = bounded(
            serve_client_with_lifecycle_and_ct(handler, transport, lifecycle, ct.clone()),
            self.opts.connect_timeout,
            waiting,
        )
        .await;
        let mut not_modern_why = None;
        let timed_out = started.is_err();
        let failure = match started {
            // B13: a revision we do not speak is refused, as the spec says a client should.
            // (A 2026-07-28 handshake is `server/discover`, whose result names no single
            // revision; the era module judged it.)
            Ok(Ok(mut service))
                if !discovered(&raw.first().unwrap_or_default())
                    && !speaks(&raw.first().unwrap_or_default()) =>
            {
                let _ = service.close_with_timeout(Duration::from_secs(2)).await;
                let version = raw
                    .first()
                    .and_then(|v| v.get("protocolVersion").cloned())
                    .unwrap_or_default();
                format!(
                    "the server answered protocol version {version}, which mcplab does not \
                     support (it speaks {}); the server should answer with one of these",
                    SUPPORTED_PROTOCOL_VERSIONS.join(", ")
                )
            }
            Ok(Ok(service)) => {
                let peer = service.peer().clone();
                let revision = peer
                    .peer_info()
                    .map(|i| i.protocol_version.to_string())
                    .unwrap_or_else(|| setup.plan.handler_version());
                let era = describe(Outcome {
                    choice: config.protocol,
                    transport: config.transport.kind(),
                    revision: revision.clone(),
                    first_result: raw.first(),
                    first_error: raw.first_error(),
                    fell_back: setup.fell_back,
                });
                // Stderr written while the server refused `auto`'s probe is the probe's noise.
                let probe_noise = setup.plan == Plan::Auto && era.era == Era::Legacy;
                self.release_stderr(&name, &hold, &answerer.events, probe_noise);
                let initialize = match &era.discovery {
                    Some(discovery) => summary_from_discovery(&revision, discovery),
                    None => raw.first().unwrap_or_default(),
                };
                let timeout = config
                    .timeout_ms
                    .map(Duration::from_millis)
                    .unwrap_or(self.opts.request_timeout);
                return Ok(Connection {
                    name,
                    config,
                    service: tokio::sync::Mutex::new(Some(service)),
                    peer,
                    raw,
                    progress: answerer.progress.clone(),
                    child,
                    stderr,
                    timeout,
                    initialize,
                    transport_cancel,
                    era,
                    cache,
                    tool_headers: setup.tools,
                    answerer,
                    log_level: parking_lot::Mutex::new(self.opts.log_level.clone()),
                    listed_tools: Default::default(),
                    task_support: Default::default(),
                    tasks: self.tasks.clone(),
                    traffic: self.traffic.clone(),
                    listens: Default::default(),
                    transport_task: parking_lot::Mutex::new(transport_task),
                });
            }
            Ok(Err(ClientInitializeError::JsonRpcError(data)))
                if [TRANSPORT_ERROR_CODE, BAD_RESPONSE_CODE].contains(&i64::from(data.code.0)) =>
            {
                data.message.into_owned()
            }
            Ok(Err(e)) => {
                not_modern_why = raw.probe_given_up().or_else(|| not_modern(&e));
                let method = match setup.plan {
                    Plan::Discover => "server/discover",
                    _ => "initialize",
                };
                raw.closed_reason()
                    .unwrap_or_else(|| describe_init_error(e, method))
            }
            Err(_) => {
                ct.cancel();
                let hint = match child.is_some() {
                    true => "is it an MCP server? does it write anything but JSON-RPC to stdout?",
                    false => "is it an MCP server, and is this its MCP endpoint?",
                };
                let probe = match setup.plan {
                    Plan::Initialize(_) => "",
                    Plan::Discover => " (sent as the 2026-07-28 `server/discover`)",
                    Plan::Auto => " or to the `server/discover` probe before it",
                };
                format!(
                    "no answer to `initialize`{probe} within {} ({hint})",
                    seconds(self.opts.connect_timeout)
                )
            }
        };
        // Held lines are in the stderr tail the error quotes; probe noise only in the traffic.
        let probe_noise = not_modern_why.is_some();
        if probe_noise {
            self.release_stderr(&name, &hold, &answerer.events, true);
        }
        transport_cancel.cancel();
        if let Some(child) = &child {
            // Let the dying process flush its stderr so the message can quote it; a server
            // still running (hung, or still starting) has no session to finish: it is not
            // given the full stop grace at each step of its stop.
            child.wait_exit(ABANDONED_GRACE).await;
            child.shutdown_within(ABANDONED_GRACE).await;
        }
        Err(HandshakeFailure {
            error: McpError::Connect {
                server: name,
                message: failure,
                stderr_tail: tail_of(&stderr, 20),
            },
            not_modern: not_modern_why,
            slow_start: raw.probe_never_read() || (timed_out && raw.probe_unread()),
        })
    }
}

impl ConnectionManager {
    /// Ends the holding of a handshake's stderr: probe noise goes to the traffic view (and
    /// `--trace`), anything else is shown as the server's stderr.
    fn release_stderr(&self, name: &str, hold: &StderrHold, gate: &EventGate, noise: bool) {
        let held = hold.release();
        if !noise {
            for line in held.lines {
                gate.send(ServerEvent::Stderr {
                    server: name.to_owned(),
                    line,
                });
            }
            return;
        }
        if held.lines.is_empty() && held.dropped == 0 {
            return;
        }
        let note = format!(
            "the server wrote {} line(s) to stderr while refusing mcplab's server/discover \
             probe (protocol auto); not shown as its output",
            held.lines.len() + held.dropped
        );
        let traffic = &self.traffic;
        traffic.record(name, Direction::Inbound, FrameKind::Note, note.as_bytes());
        for line in held.lines {
            let text = format!("stderr | {line}");
            traffic.record(name, Direction::Inbound, FrameKind::Note, text.as_bytes());
        }
    }
}

/// A transport that was started, ready for the handshake.
pub(super) struct Started {
    pub(super) wire: super::super::wire::Wire,
    pub(super) child: Option<super::super::stdio::ChildGuard>,
    /// The child's stdin, watched by `auto`'s probe (see [`StdinGauge`]).
    pub(super) gauge: Option<StdinGauge>,
    pub(super) stderr: Arc<StderrTail>,
    pub(super) gate: Arc<EventGate>,
    /// Stops the transport task (HTTP wires).
    pub(super) transport_cancel: CancellationToken,
    /// The streamable HTTP task, which ends the session with DELETE (B12: closing waits for it).
    pub(super) transport_task: Option<JoinHandle<()>>,
    /// True while an OAuth sign-in waits for a person (the deadline restarts after it).
    pub(super) waiting: Option<watch::Receiver<bool>>,
    /// Stderr held back during the handshake (stdio with `protocol: auto`).
    pub(super) hold: Arc<StderrHold>,
}

impl Started {
    /// A started wire with no child process, no transport task to await and no sign-in to wait
    /// for; the transports that have them set those fields over this.
    pub(super) fn new(
        wire: super::super::wire::Wire,
        stderr: Arc<StderrTail>,
        gate: Arc<EventGate>,
        transport_cancel: CancellationToken,
    ) -> Self {
        Self {
            wire,
            child: None,
            gauge: None,
            stderr,
            gate,
            transport_cancel,
            transport_task: None,
            waiting: None,
            hold: Arc::new(StderrHold::new(false)),
        }
    }
}

/// Runs `fut` with a deadline of `limit`. A deadline that passes while `waiting` is true does
/// not end it: once `waiting` turns false a whole new `limit` starts. `Err(())` when the
/// deadline passed with nobody waiting.
pub(crate) async fn bounded<F: std::future::Future>(
    fut: F,
    limit: Duration,
    mut waiting: Option<watch::Receiver<bool>>,
) -> Result<F::Output, ()> {
    tokio::pin!(fut);
    let mut deadline = tokio::time::Instant::now() + limit;
    loop {
        tokio::select! {
            out = &mut fut => return Ok(out),
            _ = tokio::time::sleep_until(deadline) => {
                let Some(w) = waiting.as_mut().filter(|w| *w.borrow()) else {
                    return Err(());
                };
                tokio::select! {
                    out = &mut fut => return Ok(out),
                    _ = w.wait_for(|busy| !*busy) => {}
                }
                deadline = tokio::time::Instant::now() + limit;
            }
        }
    }
}

/// A duration in seconds for messages: `30s`, `1.5s`.
pub(super) fn seconds(d: Duration) -> String {
    format!("{}s", d.as_secs_f64())
}

/// Whether the first result is a `server/discover` result (2026-07-28) rather than `initialize`'s.
pub(super) fn discovered(first: &serde_json::Value) -> bool {
    first.get("protocolVersion").is_none() && first.get("supportedVersions").is_some()
}

/// Whether the `initialize` result names a protocol revision mcplab speaks.
pub(super) fn speaks(initialize: &serde_json::Value) -> bool {
    initialize
        .get("protocolVersion")
        .and_then(serde_json::Value::as_str)
        .is_some_and(|v| SUPPORTED_PROTOCOL_VERSIONS.contains(&v))
}

/// B14: a failed handshake in words, not rmcp's Debug output or error-code prefixes.
/// `method` is the request that opened it (`initialize`, or `server/discover` when the
/// protocol is pinned to 2026-07-28: N12).
pub(super) fn describe_init_error(e: rmcp::service::ClientInitializeError, method: &str) -> String {
    use rmcp::model::ServerResult;
    use rmcp::service::ClientInitializeError as E;
    match e {
        E::ExpectedInitResult(Some(ServerResult::CustomResult(custom))) => {
            let why = serde_json::from_value::<rmcp::model::InitializeResult>(custom.0.clone())
                .err()
                .map_or_else(|| "unexpected shape".to_owned(), |e| e.to_string());
            format!(
                "the server's `{method}` result is not valid ({why}): {}",
                custom.0
            )
        }
        E::ExpectedInitResult(other) => format!(
            "the server answered `{method}` with something else: {}",
            other.map_or_else(
                || "nothing".into(),
                |r| serde_json::to_string(&r).unwrap_or_default()
            )
        ),
        E::JsonRpcError(data) if i64::from(data.code.0) == TRANSPORT_ERROR_CODE => {
            data.message.into_owned()
        }
        E::JsonRpcError(data) => format!(
            "the server answered `{method}` with error {}: {}",
            data.code.0, data.message
        ),
        // `auto` on stdio: the handshake that decides is the fallback `initialize`.
        E::LegacyFallbackFailed { fallback, .. } => describe_init_error(*fallback, "initialize"),
        other => other.to_string(),
    }
}

pub(super) fn tail_of(stderr: &StderrTail, n: usize) -> Vec<String> {
    let lines = stderr.lines();
    let skip = lines.len().saturating_sub(n);
    lines.into_iter().skip(skip).collect()
}

pub(super) fn http_target(
    name: &str,
    url: &str,
    headers: &std::collections::BTreeMap<String, String>,
    limits: &Limits,
) -> Result<HttpTarget, McpError> {
    let url = reqwest::Url::parse(url).map_err(|e| {
        McpError::InvalidConfig(format!("server `{name}` has an invalid URL `{url}`: {e}"))
    })?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(McpError::InvalidConfig(format!(
            "server `{name}`: the URL must start with http:// or https://"
        )));
    }
    Ok(HttpTarget {
        url,
        headers: headers
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        bearer: None,
        auth: None,
        max_message: limits.message_bytes,
    })
}

//! `ConnectionManager` owns every MCP connection of the process, keyed by server name, with a
//! status the UI can always show. It builds the right wire for a config, runs the
//! `initialize` handshake with a deadline, watches for the transport closing, and publishes
//! status changes as events. It never reads argv, env or files: callers pass configs in.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use mcplab_protocol::oauth::OAuthConfig;
use mcplab_protocol::{ProtocolChoice, ServerConfig, ServerEvent, ServerStatus, ServerTransport};
use rmcp::service::{ClientInitializeError, serve_client_with_lifecycle_and_ct};
use tokio::sync::{broadcast, watch};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::broker::{Broker, DEFAULT_HUMAN_TIMEOUT};
use super::connection::Connection;
use super::error::McpError;
use super::event_gate::EventGate;
use super::frame_transport::{FrameTransport, HeaderRecorder, RawResults};
use super::handler::{ClientIdentity, ClientSide, RootEntry, Roots, SUPPORTED_PROTOCOL_VERSIONS};
use super::http::{HttpTarget, spawn_streamable_http};
use super::legacy_sse::spawn_legacy_sse;
use super::limits::Limits;
use super::modern::cache::ResponseCache;
use super::modern::era::{Outcome, Plan, describe, not_modern, summary_from_discovery};
use super::modern::headers::ToolHeaders;
use super::modern::http::{ModernHttp, spawn_modern_http};
use super::stdio::{StderrTail, StdioSpec, spawn_stdio};
use super::tasks::TaskRegistry;
use super::traffic::{DEFAULT_RING_CAPACITY, TrafficLog};
use super::wire::{BAD_RESPONSE_CODE, TRANSPORT_ERROR_CODE, wire_pair};
use crate::oauth::{AuthSession, OAuthHost};

/// Default per-request timeout (reset by progress).
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
/// Default deadline for spawning/connecting plus `initialize`.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(30);
/// Label of in-process servers in their slot's config.
const IN_PROCESS: &str = "(in-process)";

/// The byte streams of an in-process server.
type InProcessIo = (
    Box<dyn tokio::io::AsyncRead + Unpin + Send>,
    Box<dyn tokio::io::AsyncWrite + Unpin + Send>,
);

/// Stderr lines kept per stdio server.
const STDERR_LINES: usize = 200;

/// Settings for a manager; the binary fills them from flags and config.
#[derive(Debug, Clone)]
pub struct ManagerOptions {
    pub identity: ClientIdentity,
    pub request_timeout: Duration,
    pub connect_timeout: Duration,
    pub human_timeout: Duration,
    pub traffic_capacity: usize,
    /// How long a stdio server gets to exit after its stdin closes (and after SIGTERM)
    /// before the next, harsher step. A one-shot CLI call wants this short.
    pub stop_grace: Duration,
    /// The byte budget: everything a server can make mcplab hold.
    pub limits: Limits,
    /// The environment stdio servers' allow-listed variables come from; `None`: this
    /// process's own. (Tests hand one in; the binary may too.)
    pub parent_env: Option<Arc<[(std::ffi::OsString, std::ffi::OsString)]>>,
    /// OAuth for a remote server may follow it to internal addresses and plain-http endpoints.
    pub oauth_allow_private: bool,
    /// 2026-07-28: open a `subscriptions/listen` for the list changes a server announces as
    /// soon as it connects (the web inspector refreshes its lists on them; a one-shot CLI call
    /// does not need them).
    pub listen_for_changes: bool,
}

impl Default for ManagerOptions {
    fn default() -> Self {
        Self {
            identity: ClientIdentity {
                name: "mcplab".into(),
                version: env!("CARGO_PKG_VERSION").into(),
            },
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            human_timeout: DEFAULT_HUMAN_TIMEOUT,
            traffic_capacity: DEFAULT_RING_CAPACITY,
            stop_grace: super::stdio::DEFAULT_STOP_GRACE,
            limits: Limits::default(),
            parent_env: None,
            oauth_allow_private: false,
            listen_for_changes: true,
        }
    }
}

struct Slot {
    status: ServerStatus,
    /// Stderr of the latest attempt, kept after a failure so it can still be shown.
    stderr: Option<Arc<StderrTail>>,
    conn: Option<Arc<Connection>>,
    config: ServerConfig,
    /// Bumped on every (re)connect so a stale watcher cannot overwrite a newer status.
    generation: u64,
}

pub struct ConnectionManager {
    opts: ManagerOptions,
    slots: Mutex<HashMap<String, Slot>>,
    traffic: Arc<TrafficLog>,
    events: broadcast::Sender<ServerEvent>,
    broker: Arc<Broker>,
    roots: Roots,
    /// Built on first use: loading the system's CA certificates costs start-up time that
    /// stdio-only sessions should not pay, and can fail on machines without any.
    http: std::sync::OnceLock<Result<reqwest::Client, String>>,
    /// OAuth for http/sse servers; without it a 401 is just an error.
    oauth: std::sync::OnceLock<Arc<OAuthHost>>,
    /// Tasks of every server, kept across reconnects.
    tasks: Arc<TaskRegistry>,
}

/// How a handshake should open the session (see [`Plan`]).
struct EraSetup {
    plan: Plan,
    /// `x-mcp-header` designations shared with the 2026-07-28 HTTP wire.
    tools: Option<Arc<ToolHeaders>>,
    /// Why `auto` fell back to the legacy wire after HTTP discovery.
    fell_back: Option<String>,
}

/// A failed handshake; `not_modern` says the server answered discovery like a legacy one.
struct HandshakeFailure {
    error: McpError,
    not_modern: Option<String>,
}

impl ConnectionManager {
    pub fn new(opts: ManagerOptions) -> Arc<Self> {
        let (events, _) = broadcast::channel(4096);
        Arc::new(Self {
            traffic: Arc::new(TrafficLog::with_limits(opts.traffic_capacity, &opts.limits)),
            broker: Arc::new(Broker::with_limit(
                events.clone(),
                opts.limits.pending_human,
            )),
            events,
            slots: Mutex::new(HashMap::new()),
            roots: Arc::new(RwLock::new(Vec::new())),
            http: std::sync::OnceLock::new(),
            oauth: std::sync::OnceLock::new(),
            tasks: Arc::default(),
            opts,
        })
    }

    /// Enables OAuth for http/sse servers (once; later calls are ignored), with this
    /// manager's choice about internal addresses.
    pub fn set_oauth(&self, host: Arc<OAuthHost>) {
        if self.opts.oauth_allow_private {
            host.http().allow_private(true);
        }
        let _ = self.oauth.set(host);
    }

    pub fn oauth(&self) -> Option<&Arc<OAuthHost>> {
        self.oauth.get()
    }

    /// The byte budget this manager enforces.
    pub fn limits(&self) -> &Limits {
        &self.opts.limits
    }

    pub fn traffic(&self) -> &Arc<TrafficLog> {
        &self.traffic
    }

    /// Every task the process knows of, per server.
    pub fn tasks(&self) -> &Arc<TaskRegistry> {
        &self.tasks
    }

    pub fn broker(&self) -> &Arc<Broker> {
        &self.broker
    }

    pub fn subscribe(&self) -> broadcast::Receiver<ServerEvent> {
        self.events.subscribe()
    }

    fn http_client(&self) -> Result<reqwest::Client, McpError> {
        let built = self.http.get_or_init(|| {
            reqwest::Client::builder()
                .connect_timeout(Duration::from_secs(10))
                .user_agent(format!(
                    "{}/{}",
                    self.opts.identity.name, self.opts.identity.version
                ))
                .build()
                .map_err(|e| format!("cannot set up the HTTP client: {e}"))
        });
        built.clone().map_err(McpError::InvalidConfig)
    }

    /// The rate and size limits on `server`'s events, fresh for each connection.
    fn gate(&self, server: &str) -> Arc<EventGate> {
        Arc::new(EventGate::new(
            server,
            self.events.clone(),
            &self.opts.limits,
        ))
    }

    fn stderr_tail_buffer(&self) -> StderrTail {
        StderrTail::new(STDERR_LINES, self.opts.limits.stderr_tail_bytes)
    }

    fn slots(&self) -> std::sync::MutexGuard<'_, HashMap<String, Slot>> {
        self.slots.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn set_status(&self, name: &str, generation: u64, status: ServerStatus) {
        {
            let mut slots = self.slots();
            let Some(slot) = slots.get_mut(name) else {
                return;
            };
            if slot.generation != generation || slot.status == status {
                return;
            }
            slot.status = status.clone();
            if !matches!(status, ServerStatus::Connected) {
                slot.conn = None;
            }
        }
        let _ = self.events.send(ServerEvent::Status {
            server: name.to_owned(),
            status,
        });
    }

    /// The status of every known server, sorted by name.
    pub fn statuses(&self) -> Vec<(String, ServerStatus)> {
        let mut v: Vec<_> = self
            .slots()
            .iter()
            .map(|(k, s)| (k.clone(), s.status.clone()))
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }

    /// The last lines the server wrote to stderr in its latest attempt (also after it failed).
    pub fn stderr_tail(&self, name: &str) -> Vec<String> {
        self.slots()
            .get(name)
            .and_then(|s| s.stderr.clone())
            .map(|t| t.lines())
            .unwrap_or_default()
    }

    pub fn status(&self, name: &str) -> Option<ServerStatus> {
        self.slots().get(name).map(|s| s.status.clone())
    }

    /// The live connection called `name`.
    pub fn get(&self, name: &str) -> Result<Arc<Connection>, McpError> {
        self.slots()
            .get(name)
            .and_then(|s| s.conn.clone())
            .ok_or_else(|| McpError::NotConnected(name.to_owned()))
    }

    /// Replaces the roots offered to servers and tells connected servers they changed.
    pub async fn set_roots(&self, roots: Vec<RootEntry>) {
        *self.roots.write().unwrap_or_else(|p| p.into_inner()) = roots;
        let conns: Vec<_> = self
            .slots()
            .values()
            .filter_map(|s| s.conn.clone())
            .collect();
        // 2026-07-28 removed this notification: servers ask for roots with each request.
        for c in conns.iter().filter(|c| !c.is_modern()) {
            let _ = c.notify("notifications/roots/list_changed", None).await;
        }
    }

    /// Connects (or reconnects) `config.name`. Any previous connection of that name is closed
    /// first, its child process group included.
    pub async fn connect(
        self: &Arc<Self>,
        config: ServerConfig,
    ) -> Result<Arc<Connection>, McpError> {
        self.connect_via(config, None).await
    }

    /// Connects to a server running in this process over a newline-delimited byte stream
    /// pair (tests, a built-in server). It cannot be reconnected from its config.
    pub async fn connect_io<R, W>(
        self: &Arc<Self>,
        name: &str,
        read: R,
        write: W,
    ) -> Result<Arc<Connection>, McpError>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
        W: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        self.connect_io_with(name, ProtocolChoice::Auto, read, write)
            .await
    }

    /// [`Self::connect_io`] speaking the given protocol revision.
    pub async fn connect_io_with<R, W>(
        self: &Arc<Self>,
        name: &str,
        protocol: ProtocolChoice,
        read: R,
        write: W,
    ) -> Result<Arc<Connection>, McpError>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
        W: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        let config = ServerConfig {
            name: name.to_owned(),
            transport: ServerTransport::Stdio {
                command: IN_PROCESS.to_owned(),
                args: Vec::new(),
                env: Default::default(),
                cwd: None,
            },
            timeout_ms: None,
            inherit_env: false,
            protocol,
        };
        let io: InProcessIo = (Box::new(read), Box::new(write));
        self.connect_via(config, Some(io)).await
    }

    async fn connect_via(
        self: &Arc<Self>,
        config: ServerConfig,
        io: Option<InProcessIo>,
    ) -> Result<Arc<Connection>, McpError> {
        let name = config.name.clone();
        let previous = {
            let mut slots = self.slots();
            let generation = slots.get(&name).map_or(1, |s| s.generation + 1);
            let prev = slots.insert(
                name.clone(),
                Slot {
                    status: ServerStatus::Connecting,
                    stderr: None,
                    conn: None,
                    config: config.clone(),
                    generation,
                },
            );
            prev.and_then(|s| s.conn)
        };
        if let Some(prev) = previous {
            self.broker.withdraw_server(&name);
            prev.close().await;
        }
        let generation = self.slots().get(&name).map_or(0, |s| s.generation);
        let _ = self.events.send(ServerEvent::Status {
            server: name.clone(),
            status: ServerStatus::Connecting,
        });
        let opened = match io {
            Some((read, write)) => {
                let (wire, end) = wire_pair();
                let max_line = self.opts.limits.message_bytes;
                super::stdio::spawn_line_io(read, write, end, max_line, async {
                    "the in-process server stopped".to_owned()
                });
                let stderr = Arc::new(self.stderr_tail_buffer());
                let gate = self.gate(name.as_str());
                match Plan::new(config.protocol, "stdio") {
                    Ok(plan) => {
                        let setup = EraSetup {
                            plan,
                            tools: None,
                            fell_back: None,
                        };
                        let started = Started {
                            wire,
                            child: None,
                            stderr,
                            gate,
                            transport_cancel: CancellationToken::new(),
                            transport_task: None,
                            waiting: None,
                        };
                        self.handshake(config, started, setup)
                            .await
                            .map_err(|f| f.error)
                    }
                    Err(message) => Err(McpError::InvalidConfig(message)),
                }
            }
            None => self.open(config).await,
        };
        match opened {
            Ok(conn) => {
                let conn = Arc::new(conn);
                let stale = {
                    let mut slots = self.slots();
                    match slots.get_mut(&name) {
                        Some(slot) if slot.generation == generation => {
                            slot.conn = Some(conn.clone());
                            false
                        }
                        _ => true,
                    }
                };
                if stale {
                    // Disconnected or reconnected while we were connecting.
                    conn.close().await;
                    return Err(McpError::NotConnected(name));
                }
                self.set_status(&name, generation, ServerStatus::Connected);
                self.watch(name, generation, conn.clone());
                if self.opts.listen_for_changes && conn.is_modern() {
                    let listening = conn.clone();
                    tokio::spawn(async move {
                        // Best effort: a failure is in the traffic view; lists still refresh on demand.
                        let _ = listening.listen_for_list_changes().await;
                    });
                }
                Ok(conn)
            }
            Err(e) => {
                self.set_status(
                    &name,
                    generation,
                    ServerStatus::Failed {
                        message: e.to_string(),
                    },
                );
                Err(e)
            }
        }
    }

    /// Reconnects a known server with its last config.
    pub async fn reconnect(self: &Arc<Self>, name: &str) -> Result<Arc<Connection>, McpError> {
        let config = self
            .slots()
            .get(name)
            .map(|s| s.config.clone())
            .ok_or_else(|| McpError::NotConnected(name.to_owned()))?;
        if matches!(&config.transport, ServerTransport::Stdio { command, .. } if command == IN_PROCESS)
        {
            return Err(McpError::InvalidConfig(format!(
                "`{name}` runs in this process and cannot be reconnected; connect it again"
            )));
        }
        self.connect(config).await
    }

    /// Closes the connection called `name` (and kills its process group).
    pub async fn disconnect(&self, name: &str) {
        let conn = {
            let mut slots = self.slots();
            let Some(slot) = slots.get_mut(name) else {
                return;
            };
            slot.generation += 1;
            slot.status = ServerStatus::Disconnected;
            slot.conn.take()
        };
        self.broker.withdraw_server(name);
        if let Some(conn) = conn {
            conn.close().await;
        }
        let _ = self.events.send(ServerEvent::Status {
            server: name.to_owned(),
            status: ServerStatus::Disconnected,
        });
    }

    /// Closes every connection; call before exiting.
    pub async fn shutdown(&self) {
        let names: Vec<String> = self.slots().keys().cloned().collect();
        for n in names {
            self.disconnect(&n).await;
        }
    }

    /// Marks the server failed when its transport closes by itself.
    fn watch(self: &Arc<Self>, name: String, generation: u64, conn: Arc<Connection>) {
        let weak = Arc::downgrade(self);
        let mut closed = conn.raw.closed_watch();
        drop(conn);
        tokio::spawn(async move {
            let Ok(reason) = closed.wait_for(Option::is_some).await.map(|r| r.clone()) else {
                return;
            };
            let Some(manager) = weak.upgrade() else {
                return;
            };
            let conn = manager.slots().get(&name).and_then(|s| s.conn.clone());
            let mut message = reason.unwrap_or_default();
            if let Some(conn) = conn {
                let tail = conn.stderr_tail();
                if let Some(last) = tail.last() {
                    message.push_str(&format!("; last stderr line: {last}"));
                }
                // Make sure nothing of the server outlives the session.
                conn.close().await;
            }
            manager.set_status(&name, generation, ServerStatus::Failed { message });
        });
    }

    async fn open(&self, config: ServerConfig) -> Result<Connection, McpError> {
        let plan = Plan::new(config.protocol, config.transport.kind()).map_err(|message| {
            McpError::InvalidConfig(format!("server `{}`: {message}", config.name))
        })?;
        if !matches!(config.transport, ServerTransport::Http { .. }) || !plan.modern_wire() {
            return self.open_with(config, plan, None).await;
        }
        let auto = config.protocol.is_auto();
        match self.open_modern_http(config.clone(), plan).await {
            Ok(conn) => Ok(conn),
            Err(HandshakeFailure {
                not_modern: Some(why),
                ..
            }) if auto => {
                let legacy = Plan::Initialize(super::modern::LEGACY_REVISION.into());
                self.open_with(config, legacy, Some(why)).await
            }
            Err(HandshakeFailure {
                error,
                not_modern: Some(why),
            }) => Err(McpError::Connect {
                server: config.name.clone(),
                message: format!(
                    "{why}: the server does not speak 2026-07-28 (protocol is pinned to \
                     2026-07-28; choose `auto` or a 2025 revision). Underlying error: {error}"
                ),
                stderr_tail: Vec::new(),
            }),
            Err(failure) => Err(failure.error),
        }
    }

    /// Streamable HTTP with the 2026-07-28 wire and `server/discover`.
    async fn open_modern_http(
        &self,
        config: ServerConfig,
        plan: Plan,
    ) -> Result<Connection, HandshakeFailure> {
        let ServerTransport::Http {
            url,
            headers,
            oauth,
        } = &config.transport
        else {
            unreachable!("open_modern_http is only called for http servers");
        };
        let failed = |error| HandshakeFailure {
            error,
            not_modern: None,
        };
        let (wire, end) = wire_pair();
        let stderr = Arc::new(self.stderr_tail_buffer());
        let transport_cancel = CancellationToken::new();
        let gate = self.gate(&config.name);
        let mut target =
            http_target(&config.name, url, headers, &self.opts.limits).map_err(failed)?;
        target.auth = self.auth_session(&config.name, &target, oauth.as_ref());
        let waiting = target.auth.as_ref().map(|a| a.waiting());
        let tools = ToolHeaders::new();
        let shared = ModernHttp {
            tools: tools.clone(),
        };
        let client = self.http_client().map_err(failed)?;
        spawn_modern_http(target, client, end, transport_cancel.clone(), shared);
        let setup = EraSetup {
            plan,
            tools: Some(tools),
            fell_back: None,
        };
        let started = Started {
            wire,
            child: None,
            stderr,
            gate,
            transport_cancel,
            transport_task: None,
            waiting,
        };
        self.handshake(config, started, setup).await
    }

    /// Every transport with the legacy wires (and stdio in any era).
    async fn open_with(
        &self,
        config: ServerConfig,
        plan: Plan,
        fell_back: Option<String>,
    ) -> Result<Connection, McpError> {
        let name = config.name.clone();
        let (wire, end) = wire_pair();
        let stderr = Arc::new(self.stderr_tail_buffer());
        if let Some(slot) = self.slots().get_mut(&name) {
            slot.stderr = Some(stderr.clone());
        }
        let transport_cancel = CancellationToken::new();
        let gate = self.gate(&name);
        // B12: the streamable HTTP task ends the session with DELETE; closing waits for it.
        let mut transport_task = None;
        let mut child = None;
        let mut waiting = None;
        match &config.transport {
            ServerTransport::Stdio {
                command,
                args,
                env,
                cwd,
            } => {
                if command.trim().is_empty() {
                    return Err(McpError::InvalidConfig(format!(
                        "server `{name}` has an empty command"
                    )));
                }
                let spec = StdioSpec {
                    command: command.clone(),
                    args: args.clone(),
                    env: env.clone(),
                    cwd: cwd.clone(),
                    inherit_env: config.inherit_env,
                    parent_env: self.opts.parent_env.clone(),
                };
                let gate = gate.clone();
                let server = name.clone();
                let hook = Arc::new(move |line: &str| {
                    gate.send(ServerEvent::Stderr {
                        server: server.clone(),
                        line: line.to_owned(),
                    });
                });
                child = Some(spawn_stdio(
                    &spec,
                    self.opts.stop_grace,
                    &self.opts.limits,
                    end,
                    stderr.clone(),
                    hook,
                )?);
            }
            ServerTransport::Http {
                url,
                headers,
                oauth,
            } => {
                let mut target = http_target(&name, url, headers, &self.opts.limits)?;
                target.auth = self.auth_session(&name, &target, oauth.as_ref());
                waiting = target.auth.as_ref().map(|a| a.waiting());
                transport_task = Some(spawn_streamable_http(
                    target,
                    self.http_client()?,
                    end,
                    transport_cancel.clone(),
                ));
            }
            ServerTransport::Sse {
                url,
                headers,
                oauth,
            } => {
                let mut target = http_target(&name, url, headers, &self.opts.limits)?;
                target.auth = self.auth_session(&name, &target, oauth.as_ref());
                waiting = target.auth.as_ref().map(|a| a.waiting());
                spawn_legacy_sse(
                    target,
                    self.http_client()?,
                    end,
                    transport_cancel.clone(),
                    self.opts.connect_timeout,
                )
                .await
                .map_err(|message| McpError::Connect {
                    server: name.clone(),
                    message,
                    stderr_tail: Vec::new(),
                })?;
            }
        }

        let setup = EraSetup {
            plan,
            tools: None,
            fell_back,
        };
        let started = Started {
            wire,
            child,
            stderr,
            gate,
            transport_cancel,
            transport_task,
            waiting,
        };
        self.handshake(config, started, setup)
            .await
            .map_err(|f| f.error)
    }

    /// The OAuth session for an http/sse server: none without an OAuth host, when the config
    /// disables it, or when the user sends their own `Authorization` header.
    fn auth_session(
        &self,
        name: &str,
        target: &HttpTarget,
        settings: Option<&OAuthConfig>,
    ) -> Option<Arc<AuthSession>> {
        let own_header = target
            .headers
            .iter()
            .any(|(k, _)| k.trim().eq_ignore_ascii_case("authorization"));
        if own_header || target.bearer.is_some() {
            return None;
        }
        self.oauth.get()?.session(name, &target.url, settings)
    }

    /// Runs `initialize` over `wire` with a deadline and builds the connection; on failure
    /// stops the transport and the child and returns a message that quotes its stderr.
    #[allow(clippy::too_many_arguments)]
    async fn handshake(
        &self,
        config: ServerConfig,
        started: Started,
        setup: EraSetup,
    ) -> Result<Connection, HandshakeFailure> {
        let Started {
            wire,
            child,
            stderr,
            gate,
            transport_cancel,
            transport_task,
            waiting,
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
            events: gate,
            broker: self.broker.clone(),
            roots: self.roots.clone(),
            progress: Arc::default(),
            human_timeout: self.opts.human_timeout,
        };
        let answerer = handler.clone();
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
                    log_level: Default::default(),
                    task_support: Default::default(),
                    tasks: self.tasks.clone(),
                    traffic: self.traffic.clone(),
                    listens: Default::default(),
                    transport_task: std::sync::Mutex::new(transport_task),
                });
            }
            Ok(Err(ClientInitializeError::JsonRpcError(data)))
                if [TRANSPORT_ERROR_CODE, BAD_RESPONSE_CODE].contains(&i64::from(data.code.0)) =>
            {
                data.message.into_owned()
            }
            Ok(Err(e)) => {
                not_modern_why = not_modern(&e);
                raw.closed_reason()
                    .unwrap_or_else(|| describe_init_error(e))
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
        transport_cancel.cancel();
        if let Some(child) = &child {
            // Let the dying process flush its stderr so the message can quote it.
            child.wait_exit(Duration::from_millis(300)).await;
            child.shutdown().await;
        }
        Err(HandshakeFailure {
            error: McpError::Connect {
                server: name,
                message: failure,
                stderr_tail: tail_of(&stderr, 20),
            },
            not_modern: not_modern_why,
        })
    }
}

/// A transport that was started, ready for the handshake.
struct Started {
    wire: super::wire::Wire,
    child: Option<super::stdio::ChildGuard>,
    stderr: Arc<StderrTail>,
    gate: Arc<EventGate>,
    /// Stops the transport task (HTTP wires).
    transport_cancel: CancellationToken,
    /// The streamable HTTP task, which ends the session with DELETE (B12: closing waits for it).
    transport_task: Option<JoinHandle<()>>,
    /// True while an OAuth sign-in waits for a person (the deadline pauses).
    waiting: Option<watch::Receiver<bool>>,
}

/// Runs `fut` with a deadline of `limit`, which stops while `waiting` is true and starts again
/// when it turns false. `Err(())` when the deadline passed.
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
fn seconds(d: Duration) -> String {
    format!("{}s", d.as_secs_f64())
}

/// Whether the first result is a `server/discover` result (2026-07-28) rather than `initialize`'s.
fn discovered(first: &serde_json::Value) -> bool {
    first.get("protocolVersion").is_none() && first.get("supportedVersions").is_some()
}

/// Whether the `initialize` result names a protocol revision mcplab speaks.
fn speaks(initialize: &serde_json::Value) -> bool {
    initialize
        .get("protocolVersion")
        .and_then(serde_json::Value::as_str)
        .is_some_and(|v| SUPPORTED_PROTOCOL_VERSIONS.contains(&v))
}

/// B14: a failed handshake in words, not rmcp's Debug output or error-code prefixes.
fn describe_init_error(e: rmcp::service::ClientInitializeError) -> String {
    use rmcp::model::ServerResult;
    use rmcp::service::ClientInitializeError as E;
    match e {
        E::ExpectedInitResult(Some(ServerResult::CustomResult(custom))) => {
            let why = serde_json::from_value::<rmcp::model::InitializeResult>(custom.0.clone())
                .err()
                .map_or_else(|| "unexpected shape".to_owned(), |e| e.to_string());
            format!(
                "the server's `initialize` result is not valid ({why}): {}",
                custom.0
            )
        }
        E::ExpectedInitResult(other) => format!(
            "the server answered `initialize` with something else: {}",
            other.map_or_else(
                || "nothing".into(),
                |r| serde_json::to_string(&r).unwrap_or_default()
            )
        ),
        E::JsonRpcError(data) if i64::from(data.code.0) == TRANSPORT_ERROR_CODE => {
            data.message.into_owned()
        }
        E::JsonRpcError(data) => format!(
            "the server answered `initialize` with error {}: {}",
            data.code.0, data.message
        ),
        // `auto` on stdio: the handshake that decides is the fallback `initialize`.
        E::LegacyFallbackFailed { fallback, .. } => describe_init_error(*fallback),
        other => other.to_string(),
    }
}

fn tail_of(stderr: &StderrTail, n: usize) -> Vec<String> {
    let lines = stderr.lines();
    let skip = lines.len().saturating_sub(n);
    lines.into_iter().skip(skip).collect()
}

fn http_target(
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

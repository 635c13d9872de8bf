//! `ConnectionManager` owns every MCP connection of the process, keyed by server name, with a
//! status the UI can always show. It builds the right wire for a config, runs the
//! `initialize` handshake with a deadline, watches for the transport closing, and publishes
//! status changes as events. It never reads argv, env or files: callers pass configs in.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use mcplab_protocol::host::ClientDeclaration;
use mcplab_protocol::{ServerConfig, ServerEvent, ServerStatus, ServerTransport};
use parking_lot::{Mutex, RwLock};
use tokio_util::sync::CancellationToken;

use super::broker::{Broker, DEFAULT_HUMAN_TIMEOUT};
use super::connection::Connection;
use super::error::McpError;
use super::event_gate::EventGate;
use super::event_hub::{EventHub, EventReceiver};
use super::handler::{ClientIdentity, RootEntry, Roots};
use super::http::{HttpTarget, spawn_streamable_http};
use super::legacy_sse::spawn_legacy_sse;
use super::limits::Limits;
use super::modern::era::Plan;
use super::modern::headers::ToolHeaders;
use super::modern::http::{ModernHttp, spawn_modern_http};
use super::modern::probe::StderrHold;
use super::stdio::{StderrTail, StdioSpec, spawn_gauged};
use super::tasks::TaskRegistry;
use super::traffic::{DEFAULT_RING_CAPACITY, TrafficLog};
use super::wire::wire_pair;
use mcplab_oauth::{AuthSession, OAuthHost};

mod closing;
mod declared;
mod era_choice;
mod handshake;
mod in_process;
use declared::Declaration;
pub use declared::DeclaredAs;
pub(crate) use handshake::bounded;
use handshake::*;
pub use in_process::BuiltinServer;

/// Default per-request timeout (reset by progress).
pub(crate) const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
/// Default deadline for spawning/connecting plus `initialize`.
pub(crate) const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(30);
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
    /// What this client declares to servers: the revision it asks for (`auto`: each server
    /// config's own choice) and its capabilities. A host profile sets it; the default is
    /// everything mcplab implements.
    pub client: ClientDeclaration,
    /// Servers run in this process when a stdio config names them (see [`BuiltinServer`]).
    pub builtins: Vec<BuiltinServer>,
    /// 2026-07-28: the log level each request asks for (`io.modelcontextprotocol/logLevel`)
    /// until the user sets another. That revision sends no logs unless a request asks; the
    /// inspector asks for `debug` so its Logs page shows what a 2025 server sends unasked.
    pub log_level: Option<String>,
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
            client: ClientDeclaration::default(),
            builtins: Vec::new(),
            log_level: None,
        }
    }
}

struct Slot {
    status: ServerStatus,
    /// Stderr of the latest attempt, kept after a failure so it can still be shown.
    stderr: Option<Arc<StderrTail>>,
    conn: Option<Arc<Connection>>,
    config: ServerConfig,
    /// New on every (re)connect and disconnect, from the manager's counter (so never reused,
    /// even for a server removed and added again): a stale watcher or connect cannot
    /// overwrite a newer status.
    generation: u64,
    /// The host declaration this server is connected with; `None`: the manager's own.
    declared_as: Option<DeclaredAs>,
}

pub struct ConnectionManager {
    opts: ManagerOptions,
    slots: Mutex<HashMap<String, Slot>>,
    traffic: Arc<TrafficLog>,
    events: EventHub,
    broker: Arc<Broker>,
    roots: Roots,
    /// Built on first use: loading the system's CA certificates costs start-up time that
    /// stdio-only sessions should not pay, and can fail on machines without any.
    http: std::sync::OnceLock<Result<reqwest::Client, String>>,
    /// OAuth for http/sse servers; without it a 401 is just an error.
    oauth: std::sync::OnceLock<Arc<OAuthHost>>,
    /// Whose OAuth credentials its connections use, if not their own ([`Self::sign_in_as`]).
    oauth_as: std::sync::OnceLock<String>,
    /// Tasks of every server, kept across reconnects.
    tasks: Arc<TaskRegistry>,
    /// The last generation given to a slot.
    generations: AtomicU64,
}

/// How a handshake should open the session (see [`Plan`]).
struct EraSetup {
    plan: Plan,
    /// `x-mcp-header` designations shared with the 2026-07-28 HTTP wire.
    tools: Option<Arc<ToolHeaders>>,
    /// Why `auto` fell back to the legacy wire after HTTP discovery.
    fell_back: Option<String>,
}

impl EraSetup {
    /// The plan alone: no shared header designations, no fallback to explain.
    fn new(plan: Plan) -> Self {
        Self {
            plan,
            tools: None,
            fell_back: None,
        }
    }
}

/// A failed handshake; `not_modern` says the server answered discovery like a legacy one;
/// `slow_start`, that `auto`'s probe was given up before the server read anything.
struct HandshakeFailure {
    error: McpError,
    not_modern: Option<String>,
    slow_start: bool,
}

/// A failure before the handshake (spawning, a bad URL) says nothing about the era.
impl From<McpError> for HandshakeFailure {
    fn from(error: McpError) -> Self {
        Self {
            error,
            not_modern: None,
            slow_start: false,
        }
    }
}

impl ConnectionManager {
    pub fn new(opts: ManagerOptions) -> Arc<Self> {
        let traffic = Arc::new(TrafficLog::with_limits(opts.traffic_capacity, &opts.limits));
        Self::with_traffic(opts, traffic)
    }

    /// A manager with this one's options and OAuth that declares `client` to its servers and
    /// records into this one's traffic log: an eval connects its servers once per host
    /// declaration, and the frames of all of them stay readable in one place.
    pub fn sibling(&self, client: ClientDeclaration) -> Arc<Self> {
        self.sibling_with(ManagerOptions {
            client,
            ..self.opts.clone()
        })
    }

    /// A manager with `opts` that records into this one's traffic log and shares its OAuth:
    /// the web's checker connects a server afresh beside its live connection, and the
    /// check's frames show in the same traffic view.
    pub fn sibling_with(&self, opts: ManagerOptions) -> Arc<Self> {
        let sibling = Self::with_traffic(opts, self.traffic.clone());
        if let Some(oauth) = self.oauth() {
            sibling.set_oauth(oauth.clone());
        }
        sibling
    }

    /// The options this manager was made with.
    pub fn options(&self) -> &ManagerOptions {
        &self.opts
    }

    /// What this manager declares to servers not connected as a host.
    pub fn client(&self) -> &ClientDeclaration {
        &self.opts.client
    }

    fn with_traffic(opts: ManagerOptions, traffic: Arc<TrafficLog>) -> Arc<Self> {
        let events = EventHub::default();
        Arc::new(Self {
            traffic,
            broker: Arc::new(Broker::with_limit(
                events.clone(),
                opts.limits.pending_human,
            )),
            events,
            slots: Mutex::new(HashMap::new()),
            roots: Arc::new(RwLock::new(Vec::new())),
            http: std::sync::OnceLock::new(),
            oauth: std::sync::OnceLock::new(),
            oauth_as: std::sync::OnceLock::new(),
            tasks: Arc::default(),
            generations: AtomicU64::new(0),
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

    /// Signs its connections in with server `name`'s stored OAuth credentials (once): a check's
    /// fresh connection of `NAME`, recorded under a name of its own, uses `NAME`'s sign-in.
    pub fn sign_in_as(&self, name: &str) {
        let _ = self.oauth_as.set(name.to_owned());
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

    pub fn subscribe(&self) -> EventReceiver {
        self.events.subscribe()
    }

    /// Bytes of server events subscribers have not taken yet, over all of them (at most
    /// [`crate::event_hub::EVENT_BYTES`] each).
    pub fn queued_event_bytes(&self) -> usize {
        self.events.queued_bytes()
    }

    fn http_client(&self) -> Result<reqwest::Client, McpError> {
        let built = self.http.get_or_init(|| {
            mcplab_net::tls::client_builder()
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

    fn next_generation(&self) -> u64 {
        self.generations.fetch_add(1, Ordering::Relaxed) + 1
    }

    fn set_status(&self, name: &str, generation: u64, status: ServerStatus) {
        {
            let mut slots = self.slots.lock();
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
        self.events.send(ServerEvent::Status {
            server: name.to_owned(),
            status,
        });
    }

    /// The status of every known server, sorted by name.
    pub fn statuses(&self) -> Vec<(String, ServerStatus)> {
        let mut v: Vec<_> = self
            .slots
            .lock()
            .iter()
            .map(|(k, s)| (k.clone(), s.status.clone()))
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }

    /// The last lines the server wrote to stderr in its latest attempt (also after it failed).
    pub fn stderr_tail(&self, name: &str) -> Vec<String> {
        self.slots
            .lock()
            .get(name)
            .and_then(|s| s.stderr.clone())
            .map(|t| t.lines())
            .unwrap_or_default()
    }

    pub fn status(&self, name: &str) -> Option<ServerStatus> {
        self.slots.lock().get(name).map(|s| s.status.clone())
    }

    /// The live connection called `name`.
    pub fn get(&self, name: &str) -> Result<Arc<Connection>, McpError> {
        self.slots
            .lock()
            .get(name)
            .and_then(|s| s.conn.clone())
            .ok_or_else(|| McpError::NotConnected(name.to_owned()))
    }

    /// Replaces the roots offered to servers and tells connected servers they changed.
    pub async fn set_roots(&self, roots: Vec<RootEntry>) {
        *self.roots.write() = roots;
        let conns: Vec<_> = self
            .slots
            .lock()
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
        self.connect_via(config, None, Declaration::Keep).await
    }

    /// [`Self::connect`] declaring `host`'s client capabilities and revision to this server
    /// (`None`: the manager's own declaration). Later reconnects keep it.
    pub async fn connect_as(
        self: &Arc<Self>,
        config: ServerConfig,
        host: Option<DeclaredAs>,
    ) -> Result<Arc<Connection>, McpError> {
        self.connect_via(config, None, Declaration::Set(host)).await
    }

    /// The host declaration `name` is (being) connected with; `None`: the manager's own.
    pub fn declared_as(&self, name: &str) -> Option<DeclaredAs> {
        self.slots
            .lock()
            .get(name)
            .and_then(|s| s.declared_as.clone())
    }

    /// What `name` is declared: its host's declaration, else the manager's.
    fn client_of(&self, name: &str) -> ClientDeclaration {
        self.declared_as(name)
            .map_or_else(|| self.opts.client.clone(), |d| d.client)
    }

    async fn connect_via(
        self: &Arc<Self>,
        mut config: ServerConfig,
        io: Option<InProcessIo>,
        declaration: Declaration,
    ) -> Result<Arc<Connection>, McpError> {
        let name = config.name.clone();
        let previous = {
            let mut slots = self.slots.lock();
            let generation = self.next_generation();
            let declared_as = declaration.resolve(slots.get(&name).map(|s| &s.declared_as));
            let client = declared_as
                .as_ref()
                .map_or(&self.opts.client, |d| &d.client);
            // A host profile that names a revision speaks it to every server it connects.
            if !client.protocol.is_auto() {
                config.protocol = client.protocol;
            }
            let prev = slots.insert(
                name.clone(),
                Slot {
                    status: ServerStatus::Connecting,
                    stderr: None,
                    conn: None,
                    config: config.clone(),
                    generation,
                    declared_as,
                },
            );
            prev.and_then(|s| s.conn)
        };
        if let Some(prev) = previous {
            self.broker.withdraw_server(&name);
            prev.close().await;
        }
        let generation = self.slots.lock().get(&name).map_or(0, |s| s.generation);
        self.events.send(ServerEvent::Status {
            server: name.clone(),
            status: ServerStatus::Connecting,
        });
        let opened = match io.or_else(|| self.builtin_io(&config)) {
            Some(io) => self.open_in_process(config, io).await,
            None => self.open(config).await,
        };
        match opened {
            Ok(conn) => {
                let conn = Arc::new(conn);
                let stale = {
                    let mut slots = self.slots.lock();
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
            .slots
            .lock()
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

    /// Streamable HTTP with the 2026-07-28 wire and `server/discover`.
    async fn open_modern_http(
        &self,
        config: ServerConfig,
        plan: Plan,
    ) -> Result<Connection, HandshakeFailure> {
        let ServerTransport::Http { url, headers, .. } = &config.transport else {
            unreachable!("open_modern_http is only called for http servers");
        };
        let failed = HandshakeFailure::from;
        let (wire, end) = wire_pair();
        let stderr = Arc::new(self.stderr_tail_buffer());
        let transport_cancel = CancellationToken::new();
        let gate = self.gate(&config.name);
        let mut target =
            http_target(&config.name, url, headers, &self.opts.limits).map_err(failed)?;
        target.auth = self.auth_session(&config, &target);
        let waiting = target.auth.as_ref().map(|a| a.waiting());
        let tools = ToolHeaders::new();
        let shared = ModernHttp {
            tools: tools.clone(),
        };
        let client = self.http_client().map_err(failed)?;
        spawn_modern_http(target, client, end, transport_cancel.clone(), shared);
        let setup = EraSetup {
            tools: Some(tools),
            ..EraSetup::new(plan)
        };
        let started = Started {
            waiting,
            ..Started::new(wire, stderr, gate, transport_cancel)
        };
        self.handshake(config, started, setup).await
    }

    /// Every transport with the legacy wires (and stdio in any era).
    async fn open_with(
        &self,
        config: ServerConfig,
        plan: Plan,
        fell_back: Option<String>,
    ) -> Result<Connection, HandshakeFailure> {
        let name = config.name.clone();
        let (wire, end) = wire_pair();
        let stderr = Arc::new(self.stderr_tail_buffer());
        if let Some(slot) = self.slots.lock().get_mut(&name) {
            slot.stderr = Some(stderr.clone());
        }
        let transport_cancel = CancellationToken::new();
        let gate = self.gate(&name);
        // `auto`'s probe: the first try, or the patient one after a slow start.
        let probing = plan == Plan::Auto || (plan == Plan::Discover && config.protocol.is_auto());
        // N9: stderr of a stdio server's `auto` handshake waits to be judged probe noise.
        let hold = Arc::new(StderrHold::new(probing));
        // B12: the streamable HTTP task ends the session with DELETE; closing waits for it.
        let mut transport_task = None;
        let mut child = None;
        let mut gauge = None;
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
                    ))
                    .into());
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
                let held = hold.clone();
                let hook = Arc::new(move |line: &str| {
                    if !held.hold(line) {
                        gate.send(ServerEvent::Stderr {
                            server: server.clone(),
                            line: line.to_owned(),
                        });
                    }
                });
                let (guard, stdin) = spawn_gauged(
                    &spec,
                    self.opts.stop_grace,
                    &self.opts.limits,
                    end,
                    (stderr.clone(), hook),
                    probing,
                )?;
                child = Some(guard);
                gauge = stdin;
            }
            ServerTransport::Http { url, headers, .. } => {
                let mut target = http_target(&name, url, headers, &self.opts.limits)?;
                target.auth = self.auth_session(&config, &target);
                waiting = target.auth.as_ref().map(|a| a.waiting());
                transport_task = Some(spawn_streamable_http(
                    target,
                    self.http_client()?,
                    end,
                    transport_cancel.clone(),
                ));
            }
            ServerTransport::Sse { url, headers, .. } => {
                let mut target = http_target(&name, url, headers, &self.opts.limits)?;
                target.auth = self.auth_session(&config, &target);
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
            fell_back,
            ..EraSetup::new(plan)
        };
        let started = Started {
            child,
            gauge,
            transport_task,
            waiting,
            hold,
            ..Started::new(wire, stderr, gate, transport_cancel)
        };
        self.handshake(config, started, setup).await
    }

    /// The OAuth session for an http/sse server: none without an OAuth host, or where
    /// `ServerTransport::oauth_applies` says mcplab does not run OAuth (the user's own
    /// `Authorization` header, OAuth disabled) — the rule the API's OAuth routes use too.
    fn auth_session(&self, config: &ServerConfig, target: &HttpTarget) -> Option<Arc<AuthSession>> {
        if !config.transport.oauth_applies() || target.bearer.is_some() {
            return None;
        }
        let settings = config.transport.oauth();
        let name = self.oauth_as.get().unwrap_or(&config.name);
        self.oauth.get()?.session(name, &target.url, settings)
    }
}

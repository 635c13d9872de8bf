//! One CLI session with one server: connects with a deadline, answers what the server asks
//! (elicitation per `--elicitation`, sampling declined, roots from `--root`), prints
//! `--trace` frames, server logs and a stdio server's stderr (live, dimmed on a terminal,
//! unless `--quiet-stderr`) to stderr with control sequences neutralised (unless `--raw`),
//! signs in with OAuth when a remote server answers 401 (per `--oauth`), turns Ctrl-C into
//! `notifications/cancelled`, and always closes the connection (and the server's process
//! group) before returning. `oauth.rs` is the OAuth host and loopback user agent it signs
//! in with; `voice.rs` prints what the servers say and answers what they ask.

pub mod oauth;
mod voice;

use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

use mcplab_mcp::{
    Connection, ConnectionManager, Listing, ManagerOptions, McpError, RequestOptions, RootEntry,
};
use mcplab_protocol::host::ClientDeclaration;
use mcplab_protocol::{ServerConfig, ServerTransport};
use serde_json::Value;
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;

use crate::cli::ElicitationMode;
use crate::elicit::Policy;
use crate::failure::{EXIT_INTERRUPTED, Failure};
use crate::progress::Terminal;
use crate::settings::Settings;
use crate::target;
use voice::{Voice, answer_events, print_trace};

/// How long a result waits for `--trace` to print the frames before it (the printer is a
/// separate task; a stuck stderr must not hold the result back for ever).
const TRACE_CATCH_UP: Duration = Duration::from_secs(2);

pub struct Session {
    manager: Arc<ConnectionManager>,
    /// The connected servers, in the order they were given (commands other than `chat` use one).
    conns: Vec<Arc<Connection>>,
    /// Fires on Ctrl-C.
    pub interrupted: CancellationToken,
    background: Vec<tokio::task::JoinHandle<()>>,
    term: Terminal,
    /// The sequence number of the last frame `--trace` printed (None without `--trace`).
    traced: Option<watch::Receiver<u64>>,
}

impl Session {
    /// Connects the one server a command talks to.
    pub async fn open(settings: &Settings) -> Result<Self, Failure> {
        let config = target::resolve(&settings.target, &settings.data)?;
        Self::open_all(settings, vec![config]).await
    }

    /// Connects every server in `configs` (none is fine: a chat without tools).
    pub async fn open_all(
        settings: &Settings,
        configs: Vec<ServerConfig>,
    ) -> Result<Self, Failure> {
        Self::open_as(settings, configs, ClientDeclaration::default()).await
    }

    /// [`Session::open_all`] declaring what a host profile's client declares (capabilities,
    /// and the revision asked of every server when not `auto`).
    pub async fn open_as(
        settings: &Settings,
        configs: Vec<ServerConfig>,
        client: ClientDeclaration,
    ) -> Result<Self, Failure> {
        // Only `check` reads the ring back (`--trace` subscribes live): a small one keeps
        // memory flat over a long `eval run`.
        Self::open_with_ring(settings, configs, 1_024, client)
            .await
            .map_err(|(failure, _)| failure)
    }

    /// [`Session::open_all`] that keeps the whole traffic ring and, when connecting fails,
    /// also hands back every frame recorded until then (`mcplab check` judges them).
    pub async fn open_recorded(
        settings: &Settings,
        configs: Vec<ServerConfig>,
    ) -> Result<Self, (Failure, Vec<mcplab_protocol::TrafficFrame>)> {
        let capacity = ManagerOptions::default().traffic_capacity;
        Self::open_with_ring(settings, configs, capacity, ClientDeclaration::default()).await
    }

    async fn open_with_ring(
        settings: &Settings,
        configs: Vec<ServerConfig>,
        traffic_capacity: usize,
        client: ClientDeclaration,
    ) -> Result<Self, (Failure, Vec<mcplab_protocol::TrafficFrame>)> {
        let fail = |f: Failure| (f, Vec::new());
        let labels: Vec<(String, String)> = configs
            .iter()
            .map(|c| {
                // Prefixes stay short: an ad-hoc target is just "server" there.
                let short = if c.name == target::AD_HOC_NAME {
                    "server".to_owned()
                } else {
                    c.name.clone()
                };
                (c.name.clone(), short)
            })
            .collect();
        let mut opts = ManagerOptions {
            // A one-shot call should not wait long for a server that ignores stdin EOF
            // (SIGTERM is the polite next step).
            stop_grace: Duration::from_millis(200),
            traffic_capacity,
            // One command needs no 2026-07-28 listen stream (`listen` opens its own).
            listen_for_changes: false,
            client,
            ..ManagerOptions::default()
        };
        settings.apply(&mut opts);
        let manager = ConnectionManager::new(opts);
        // Remote servers may answer 401: sign in (stdio-only sessions skip opening the store).
        let remote = configs
            .iter()
            .any(|c| !matches!(c.transport, ServerTransport::Stdio { .. }));
        if remote && let Some(host) = crate::session::oauth::host(settings).map_err(fail)? {
            manager.set_oauth(host);
        }
        let roots = settings
            .roots
            .iter()
            .map(|p| {
                let abs = std::path::absolute(p).unwrap_or_else(|_| p.clone());
                RootEntry {
                    uri: format!("file://{}", abs.display()),
                    name: abs.file_name().map(|n| n.to_string_lossy().into_owned()),
                }
            })
            .collect();
        manager.set_roots(roots).await;

        let interrupted = CancellationToken::new();
        let mut background = Vec::new();
        {
            let interrupted = interrupted.clone();
            background.push(tokio::spawn(async move {
                wait_for_stop_signal().await;
                interrupted.cancel();
            }));
        }
        let term = Terminal::for_stderr();
        let voice = Voice::new(term.clone(), settings, labels);
        let mut traced = None;
        if settings.trace {
            let (printed, watcher) = watch::channel(0);
            traced = Some(watcher);
            let rx = manager.traffic().subscribe();
            background.push(tokio::spawn(print_trace(rx, voice.clone(), printed)));
        }
        let policy = match settings.elicitation {
            Some(mode) => Policy::chosen(mode),
            None if std::io::stdin().is_terminal() => Policy::chosen(ElicitationMode::Ask),
            None => Policy::not_a_terminal(),
        };
        background.push(tokio::spawn(answer_events(
            manager.clone(),
            policy,
            voice.clone(),
        )));

        let mut conns = Vec::new();
        let sse_fallback = settings.target.url.is_some() && settings.target.transport.is_none();
        for config in configs {
            let label = target::label(&config);
            let name = config.name.clone();
            let connected = tokio::select! {
                r = connect_or_sse(&manager, config, sse_fallback) => r,
                _ = interrupted.cancelled() => Err(McpError::Cancelled),
            };
            match connected {
                Ok(conn) => conns.push(conn),
                Err(e) => {
                    let frames = manager.traffic().snapshot(&name).frames;
                    manager.shutdown().await;
                    for t in background {
                        t.abort();
                    }
                    let failure = match e {
                        McpError::Cancelled => Failure::silent(EXIT_INTERRUPTED),
                        e => connect_failure(e, label, voice.shown_any_stderr()),
                    };
                    return Err((failure, frames));
                }
            }
        }
        if let Some(level) = settings.log_level {
            let level = format!("{level:?}").to_lowercase();
            for conn in &conns {
                conn.set_log_level(Some(level.clone()));
                if !conn.is_modern() {
                    // Best effort: the server may not log at all (it says so in the traffic).
                    let params = Some(serde_json::json!({ "level": level }));
                    let _ = conn
                        .request("logging/setLevel", params, RequestOptions::default())
                        .await;
                }
            }
        }
        Ok(Self {
            manager,
            conns,
            interrupted,
            background,
            term,
            traced,
        })
    }

    /// The manager owning this session's connections.
    pub fn manager(&self) -> &Arc<ConnectionManager> {
        &self.manager
    }

    pub fn connection(&self) -> &Connection {
        &self.conns[0]
    }

    /// Whether the server declared `capability` in its initialize result.
    pub fn offers(&self, capability: &str) -> bool {
        self.connection()
            .initialize_result()
            .get("capabilities")
            .and_then(|c| c.get(capability))
            .is_some_and(|c| !c.is_null())
    }

    /// Fails, saying so, when the server did not declare `capability`.
    pub fn require(&self, capability: &str) -> Result<(), Failure> {
        if self.offers(capability) {
            return Ok(());
        }
        Err(Failure {
            kind: "capability",
            ..Failure::call(format!(
                "this server does not offer {capability} (its initialize result declares no \
                 `{capability}` capability)"
            ))
        })
    }

    /// Sends a request with a progress bar on a terminal and Ctrl-C cancellation.
    pub async fn request(&self, method: &str, params: Option<Value>) -> Result<Value, Failure> {
        self.request_with(method, params, Some(self.interrupted.clone()), None)
            .await
    }

    /// [`Session::request`] with its own cancellation (None: cannot be interrupted) and
    /// timeout (None: the connection's).
    pub async fn request_with(
        &self,
        method: &str,
        params: Option<Value>,
        cancel: Option<CancellationToken>,
        timeout: Option<Duration>,
    ) -> Result<Value, Failure> {
        let opts = RequestOptions {
            timeout,
            cancel,
            ..RequestOptions::default()
        };
        self.send(method, params, opts).await
    }

    /// [`Self::request`] with other options (task mode, cache bypass…); timeout, cancellation
    /// and progress are the session's.
    pub async fn request_opts(
        &self,
        method: &str,
        params: Option<Value>,
        base: RequestOptions,
    ) -> Result<Value, Failure> {
        let opts = RequestOptions {
            timeout: None,
            cancel: Some(self.interrupted.clone()),
            ..base
        };
        self.send(method, params, opts).await
    }

    /// Sends with a progress bar on a terminal; progress is the session's.
    async fn send(
        &self,
        method: &str,
        params: Option<Value>,
        opts: RequestOptions,
    ) -> Result<Value, Failure> {
        // The bar is drawn from the session's event stream, where progress and log lines come
        // in the order the server sent them; this listener only keeps the request's timeout
        // alive on progress.
        let (tx, mut rx) = mpsc::unbounded_channel();
        self.term.begin();
        let bar = tokio::spawn(async move { while rx.recv().await.is_some() {} });
        let result = self
            .connection()
            .request(
                method,
                params,
                RequestOptions {
                    progress: Some(tx),
                    ..opts
                },
            )
            .await;
        let _ = bar.await;
        self.term.finish();
        self.trace_catch_up().await;
        match result {
            Ok(v) => Ok(v),
            Err(McpError::Cancelled) => {
                eprintln!("interrupted: sent notifications/cancelled for `{method}`");
                Err(Failure::silent(EXIT_INTERRUPTED))
            }
            Err(e) => Err(self.failure(e)),
        }
    }

    /// The failure as people read it: a misbehaving server named by its label (the ad-hoc
    /// target by what the user typed, not its internal name).
    fn failure(&self, e: McpError) -> Failure {
        match e {
            McpError::Misbehaved { server, message } => {
                let conn = self.conns.iter().find(|c| c.name() == server);
                Failure::from(McpError::Misbehaved {
                    server: conn.map_or(server, |c| target::label(c.config())),
                    message,
                })
            }
            e => e.into(),
        }
    }

    /// Every page of a list method, merged (see `Connection::list_all`).
    pub async fn list_all(&self, listing: Listing) -> Result<Arc<Value>, Failure> {
        let opts = RequestOptions {
            cancel: Some(self.interrupted.clone()),
            ..RequestOptions::default()
        };
        match self.connection().list_all(listing, opts).await {
            Ok(v) => Ok(v),
            Err(McpError::Cancelled) => Err(Failure::silent(EXIT_INTERRUPTED)),
            Err(e) => Err(self.failure(e)),
        }
    }

    /// Waits (bounded) until `--trace` has printed every frame recorded so far, so a
    /// result never comes out before the frames that carried it.
    async fn trace_catch_up(&self) {
        let Some(traced) = &self.traced else {
            return;
        };
        let name = self.connection().name().to_owned();
        let last = self
            .manager
            .traffic()
            .snapshot(&name)
            .frames
            .last()
            .map_or(0, |f| f.seq);
        let mut traced = traced.clone();
        let _ = tokio::time::timeout(TRACE_CATCH_UP, traced.wait_for(|seq| *seq >= last)).await;
    }

    /// Events of the connected server (for `resources subscribe`).
    pub fn subscribe(&self) -> mcplab_mcp::EventReceiver {
        self.manager.subscribe()
    }

    /// Closes the connection and stops the server process group.
    pub async fn close(self) {
        self.manager.shutdown().await;
        for t in self.background {
            t.abort();
        }
    }
}

/// Ctrl-C, and the signals a terminal or a supervisor sends to stop us: each ends the
/// session the same way (cancel the request, stop the server), so nothing is orphaned.
pub async fn wait_for_stop_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate()).ok();
    let mut hup = signal(SignalKind::hangup()).ok();
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        Some(_) = async { term.as_mut()?.recv().await } => {}
        Some(_) = async { hup.as_mut()?.recv().await } => {}
    }
}

/// B10: an ad-hoc `--url` without `--transport` may be a legacy HTTP+SSE server's. When it
/// refuses the streamable HTTP POST (400, 404, 405), the legacy transport is tried on the same
/// URL, as the spec's backwards compatibility suggests; when that fails too, the first error
/// stands.
async fn connect_or_sse(
    manager: &Arc<ConnectionManager>,
    config: ServerConfig,
    fallback: bool,
) -> Result<Arc<Connection>, McpError> {
    let first = manager.connect(config.clone()).await;
    let ServerTransport::Http {
        url,
        headers,
        oauth,
    } = &config.transport
    else {
        return first;
    };
    let refused = match first {
        Err(e) if fallback && e.post_refused() => e,
        other => return other,
    };
    let transport = ServerTransport::Sse {
        url: url.clone(),
        headers: headers.clone(),
        oauth: oauth.clone(),
    };
    match manager
        .connect(ServerConfig {
            transport,
            ..config
        })
        .await
    {
        Ok(conn) => {
            eprintln!(
                "note: the server refused the streamable HTTP POST, so mcplab connected with \
                 the legacy HTTP+SSE transport (--transport sse skips the try)"
            );
            Ok(conn)
        }
        Err(_) => Err(refused),
    }
}

/// The connect error as people should read it: the ad-hoc target by what they typed, and
/// (when stderr was shown live already) without repeating the server's stderr.
fn connect_failure(e: McpError, label: String, stderr_shown: bool) -> Failure {
    match e {
        McpError::Connect {
            message,
            stderr_tail,
            ..
        } => {
            let shown = stderr_shown && !stderr_tail.is_empty();
            let tail = if shown { Vec::new() } else { stderr_tail };
            let mut f = Failure::from(McpError::Connect {
                server: label,
                message,
                stderr_tail: tail,
            });
            if shown {
                f.message.push_str(" (the server's stderr is above)");
            }
            f
        }
        e => e.into(),
    }
}

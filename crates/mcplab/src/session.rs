//! One CLI session with one server: connects with a deadline, answers what the server asks
//! (elicitation per `--elicitation`, sampling declined, roots from `--root`), prints
//! `--trace` frames and server logs to stderr, signs in with OAuth when a remote server answers
//! 401 (per `--oauth`), turns Ctrl-C into `notifications/cancelled`,
//! and always closes the connection (and the server's process group) before returning.

use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

use mcplab_core::mcp::{
    Connection, ConnectionManager, ManagerOptions, McpError, RequestOptions, RootEntry,
};
use mcplab_protocol::{
    Direction, FrameKind, HumanAnswer, HumanRequestKind, ServerConfig, ServerEvent, ServerTransport,
};
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::cli::{ElicitationMode, Global};
use crate::elicit;
use crate::failure::{EXIT_INTERRUPTED, Failure};
use crate::progress::ProgressBar;
use crate::settings::DataDir;
use crate::target;

pub struct Session {
    manager: Arc<ConnectionManager>,
    /// The connected servers, in the order they were given (commands other than `chat` use one).
    conns: Vec<Arc<Connection>>,
    /// Fires on Ctrl-C.
    pub interrupted: CancellationToken,
    background: Vec<tokio::task::JoinHandle<()>>,
}

impl Session {
    /// Connects the one server a command talks to.
    pub async fn open(global: &Global, data: &DataDir) -> Result<Self, Failure> {
        let config = target::resolve(&global.target, data)?;
        Self::open_all(global, vec![config]).await
    }

    /// Connects every server in `configs` (none is fine: a chat without tools).
    pub async fn open_all(global: &Global, configs: Vec<ServerConfig>) -> Result<Self, Failure> {
        let mut opts = ManagerOptions {
            // A one-shot call should not wait long for a server that ignores stdin EOF
            // (SIGTERM is the polite next step).
            stop_grace: Duration::from_millis(200),
            ..ManagerOptions::default()
        };
        global.limits.apply(global.timeout, &mut opts)?;
        let manager = ConnectionManager::new(opts);
        // Remote servers may answer 401: sign in (stdio-only sessions skip opening the store).
        let remote = configs
            .iter()
            .any(|c| !matches!(c.transport, ServerTransport::Stdio { .. }));
        if remote && let Some(host) = crate::oauth_agent::host(global)? {
            manager.set_oauth(host);
        }
        let roots = global
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
        if global.trace {
            background.push(tokio::spawn(print_trace(manager.traffic().subscribe())));
        }
        let mode = global
            .elicitation
            .unwrap_or(if std::io::stdin().is_terminal() {
                ElicitationMode::Ask
            } else {
                ElicitationMode::Decline
            });
        background.push(tokio::spawn(answer_events(manager.clone(), mode)));

        let mut conns = Vec::new();
        for config in configs {
            let connected = tokio::select! {
                r = manager.connect(config) => r,
                _ = interrupted.cancelled() => Err(McpError::Cancelled),
            };
            match connected {
                Ok(conn) => conns.push(conn),
                Err(e) => {
                    manager.shutdown().await;
                    for t in background {
                        t.abort();
                    }
                    return Err(match e {
                        McpError::Cancelled => Failure::silent(EXIT_INTERRUPTED),
                        e => e.into(),
                    });
                }
            }
        }
        Ok(Self {
            manager,
            conns,
            interrupted,
            background,
        })
    }

    /// The manager owning this session's connections.
    pub fn manager(&self) -> &Arc<ConnectionManager> {
        &self.manager
    }

    /// Names of the connected servers.
    pub fn server_names(&self) -> Vec<String> {
        self.conns.iter().map(|c| c.name().to_owned()).collect()
    }

    pub fn connection(&self) -> &Connection {
        &self.conns[0]
    }

    /// Sends a request with a progress bar on a terminal and Ctrl-C cancellation.
    pub async fn request(&self, method: &str, params: Option<Value>) -> Result<Value, Failure> {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let bar = tokio::spawn(async move {
            let mut bar = ProgressBar::for_stderr();
            while let Some(update) = rx.recv().await {
                bar.update(&update);
            }
            bar.finish();
        });
        let result = self
            .connection()
            .request(
                method,
                params,
                RequestOptions {
                    timeout: None,
                    cancel: Some(self.interrupted.clone()),
                    progress: Some(tx),
                },
            )
            .await;
        let _ = bar.await;
        match result {
            Ok(v) => Ok(v),
            Err(McpError::Cancelled) => {
                eprintln!("interrupted: sent notifications/cancelled for `{method}`");
                Err(Failure::silent(EXIT_INTERRUPTED))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Every page of a list method, merged (see `Connection::list_all`).
    pub async fn list_all(&self, method: &str, key: &str) -> Result<Value, Failure> {
        let opts = RequestOptions {
            cancel: Some(self.interrupted.clone()),
            ..RequestOptions::default()
        };
        match self.connection().list_all(method, key, opts).await {
            Ok(v) => Ok(v),
            Err(McpError::Cancelled) => Err(Failure::silent(EXIT_INTERRUPTED)),
            Err(McpError::InvalidRequest(m)) => Err(Failure::call(m)),
            Err(e) => Err(e.into()),
        }
    }

    /// Events of the connected server (for `resources subscribe`).
    pub fn subscribe(&self) -> tokio::sync::broadcast::Receiver<ServerEvent> {
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

async fn print_trace(mut rx: tokio::sync::broadcast::Receiver<mcplab_protocol::TrafficFrame>) {
    use tokio::sync::broadcast::error::RecvError;
    loop {
        match rx.recv().await {
            Ok(f) => {
                let arrow = match (&f.kind, f.direction) {
                    (FrameKind::Note, _) => "··",
                    (_, Direction::Outbound) => "→",
                    (_, Direction::Inbound) => "←",
                };
                let mut flag = match &f.kind {
                    FrameKind::Unparsable { error } => format!(" [unparsable: {error}]"),
                    FrameKind::Synthetic => " [synthetic]".into(),
                    _ => String::new(),
                };
                if let Some(full) = f.full_bytes {
                    flag.push_str(&format!(" … [{full} bytes in all; --limit preview=SIZE]"));
                }
                eprintln!("[trace {}] {arrow} {}{flag}", f.server, f.text);
            }
            Err(RecvError::Lagged(n)) => eprintln!("[trace] … {n} frames not shown (too fast)"),
            Err(RecvError::Closed) => return,
        }
    }
}

async fn answer_events(manager: Arc<ConnectionManager>, mode: ElicitationMode) {
    use tokio::sync::broadcast::error::RecvError;
    let mut rx = manager.subscribe();
    loop {
        let event = match rx.recv().await {
            Ok(e) => e,
            Err(RecvError::Lagged(_)) => continue,
            Err(RecvError::Closed) => return,
        };
        match event {
            ServerEvent::HumanRequested { request } => {
                let answer = match request.kind {
                    HumanRequestKind::Sampling => {
                        eprintln!(
                            "[{}] asked for an LLM completion (sampling/createMessage); the CLI \
                             has no model configured, so it was declined",
                            request.server
                        );
                        HumanAnswer::Decline {
                            reason: Some(
                                "mcplab CLI cannot run sampling requests (no model configured)"
                                    .into(),
                            ),
                        }
                    }
                    HumanRequestKind::Elicitation => {
                        let params = request.params.clone();
                        let server = request.server.clone();
                        tokio::task::spawn_blocking(move || elicit::answer(&server, &params, mode))
                            .await
                            .unwrap_or(HumanAnswer::Cancel)
                    }
                };
                manager.broker().answer(request.id, answer);
            }
            ServerEvent::Log {
                server,
                level,
                logger,
                data,
            } => {
                let data = match data {
                    Value::String(s) => s,
                    other => other.to_string(),
                };
                match logger {
                    Some(l) => eprintln!("[{server} {level} {l}] {data}"),
                    None => eprintln!("[{server} {level}] {data}"),
                }
            }
            _ => {}
        }
    }
}

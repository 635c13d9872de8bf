//! How a CLI session's servers reach the person: `--trace` frames, server logs, progress and a
//! stdio server's stderr on stderr (labelled with the people's names for the servers, control
//! sequences neutralised unless `--raw`), and answers to what a server asks (elicitation per
//! `--elicitation`, sampling declined). It prints and answers; it does not connect or stop
//! anything.

use std::io::IsTerminal;
use std::sync::Arc;

use mcplab_mcp::{ConnectionManager, ProgressUpdate};
use mcplab_protocol::{Direction, FrameKind, HumanAnswer, HumanRequestKind, ServerEvent};
use serde_json::Value;
use tokio::sync::watch;

use crate::elicit::{self, Policy};
use crate::output::safe;
use crate::progress::Terminal;
use crate::settings::Settings;

/// How server text reaches stderr.
#[derive(Clone)]
pub(super) struct Voice {
    term: Terminal,
    raw: bool,
    /// Show a stdio server's stderr lines as they come.
    stderr: bool,
    /// Dim them (stderr is a terminal).
    dim: bool,
    /// People's names for the servers (ad-hoc targets are not called `cli`).
    labels: Arc<Vec<(String, String)>>,
    /// How many stderr lines were shown (a connect error repeats them when none was: the
    /// handshake of `protocol: auto` holds them back).
    stderr_shown: Arc<std::sync::atomic::AtomicUsize>,
}

impl Voice {
    /// How `settings` (`--raw`, `--quiet-stderr`) say to speak on `term`; `labels` are the
    /// people's names for the servers.
    pub(super) fn new(term: Terminal, settings: &Settings, labels: Vec<(String, String)>) -> Self {
        Voice {
            term,
            raw: settings.raw,
            stderr: !settings.quiet_stderr,
            dim: std::io::stderr().is_terminal(),
            labels: Arc::new(labels),
            stderr_shown: Arc::default(),
        }
    }

    pub(super) fn label<'a>(&'a self, server: &'a str) -> &'a str {
        self.labels
            .iter()
            .find(|(name, _)| name == server)
            .map_or(server, |(_, label)| label.as_str())
    }

    pub(super) fn shown_any_stderr(&self) -> bool {
        self.stderr_shown.load(std::sync::atomic::Ordering::Relaxed) > 0
    }

    /// One line on stderr, control sequences neutralised unless `--raw`.
    fn say(&self, text: &str) {
        if self.raw {
            self.term.line(text);
        } else {
            self.term.line(&safe(text));
        }
    }
}

/// Prints every frame of the traffic log as `--trace` lines, telling `printed` how far it got.
pub(super) async fn print_trace(
    mut rx: mcplab_mcp::traffic::TrafficFeed,
    voice: Voice,
    printed: watch::Sender<u64>,
) {
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
                let server = voice.label(&f.server);
                voice.say(&format!("[trace {server}] {arrow} {}{flag}", f.text));
                printed.send_replace(f.seq);
            }
            Err(RecvError::Lagged(n)) => {
                voice.say(&format!("[trace] … {n} frames not shown (too fast)"))
            }
            Err(RecvError::Closed) => return,
        }
    }
}

/// Answers what the servers ask (elicitation per `policy`, sampling declined) and says what
/// they log, report as progress and print on stderr.
pub(super) async fn answer_events(manager: Arc<ConnectionManager>, policy: Policy, voice: Voice) {
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
                let label = voice.label(&request.server).to_owned();
                let answer = match request.kind {
                    HumanRequestKind::Sampling => {
                        voice.say(&format!(
                            "[{label}] asked for an LLM completion (sampling/createMessage); \
                             the CLI has no model configured, so it was declined"
                        ));
                        HumanAnswer::Decline {
                            reason: Some(
                                "mcplab CLI cannot run sampling requests (no model configured)"
                                    .into(),
                            ),
                        }
                    }
                    HumanRequestKind::Elicitation => {
                        let params = request.params.clone();
                        let raw = voice.raw;
                        tokio::task::spawn_blocking(move || {
                            elicit::answer(&label, &params, policy, raw)
                        })
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
                let label = voice.label(&server);
                match logger {
                    Some(l) => voice.say(&format!("[{label} {level} {l}] {data}")),
                    None => voice.say(&format!("[{label} {level}] {data}")),
                }
            }
            ServerEvent::Progress {
                progress,
                total,
                message,
                ..
            } => voice.term.progress(&ProgressUpdate {
                progress,
                total,
                message: message.map(|m| if voice.raw { m } else { safe(&m).into_owned() }),
            }),
            ServerEvent::Stderr { server, line } if voice.stderr => {
                voice
                    .stderr_shown
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let label = voice.label(&server);
                let line = if voice.raw {
                    line
                } else {
                    safe(&line).into_owned()
                };
                if voice.dim {
                    voice
                        .term
                        .line(&format!("\x1b[2m{label} stderr | {line}\x1b[0m"));
                } else {
                    voice.term.line(&format!("{label} stderr | {line}"));
                }
            }
            _ => {}
        }
    }
}

//! The stdio wire: spawns a server as a child process in its own process group with a clean
//! environment (`env`), moves newline-delimited frames over stdin/stdout (each bounded by the
//! message limit), keeps its stderr line by line (each line and the tail bounded, `lines`), and
//! makes sure the whole group is gone on disconnect, on reconnect and when the guard is dropped
//! (no orphans, including grandchildren such as `npx` → `node`, and descendants that left the
//! group with `setsid`, and double-forked daemons, which the server adopts as their reaper: see
//! `process_tree` and `adopt_orphans`). It does not parse JSON-RPC.

mod env;
mod family;
mod lines;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::watch;

pub use env::{ALLOWED as ALLOWED_ENV, child_environment};
pub use family::{Family, isolate};
pub use lines::StderrTail;
use lines::{Line, LineReader, shown_line};

use super::error::McpError;
use super::limits::{Limits, Size};
use super::modern::probe::StdinGauge;
use super::process_tree::{ProcessTree, REFRESH_EVERY, inode_of, kill_and_reap};
use super::wire::{WireEnd, WireEvent, kept_of_refused};
/// Read buffer of stdout and stderr (large lines pass in fewer reads).
const READ_BUFFER: usize = 64 * 1024;
/// How long a child gets to exit after its stdout closed (to learn its exit status).
const GRACE: Duration = Duration::from_millis(1500);
/// Default for how long a child gets to exit after its stdin closes, and again after SIGTERM.
pub const DEFAULT_STOP_GRACE: Duration = Duration::from_millis(1500);

/// What to run.
#[derive(Debug, Clone)]
pub struct StdioSpec {
    pub command: String,
    pub args: Vec<String>,
    /// Set on top of what it inherits.
    pub env: BTreeMap<String, String>,
    pub cwd: Option<String>,
    /// Inherit this process's whole environment (secrets still withheld), not the allow-list.
    pub inherit_env: bool,
    /// This process's environment as the binary captured it; `None`: read it at spawn.
    pub parent_env: Option<Arc<[(OsString, OsString)]>>,
}

impl StdioSpec {
    /// The environment the child starts with.
    pub fn environment(&self) -> Vec<(OsString, OsString)> {
        match &self.parent_env {
            Some(parent) => child_environment(parent.iter().cloned(), self.inherit_env, &self.env),
            None => child_environment(std::env::vars_os(), self.inherit_env, &self.env),
        }
    }
}

/// Called with every stderr line as it arrives.
pub type StderrHook = Arc<dyn Fn(&str) + Send + Sync>;

/// Owns the child's process group. Dropping it kills the group.
pub struct ChildGuard {
    pgid: Pid,
    grace: Duration,
    exit: watch::Receiver<Option<String>>,
    /// Descendants that may have left the group.
    tree: Arc<ProcessTree>,
    /// `shutdown` ran (its work need not be repeated on drop).
    stopped: std::sync::atomic::AtomicBool,
}

impl ChildGuard {
    /// The child's pid (also its process-group id).
    pub fn pid(&self) -> u32 {
        self.pgid.as_raw() as u32
    }

    /// Waits until the child exited, up to `limit`; returns how it exited.
    pub async fn wait_exit(&self, limit: Duration) -> Option<String> {
        let mut rx = self.exit.clone();
        let waited = tokio::time::timeout(limit, rx.wait_for(Option::is_some)).await;
        match waited {
            Ok(Ok(v)) => v.clone(),
            _ => None,
        }
    }

    /// Graceful stop as the MCP spec asks: stdin is already closed by the caller dropping the
    /// wire; wait, then SIGTERM the group, wait, then SIGKILL it.
    pub async fn shutdown(&self) {
        self.shutdown_within(self.grace).await;
    }

    /// [`Self::shutdown`] with `grace` at each step instead of the configured one: for a start
    /// given up during its handshake, whose server has nothing of a session to finish.
    pub async fn shutdown_within(&self, grace: Duration) {
        // Learn the tree while it is whole: a dying parent re-parents its children.
        let tree = self.tree.clone();
        let doomed = tokio::task::spawn_blocking(move || tree.doomed()).await;
        if self.wait_exit(grace).await.is_none() {
            let _ = killpg(self.pgid, Signal::SIGTERM);
            if self.wait_exit(grace).await.is_none() {
                let _ = killpg(self.pgid, Signal::SIGKILL);
            }
        }
        // Grandchildren may outlive the leader; the group id stays valid while they exist.
        let _ = killpg(self.pgid, Signal::SIGKILL);
        // Those seen before the stop, and any the tree (or the pipes) shows now.
        let mut doomed = doomed.unwrap_or_default();
        let tree = self.tree.clone();
        let _ = tokio::task::spawn_blocking(move || {
            for p in tree.doomed() {
                if !doomed.contains(&p) {
                    doomed.push(p);
                }
            }
            kill_and_reap(&doomed, REAP_WAIT)
        })
        .await;
        self.stopped
            .store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// The descendants of the server now, by pid (for tests and diagnostics).
    pub fn descendants(&self) -> Vec<u32> {
        self.tree.doomed().iter().map(|p| p.pid as u32).collect()
    }
}

/// How long a stop waits for killed descendants to be reaped.
const REAP_WAIT: Duration = Duration::from_secs(1);

impl Drop for ChildGuard {
    fn drop(&mut self) {
        // ESRCH (already gone) is the normal case after a graceful shutdown.
        let _ = killpg(self.pgid, Signal::SIGKILL);
        if !self.stopped.load(std::sync::atomic::Ordering::SeqCst) {
            self.tree.kill_all(Duration::ZERO);
        }
    }
}

/// Makes the server the reaper of its own orphaned descendants (Linux; the flag survives
/// `exec`): a daemon that double-forked, called `setsid` and closed the server's pipes is
/// re-parented to the server instead of init, so it stays in the server's process tree and
/// is killed with it. While the server runs, such an orphan that exits stays a zombie under it
/// (servers do not reap children they did not start) until the server stops.
#[allow(unsafe_code)] // `pre_exec` is unsafe to call; one of the three unsafe blocks of the workspace
fn adopt_orphans(cmd: &mut std::process::Command) {
    #[cfg(target_os = "linux")]
    // SAFETY: the closure runs in the forked child before `exec`; it makes one system call
    // (prctl), which is async-signal-safe, and touches no memory of the parent.
    unsafe {
        use std::os::unix::process::CommandExt;
        cmd.pre_exec(|| nix::sys::prctl::set_child_subreaper(true).map_err(std::io::Error::from));
    }
    #[cfg(not(target_os = "linux"))]
    let _ = cmd;
}

/// Spawns the child and the tasks that drive `end`.
/// `grace` is how long the child gets to exit on its own at each step of a stop.
pub fn spawn_stdio(
    spec: &StdioSpec,
    grace: Duration,
    limits: &Limits,
    end: WireEnd,
    tail: Arc<StderrTail>,
    hook: StderrHook,
) -> Result<ChildGuard, McpError> {
    spawn_gauged(spec, grace, limits, end, (tail, hook), false).map(|(child, _)| child)
}

/// [`spawn_stdio`], with a gauge on the child's stdin when `gauge` is set (for `auto`'s
/// probe, which must drop it soon: it holds the pipe open).
pub(crate) fn spawn_gauged(
    spec: &StdioSpec,
    grace: Duration,
    limits: &Limits,
    end: WireEnd,
    (tail, hook): (Arc<StderrTail>, StderrHook),
    gauge: bool,
) -> Result<(ChildGuard, Option<StdinGauge>), McpError> {
    let mut cmd = Command::new(&spec.command);
    cmd.args(&spec.args)
        .env_clear()
        .envs(spec.environment())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    if let Some(cwd) = &spec.cwd {
        cmd.current_dir(cwd);
    }
    adopt_orphans(cmd.as_std_mut());
    let mut child = cmd.spawn().map_err(|source| McpError::Spawn {
        command: spec.command.clone(),
        source,
    })?;
    let pid = child.id().ok_or_else(|| McpError::Transport {
        message: "the server process exited before it could be started".into(),
    })?;
    let pgid = Pid::from_raw(pid as i32);
    let stdin = child.stdin.take();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let pipes = {
        use std::os::fd::AsRawFd;
        let fds = [
            stdin.as_ref().map(AsRawFd::as_raw_fd),
            stdout.as_ref().map(AsRawFd::as_raw_fd),
            stderr.as_ref().map(AsRawFd::as_raw_fd),
        ];
        fds.into_iter().flatten().filter_map(inode_of).collect()
    };

    let gauge = stdin
        .as_ref()
        .filter(|_| gauge)
        .and_then(|s| std::os::fd::AsFd::as_fd(s).try_clone_to_owned().ok())
        .map(StdinGauge::new);
    let (exit_tx, exit_rx) = watch::channel(None);
    tokio::spawn(reap(child, exit_tx));

    if let Some(stderr) = stderr {
        tokio::spawn(read_stderr(stderr, limits.stderr_line_bytes, tail, hook));
    }
    let tree = Arc::new(ProcessTree::new(pid, pipes));
    tokio::spawn(watch_tree(Arc::downgrade(&tree), exit_rx.clone()));
    if let (Some(stdin), Some(stdout)) = (stdin, stdout) {
        let exit = exit_rx.clone();
        let closed_reason = async move {
            let mut exit = exit;
            let status = tokio::time::timeout(GRACE, exit.wait_for(Option::is_some))
                .await
                .ok()
                .and_then(|r| r.ok().and_then(|v| v.clone()));
            match status {
                Some(s) => format!("the server process exited ({s})"),
                None => "the server closed its stdout".to_owned(),
            }
        };
        let watched = Arc::downgrade(&tree);
        let before_eof = async move {
            // The server stops on stdin EOF, and its orphans then go to init: learn them first.
            if let Some(tree) = watched.upgrade() {
                let _ = tokio::task::spawn_blocking(move || tree.survey()).await;
            }
        };
        let io = (stdout, stdin);
        line_io(io, end, limits.message_bytes, closed_reason, before_eof);
    }
    let child = ChildGuard {
        pgid,
        grace,
        exit: exit_rx,
        tree,
        stopped: Default::default(),
    };
    Ok((child, gauge))
}

/// Refreshes the server's process tree now and then while the server runs, so descendants
/// that daemonize (and leave the tree) are known before they do.
async fn watch_tree(tree: std::sync::Weak<ProcessTree>, mut exit: watch::Receiver<Option<String>>) {
    loop {
        let Some(strong) = tree.upgrade() else { return };
        let _ = tokio::task::spawn_blocking(move || strong.refresh()).await;
        tokio::select! {
            _ = tokio::time::sleep(REFRESH_EVERY) => {}
            _ = exit.wait_for(Option::is_some) => return,
        }
    }
}

/// Drives `end` over any newline-delimited byte stream pair: frames from `end.outbound` are
/// written to `write` (one line each); lines read from `read` become frames, and a line over
/// `max_line` bytes is refused as soon as it crosses the limit ([`WireEvent::Oversized`]).
/// When `read` ends, `closed_reason` decides the message of the final `Closed` event. Used
/// for child processes and for servers running in this process (tests, the built-in demo).
pub fn spawn_line_io<R, W, F>(read: R, write: W, end: WireEnd, max_line: usize, closed_reason: F)
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
    F: Future<Output = String> + Send + 'static,
{
    line_io((read, write), end, max_line, closed_reason, async {});
}

/// [`spawn_line_io`], running `before_eof` once the last frame is written and before `write`
/// is closed.
fn line_io<R, W, F, G>(
    (read, write): (R, W),
    end: WireEnd,
    max_line: usize,
    closed_reason: F,
    before_eof: G,
) where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
    F: Future<Output = String> + Send + 'static,
    G: Future<Output = ()> + Send + 'static,
{
    let WireEnd {
        inbound,
        mut outbound,
    } = end;
    let mut write = write;
    tokio::spawn(async move {
        while let Some(frame) = outbound.recv().await {
            let mut line = Vec::with_capacity(frame.len() + 1);
            line.extend_from_slice(&frame);
            line.push(b'\n');
            if write.write_all(&line).await.is_err() || write.flush().await.is_err() {
                break;
            }
        }
        before_eof.await;
        // Dropping the writer closes it (stdin EOF): the first step of a graceful stop.
        let _ = write.shutdown().await;
    });
    tokio::spawn(async move {
        let mut reader = LineReader::new(BufReader::with_capacity(READ_BUFFER, read), max_line);
        loop {
            let event = match reader.next().await {
                Ok(Line::End) => break,
                Ok(Line::Whole(line)) if line.iter().all(u8::is_ascii_whitespace) => continue,
                Ok(Line::Whole(line)) => WireEvent::Frame(Bytes::from(line)),
                Ok(Line::Over { start, read }) => WireEvent::Unusable {
                    start: kept_of_refused(&start),
                    request: None,
                    why: format!(
                        "the server sent a message over the {} limit ({read} bytes and counting) \
                         on stdout; it was skipped (raise it with --limit message=SIZE)",
                        Size(max_line)
                    ),
                },
                Err(e) => {
                    let _ = inbound
                        .send(WireEvent::Note(format!("reading stdout failed: {e}")))
                        .await;
                    break;
                }
            };
            if inbound.send(event).await.is_err() {
                return;
            }
        }
        let reason = closed_reason.await;
        let _ = inbound.send(WireEvent::Closed(reason)).await;
    });
}

async fn reap(mut child: Child, exit: watch::Sender<Option<String>>) {
    let status = match child.wait().await {
        Ok(s) => describe_exit(s),
        Err(e) => format!("could not wait for it: {e}"),
    };
    let _ = exit.send(Some(status));
}

fn describe_exit(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    if let Some(code) = status.code() {
        format!("exit code {code}")
    } else if let Some(sig) = status.signal() {
        let name = Signal::try_from(sig)
            .map(|s| s.as_str().to_owned())
            .unwrap_or_else(|_| sig.to_string());
        format!("killed by {name}")
    } else {
        status.to_string()
    }
}

async fn read_stderr(
    stderr: impl AsyncRead + Unpin,
    max_line: usize,
    tail: Arc<StderrTail>,
    hook: StderrHook,
) {
    let mut reader = LineReader::new(BufReader::with_capacity(READ_BUFFER, stderr), max_line);
    while let Ok(Some((line, dropped))) = reader.next_shown().await {
        let line = shown_line(&line, dropped, max_line);
        hook(&line);
        tail.push(line);
    }
}

//! The stdio wire: spawns a server as a child process in its own process group, moves
//! newline-delimited frames over stdin/stdout, keeps its stderr line by line, and makes sure
//! the whole group is gone on disconnect, on reconnect and when the guard is dropped (no
//! orphans, including grandchildren such as `npx` → `node`). It does not parse JSON-RPC.

use std::collections::{BTreeMap, VecDeque};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::watch;

use super::error::McpError;
use super::wire::{WireEnd, WireEvent};

/// Longest stdout line accepted (a frame); longer lines are reported and skipped.
const MAX_LINE_BYTES: usize = 64 * 1024 * 1024;
/// How long a child gets to exit after its stdout closed (to learn its exit status).
const GRACE: Duration = Duration::from_millis(1500);
/// Default for how long a child gets to exit after its stdin closes, and again after SIGTERM.
pub const DEFAULT_STOP_GRACE: Duration = Duration::from_millis(1500);

/// What to run.
#[derive(Debug, Clone)]
pub struct StdioSpec {
    pub command: String,
    pub args: Vec<String>,
    pub env: BTreeMap<String, String>,
    pub cwd: Option<String>,
}

/// The last lines a server wrote to stderr.
pub struct StderrTail {
    lines: Mutex<VecDeque<String>>,
    capacity: usize,
}

impl StderrTail {
    pub fn new(capacity: usize) -> Self {
        Self {
            lines: Mutex::new(VecDeque::new()),
            capacity,
        }
    }

    fn push(&self, line: String) {
        let mut lines = self.lines.lock().unwrap_or_else(|p| p.into_inner());
        if lines.len() == self.capacity {
            lines.pop_front();
        }
        lines.push_back(line);
    }

    /// The kept lines, oldest first.
    pub fn lines(&self) -> Vec<String> {
        let lines = self.lines.lock().unwrap_or_else(|p| p.into_inner());
        lines.iter().cloned().collect()
    }
}

/// Called with every stderr line as it arrives.
pub type StderrHook = Arc<dyn Fn(&str) + Send + Sync>;

/// Owns the child's process group. Dropping it kills the group.
pub struct ChildGuard {
    pgid: Pid,
    grace: Duration,
    exit: watch::Receiver<Option<String>>,
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
        if self.wait_exit(self.grace).await.is_none() {
            let _ = killpg(self.pgid, Signal::SIGTERM);
            if self.wait_exit(self.grace).await.is_none() {
                let _ = killpg(self.pgid, Signal::SIGKILL);
            }
        }
        // Grandchildren may outlive the leader; the group id stays valid while they exist.
        let _ = killpg(self.pgid, Signal::SIGKILL);
    }
}

impl Drop for ChildGuard {
    fn drop(&mut self) {
        // ESRCH (already gone) is the normal case after a graceful shutdown.
        let _ = killpg(self.pgid, Signal::SIGKILL);
    }
}

/// Spawns the child and the tasks that drive `end`.
/// `grace` is how long the child gets to exit on its own at each step of a stop.
pub fn spawn_stdio(
    spec: &StdioSpec,
    grace: Duration,
    end: WireEnd,
    tail: Arc<StderrTail>,
    hook: StderrHook,
) -> Result<ChildGuard, McpError> {
    let mut cmd = Command::new(&spec.command);
    cmd.args(&spec.args)
        .envs(&spec.env)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    if let Some(cwd) = &spec.cwd {
        cmd.current_dir(cwd);
    }
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

    let (exit_tx, exit_rx) = watch::channel(None);
    tokio::spawn(reap(child, exit_tx));

    if let Some(stderr) = stderr {
        tokio::spawn(read_stderr(stderr, tail, hook));
    }
    if let (Some(stdin), Some(stdout)) = (stdin, stdout) {
        let exit = exit_rx.clone();
        spawn_line_io(stdout, stdin, end, async move {
            let mut exit = exit;
            let status = tokio::time::timeout(GRACE, exit.wait_for(Option::is_some))
                .await
                .ok()
                .and_then(|r| r.ok().and_then(|v| v.clone()));
            match status {
                Some(s) => format!("the server process exited ({s})"),
                None => "the server closed its stdout".to_owned(),
            }
        });
    }
    Ok(ChildGuard {
        pgid,
        grace,
        exit: exit_rx,
    })
}

/// Drives `end` over any newline-delimited byte stream pair: frames from `end.outbound` are
/// written to `write` (one line each); lines read from `read` become frames. When `read`
/// ends, `closed_reason` decides the message of the final `Closed` event. Used for child
/// processes and for servers running in this process (tests, the built-in demo).
pub fn spawn_line_io<R, W, F>(read: R, write: W, end: WireEnd, closed_reason: F)
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
    F: Future<Output = String> + Send + 'static,
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
        // Dropping the writer closes it (stdin EOF): the first step of a graceful stop.
        let _ = write.shutdown().await;
    });
    tokio::spawn(async move {
        let mut reader = BufReader::new(read);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match read_frame(&mut reader, &mut buf).await {
                Ok(0) => break,
                Ok(_) => {
                    let line = trim_newline(&buf);
                    if line.iter().all(u8::is_ascii_whitespace) {
                        continue;
                    }
                    let frame = WireEvent::Frame(Bytes::copy_from_slice(line));
                    if inbound.send(frame).await.is_err() {
                        return;
                    }
                }
                Err(e) => {
                    let _ = inbound
                        .send(WireEvent::Note(format!("skipped stdout data: {e}")))
                        .await;
                    if e.kind() != std::io::ErrorKind::InvalidData {
                        break;
                    }
                }
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

async fn read_stderr(stderr: impl AsyncRead + Unpin, tail: Arc<StderrTail>, hook: StderrHook) {
    let mut reader = BufReader::new(stderr);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match read_frame(&mut reader, &mut buf).await {
            Ok(0) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(trim_newline(&buf)).into_owned();
                hook(&line);
                tail.push(line);
            }
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => continue,
            Err(_) => break,
        }
    }
}

/// Reads one `\n`-terminated line into `buf`, refusing lines over [`MAX_LINE_BYTES`]
/// (the rest of such a line is consumed and an `InvalidData` error returned).
async fn read_frame<R: AsyncBufReadExt + Unpin>(
    reader: &mut R,
    buf: &mut Vec<u8>,
) -> std::io::Result<usize> {
    let mut total = 0;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            return Ok(total);
        }
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..=i], true),
            None => (available, false),
        };
        let n = chunk.len();
        if buf.len() + n <= MAX_LINE_BYTES {
            buf.extend_from_slice(chunk);
        }
        total += n;
        reader.consume(n);
        if done {
            if total > MAX_LINE_BYTES {
                buf.clear();
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("a line of {total} bytes exceeds the {MAX_LINE_BYTES}-byte limit"),
                ));
            }
            return Ok(total);
        }
    }
}

fn trim_newline(buf: &[u8]) -> &[u8] {
    let mut end = buf.len();
    while end > 0 && (buf[end - 1] == b'\n' || buf[end - 1] == b'\r') {
        end -= 1;
    }
    &buf[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn read_frame_splits_lines_and_keeps_last_unterminated() {
        let data: &[u8] = b"{\"a\":1}\r\nnot json\n{\"b\":2}";
        let mut r = BufReader::new(data);
        let mut buf = Vec::new();
        let mut lines = Vec::new();
        loop {
            buf.clear();
            if read_frame(&mut r, &mut buf).await.unwrap() == 0 {
                break;
            }
            lines.push(String::from_utf8(trim_newline(&buf).to_vec()).unwrap());
        }
        assert_eq!(lines, ["{\"a\":1}", "not json", "{\"b\":2}"]);
    }
}

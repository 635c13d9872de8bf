//! The stdio tap (`mcplab tap -- CMD…`): starts the server with the environment, directory and
//! stderr the host gave the tap, and moves bytes both ways on two plain threads — each read is
//! written on exactly as read, right after its copy was cut into frames and queued for the
//! recorder (which never makes the forwarding wait), so the recording numbers a request
//! before the answer it causes. The server runs in its own process group so that a signal meant for
//! it reaches it exactly once: the tap forwards INT, TERM, HUP, QUIT, USR1 and USR2 to it and
//! ends when it ends, with its exit (the binary re-raises a fatal signal). It is started as the
//! stdio wire starts a server (`mcplab_mcp::stdio::isolate`: the reaper of its orphans), and
//! what is left of its process tree when it exits is killed (`Family`). Host stdin's end is
//! passed on as the server's stdin end. It records frames; it does not parse them.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::process::Stdio;
use std::time::Duration;

use mcplab_mcp::stdio::{Family, isolate};
use mcplab_protocol::Direction;
use nix::sys::signal::Signal;

use crate::TapError;
use crate::recorder::Recorder;
use crate::splitter::Splitter;

/// Read buffer of each direction.
const READ_BUFFER: usize = 64 * 1024;
/// How long the server's last output may take to arrive after it exited (a descendant may
/// hold its stdout open).
const DRAIN: Duration = Duration::from_secs(2);
/// The signals passed on to the server.
const FORWARDED: [Signal; 6] = [
    Signal::SIGINT,
    Signal::SIGTERM,
    Signal::SIGHUP,
    Signal::SIGQUIT,
    Signal::SIGUSR1,
    Signal::SIGUSR2,
];

/// The server's command line, as the host would have run it.
#[derive(Debug, Clone)]
pub struct StdioCommand {
    pub program: OsString,
    pub args: Vec<OsString>,
}

impl StdioCommand {
    /// The command line in words (for the recording and messages).
    pub fn display(&self) -> String {
        std::iter::once(&self.program)
            .chain(&self.args)
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// How the server ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    Signal(i32),
}

impl Exit {
    pub fn describe(&self) -> String {
        match self {
            Exit::Code(c) => format!("exit code {c}"),
            Exit::Signal(s) => match Signal::try_from(*s) {
                Ok(sig) => format!("killed by {}", sig.as_str()),
                Err(_) => format!("killed by signal {s}"),
            },
        }
    }
}

impl Exit {
    /// The exit code this process should end with, after re-raising a fatal signal with its
    /// default action (which ends the process, so the host sees the server's own end); `128 +
    /// signal` only when that did not end it.
    pub fn reraise(self) -> i32 {
        match self {
            Exit::Code(code) => code,
            Exit::Signal(sig) => {
                let _ = signal_hook::low_level::emulate_default_handler(sig);
                128 + sig
            }
        }
    }
}

/// What the stdio tap is told besides the command.
#[derive(Debug, Clone, Copy)]
pub struct StdioOptions {
    /// The longest frame kept whole in the recording.
    pub max_frame: usize,
    /// Forward this process's signals to the server (the binary; not in-process tests).
    pub forward_signals: bool,
    /// This process is a child subreaper with no child but the server (the binary): what is
    /// re-parented to it is the server's, and is killed when the server ends.
    pub sole_parent: bool,
}

/// Runs the server between `host_in`/`host_out` until it exits; returns how it exited.
pub async fn run_stdio<I, O>(
    command: &StdioCommand,
    host_in: I,
    host_out: O,
    recorder: &Recorder,
    options: StdioOptions,
) -> Result<Exit, TapError>
where
    I: Read + Send + 'static,
    O: Write + Send + 'static,
{
    // Listening starts before the server does: a signal sent as soon as the server is up (it
    // printed its first line) must be passed on, not end the tap by default.
    let listening = match options.forward_signals {
        true => listen_for_signals(),
        false => Vec::new(),
    };
    let mut child = spawn(command)?;
    let family = Family::watch(&child, options.sole_parent);
    let (Some(child_in), Some(child_out)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(TapError::Spawn {
            command: command.display(),
            source: std::io::Error::other("no pipes to the server"),
        });
    };
    let pid = child.id() as i32;
    let max = options.max_frame;
    let rec = recorder.clone();
    std::thread::spawn(move || pump(host_in, child_in, &rec, Direction::Outbound, max));
    let rec = recorder.clone();
    let (drained, drained_rx) = tokio::sync::oneshot::channel();
    std::thread::spawn(move || {
        pump(child_out, host_out, &rec, Direction::Inbound, max);
        let _ = drained.send(());
    });
    let (exited, exited_rx) = tokio::sync::oneshot::channel();
    std::thread::spawn(move || {
        let _ = exited.send(child.wait());
    });
    let forwarders = forward_signals(listening, pid);
    let status = exited_rx.await.map_err(|_| TapError::Lost)?;
    forwarders.iter().for_each(tokio::task::JoinHandle::abort);
    let status = status.map_err(|source| TapError::Spawn {
        command: command.display(),
        source,
    })?;
    let _ = tokio::time::timeout(DRAIN, drained_rx).await;
    // Nothing the server started outlives it (setsid grandchildren, double-forked daemons).
    let _ = tokio::task::spawn_blocking(move || family.end()).await;
    Ok(exit_of(status))
}

fn spawn(command: &StdioCommand) -> Result<std::process::Child, TapError> {
    let mut cmd = std::process::Command::new(&command.program);
    cmd.args(&command.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    // The same start as every stdio server: its own group, the reaper of its orphans.
    isolate(&mut cmd);
    cmd.spawn().map_err(|source| TapError::Spawn {
        command: command.display(),
        source,
    })
}

/// Moves bytes from `from` to `to` until `from` ends, recording a copy of each line first. When
/// `to` stops taking bytes (the reader went away) the rest is still read and recorded, so
/// the writer on the other side never blocks on a full pipe.
fn pump(mut from: impl Read, mut to: impl Write, rec: &Recorder, dir: Direction, max: usize) {
    let mut buf = vec![0u8; READ_BUFFER];
    let mut splitter = Splitter::new(max);
    let mut record = |p: crate::splitter::Piece| rec.message("", dir, p.bytes, p.full);
    let mut open = true;
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        // The copy is cut and queued (never waiting) before the bytes go on, so a frame is
        // numbered before anything it makes the other side say.
        splitter.feed(&buf[..n], &mut record);
        if open && (to.write_all(&buf[..n]).is_err() || to.flush().is_err()) {
            open = false;
        }
    }
    splitter.finish(&mut record);
    // Dropping `to` passes the end on (the server's stdin, or the host's stdout).
}

/// Takes over the forwarded signals from their default action (ending this process).
fn listen_for_signals() -> Vec<(Signal, tokio::signal::unix::Signal)> {
    use tokio::signal::unix::{SignalKind, signal};
    FORWARDED
        .iter()
        .filter_map(|&sig| Some((sig, signal(SignalKind::from_raw(sig as i32)).ok()?)))
        .collect()
}

/// One task per forwarded signal, each passing it to the server.
fn forward_signals(
    listening: Vec<(Signal, tokio::signal::unix::Signal)>,
    pid: i32,
) -> Vec<tokio::task::JoinHandle<()>> {
    let target = nix::unistd::Pid::from_raw(pid);
    listening
        .into_iter()
        .map(|(sig, mut stream)| {
            tokio::spawn(async move {
                while stream.recv().await.is_some() {
                    let _ = nix::sys::signal::kill(target, sig);
                }
            })
        })
        .collect()
}

fn exit_of(status: std::process::ExitStatus) -> Exit {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => Exit::Code(code),
        (None, Some(sig)) => Exit::Signal(sig),
        (None, None) => Exit::Code(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> StdioCommand {
        StdioCommand {
            program: "sh".into(),
            args: vec!["-c".into(), script.into()],
        }
    }

    /// The host's side as pipes this test holds.
    struct Host {
        to_tap: std::io::PipeWriter,
        from_tap: std::io::PipeReader,
    }

    fn host() -> (Host, std::io::PipeReader, std::io::PipeWriter) {
        let (tap_in, to_tap) = std::io::pipe().unwrap();
        let (from_tap, tap_out) = std::io::pipe().unwrap();
        (Host { to_tap, from_tap }, tap_in, tap_out)
    }

    const OPTIONS: StdioOptions = StdioOptions {
        max_frame: 1 << 20,
        forward_signals: false,
        sole_parent: false,
    };

    #[tokio::test]
    async fn bytes_pass_unchanged_both_ways_and_the_exit_code_comes_back() {
        let (mut h, tap_in, tap_out) = host();
        // `cat` echoes what the host sends; the odd spacing and a line without a newline
        // must come back byte for byte.
        let sent = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n  {\"a\" : 1}\r\n\nlast";
        h.to_tap.write_all(sent).unwrap();
        drop(h.to_tap);
        let recorder = Recorder::discard();
        let cmd = sh("cat; exit 7");
        let exit = run_stdio(&cmd, tap_in, tap_out, &recorder, OPTIONS)
            .await
            .unwrap();
        assert_eq!(exit, Exit::Code(7));
        let mut got = Vec::new();
        h.from_tap.read_to_end(&mut got).unwrap();
        assert_eq!(got, sent);
    }

    #[tokio::test]
    async fn a_server_killed_by_a_signal_is_reported_so() {
        let (h, tap_in, tap_out) = host();
        let exit = run_stdio(
            &sh("kill -TERM $$"),
            tap_in,
            tap_out,
            &Recorder::discard(),
            OPTIONS,
        )
        .await
        .unwrap();
        drop(h);
        assert_eq!(exit, Exit::Signal(15));
        assert_eq!(exit.describe(), "killed by SIGTERM");
    }

    #[tokio::test]
    async fn a_command_that_does_not_exist_says_so() {
        let (_h, tap_in, tap_out) = host();
        let cmd = StdioCommand {
            program: "/nonexistent/server".into(),
            args: vec![],
        };
        let err = run_stdio(&cmd, tap_in, tap_out, &Recorder::discard(), OPTIONS)
            .await
            .unwrap_err();
        assert!(err.to_string().contains("/nonexistent/server"), "{err}");
    }
}

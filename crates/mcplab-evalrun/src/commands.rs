//! Running a suite's check commands (`command:` checks): each gets the iteration as JSON on
//! stdin and answers with a verdict on stdout. The command runs in the suite file's folder
//! with the environment a stdio server gets (no API keys, no `MCPLAB_*`), in a process group of
//! its own that is killed when it overruns its timeout; stdout is read up to a limit and
//! stderr's head kept for the reason. Whatever goes wrong is a failed check that says what.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use mcplab_evals::checks::{CommandOutcome, read_verdict};
use mcplab_evals::suite::CommandCheck;
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;

/// Bytes of stdout a command may print (its verdict, and any logging before it).
pub(crate) const STDOUT_LIMIT: usize = 1 << 20;
/// Bytes of stderr kept for the reason when a command fails.
const STDERR_KEPT: usize = 2048;

/// Runs `check` on `input` in `dir`.
pub(crate) async fn run_command(check: &CommandCheck, dir: &Path, input: &[u8]) -> CommandOutcome {
    let line = check.line().to_owned();
    let fail = |reason: String| CommandOutcome {
        line: line.clone(),
        passed: false,
        score: None,
        reason,
    };
    let argv = match check.argv() {
        Ok(a) => a,
        Err(why) => return fail(why),
    };
    let mut cmd = Command::new(program(&argv[0], dir));
    cmd.args(&argv[1..])
        .current_dir(dir)
        .env_clear()
        .envs(mcplab_mcp::stdio::child_environment(
            std::env::vars_os(),
            false,
            &BTreeMap::new(),
        ))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return fail(format!(
                "the check command `{}` could not start: {e}",
                argv[0]
            ));
        }
    };
    let group = child.id().map(|id| Pid::from_raw(id as i32));
    let (Some(mut stdin), Some(stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        return fail("the check command's pipes could not be opened".into());
    };
    let input = input.to_vec();
    let feed = async move {
        // A command that does not read its input is its business: a closed pipe is fine.
        let _ = stdin.write_all(&input).await;
        drop(stdin);
    };
    let secs = check.timeout_seconds();
    let work = async {
        let (_, out, err, status) = tokio::join!(
            feed,
            bounded(stdout, STDOUT_LIMIT),
            bounded(stderr, STDERR_KEPT),
            child.wait()
        );
        (out, err, status)
    };
    let finished = tokio::time::timeout(Duration::from_secs(secs.into()), work).await;
    // Whatever it left running in its group goes too.
    if let Some(pgid) = group {
        let _ = killpg(pgid, Signal::SIGKILL);
    }
    let (out, err, status) = match finished {
        Ok(parts) => parts,
        Err(_) => {
            return fail(format!(
                "the check command took longer than {secs} s and was stopped (raise \
                 `timeoutSeconds` if it needs more)"
            ));
        }
    };
    let stderr_text = String::from_utf8_lossy(&err.0).trim().to_owned();
    let said = if stderr_text.is_empty() {
        String::new()
    } else {
        format!("; it said: {stderr_text}")
    };
    match status {
        Err(e) => fail(format!("the check command could not be waited for: {e}")),
        Ok(s) if !s.success() => fail(match s.code() {
            Some(code) => format!("the check command exited with code {code}{said}"),
            None => format!("the check command was killed by a signal{said}"),
        }),
        Ok(_) if out.1 => fail(format!(
            "the check command printed more than {} KiB: print only the verdict",
            STDOUT_LIMIT >> 10
        )),
        Ok(_) => read_verdict(&line, &out.0),
    }
}

/// A relative path with a slash is the suite folder's (`./checks/total.py`); a bare name is
/// looked up on PATH.
fn program(first: &str, dir: &Path) -> PathBuf {
    let p = Path::new(first);
    if p.is_relative() && first.contains('/') {
        dir.join(p)
    } else {
        p.to_path_buf()
    }
}

/// Up to `limit` bytes of `reader`, the rest read and dropped (so the writer never blocks);
/// `true` when there was more.
async fn bounded(mut reader: impl AsyncRead + Unpin, limit: usize) -> (Vec<u8>, bool) {
    let mut kept = Vec::new();
    let mut buf = [0u8; 8192];
    let mut over = false;
    loop {
        match reader.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = limit.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
                over |= n > room;
            }
        }
    }
    (kept, over)
}

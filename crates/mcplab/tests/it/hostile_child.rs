//! Stdio servers as real child processes that misbehave on purpose: they flood stderr with
//! huge lines, start descendants that leave the process group with `setsid` (directly, or by a
//! double fork), read their environment for secrets, or never answer `initialize`. Also the
//! CLI's side of it: the environment a `--stdio` server gets, and `--timeout` bounding the
//! handshake (B5 of the interop review).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use mcplab_mcp::{ConnectionManager, ManagerOptions};
use mcplab_protocol::{ServerConfig, ServerTransport};

const DEMO: &str = env!("CARGO_BIN_EXE_mcplab");

fn sh(name: &str, script: &str, env: &[(&str, &str)]) -> ServerConfig {
    ServerConfig {
        name: name.into(),
        transport: ServerTransport::Stdio {
            command: "sh".into(),
            args: vec!["-c".into(), script.into()],
            env: env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<BTreeMap<_, _>>(),
            cwd: None,
        },
        timeout_ms: None,
        inherit_env: false,
        protocol: Default::default(),
    }
}

fn manager(opts: ManagerOptions) -> Arc<ConnectionManager> {
    ConnectionManager::new(ManagerOptions {
        connect_timeout: Duration::from_secs(10),
        ..opts
    })
}

fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            stat.rsplit(')')
                .next()
                .and_then(|r| r.split_whitespace().next())
                != Some("Z")
        }
        Err(_) => false,
    }
}

/// Waits for a file the server writes: polled every 50 ms (the poll interval, not a delay
/// that orders anything), failing after 5 s.
async fn read_when_written(path: &Path) -> String {
    for _ in 0..100 {
        if let Ok(text) = std::fs::read_to_string(path)
            && text.ends_with('\n')
        {
            return text;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{} was never written", path.display());
}

/// Waits until `pid` is gone: /proc polled every 50 ms (a process's exit has no event to
/// wait on here), giving up after 5 s.
async fn gone(pid: u32) -> bool {
    for _ in 0..100 {
        if !alive(pid) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

#[tokio::test]
async fn huge_stderr_lines_are_cut_and_the_tail_is_bounded() {
    // 20 lines of 4 MiB each on stderr, then a normal server.
    let script = format!(
        "for i in $(seq 20); do head -c 4194304 /dev/zero | tr '\\0' e >&2; echo >&2; done; \
         echo done >&2; exec {DEMO} demo-server"
    );
    let m = manager(ManagerOptions::default());
    let mut events = m.subscribe();
    let conn = m
        .connect(sh("noisy", &script, &[]))
        .await
        .expect("connects");
    let tail = conn.stderr_tail();
    let bytes: usize = tail.iter().map(String::len).sum();
    assert!(bytes <= 64 * 1024 + 8 * 1024, "tail holds {bytes} bytes");
    let first = tail
        .iter()
        .find(|l| l.starts_with("eee"))
        .expect("a cut line");
    assert!(first.len() < 9 * 1024, "{}", first.len());
    assert!(first.contains("more bytes dropped") && first.contains("--limit stderr-line"));
    // What went to subscribers was cut too.
    while let Ok(event) = events.try_recv() {
        if let mcplab_protocol::ServerEvent::Stderr { line, .. } = event {
            assert!(line.len() < 17 * 1024, "{}", line.len());
        }
    }
    m.shutdown().await;
}

#[tokio::test]
async fn a_setsid_grandchild_is_gone_after_disconnect() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let script = format!(
        "setsid sleep 300 & echo $! > {}; exec {DEMO} demo-server",
        pidfile.display()
    );
    let m = manager(ManagerOptions::default());
    m.connect(sh("escaper", &script, &[]))
        .await
        .expect("connects");
    let pid: u32 = read_when_written(&pidfile).await.trim().parse().unwrap();
    assert!(alive(pid), "the grandchild runs");
    m.disconnect("escaper").await;
    assert!(
        gone(pid).await,
        "the setsid grandchild {pid} outlived the disconnect"
    );
}

#[tokio::test]
async fn a_double_forked_daemon_holding_the_pipes_is_gone_after_disconnect() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    // The subshell exits at once, so the daemon leaves the server's tree before anyone looks.
    let script = format!(
        "(setsid sleep 300 & echo $! > {}); exec {DEMO} demo-server",
        pidfile.display()
    );
    let m = manager(ManagerOptions::default());
    m.connect(sh("daemon", &script, &[]))
        .await
        .expect("connects");
    let pid: u32 = read_when_written(&pidfile).await.trim().parse().unwrap();
    assert!(alive(pid));
    m.disconnect("daemon").await;
    assert!(gone(pid).await, "the daemon {pid} outlived the disconnect");
}

#[tokio::test]
async fn a_double_forked_daemon_with_closed_stdio_is_gone_after_disconnect() {
    // Security review N6: the daemon closes the server's pipes and leaves the tree through a
    // subshell that exits at once, so neither the tree nor the pipes lead to it.
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let script = format!(
        "(setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! > {}) </dev/null >/dev/null 2>&1; \
         exec {DEMO} demo-server",
        pidfile.display()
    );
    let m = manager(ManagerOptions::default());
    m.connect(sh("detached", &script, &[]))
        .await
        .expect("connects");
    let pid: u32 = read_when_written(&pidfile).await.trim().parse().unwrap();
    assert!(alive(pid));
    m.disconnect("detached").await;
    let escaped = !gone(pid).await;
    if escaped {
        // Not left behind for the next test run.
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(pid as i32),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
    assert!(
        !escaped,
        "the detached daemon {pid} outlived the disconnect"
    );
}

/// N6, the race behind its flake: a server that exits the moment its stdin closes hands its
/// orphans to init before the stop looks at its tree, and a daemon with closed stdio holds no
/// pipe to be found by. The stop must still know it: the tree is read before stdin is closed.
/// Here the stop begins only after the server is gone, which made the race certain.
#[tokio::test]
async fn a_daemon_of_a_server_that_exits_on_stdin_eof_is_gone_after_the_stop() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let script = format!(
        "(setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! > {}) </dev/null >/dev/null 2>&1; \
         exec cat >/dev/null",
        pidfile.display()
    );
    let (wire, child) = spawn_bare("sh", vec!["-c".into(), script], Duration::from_secs(5));
    let pid: u32 = read_when_written(&pidfile).await.trim().parse().unwrap();
    assert!(alive(pid));
    drop(wire);
    assert!(
        child.wait_exit(Duration::from_secs(30)).await.is_some(),
        "the server ends on stdin EOF"
    );
    child.shutdown().await;
    let escaped = !gone(pid).await;
    if escaped {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(pid as i32),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
    assert!(!escaped, "the daemon {pid} outlived the stop");
}

/// A child this process is forking holds copies of all its descriptors until it execs, a
/// stopping server's pipes included; the stop must not take it for one of the server's
/// descendants and kill it. (It did: the fuzzer's restart of a crashed server was killed by
/// the crashed one's stop, so the crash was reported without its shrunk input.) Here the
/// child waits between fork and exec until the stop is over, which makes the race certain.
#[tokio::test]
#[allow(unsafe_code)] // `pre_exec` holds the child between fork and exec
async fn a_process_forked_while_a_server_stops_is_not_killed_with_it() {
    use std::os::unix::process::CommandExt;
    let (wire, server) = spawn_bare("cat", Vec::new(), Duration::from_secs(1));
    let (ready_read, ready_write) = std::io::pipe().unwrap();
    let (go_read, go_write) = std::io::pipe().unwrap();
    let mut command = std::process::Command::new("true");
    // SAFETY: the closure runs in the forked child before `exec` and makes only `write` and
    // `read` system calls on descriptors it owns (async-signal-safe; nothing is allocated).
    unsafe {
        command.pre_exec(move || {
            nix::unistd::write(&ready_write, b"r")?;
            nix::unistd::read(&go_read, &mut [0u8; 1])?;
            Ok(())
        });
    }
    // `spawn` returns once the child has exec'd, so it runs on a thread of its own.
    let forking = std::thread::spawn(move || command.spawn());
    let ready = tokio::task::spawn_blocking(move || {
        nix::unistd::read(&ready_read, &mut [0u8; 1]).map(|n| n == 1)
    });
    let ready = tokio::time::timeout(Duration::from_secs(30), ready).await;
    assert!(
        matches!(ready, Ok(Ok(Ok(true)))),
        "the child reached its fork-exec window"
    );
    drop(wire);
    server.shutdown().await;
    // EPIPE when the child was killed: its status below says so.
    let _ = nix::unistd::write(&go_write, b"g");
    let mut child = forking.join().unwrap().expect("spawned");
    // Killed, it is also reaped by the stop (it is our child): then `wait` finds no child.
    let status = child.wait();
    assert!(
        status.as_ref().is_ok_and(|s| s.success()),
        "the child forked while the server stopped was killed: {status:?}"
    );
}

/// N6 for `mcplab tap`: the tap starts its server as the stdio wire does (the reaper of its
/// orphans, its tree watched), so a daemon the server double-forked with closed stdio is gone
/// once the host hung up and the tap ended.
#[tokio::test]
async fn a_tapped_servers_detached_daemon_is_gone_when_the_tap_ends() {
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let script = format!(
        "(setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! > {}) </dev/null >/dev/null 2>&1; \
         exec cat",
        pidfile.display()
    );
    let mut tap = tokio::process::Command::new(DEMO)
        .args([
            "tap",
            "--no-live",
            "--record",
            "/dev/null",
            "--",
            "sh",
            "-c",
        ])
        .arg(&script)
        .env("MCPLAB_DATA_DIR", dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let pid: u32 = read_when_written(&pidfile).await.trim().parse().unwrap();
    assert!(alive(pid));
    drop(tap.stdin.take());
    let ended = tokio::time::timeout(Duration::from_secs(30), tap.wait()).await;
    assert!(ended.is_ok(), "the tap ends when its server does");
    let escaped = !gone(pid).await;
    if escaped {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(pid as i32),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
    assert!(
        !escaped,
        "the tapped server's daemon {pid} outlived the tap"
    );
}

fn parent_env(extra: &[(&str, &str)]) -> Arc<[(OsString, OsString)]> {
    let mut env: Vec<(OsString, OsString)> = std::env::vars_os()
        .filter(|(k, _)| k == "PATH" || k == "HOME")
        .collect();
    env.extend(extra.iter().map(|(k, v)| (k.into(), v.into())));
    env.into()
}

async fn env_of(m: &Arc<ConnectionManager>, config: ServerConfig, file: &Path) -> String {
    m.connect(config).await.expect("connects");
    let env = read_when_written(file).await;
    m.shutdown().await;
    env
}

#[tokio::test]
async fn a_server_gets_the_allow_list_and_its_config_only() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("env");
    let secrets = [
        ("OPENAI_API_KEY", "sk-parent"),
        ("MCPLAB_BEARER", "launch-token"),
        ("AWS_SECRET_ACCESS_KEY", "aws"),
        ("LANG", "C.UTF-8"),
    ];
    let m = manager(ManagerOptions {
        parent_env: Some(parent_env(&secrets)),
        ..ManagerOptions::default()
    });
    let script = format!(
        "env > {}.tmp; mv {0}.tmp {0}; exec {DEMO} demo-server",
        file.display()
    );
    let configured = [("ANTHROPIC_API_KEY", "sk-configured"), ("DEBUG", "1")];
    let env = env_of(&m, sh("clean", &script, &configured), &file).await;
    for leaked in ["sk-parent", "launch-token", "AWS_SECRET_ACCESS_KEY"] {
        assert!(!env.contains(leaked), "{leaked} reached the server:\n{env}");
    }
    for given in [
        "ANTHROPIC_API_KEY=sk-configured",
        "DEBUG=1",
        "LANG=C.UTF-8",
        "PATH=",
    ] {
        assert!(env.contains(given), "{given} missing:\n{env}");
    }

    // inheritEnv passes the rest, still not the secrets.
    let mut config = sh("inherit", &script, &[]);
    config.inherit_env = true;
    let m = manager(ManagerOptions {
        parent_env: Some(parent_env(&secrets)),
        ..ManagerOptions::default()
    });
    let env = env_of(&m, config, &file).await;
    assert!(env.contains("AWS_SECRET_ACCESS_KEY=aws"), "{env}");
    assert!(
        !env.contains("sk-parent") && !env.contains("launch-token"),
        "{env}"
    );
}

#[tokio::test]
async fn the_cli_gives_a_stdio_server_no_secrets_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("env");
    let script = format!(
        "env > {}.tmp; mv {0}.tmp {0}; exec {DEMO} demo-server",
        file.display()
    );
    let out = std::process::Command::new(DEMO)
        .args([
            "--stdio",
            &format!("sh -c '{script}'"),
            "-e",
            "GIVEN=yes",
            "tools",
            "list",
        ])
        .env("MCPLAB_DATA_DIR", dir.path().join("data"))
        .env("OPENAI_API_KEY", "sk-from-the-shell")
        .env("MCPLAB_BEARER", "bearer-from-the-shell")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let env = std::fs::read_to_string(&file).unwrap();
    assert!(!env.contains("sk-from-the-shell"), "{env}");
    assert!(!env.contains("bearer-from-the-shell"), "{env}");
    assert!(env.contains("GIVEN=yes"), "{env}");
}

#[tokio::test]
async fn the_cli_timeout_bounds_initialize() {
    // B5: `--timeout 1` against a server that never answers fails at initialize, in about a
    // second rather than the 30 s connect default (bounded here far below that).
    let run = tokio::process::Command::new(DEMO)
        .args(["--timeout", "1", "--stdio", "sleep 600", "tools", "list"])
        .env("MCPLAB_DATA_DIR", tempfile::tempdir().unwrap().path())
        .output();
    let out = tokio::time::timeout(Duration::from_secs(20), run)
        .await
        .expect("--timeout applies to initialize")
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("no answer to `initialize`") && stderr.contains("within 1s"),
        "{stderr}"
    );
}

/// `command args` started through the stdio wire alone (empty environment, no MCP on top), for
/// tests of the process handling; dropping the returned wire closes the child's stdin.
fn spawn_bare(
    command: &str,
    args: Vec<String>,
    grace: Duration,
) -> (mcplab_mcp::wire::Wire, mcplab_mcp::stdio::ChildGuard) {
    use mcplab_mcp::stdio::{StderrTail, StdioSpec, spawn_stdio};
    let spec = StdioSpec {
        command: command.into(),
        args,
        env: BTreeMap::new(),
        cwd: None,
        inherit_env: false,
        parent_env: None,
    };
    let (wire, end) = mcplab_mcp::wire::wire_pair();
    let tail = Arc::new(StderrTail::new(10, 4096));
    let limits = mcplab_mcp::Limits::default();
    let child = spawn_stdio(&spec, grace, &limits, end, tail, Arc::new(|_: &str| {})).unwrap();
    (wire, child)
}

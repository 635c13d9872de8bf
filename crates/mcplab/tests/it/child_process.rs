//! Core integration tests against real child processes: the shipped demo server
//! (`mcplab demo-server`), and servers that crash, hang or print garbage. Every failure must
//! come back as a clear error within the deadline and leave no process behind.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use mcplab_mcp::{ConnectionManager, Listing, ManagerOptions, McpError, RequestOptions};
use mcplab_protocol::{Direction, FrameKind, ServerConfig, ServerStatus, ServerTransport};
use serde_json::json;

fn stdio(name: &str, command: &str, args: &[&str]) -> ServerConfig {
    ServerConfig {
        name: name.into(),
        transport: ServerTransport::Stdio {
            command: command.into(),
            args: args.iter().map(|s| s.to_string()).collect(),
            env: BTreeMap::new(),
            cwd: None,
        },
        timeout_ms: None,
        inherit_env: false,
        protocol: Default::default(),
    }
}

/// The shipped demo server (this build's `mcplab demo-server`), named `demo`.
fn demo() -> ServerConfig {
    stdio("demo", env!("CARGO_BIN_EXE_mcplab"), &["demo-server"])
}

fn sh(name: &str, script: &str) -> ServerConfig {
    stdio(name, "sh", &["-c", script])
}

/// Short deadlines, for servers that never answer (the test waits them out).
fn quick() -> Arc<ConnectionManager> {
    ConnectionManager::new(ManagerOptions {
        connect_timeout: Duration::from_secs(2),
        request_timeout: Duration::from_secs(2),
        ..Default::default()
    })
}

/// Generous deadlines, for servers that do answer: a start on a loaded CI machine can take
/// seconds, and a 2 s connect deadline gives `auto`'s first probe only one.
fn patient() -> Arc<ConnectionManager> {
    ConnectionManager::new(ManagerOptions {
        connect_timeout: Duration::from_secs(30),
        request_timeout: Duration::from_secs(30),
        ..Default::default()
    })
}

fn alive(pid: u32) -> bool {
    // A zombie has exited; only a running process counts.
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat.split(' ').nth(2).is_none_or(|s| s != "Z"),
        Err(_) => false,
    }
}

/// Waits (bounded) until `pid` has exited.
async fn wait_gone(pid: u32, what: &str) {
    // Another process's exit has no event a non-parent can await: /proc is polled, bounded.
    for _ in 0..100 {
        if !alive(pid) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{what}: pid {pid} still running after 10 s");
}

/// Waits (bounded) for the frame sent to `server` that contains `needle`, as the traffic log
/// announces it (`traffic` was subscribed before the request was made).
async fn wait_sent(traffic: &mut mcplab_mcp::traffic::TrafficFeed, server: &str, needle: &str) {
    let seen = async {
        loop {
            match traffic.recv().await {
                Ok(f)
                    if f.server == server
                        && f.direction == Direction::Outbound
                        && f.text.contains(needle) =>
                {
                    return;
                }
                Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(e) => panic!("the traffic log closed: {e}"),
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(10), seen)
        .await
        .unwrap_or_else(|_| {
            panic!("nothing containing {needle:?} was sent to {server} within 10 s")
        });
}

/// Reads pids the script wrote and waits (bounded) until all are gone.
async fn assert_all_gone(pidfile: &Path) {
    let text = std::fs::read_to_string(pidfile).expect("the script wrote its pids");
    let pids: Vec<u32> = text
        .split_whitespace()
        .map(|p| p.parse().unwrap())
        .collect();
    assert!(!pids.is_empty());
    for pid in pids {
        wait_gone(pid, "a process the script started").await;
    }
}

#[tokio::test]
async fn demo_server_as_a_child_process() {
    let manager = patient();
    let conn = manager.connect(demo()).await.expect("demo server starts");
    let pid = conn.pid().expect("child pid");
    assert!(alive(pid));
    let r = conn
        .request(
            "tools/call",
            Some(json!({"name": "add", "arguments": {"a": 2, "b": 40}})),
            RequestOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(r["structuredContent"]["sum"], 42.0);
    let resources = conn
        .list_all(Listing::Resources, RequestOptions::default())
        .await
        .unwrap();
    assert!(resources["resources"].as_array().unwrap().len() >= 4);
    manager.disconnect("demo").await;
    assert_eq!(manager.status("demo"), Some(ServerStatus::Disconnected));
    wait_gone(pid, "the demo server after its disconnect").await;
}

#[tokio::test]
async fn reconnect_replaces_the_process() {
    let manager = patient();
    let first = manager.connect(demo()).await.unwrap();
    let old = first.pid().unwrap();
    let second = manager.reconnect("demo").await.unwrap();
    assert_ne!(second.pid().unwrap(), old);
    wait_gone(old, "the old server after reconnect").await;
    manager.shutdown().await;
}

#[tokio::test]
async fn a_server_that_dies_during_initialize_quotes_its_stderr() {
    let manager = quick();
    let err = manager
        .connect(sh("crash", "echo 'fatal: missing API_KEY' >&2; exit 3"))
        .await
        .unwrap_err();
    let McpError::Connect {
        message,
        stderr_tail,
        ..
    } = &err
    else {
        panic!("expected a connect error, got {err:?}");
    };
    assert!(message.contains("exit code 3"), "{message}");
    assert_eq!(stderr_tail, &["fatal: missing API_KEY".to_owned()]);
    assert!(err.to_string().contains("fatal: missing API_KEY"));
    assert!(matches!(
        manager.status("crash"),
        Some(ServerStatus::Failed { .. })
    ));
}

#[tokio::test]
async fn a_missing_command_says_so() {
    let manager = quick();
    let err = manager
        .connect(stdio("missing", "/nonexistent/mcp-server", &[]))
        .await
        .unwrap_err();
    assert!(matches!(err, McpError::Spawn { .. }), "{err:?}");
    assert!(err.to_string().contains("not found"), "{err}");
}

#[tokio::test]
async fn a_hung_server_times_out_and_its_process_group_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pids");
    // The server never answers and has a grandchild: both must be gone afterwards.
    let script = format!(
        "sleep 600 & echo $$ $! >> {}; exec sleep 600",
        pidfile.display()
    );
    let manager = quick();
    // Two starts of 1 s and 2 s; the bound only catches a hang, on a loaded machine too.
    let err = tokio::time::timeout(
        Duration::from_secs(30),
        manager.connect(sh("hung", &script)),
    )
    .await
    .expect("the connect timeout fires, no hang")
    .unwrap_err();
    assert!(
        err.to_string().contains("no answer to `initialize`"),
        "{err}"
    );
    // `auto` started it twice (its probe, then `server/discover` alone for the whole
    // deadline); a server that read nothing either time is not started a third time.
    assert!(err.to_string().contains("read nothing"), "{err}");
    let starts = std::fs::read_to_string(&pidfile).unwrap();
    assert_eq!(starts.lines().count(), 2, "{starts}");
    assert_all_gone(&pidfile).await;
}

#[tokio::test]
async fn garbage_on_stdout_is_recorded_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pids");
    let script = format!(
        "echo $$ >> {}; echo 'Server starting on port 3000...'; echo '{{not json'; exec sleep 600",
        pidfile.display()
    );
    let manager = quick();
    let err = manager.connect(sh("noisy", &script)).await.unwrap_err();
    assert!(matches!(err, McpError::Connect { .. }), "{err:?}");
    let frames = manager.traffic().snapshot("noisy").frames;
    let unparsable: Vec<_> = frames
        .iter()
        .filter(|f| matches!(f.kind, FrameKind::Unparsable { .. }))
        .map(|f| f.text.as_str())
        .collect();
    // `auto` gives up on a probe the server read and never answered and starts the server
    // again for `initialize`: each start's lines are recorded, whole and in order.
    assert!(!unparsable.is_empty());
    for start in unparsable.chunks(2) {
        assert_eq!(start, ["Server starting on port 3000...", "{not json"]);
    }
    // Every process started (the given-up one included) is gone.
    assert_all_gone(&pidfile).await;
}

#[tokio::test]
async fn a_server_that_crashes_mid_call_fails_the_call_and_the_status() {
    let manager = patient();
    let conn = manager.connect(demo()).await.unwrap();
    let pid = conn.pid().unwrap();
    let mut traffic = manager.traffic().subscribe();
    let call = {
        let conn = conn.clone();
        tokio::spawn(async move {
            conn.request(
                "tools/call",
                Some(json!({"name": "slow_task", "arguments": {"steps": 100, "step_ms": 100}})),
                RequestOptions {
                    timeout: Some(Duration::from_secs(30)),
                    ..Default::default()
                },
            )
            .await
        })
    };
    // Killed once the call is on its way: the request frame was written to the server.
    wait_sent(&mut traffic, "demo", "\"tools/call\"").await;
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(pid as i32),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
    let err = tokio::time::timeout(Duration::from_secs(5), call)
        .await
        .expect("the call ends when the server dies")
        .unwrap()
        .unwrap_err();
    assert!(matches!(err, McpError::Transport { .. }), "{err:?}");
    assert!(err.to_string().contains("SIGKILL"), "{err}");
    for _ in 0..50 {
        if matches!(manager.status("demo"), Some(ServerStatus::Failed { .. })) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("status never became failed: {:?}", manager.status("demo"));
}

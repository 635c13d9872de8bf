//! Black-box tests of `mcplab serve` (and plain `mcplab`): first run seeds the demo server,
//! ad-hoc targets open already connected, the port falls back when the default is busy (said
//! loudly), the launch secret is recorded 0600 for scripts and `mcplab open` (and removed at
//! exit), and stopping the server stops every server process it started.

use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

const BIN: &str = env!("CARGO_BIN_EXE_mcplab");

pub(crate) struct Running {
    child: Child,
    pub(crate) base: String,
    /// The printed one-time login URL.
    login_url: String,
    /// The launch secret, from `launch.json`.
    pub(crate) token: String,
    stderr: String,
}

/// A host event saying `server` is now `state`.
fn is_status(e: &Value, server: &str, state: &str) -> bool {
    e["kind"] == "server"
        && e["event"]["type"] == "status"
        && e["event"]["server"] == server
        && e["event"]["status"]["state"] == state
}

pub(crate) async fn start(data: &std::path::Path, args: &[&str]) -> Running {
    let mut child = Command::new(BIN)
        .args(args)
        .arg("--no-open")
        .env("MCPLAB_DATA_DIR", data)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap()).lines();
    let (mut base, mut login_url) = (String::new(), String::new());
    tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(line) = out.next_line().await.unwrap() {
            if let Some(url) = line.strip_prefix("mcplab is listening on ") {
                base = url.to_owned();
            }
            if let Some(url) = line.strip_prefix("open ") {
                login_url = url.to_owned();
                return;
            }
        }
    })
    .await
    .expect("mcplab printed its URL");
    let launch: Value =
        serde_json::from_str(&std::fs::read_to_string(data.join("launch.json")).unwrap()).unwrap();
    assert_eq!(launch["url"], base.as_str());
    let token = launch["secret"].as_str().unwrap().to_owned();
    let mut err = child.stderr.take().unwrap();
    let stderr = {
        // Whatever was printed before the URL (e.g. a port fallback note).
        let mut buf = vec![0u8; 4096];
        match tokio::time::timeout(
            Duration::from_millis(300),
            tokio::io::AsyncReadExt::read(&mut err, &mut buf),
        )
        .await
        {
            Ok(Ok(n)) => String::from_utf8_lossy(&buf[..n]).into_owned(),
            _ => String::new(),
        }
    };
    Running {
        child,
        base,
        login_url,
        token,
        stderr,
    }
}

impl Running {
    pub(crate) async fn get(&self, path: &str) -> Value {
        mcplab_net::tls::client()
            .get(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    /// The host events from the first one on (`Last-Event-ID: 0` replays the ring), in order,
    /// up to and including the first for which `stop` holds.
    pub(crate) async fn events_until(&self, stop: impl Fn(&Value) -> bool) -> Vec<Value> {
        let mut resp = mcplab_net::tls::client()
            .get(format!("{}/api/events", self.base))
            .bearer_auth(&self.token)
            .header("last-event-id", "0")
            .send()
            .await
            .unwrap();
        let mut parser = mcplab_mcp::sse::SseParser::new();
        let mut seen = Vec::new();
        tokio::time::timeout(Duration::from_secs(20), async {
            loop {
                let chunk = resp.chunk().await.unwrap().expect("stream open");
                for e in parser.feed(&chunk) {
                    if e.data.is_empty() {
                        continue; // the `retry:` hello
                    }
                    let v: Value = serde_json::from_str(&e.data).unwrap();
                    let done = stop(&v);
                    seen.push(v);
                    if done {
                        return;
                    }
                }
            }
        })
        .await
        .unwrap_or_else(|_| panic!("the awaited event never came: {seen:?}"));
        seen
    }

    /// Polls the server list until `name` reaches `state`.
    async fn wait_state(&self, name: &str, state: &str) -> Value {
        for _ in 0..100 {
            let list = self.get("/api/servers").await;
            if let Some(s) = list
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["config"]["name"] == name)
                && s["status"]["state"] == state
            {
                return s.clone();
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!(
            "{name} never became {state}: {}",
            self.get("/api/servers").await
        );
    }

    /// Kills the inspector outright (SIGKILL), as a crash would.
    pub(crate) async fn crash(mut self) {
        self.child.start_kill().unwrap();
        let _ = tokio::time::timeout(Duration::from_secs(15), self.child.wait()).await;
    }

    pub(crate) async fn stop(mut self) -> std::process::ExitStatus {
        let pid = self.child.id().unwrap() as i32;
        nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(pid),
            nix::sys::signal::Signal::SIGTERM,
        )
        .unwrap();
        tokio::time::timeout(Duration::from_secs(15), self.child.wait())
            .await
            .expect("stops after SIGTERM")
            .unwrap()
    }
}

fn alive(pid: u64) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|s| s.split(' ').nth(2) != Some("Z"))
}

/// Pids of the processes whose parent is `parent`.
fn children_of(parent: u32) -> Vec<u64> {
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u64>() else {
            continue;
        };
        // stat is "pid (comm) state ppid ..."; comm may contain spaces, so split after ')'.
        if let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            && let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r)
            && rest.split_whitespace().nth(1) == Some(&parent.to_string())
        {
            pids.push(pid);
        }
    }
    pids
}

#[tokio::test]
async fn first_run_seeds_and_connects_the_demo_server() {
    let dir = tempfile::tempdir().unwrap();
    let run = start(dir.path(), &["--port", "0"]).await;
    let demo = run.wait_state("demo", "connected").await;
    assert_eq!(demo["info"]["serverInfo"]["name"], "mcplab-demo");
    // The seeded `mcplab demo-server` runs inside mcplab: one process, not two copies of it.
    assert_eq!(children_of(run.child.id().unwrap()), Vec::<u64>::new());
    let status = run.stop().await;
    assert!(status.success(), "{status:?}");

    // Second run: the store is not new, the demo is not added twice. Any other command line
    // is a child process, and stopping mcplab stops it.
    let log = dir.path().join("reads.log");
    let stdio = format!("{BIN} demo-server --read-log {}", log.display());
    let run = start(dir.path(), &["serve", "--port", "0", "--stdio", &stdio]).await;
    run.wait_state("cli", "connected").await;
    let list = run.get("/api/servers").await;
    let demos = list.as_array().unwrap().iter();
    assert_eq!(demos.filter(|s| s["config"]["name"] == "demo").count(), 1);
    let before = children_of(run.child.id().unwrap());
    assert!(!before.is_empty(), "the ad-hoc server runs as a child");
    let status = run.stop().await;
    assert!(status.success(), "{status:?}");
    let mut left = before;
    // The children are mcplab's, not ours: their exit is polled in /proc, bounded at 10 s.
    for _ in 0..100 {
        left.retain(|p| alive(*p));
        if left.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(left.is_empty(), "left behind after 10 s: {left:?}");
}

#[tokio::test]
async fn an_ad_hoc_target_opens_connected_and_alone() {
    let dir = tempfile::tempdir().unwrap();
    let stdio = format!("{BIN} demo-server");
    let run = start(dir.path(), &["--port", "0", "--stdio", &stdio]).await;
    let cli = run.wait_state("cli", "connected").await;
    assert_eq!(cli["config"]["type"], "stdio");
    // Judged on the host event history, not on a state after a pause: `serve` spawns every
    // connect it makes at start in one loop before its API answers, and each begins with a
    // `connecting` status. Replayed from the start up to the ad-hoc target's `connected`,
    // the stored demo server must not appear at all.
    let history = run.events_until(|e| is_status(e, "cli", "connected")).await;
    assert!(
        history.iter().any(|e| is_status(e, "cli", "connecting")),
        "the history starts at the beginning: {history:?}"
    );
    let demo_events: Vec<&Value> = history
        .iter()
        .filter(|e| e["event"]["server"] == "demo")
        .collect();
    assert!(
        demo_events.is_empty(),
        "only the ad-hoc target connects: {demo_events:?}"
    );
    let list = run.get("/api/servers").await;
    let demo = list
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["config"]["name"] == "demo")
        .unwrap();
    assert_eq!(
        demo["status"]["state"], "disconnected",
        "only the ad-hoc target connects"
    );
    run.stop().await;
}

#[tokio::test]
async fn a_busy_default_port_moves_to_the_next() {
    let dir = tempfile::tempdir().unwrap();
    // Hold the default port (if something else already holds it, that works the same).
    let _hold = std::net::TcpListener::bind("127.0.0.1:6274");
    let run = start(dir.path(), &[]).await;
    assert!(!run.base.ends_with(":6274"), "{}", run.base);
    assert!(run.stderr.contains("is busy; using"), "{}", run.stderr);
    assert!(run.stderr.contains("WARNING"), "{}", run.stderr);
    run.stop().await;

    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = Command::new(BIN)
        .args(["--no-open", "--port", &port])
        .env("MCPLAB_DATA_DIR", dir.path())
        .output()
        .await
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "an explicit busy port is an error"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot listen"));
}

/// The printed URL carries a one-time code (not the launch secret); the launch secret is in a
/// 0600 file for scripts and `mcplab open`, which mints a new code; the file goes at exit.
#[tokio::test]
async fn the_launch_secret_is_a_private_file_and_urls_carry_one_time_codes() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let run = start(dir.path(), &["--port", "0"]).await;
    let launch = dir.path().join("launch.json");
    let mode = std::fs::metadata(&launch).unwrap().permissions().mode();
    assert_eq!(mode & 0o077, 0, "launch.json is private: {mode:o}");
    let code = run
        .login_url
        .strip_prefix(&format!("{}/auth?code=", run.base))
        .expect("a login URL")
        .to_owned();
    assert!(
        !run.login_url.contains(&run.token),
        "the secret is not printed"
    );
    let servers = run.get("/api/servers").await;
    assert!(
        servers.is_array(),
        "the launch secret opens /api: {servers}"
    );

    let open = Command::new(BIN)
        .args(["open", "--print"])
        .env("MCPLAB_DATA_DIR", dir.path())
        .output()
        .await
        .unwrap();
    assert!(open.status.success(), "{open:?}");
    let stdout = String::from_utf8_lossy(&open.stdout);
    let url = stdout
        .lines()
        .find_map(|l| l.strip_prefix("open "))
        .expect("mcplab open prints the URL");
    assert!(
        url.starts_with(&format!("{}/auth?code=", run.base)),
        "{url}"
    );
    assert!(!url.contains(&code), "a new code each time");

    let status = run.stop().await;
    assert!(status.success());
    assert!(!launch.exists(), "launch.json is removed at exit");
    let open = Command::new(BIN)
        .args(["open", "--print"])
        .env("MCPLAB_DATA_DIR", dir.path())
        .output()
        .await
        .unwrap();
    assert_eq!(open.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&open.stderr).contains("mcplab serve"));
}

//! The tap is never in the way: when its recording cannot be written (a full disk) or the
//! inspector it records to goes away mid-session, the host and the server go on talking,
//! byte for byte, and the person running it is told where the frames went.

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

const BIN: &str = env!("CARGO_BIN_EXE_mcplab");
const WAIT: Duration = Duration::from_secs(30);

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"resilience","version":"1"}}}"#;
const LIST: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;

/// A host holding the tap's pipes, one request at a time.
struct Host {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Host {
    fn start(data: &std::path::Path, tap_args: &[&str]) -> Self {
        let mut child = Command::new(BIN)
            .arg("tap")
            .args(tap_args)
            .args(["--", BIN, "demo-server"])
            .env("MCPLAB_DATA_DIR", data)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Self {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends one line and returns the answer line, exactly as it came.
    async fn ask(&mut self, line: &str) -> String {
        let stdin = self.stdin.as_mut().unwrap();
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
        let mut answer = String::new();
        tokio::time::timeout(WAIT, self.stdout.read_line(&mut answer))
            .await
            .expect("an answer through the tap")
            .unwrap();
        answer
    }

    /// Hangs up; the tap's exit status and what it said on stderr.
    async fn end(mut self) -> (std::process::ExitStatus, String) {
        drop(self.stdin.take());
        let mut err = String::new();
        let mut stderr = self.child.stderr.take().unwrap();
        tokio::time::timeout(WAIT, stderr.read_to_string(&mut err))
            .await
            .unwrap()
            .unwrap();
        let status = tokio::time::timeout(WAIT, self.child.wait()).await.unwrap();
        (status.unwrap(), err)
    }
}

#[tokio::test]
async fn a_recording_that_cannot_be_written_does_not_stop_the_traffic() {
    let dir = tempfile::tempdir().unwrap();
    let mut direct = Host::start(dir.path(), &["--no-live", "--record", "/dev/null"]);
    let want = (direct.ask(INITIALIZE).await, direct.ask(LIST).await);
    direct.end().await;

    // /dev/full takes the open and fails every write: the disk is full.
    let mut host = Host::start(dir.path(), &["--no-live", "--record", "/dev/full"]);
    let first = host.ask(INITIALIZE).await;
    let second = host.ask(LIST).await;
    assert_eq!((first, second), want, "the host got the same bytes");
    let (status, err) = host.end().await;
    assert!(status.success(), "{err}");
    assert!(err.contains("the recording stopped"), "{err}");
    assert!(err.contains("the traffic still flows"), "{err}");
}

#[tokio::test]
async fn an_inspector_that_dies_mid_session_hands_over_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let inspector = crate::serve::start(dir.path(), &["--port", "0"]).await;
    let mut host = Host::start(dir.path(), &[]);
    let init = host.ask(INITIALIZE).await;
    assert!(init.contains("mcplab-demo"), "{init}");
    // The inspector has the session live before it goes away.
    let deadline = tokio::time::Instant::now() + WAIT;
    while inspector.get("/api/taps").await[0]["host"]["name"] != "resilience" {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the inspector never saw the host"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    inspector.crash().await;
    let listed = host.ask(LIST).await;
    assert!(
        listed.contains("\"tools\""),
        "the traffic goes on: {listed}"
    );
    let (status, err) = host.end().await;
    assert!(status.success(), "{err}");
    assert!(err.contains("the inspector stopped taking frames"), "{err}");

    let taps: Vec<_> = std::fs::read_dir(dir.path().join("taps"))
        .expect("the frames went to a file in the data directory")
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(taps.len(), 1, "{taps:?}");
    assert!(err.contains(&taps[0].display().to_string()), "{err}");
    let recording = std::fs::read_to_string(&taps[0]).unwrap();
    assert!(recording.contains("tools/list"), "{recording}");
    assert!(recording.contains("\"type\":\"end\""), "{recording}");
}

//! Black-box tests of `mcplab tap` over stdio: the host (this test) gets byte for byte what it
//! gets from the server run directly, the recording holds every frame both ways, and the
//! server's exit code and its signals pass through the tap.

use std::os::unix::process::ExitStatusExt;
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_mcplab");
const WAIT: Duration = Duration::from_secs(30);

/// A host's first frames, spaced oddly on purpose: the tap must not re-serialise them.
const HOST_SAYS: &str = concat!(
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"tap-test","version":"1"}}}"#,
    "\n",
    r#"{ "jsonrpc" : "2.0", "method": "notifications/initialized" }"#,
    "\n",
    r#"{"jsonrpc":"2.0","id":"two","method":"tools/list"}"#,
    "\n",
);

/// Runs `args` as a host would (stdin the host's frames, then closed) and returns stdout
/// and the exit status.
async fn as_host(data: &std::path::Path, args: &[&str]) -> (Vec<u8>, std::process::ExitStatus) {
    let mut child = Command::new(BIN)
        .args(args)
        .env("MCPLAB_DATA_DIR", data)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut out = Vec::new();
    tokio::time::timeout(WAIT, async {
        stdin.write_all(HOST_SAYS.as_bytes()).await.unwrap();
        // Two answers (initialize, tools/list), then the end of stdin stops the server.
        let mut reader = BufReader::new(&mut stdout);
        for _ in 0..2 {
            reader.read_until(b'\n', &mut out).await.unwrap();
        }
        drop(stdin);
        reader.read_to_end(&mut out).await.unwrap();
    })
    .await
    .expect("the server answered and ended");
    let status = tokio::time::timeout(WAIT, child.wait()).await.unwrap();
    (out, status.unwrap())
}

fn lines(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test]
async fn the_host_gets_what_the_server_sent_and_every_frame_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let (direct, status) = as_host(dir.path(), &["demo-server"]).await;
    assert!(status.success());
    let record = dir.path().join("rec.jsonl");
    let record_arg = record.to_str().unwrap();
    let args = [
        "tap",
        "--no-live",
        "--record",
        record_arg,
        "--",
        BIN,
        "demo-server",
    ];
    let (tapped, status) = as_host(dir.path(), &args).await;
    assert!(status.success(), "{status:?}");
    assert_eq!(
        String::from_utf8_lossy(&tapped),
        String::from_utf8_lossy(&direct),
        "byte for byte what the server sent without the tap"
    );

    let recorded = lines(&record);
    assert_eq!(recorded[0]["type"], "start");
    assert_eq!(recorded[0]["transport"], "stdio");
    let text_of = |dir: &str| -> Vec<String> {
        recorded
            .iter()
            .filter(|l| l["type"] == "frame" && l["direction"] == dir)
            .map(|l| l["text"].as_str().unwrap().to_owned())
            .collect()
    };
    let sent: Vec<String> = HOST_SAYS.lines().map(str::to_owned).collect();
    assert_eq!(text_of("outbound"), sent, "the host's frames as sent");
    let got: Vec<String> = String::from_utf8(tapped)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(text_of("inbound"), got, "the server's frames as sent");
    let end = recorded.last().unwrap();
    assert_eq!(end["type"], "end");
    assert_eq!(end["how"], "exit code 0");
    assert_eq!(end["dropped"], 0);
}

#[tokio::test]
async fn without_an_inspector_or_a_file_it_records_in_the_data_directory() {
    let dir = tempfile::tempdir().unwrap();
    let (_, status) = as_host(dir.path(), &["tap", "--", BIN, "demo-server"]).await;
    assert!(status.success());
    let taps: Vec<_> = std::fs::read_dir(dir.path().join("taps"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(taps.len(), 1, "{taps:?}");
    let recorded = lines(&taps[0]);
    assert!(
        recorded
            .iter()
            .any(|l| l["text"].as_str().is_some_and(|t| t.contains("tap-test")))
    );
}

async fn tap_of(script: &str) -> tokio::process::Child {
    Command::new(BIN)
        .args(["tap", "--no-live", "--", "sh", "-c", script])
        .env("MCPLAB_DATA_DIR", tempfile::tempdir().unwrap().keep())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        // The tap leads a process group of its own, as a host's child usually is not: a
        // signal to this group must still reach the server exactly through the tap.
        .process_group(0)
        .kill_on_drop(true)
        .spawn()
        .unwrap()
}

/// Waits for the server to print `ready` (through the tap).
async fn ready(child: &mut tokio::process::Child) {
    let out = child.stdout.as_mut().unwrap();
    let mut line = Vec::new();
    tokio::time::timeout(WAIT, BufReader::new(out).read_until(b'\n', &mut line))
        .await
        .expect("the server started")
        .unwrap();
    assert_eq!(line, b"ready\n");
}

fn signal(child: &tokio::process::Child, sig: nix::sys::signal::Signal) {
    let pid = nix::unistd::Pid::from_raw(child.id().unwrap() as i32);
    nix::sys::signal::kill(pid, sig).unwrap();
}

#[tokio::test]
async fn the_exit_code_passes_through() {
    let mut tap = tap_of("exit 7").await;
    let status = tokio::time::timeout(WAIT, tap.wait()).await.unwrap();
    assert_eq!(status.unwrap().code(), Some(7));
}

#[tokio::test]
async fn a_signal_to_the_tap_reaches_the_server_and_its_answer_comes_back() {
    let mut tap = tap_of("trap 'exit 42' TERM; echo ready; while :; do sleep 0.05; done").await;
    ready(&mut tap).await;
    signal(&tap, nix::sys::signal::Signal::SIGTERM);
    let status = tokio::time::timeout(WAIT, tap.wait()).await.unwrap();
    assert_eq!(status.unwrap().code(), Some(42), "the server's own answer");
}

#[tokio::test]
async fn a_server_killed_by_a_signal_ends_the_tap_by_that_signal() {
    let mut tap = tap_of("echo ready; exec sleep 30").await;
    ready(&mut tap).await;
    signal(&tap, nix::sys::signal::Signal::SIGINT);
    let status = tokio::time::timeout(WAIT, tap.wait())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(status.signal(), Some(2), "{status:?}");
}

#[tokio::test]
async fn a_tapped_session_shows_up_live_in_a_running_inspector() {
    let dir = tempfile::tempdir().unwrap();
    let run = crate::serve::start(dir.path(), &["--port", "0"]).await;
    let (_, status) = as_host(dir.path(), &["tap", "--", BIN, "demo-server"]).await;
    assert!(status.success());

    let taps = run.get("/api/taps").await;
    let session = &taps[0];
    assert_eq!(session["host"]["name"], "tap-test", "{taps}");
    assert_eq!(session["protocolVersion"], "2025-06-18");
    assert_eq!(session["ended"]["how"], "exit code 0");
    let key = session["key"].as_str().unwrap().to_owned();
    let live = run
        .events_until(|e| e["kind"] == "traffic" && e["frame"]["server"] == key.as_str())
        .await;
    assert!(
        live.last().unwrap()["frame"]["text"]
            .as_str()
            .unwrap()
            .contains("initialize")
    );
    let traffic = run.get(&format!("/api/servers/{key}/traffic")).await;
    let sent: Vec<&str> = traffic["frames"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["direction"] == "outbound")
        .map(|f| f["text"].as_str().unwrap())
        .collect();
    assert_eq!(sent, HOST_SAYS.lines().collect::<Vec<_>>());
    assert!(
        !dir.path().join("taps").exists(),
        "with an inspector, no file unless asked"
    );
    run.stop().await;
}

/// `mcplab tap replay …` with its stdout and exit code.
async fn replay(data: &std::path::Path, file: &std::path::Path, json: bool) -> (String, i32) {
    let mut cmd = Command::new(BIN);
    cmd.args(["tap", "replay", file.to_str().unwrap(), "--demo"]);
    if json {
        cmd.arg("--json");
    }
    let out = cmd.env("MCPLAB_DATA_DIR", data).output().await.unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap(),
    )
}

#[tokio::test]
async fn a_recording_replays_and_a_changed_answer_is_a_difference() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("rec.jsonl");
    let args = [
        "tap",
        "--no-live",
        "--record",
        record.to_str().unwrap(),
        "--",
        BIN,
        "demo-server",
    ];
    let (_, status) = as_host(dir.path(), &args).await;
    assert!(status.success());

    let (out, code) = replay(dir.path(), &record, false).await;
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("same       initialize #1"), "{out}");
    assert!(out.contains("same       tools/list #\"two\""), "{out}");

    // The server "changed": the recorded answer no longer matches.
    let text = std::fs::read_to_string(&record).unwrap();
    let edited = text.replacen("mcplab-demo", "mcplab-old", 1);
    assert_ne!(edited, text);
    let changed = dir.path().join("changed.jsonl");
    std::fs::write(&changed, edited).unwrap();
    let (out, code) = replay(dir.path(), &changed, true).await;
    assert_eq!(code, 1, "{out}");
    let report: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(report["passed"], false);
    assert_eq!(report["checked"][0]["verdict"], "differs");
    assert_eq!(
        report["checked"][0]["detail"][0]["path"],
        "/result/serverInfo/name"
    );
    assert_eq!(report["checked"][1]["verdict"], "same");
}

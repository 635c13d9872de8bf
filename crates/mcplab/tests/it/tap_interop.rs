//! The tap between two independently written MCP peers: the official TypeScript SDK 2.x
//! client (tests/interop/ts/tap_client.mjs, the host) and the TypeScript SDK 2.x server
//! (tests/interop/ts/server.mjs), in both eras (2025-11-25's handshake, 2026-07-28) over stdio
//! and streamable HTTP. The host must receive byte for byte what it receives without the tap,
//! and the recording must hold every frame the server sent. Node 22 and the packages come
//! from tests/npm.

use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use super::peer_support::{BIN, node22, repo};

const WAIT: Duration = Duration::from_secs(60);

fn script(name: &str) -> String {
    repo()
        .join("tests/interop/ts")
        .join(name)
        .display()
        .to_string()
}

/// Runs the SDK client for one session; its report (`bytes`, `results`).
async fn host(transport: &str, era: &str, target: &[String]) -> Value {
    let out = Command::new(node22())
        .arg(script("tap_client.mjs"))
        .args([transport, era])
        .args(target)
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .output();
    let out = tokio::time::timeout(WAIT, out)
        .await
        .expect("the client ended")
        .unwrap();
    assert!(
        out.status.success(),
        "the SDK client failed ({transport} {era})"
    );
    serde_json::from_slice(&out.stdout).expect("the client printed its report")
}

/// The recording's frames as (direction, text), message frames only.
fn recorded(path: &std::path::Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|l| l["type"] == "frame" && l["kind"] == "message")
        .map(|l| {
            (
                l["direction"].as_str().unwrap().to_owned(),
                l["text"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[tokio::test]
async fn the_sdk_client_gets_the_same_bytes_through_the_stdio_tap_in_both_eras() {
    for era in ["legacy", "modern"] {
        let dir = tempfile::tempdir().unwrap();
        let record = dir.path().join("rec.jsonl");
        let server = vec![node22(), script("server.mjs"), "stdio".into()];
        let direct = host("stdio", era, &server).await;
        let mut tapped_cmd: Vec<String> = vec![BIN.into(), "tap".into(), "--no-live".into()];
        tapped_cmd.extend(["--record".into(), record.display().to_string(), "--".into()]);
        tapped_cmd.extend(server.iter().cloned());
        let tapped = host("stdio", era, &tapped_cmd).await;
        assert_eq!(tapped["bytes"], direct["bytes"], "{era}: the host's bytes");
        assert_eq!(
            tapped["results"]["echo"]["content"][0]["text"],
            "echo: through the tap"
        );

        // Every line the server wrote is an inbound frame of the recording, exactly.
        let sent_lines: Vec<&str> = direct["bytes"].as_str().unwrap().lines().collect();
        let inbound: Vec<String> = recorded(&record)
            .into_iter()
            .filter(|(d, _)| d == "inbound")
            .map(|(_, t)| t)
            .collect();
        assert_eq!(inbound, sent_lines, "{era}: the recording");
    }
}

/// The TypeScript server over HTTP on a free port; killed on drop.
async fn http_server() -> (Child, u16) {
    let port = mcplab_testkit::ports::spare_port();
    let child = Command::new(node22())
        .args([script("server.mjs"), "http".into()])
        .env("PORT", port.to_string())
        .stdout(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let deadline = tokio::time::Instant::now() + WAIT;
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the server did not listen"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    (child, port)
}

/// `mcplab tap --url … --listen 127.0.0.1:0`; the URL it tells the host to use.
async fn http_tap(port: u16, record: &std::path::Path) -> (Child, String) {
    let mut child = Command::new(BIN)
        .args(["tap", "--no-live", "--record", record.to_str().unwrap()])
        .args([
            "--url",
            &format!("http://127.0.0.1:{port}/mcp"),
            "--listen",
            "127.0.0.1:0",
        ])
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let url = tokio::time::timeout(WAIT, async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if let Some(rest) = line.split("give the host ").nth(1) {
                return rest.split_whitespace().next().unwrap().to_owned();
            }
        }
        panic!("the tap printed no URL");
    })
    .await
    .unwrap();
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, url)
}

/// Responses of one method, in order (a GET stream runs beside the POSTs).
fn of(report: &Value, method: &str) -> Vec<Value> {
    report["bytes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["method"] == method)
        .cloned()
        .collect()
}

#[tokio::test]
async fn the_sdk_client_gets_the_same_bytes_through_the_http_tap_in_both_eras() {
    let (_server, port) = http_server().await;
    for era in ["legacy", "modern"] {
        let dir = tempfile::tempdir().unwrap();
        let record = dir.path().join("rec.jsonl");
        let (mut tap, url) = http_tap(port, &record).await;
        let direct = host("http", era, &[format!("http://127.0.0.1:{port}/mcp")]).await;
        let tapped = host("http", era, &[url]).await;
        for method in ["POST", "GET", "DELETE"] {
            assert_eq!(
                of(&tapped, method),
                of(&direct, method),
                "{era}: {method} answers"
            );
        }
        assert!(of(&direct, "POST").len() >= 5, "{direct}");
        let pid = nix::unistd::Pid::from_raw(tap.id().unwrap() as i32);
        nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
        let status = tokio::time::timeout(WAIT, tap.wait())
            .await
            .unwrap()
            .unwrap();
        assert!(status.success(), "the tap stops cleanly on SIGTERM");

        // Each JSON-RPC message the server answered with is an inbound frame, as sent.
        let inbound: Vec<String> = recorded(&record)
            .into_iter()
            .filter(|(d, _)| d == "inbound")
            .map(|(_, t)| t)
            .collect();
        for answer in of(&direct, "POST") {
            let body = answer["body"].as_str().unwrap();
            let message = match body.strip_prefix("event: message\ndata: ") {
                Some(sse) => sse.trim_end(),
                None => body,
            };
            if !message.is_empty() {
                assert!(
                    inbound.iter().any(|f| f == message),
                    "{era}: {message} not recorded"
                );
            }
        }
    }
}

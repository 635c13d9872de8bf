//! `mcplab mcp` (issue 25) driven end to end by independently written clients: the official
//! Python SDK 1.x (the handshake era, 2025-11-25) and 2.x (which negotiates 2026-07-28 with
//! `server/discover`), through `tests/python/agent_client.py` — connect the demo server, call a
//! tool with progress, read its notifications, have its sampling request answered by the
//! agent's own client, lint it with `check`, restart it, a refused command, both eras of the
//! server under test, and no process left when the client goes away. Judged by what the demo
//! server answered and by `/proc`, not by mcplab's own verdicts. Needs tests/python/setup.sh
//! (feature `peer-tests`).

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_mcplab");

fn python(major: u8) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/python");
    let p = dir.join(format!(".venv{major}/bin/python"));
    assert!(
        p.exists(),
        "the Python SDK {major}.x venv is missing: run tests/python/setup.sh"
    );
    p
}

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/python/agent_client.py")
}

/// Runs the client with SDK `major` in `scenario`; its JSON output.
fn client(major: u8, data: &std::path::Path, scenario: &str) -> Value {
    let out = Command::new(python(major))
        .arg(script())
        .args([BIN, &data.display().to_string(), scenario])
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "agent_client.py {scenario} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or_default();
    serde_json::from_str(last).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// What every session must show, whichever era the client speaks.
fn assert_session(out: &Value, data: &std::path::Path) {
    let tools = out["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 17, "{tools:?}");
    assert_eq!(out["withOutputSchema"], 17);
    // The whole tools/list, as the client parsed it, by `mcplab check`'s estimate.
    let tokens = out["toolListBytes"].as_u64().unwrap() / 4;
    assert!(tokens < 3000, "tools/list costs about {tokens} tokens");

    let refused = &out["refused"];
    assert_eq!(refused["isError"], true);
    assert!(
        refused["text"]
            .as_str()
            .unwrap()
            .contains("--allow-command")
    );
    assert!(!data.join("pwned").exists(), "the refused command ran");

    assert_eq!(out["connect"]["structured"]["protocol"], "2025-11-25");
    let echoed = &out["echo"]["structured"]["result"]["content"][0]["text"];
    assert_eq!(echoed, "Echo: hi there");
    let progress = out["progress"].as_array().unwrap();
    assert_eq!(progress.len(), 3, "{progress:?}");
    assert_eq!(progress[2][2], "Step 3 of 3");

    let events = out["notifications"]["structured"]["events"]
        .as_array()
        .unwrap();
    let logs = events.iter().filter(|e| e["type"] == "log").count();
    assert_eq!(logs, 8, "{events:?}");

    // elicit_form was asked after `policy {elicitation: decline}`: the server saw a decline.
    let declined = out["declined"]["structured"]["result"]["content"][0]["text"].as_str();
    assert_eq!(declined, Some("The user declined."));
    let frames = out["traffic"]["structured"]["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 4);
    assert!(
        frames
            .iter()
            .all(|f| f["text"].as_str().unwrap().contains("jsonrpc"))
    );
    assert_eq!(out["restart"]["isError"], false);
    assert!(
        out["restart"]["text"]
            .as_str()
            .unwrap()
            .contains("nothing changed")
    );
    assert_eq!(out["check"]["structured"]["counts"]["error"], 0);
    assert!(out["hosts"]["structured"]["diff"].as_array().unwrap().len() > 1);
    assert_eq!(out["modern"]["structured"]["protocol"], "2026-07-28");
    let echoed = &out["echo26"]["structured"]["result"]["content"][0]["text"];
    assert_eq!(echoed, "Echo: new era");
    assert_eq!(out["afterDisconnect"]["isError"], true);
}

fn data_dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temp dir")
}

#[test]
fn the_python_sdk_1_drives_a_session_and_answers_the_servers_sampling() {
    let data = data_dir();
    let out = client(1, data.path(), "session");
    assert_eq!(out["protocol"], "2025-11-25");
    assert_session(&out, data.path());
    // The demo server's sample_llm got the answer the agent's client wrote.
    let sampled = &out["sampled"]["structured"]["result"];
    assert_eq!(sampled["isError"], false, "{sampled}");
    let text = sampled["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("agent model says: 2+2?"), "{text}");
}

#[test]
fn the_python_sdk_2_drives_a_session_in_2026_07_28() {
    let data = data_dir();
    let out = client(2, data.path(), "session");
    assert_eq!(out["protocol"], "2026-07-28");
    assert_session(&out, data.path());
    // 2026-07-28 lets no server ask its client outside input_required: the policy (`auto`)
    // declines, and the demo server says so.
    let sampled = &out["sampled"]["structured"]["result"];
    assert_eq!(sampled["isError"], true, "{sampled}");
    let text = sampled["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("declined"), "{text}");
}

/// `true` while `pid` exists (a zombie counts as gone: it no longer runs).
fn alive(pid: u64) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| {
            !s.rsplit(')')
                .next()
                .unwrap_or_default()
                .trim_start()
                .starts_with('Z')
        })
        .unwrap_or(false)
}

#[test]
fn nothing_outlives_mcplab_mcp_when_its_client_goes_away() {
    let data = data_dir();
    for major in [1, 2] {
        let out = client(major, data.path(), "vanish");
        let pids = [&out["demoPid"], &out["mcplabPid"]].map(|p| p.as_u64().unwrap());
        let deadline = Instant::now() + Duration::from_secs(20);
        while pids.iter().any(|p| alive(*p)) {
            assert!(
                Instant::now() < deadline,
                "SDK {major}.x: still running after the client left: {pids:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

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
    as_host_saying(data, args, HOST_SAYS, 2).await
}

/// As [`as_host`], the host sending `says` and closing stdin after `answers` lines came back.
async fn as_host_saying(
    data: &std::path::Path,
    args: &[&str],
    says: &str,
    answers: usize,
) -> (Vec<u8>, std::process::ExitStatus) {
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
        stdin.write_all(says.as_bytes()).await.unwrap();
        // The answers, then the end of stdin stops the server.
        let mut reader = BufReader::new(&mut stdout);
        for _ in 0..answers {
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

/// A signal that comes as soon as the server runs (here the server's first act is to signal
/// the tap) is passed on, never ends the tap by default: the tap listens before it starts the
/// server. Repeated because, before that was so, one start in four lost the race.
#[tokio::test]
async fn a_signal_at_the_servers_first_instant_is_passed_on() {
    for _ in 0..10 {
        let mut tap =
            tap_of("trap 'exit 42' TERM; kill -TERM $PPID; while :; do sleep 0.05; done").await;
        let status = tokio::time::timeout(WAIT, tap.wait()).await.unwrap();
        assert_eq!(status.unwrap().code(), Some(42), "the server's own answer");
    }
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

#[tokio::test]
async fn servers_tap_rewrites_a_hosts_entry_that_then_works_and_untap_restores_it() {
    let home = tempfile::tempdir().unwrap();
    let config = home
        .path()
        .join(".config/Claude/claude_desktop_config.json");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    let original = serde_json::json!({
        "mcpServers": {"demo": {"command": BIN, "args": ["demo-server"], "env": {"A": "1"}}},
        "other": {"kept": true},
    });
    std::fs::write(&config, serde_json::to_string_pretty(&original).unwrap()).unwrap();
    let servers = |verb: &'static str| {
        let home = home.path().to_owned();
        async move {
            Command::new(BIN)
                .args(["servers", verb, "demo", "--for", "claude"])
                .env("HOME", &home)
                .env_remove("XDG_CONFIG_HOME")
                .env_remove("CLAUDE_CONFIG_DIR")
                .env("MCPLAB_DATA_DIR", home.join("data"))
                .output()
                .await
                .unwrap()
        }
    };
    let out = servers("tap").await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tapped: Value = serde_json::from_str(&std::fs::read_to_string(&config).unwrap()).unwrap();
    let entry = &tapped["mcpServers"]["demo"];
    assert_eq!(
        entry["args"],
        serde_json::json!(["tap", "--", BIN, "demo-server"])
    );
    assert_eq!(tapped["other"], original["other"]);
    assert!(config.with_extension("json.mcplab-backup").exists());

    // The host runs the rewritten entry: it works, and the tap records.
    let args: Vec<&str> = entry["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(entry["command"].as_str().unwrap(), BIN);
    let (out, status) = as_host(home.path(), &args).await;
    assert!(status.success());
    assert!(String::from_utf8_lossy(&out).contains("mcplab-demo"));
    assert_eq!(
        std::fs::read_dir(home.path().join("taps")).unwrap().count(),
        1
    );

    let out = servers("untap").await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let back: Value = serde_json::from_str(&std::fs::read_to_string(&config).unwrap()).unwrap();
    assert_eq!(back, original);
    assert!(!config.with_extension("json.mcplab-backup").exists());
}

/// Each host's own file, where its documentation puts it, in its own format (VS Code's is
/// JSONC under `servers`; Claude Code's default scope is per project).
#[tokio::test]
async fn servers_tap_finds_each_hosts_file_where_the_host_keeps_it() {
    let project = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let here = project.path().display().to_string();
    let hosts: [(&str, &str, String); 7] = [
        (
            "claude",
            ".config/Claude/claude_desktop_config.json",
            String::new(),
        ),
        ("cursor", ".cursor/mcp.json", String::new()),
        (
            "windsurf",
            ".codeium/windsurf/mcp_config.json",
            String::new(),
        ),
        ("gemini", ".gemini/settings.json", String::new()),
        ("vscode", ".config/Code/User/mcp.json", "servers".into()),
        ("claude-code", ".claude.json", String::new()),
        ("claude-code", ".claude.json", here.clone()),
    ];
    for (host, file, how) in hosts {
        let home = tempfile::tempdir().unwrap();
        let config = home.path().join(file);
        std::fs::create_dir_all(config.parent().unwrap()).unwrap();
        let entry = serde_json::json!({"command": "node", "args": ["s.js"], "env": {"K": "v"}});
        let text = match how.as_str() {
            "" => serde_json::json!({"mcpServers": {"s": entry}, "theme": 1}).to_string(),
            "servers" => format!(
                "// VS Code allows comments\n{}",
                serde_json::json!({"servers": {"s": entry}, "inputs": []})
            ),
            dir => serde_json::json!({"mcpServers": {}, "projects": {dir: {"mcpServers": {"s": entry}}}})
                .to_string(),
        };
        std::fs::write(&config, &text).unwrap();
        let run = |verb: &'static str| {
            std::process::Command::new(BIN)
                .args(["servers", verb, "s", "--for", host])
                .current_dir(project.path())
                .env("HOME", home.path())
                .env_remove("XDG_CONFIG_HOME")
                .env_remove("CLAUDE_CONFIG_DIR")
                .env("MCPLAB_DATA_DIR", data.path())
                .output()
                .unwrap()
        };
        let out = run("tap");
        let why = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{host} {file}: {why}");
        let tapped: Value = {
            let t = std::fs::read_to_string(&config).unwrap();
            serde_json::from_str(&t).unwrap()
        };
        let got = match how.as_str() {
            "" => &tapped["mcpServers"]["s"],
            "servers" => &tapped["servers"]["s"],
            dir => &tapped["projects"][dir]["mcpServers"]["s"],
        };
        assert_eq!(
            got["args"],
            serde_json::json!(["tap", "--", "node", "s.js"]),
            "{host}"
        );
        assert_eq!(got["env"], serde_json::json!({"K": "v"}), "{host}");
        let out = run("untap");
        assert!(
            out.status.success(),
            "{host}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let back = std::fs::read_to_string(&config).unwrap();
        assert_eq!(
            back, text,
            "{host} {file}: the backup restores the very text"
        );
        let leftovers = std::fs::read_dir(config.parent().unwrap()).unwrap().count();
        assert_eq!(leftovers, 1, "{host}: no backup or temp file left");
    }
}

/// A host session with tool calls, recorded, becomes a suite whose case expects those calls
/// and results, and a baseline that `mcplab check` compares the live server with.
#[tokio::test]
async fn a_recording_becomes_an_eval_case_and_a_check_baseline() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("rec.jsonl");
    let says = format!(
        "{HOST_SAYS}{}\n{}\n",
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}"#,
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}"#,
    );
    let args = [
        "tap",
        "--no-live",
        "--record",
        record.to_str().unwrap(),
        "--",
        BIN,
        "demo-server",
    ];
    let (_, status) = as_host_saying(dir.path(), &args, &says, 4).await;
    assert!(status.success());
    let mcplab = |args: &[&str]| {
        std::process::Command::new(BIN)
            .args(args)
            .env("MCPLAB_DATA_DIR", dir.path())
            .output()
            .unwrap()
    };

    let out = mcplab(&["tap", "eval", record.to_str().unwrap()]);
    let suite = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let parsed = mcplab_evals::suite::parse_suite(&suite).expect("the suite loads");
    let doc = serde_json::to_value(&parsed).unwrap();
    let case = &doc["cases"][0];
    assert_eq!(
        doc["mcpServers"]["mcplab-demo"]["args"],
        serde_json::json!(["demo-server"])
    );
    let turn = &case["turns"][0];
    let expected = &turn["toolCalls"]["expected"];
    assert_eq!(expected[0]["tool"], "echo");
    assert_eq!(expected[0]["arguments"]["message"], "hi");
    assert_eq!(expected[1]["tool"], "add");
    assert_eq!(turn["toolCalls"]["order"], "in-order");
    assert_eq!(
        turn["checks"][0]["toolResult"]["matches"]["content"][0]["text"],
        "Echo: hi"
    );
    assert_eq!(
        turn["checks"][1]["toolResult"]["matches"]["structuredContent"]["sum"],
        5.0
    );
    assert!(suite.contains("TODO: what the user asked"), "{suite}");

    let baseline = dir.path().join("baseline.json");
    let out = mcplab(&[
        "tap",
        "baseline",
        record.to_str().unwrap(),
        "-o",
        baseline.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let b: Value = serde_json::from_str(&std::fs::read_to_string(&baseline).unwrap()).unwrap();
    assert_eq!(b["server"], "mcplab-demo");
    assert_eq!(b["surfaces"][0]["era"], "legacy");
    // The demo's tools/list answer (~17 KB) is longer than the traffic preview that `check`
    // judges from by default (16 KiB): raise it so the check sees the whole listing.
    let check = |file: &std::path::Path| {
        let args = [
            "check",
            "--demo",
            "--json",
            "--limit",
            "preview=1MiB",
            "--baseline",
        ];
        let mut args: Vec<&str> = args.to_vec();
        args.push(file.to_str().unwrap());
        let out = mcplab(&args);
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        let errors: Vec<String> = report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["ruleSet"] == "baseline" && f["severity"] == "error")
            .map(|f| f["message"].as_str().unwrap().to_owned())
            .collect();
        (out.status.code(), errors)
    };
    let (code, errors) = check(&baseline);
    assert_eq!(
        errors,
        Vec::<String>::new(),
        "the live server is what the host saw"
    );
    assert_eq!(code, Some(0));

    // A tool the host saw is gone from the server: a breaking change.
    let mut edited = b.clone();
    let tools = edited["surfaces"][0]["tools"].as_array_mut().unwrap();
    let mut gone = tools[0].clone();
    gone["name"] = "retired_tool".into();
    tools.push(gone);
    std::fs::write(&baseline, edited.to_string()).unwrap();
    let (code, errors) = check(&baseline);
    assert_eq!(errors, ["tool `retired_tool` was removed"]);
    assert_eq!(code, Some(1));
}

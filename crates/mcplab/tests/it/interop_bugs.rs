//! Regression tests for the interop review's bugs and gaps (B1–B19, G3, G5, G7), one test per
//! bug named after it, run against the real binary and a raw server that misbehaves on
//! purpose (`tests/interop/rawsrv.py`), or a small real HTTP server on loopback. Each of these
//! failed on the code before its fix.

use std::process::{Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::process::Command;

use super::peer_support::{BIN, code, command, err, out, raw, rawsrv};

async fn run_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let mut c = command(args, dir.path());
    for (k, v) in env {
        c.env(k, v);
    }
    tokio::time::timeout(Duration::from_secs(60), c.output())
        .await
        .expect("mcplab finished in time")
        .unwrap()
}

async fn run(args: &[&str]) -> Output {
    run_env(args, &[]).await
}

#[tokio::test]
async fn b1_optional_anyof_elicitation() {
    let srv = raw("elicit-anyof");
    for (mode, action) in [
        ("decline", "decline"),
        ("cancel", "cancel"),
        ("accept-defaults", "accept"),
    ] {
        let o = run(&[
            "--elicitation",
            mode,
            "--stdio",
            &srv,
            "tools",
            "call",
            "ask",
        ])
        .await;
        assert_eq!(code(&o), 0, "{mode}: {}{}", out(&o), err(&o));
        let answer: Value = serde_json::from_str(out(&o).lines().next().unwrap()).unwrap();
        assert_eq!(answer["action"], action, "{mode}: {answer}");
        if action == "accept" {
            // The optional field's null default is left out (content values are primitives).
            assert_eq!(answer["content"], json!({"name": "Ada"}), "{answer}");
        }
    }
    // `ask` treats anyOf [string, null] as an optional string and titled oneOf as a choice.
    let dir = tempfile::tempdir().unwrap();
    let mut c = command(&["--elicitation", "ask", "--stdio", &srv], dir.path());
    c.args(["tools", "call", "ask"]).stdin(Stdio::piped());
    let mut child = c.spawn().unwrap();
    use tokio::io::AsyncWriteExt;
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"Bob\nbobby\ng\n").await.unwrap();
    drop(stdin);
    let o = tokio::time::timeout(Duration::from_secs(30), child.wait_with_output())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", err(&o));
    let answer: Value = serde_json::from_str(out(&o).lines().next().unwrap()).unwrap();
    assert_eq!(
        answer["content"],
        json!({"name": "Bob", "nick": "bobby", "color": "g"}),
        "{}",
        err(&o)
    );
    // A nested object (outside the spec) never becomes -32601: decline still declines.
    let o = run(&[
        "--elicitation",
        "decline",
        "--stdio",
        &raw("elicit-nested"),
        "tools",
        "call",
        "ask",
    ])
    .await;
    assert_eq!(code(&o), 0, "{}{}", out(&o), err(&o));
    assert!(out(&o).contains("\"action\": \"decline\""), "{}", out(&o));
}

#[tokio::test]
async fn b2_server_text_cannot_drive_the_terminal() {
    let srv = raw("ansi");
    for args in [
        vec!["tools", "list"],
        vec!["tools", "call", "echo"],
        vec!["info"],
    ] {
        let mut all = vec!["--stdio", srv.as_str()];
        all.extend(args.iter());
        let o = run(&all).await;
        assert_eq!(code(&o), 0, "{args:?}: {}", err(&o));
        for (stream, bytes) in [("stdout", &o.stdout), ("stderr", &o.stderr)] {
            assert!(
                !bytes.contains(&0x1b) && !String::from_utf8_lossy(bytes).contains('\u{9b}'),
                "{args:?}: escape bytes reached {stream}: {:?}",
                String::from_utf8_lossy(bytes)
            );
        }
        assert!(out(&o).contains("\\x1b"), "{args:?}: {}", out(&o));
    }
    let o = run(&["--stdio", &srv, "tools", "call", "echo"]).await;
    assert!(
        err(&o).contains("\\x1b]0;pwned"),
        "stderr line: {}",
        err(&o)
    );
    assert!(err(&o).contains("log \\x1b[2J"), "log line: {}", err(&o));
    let o = run(&["--raw", "--stdio", &srv, "tools", "list"]).await;
    assert!(o.stdout.contains(&0x1b), "--raw keeps the bytes");
}

#[tokio::test]
async fn b3_global_config_is_read_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("claude_desktop_config.json");
    let doc = json!({"mcpServers": {"raw": {"command": "python3", "args": [rawsrv(), "sub"]}}});
    std::fs::write(&file, doc.to_string()).unwrap();
    let f = file.to_str().unwrap();
    let o = run(&["--config", f, "--server", "raw", "tools", "list"]).await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert!(out(&o).contains("weather"), "{}", out(&o));
    // The only server of the file is the default target.
    let o = run(&["--config", f, "ping"]).await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    let o = run(&[
        "--config",
        "/does/not/exist.json",
        "--server",
        "raw",
        "ping",
    ])
    .await;
    assert_eq!(code(&o), 2);
    assert!(err(&o).contains("/does/not/exist.json"), "{}", err(&o));
}

#[tokio::test]
async fn b6_closed_stdout_pipe_ends_quietly() {
    for json in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let srv = raw("big");
        let mut args = vec!["--stdio", srv.as_str(), "tools", "call", "big"];
        if json {
            args.insert(0, "--json");
        }
        let mut child = command(&args, dir.path()).spawn().unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 10];
        stdout.read_exact(&mut first).await.unwrap();
        drop(stdout);
        let o = tokio::time::timeout(Duration::from_secs(30), child.wait_with_output())
            .await
            .unwrap()
            .unwrap();
        assert!(!err(&o).contains("panicked"), "{}", err(&o));
        assert_eq!(code(&o), 0, "json={json}: {}", err(&o));
    }
}

#[tokio::test]
async fn b7_ctrl_c_during_subscribe_unsubscribes() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("seen.jsonl");
    let srv = raw("sub");
    // The server gets a clean environment: its log file goes in with `-e`.
    let log_env = format!("RAWSRV_LOG={}", log.display());
    let mut c = command(
        &[
            "--stdio",
            &srv,
            "-e",
            &log_env,
            "resources",
            "subscribe",
            "raw://a",
        ],
        dir.path(),
    );
    let mut child = c.spawn().unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(l) = lines.next_line().await.unwrap() {
            if l.starts_with("subscribed to") {
                return;
            }
        }
        panic!("no `subscribed to` line");
    })
    .await
    .unwrap();
    let pid = nix::unistd::Pid::from_raw(child.id().unwrap() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let status = tokio::time::timeout(Duration::from_secs(30), child.wait())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        status.code(),
        Some(0),
        "Ctrl-C is the documented way to stop"
    );
    let seen: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let methods: Vec<&str> = seen.iter().filter_map(|m| m["method"].as_str()).collect();
    assert!(
        methods.contains(&"resources/unsubscribe"),
        "the server saw {methods:?}"
    );
    assert!(
        !methods.contains(&"notifications/cancelled"),
        "the unsubscribe was cancelled: {methods:?}"
    );
}

#[tokio::test]
async fn b11_tools_call_saves_binary_content_with_output() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("img.png");
    let demo = format!("{BIN} demo-server");
    let o = run(&[
        "--stdio",
        &demo,
        "tools",
        "call",
        "get_image",
        "--output",
        file.to_str().unwrap(),
    ])
    .await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    let bytes = std::fs::read(&file).unwrap();
    assert!(
        bytes.starts_with(b"\x89PNG"),
        "{:?}",
        &bytes[..8.min(bytes.len())]
    );
}

#[tokio::test]
async fn b13_unknown_protocol_version_is_refused() {
    let o = run(&["--stdio", &raw("future-proto"), "info"]).await;
    assert_eq!(code(&o), 3, "{}", out(&o));
    assert!(err(&o).contains("2099-01-01"), "{}", err(&o));
    assert!(err(&o).contains("2025-11-25"), "{}", err(&o));
}

/// A lax stdio server answers the 2026-07-28 `server/discover` probe with `{}`. `auto` must
/// then speak the handshake (the hostile benchmark's server, written this way, could not be
/// connected at all: "answered `initialize` with something else: {}").
#[tokio::test]
async fn auto_falls_back_to_the_handshake_for_a_lax_stdio_server() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("seen.jsonl");
    let log_env = format!("RAWSRV_LOG={}", log.display());
    let srv = raw("lax");
    let o = run(&["--stdio", &srv, "-e", &log_env, "--json", "info"]).await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    let info: Value = serde_json::from_str(&out(&o)).expect("info is JSON");
    assert_eq!(info["protocolVersion"], "2025-11-25", "{info}");
    let seen = std::fs::read_to_string(&log).unwrap_or_default();
    let methods: Vec<String> = seen
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|m| m["method"].as_str().map(str::to_owned))
        .collect();
    let discover = methods.iter().position(|m| m == "server/discover");
    let initialize = methods.iter().position(|m| m == "initialize");
    assert!(
        matches!((discover, initialize), (Some(d), Some(i)) if d < i),
        "discover first, then initialize: {methods:?}"
    );
}

#[tokio::test]
async fn b14_no_internal_names_in_messages() {
    let port = mcplab_testkit::ports::spare_port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let o = run(&["--url", &url, "--oauth", "off", "tools", "list"]).await;
    assert_eq!(code(&o), 3);
    assert!(!err(&o).contains("to cli"), "{}", err(&o));
    assert!(
        err(&o).contains(&format!("127.0.0.1:{port}")),
        "{}",
        err(&o)
    );
    let o = run(&["--url", "not a url", "tools", "list"]).await;
    assert_eq!(code(&o), 2);
    assert!(!err(&o).contains("`cli`"), "{}", err(&o));
    // An initialize result without protocolVersion is described, not Debug-printed.
    let o = run(&["--stdio", &raw("noproto"), "tools", "list"]).await;
    assert_eq!(code(&o), 3);
    assert!(!err(&o).contains("CustomResult"), "{}", err(&o));
    assert!(err(&o).contains("protocolVersion"), "{}", err(&o));
}

#[tokio::test]
async fn b16_trace_lines_are_whole_and_before_the_result() {
    for _ in 0..3 {
        let dir = tempfile::tempdir().unwrap();
        let demo = format!("{BIN} demo-server");
        let cmd =
            format!("'{BIN}' --trace --stdio '{demo}' tools call echo -a message=hi 2>&1; true");
        let o = Command::new("sh")
            .arg("-c")
            .arg(cmd)
            .env("MCPLAB_DATA_DIR", dir.path())
            .output()
            .await
            .unwrap();
        let text = out(&o);
        let lines: Vec<&str> = text.lines().collect();
        let result_at = lines
            .iter()
            .position(|l| l.contains("Echo: hi") && !l.starts_with("[trace"))
            .unwrap_or_else(|| panic!("{text}"));
        let last_trace = lines.iter().rposition(|l| l.starts_with("[trace")).unwrap();
        let response_trace = lines
            .iter()
            .rposition(|l| l.starts_with("[trace") && l.contains("Echo: hi"))
            .unwrap_or_else(|| panic!("{text}"));
        assert!(response_trace < result_at, "{text}");
        assert!(
            last_trace < result_at || lines[last_trace].contains("··"),
            "{text}"
        );
        for l in &lines {
            assert!(
                !l.contains("[trace") || l.starts_with("[trace"),
                "a split trace line: {l:?}\n{text}"
            );
        }
    }
}

#[tokio::test]
async fn b17_missing_cwd_is_named() {
    let o = run(&[
        "--cwd",
        "/nonexistent-dir",
        "--stdio",
        "python3 x.py",
        "ping",
    ])
    .await;
    assert_eq!(code(&o), 2, "a config error: {}", err(&o));
    assert!(err(&o).contains("/nonexistent-dir"), "{}", err(&o));
    assert!(!err(&o).contains("command not found"), "{}", err(&o));
}

#[tokio::test]
async fn b18_default_decline_does_not_claim_a_flag() {
    let o = run(&["--stdio", &raw("elicit-anyof"), "tools", "call", "ask"]).await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert!(!err(&o).contains("--elicitation decline)"), "{}", err(&o));
    assert!(err(&o).contains("not a terminal"), "{}", err(&o));
}

#[tokio::test]
async fn b19_json_errors_are_json_on_stderr() {
    let demo = format!("{BIN} demo-server");
    let o = run(&[
        "--json",
        "--stdio",
        &demo,
        "resources",
        "read",
        "demo://nope",
    ])
    .await;
    assert_eq!(code(&o), 1);
    assert!(out(&o).is_empty(), "{}", out(&o));
    let e: Value = serde_json::from_str(err(&o).trim()).expect("stderr is JSON");
    assert!(e["error"]["code"].is_i64(), "{e}");
    assert!(e["error"]["message"].is_string(), "{e}");
    // A usage error too.
    let o = run(&["--json", "tools", "call"]).await;
    assert_eq!(code(&o), 2);
    let e: Value = serde_json::from_str(err(&o).trim()).expect("stderr is JSON");
    assert_eq!(e["error"]["kind"], "usage", "{e}");
    // A connection failure.
    let o = run(&["--json", "--stdio", "/nonexistent/bin", "ping"]).await;
    assert_eq!(code(&o), 3);
    let e: Value = serde_json::from_str(err(&o).trim()).expect("stderr is JSON");
    assert_eq!(e["error"]["kind"], "connect", "{e}");
}

#[tokio::test]
async fn g3_stderr_is_shown_live() {
    let srv = raw("stderr");
    let o = run(&["--stdio", &srv, "tools", "call", "fail"]).await;
    assert_eq!(code(&o), 1);
    assert!(err(&o).contains("ValueError: boom"), "{}", err(&o));
    let o = run(&["--quiet-stderr", "--stdio", &srv, "tools", "call", "fail"]).await;
    assert!(!err(&o).contains("ValueError: boom"), "{}", err(&o));
}

#[tokio::test]
async fn g5_missing_capability_reads_as_such() {
    let srv = raw("nocaps");
    let o = run(&["--stdio", &srv, "resources", "list"]).await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert!(err(&o).contains("does not offer resources"), "{}", err(&o));
    let o = run(&["--json", "--stdio", &srv, "prompts", "list"]).await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v, json!({"prompts": []}));
    let o = run(&["--stdio", &srv, "log-level", "debug"]).await;
    assert_eq!(code(&o), 1);
    assert!(err(&o).contains("does not offer logging"), "{}", err(&o));
}

#[tokio::test]
async fn g7_text_and_structured_content_shown_once() {
    let o = run(&[
        "--stdio",
        &raw("dup-structured"),
        "tools",
        "call",
        "weather",
    ])
    .await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert_eq!(out(&o).matches("20.5").count(), 1, "{}", out(&o));
}

/// A minimal streamable HTTP server on loopback that counts DELETEs and can refuse POSTs.
async fn http_server(refuse_post: bool) -> (String, Arc<AtomicUsize>) {
    use axum::http::{HeaderMap, StatusCode};
    use axum::response::IntoResponse;
    use axum::routing::post;
    let deletes = Arc::new(AtomicUsize::new(0));
    let counter = deletes.clone();
    let handler = move |body: String| async move {
        if refuse_post {
            return StatusCode::METHOD_NOT_ALLOWED.into_response();
        }
        let msg: Value = serde_json::from_str(&body).unwrap_or_default();
        let Some(id) = msg.get("id").cloned() else {
            return StatusCode::ACCEPTED.into_response();
        };
        let result = match msg["method"].as_str() {
            Some("initialize") => json!({"protocolVersion": "2025-11-25",
                "capabilities": {"tools": {}}, "serverInfo": {"name": "h", "version": "1"}}),
            Some("tools/list") => json!({"tools": []}),
            _ => json!({}),
        };
        let mut headers = HeaderMap::new();
        headers.insert("mcp-session-id", "s-1".parse().unwrap());
        headers.insert("content-type", "application/json".parse().unwrap());
        let body = json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string();
        (headers, body).into_response()
    };
    let app = axum::Router::new().route(
        "/mcp",
        post(handler).delete(move || {
            let c = counter.clone();
            async move {
                c.fetch_add(1, Ordering::SeqCst);
                StatusCode::OK
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{addr}/mcp"), deletes)
}

#[tokio::test]
async fn b12_http_session_is_ended_with_delete() {
    let (url, deletes) = http_server(false).await;
    for _ in 0..5 {
        let o = run(&["--url", &url, "--oauth", "off", "tools", "list"]).await;
        assert_eq!(code(&o), 0, "{}", err(&o));
    }
    assert_eq!(deletes.load(Ordering::SeqCst), 5);
}

#[tokio::test]
async fn b10_refused_post_suggests_legacy_sse() {
    let (url, _) = http_server(true).await;
    let o = run(&["--url", &url, "--oauth", "off", "tools", "list"]).await;
    assert_eq!(code(&o), 3);
    assert!(err(&o).contains("--transport sse"), "{}", err(&o));
}

#[tokio::test]
async fn b8_b9_b10_import_what_people_have() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mcp.json");
    std::fs::write(
        &file,
        r#"{
  // VS Code
  "inputs": [{"type": "promptString", "id": "api-key", "password": true}],
  "servers": {
    "ev": { "type": "stdio", "command": "npx", "args": ["-y", "x"], },
    "with space": { "command": "node" },
    "off": { "command": "node", "disabled": true },
    "ws": { "command": "node", "args": ["${workspaceFolder}/x.js"] },
    "keyed": { "url": "https://a.test/mcp", "headers": {"Authorization": "Bearer ${input:api-key}"} },
    "legacy": { "url": "http://127.0.0.1:9/sse" },
    "envf": { "command": "node", "envFile": "${workspaceFolder}/.env" },
  },
}"#,
    )
    .unwrap();
    let o = run_env(&["servers", "import", file.to_str().unwrap()], &[]).await;
    let _ = o;
    let data = tempfile::tempdir().unwrap();
    let o = command(&["servers", "import", file.to_str().unwrap()], data.path())
        .output()
        .await
        .unwrap();
    assert_eq!(code(&o), 0, "{}", err(&o));
    let e = err(&o);
    for needle in [
        "with space",
        "disabled",
        "${workspaceFolder}",
        "${input:api-key}",
        "envFile",
    ] {
        assert!(e.contains(needle), "no warning about {needle}: {e}");
    }
    let o = command(&["--json", "servers", "list"], data.path())
        .output()
        .await
        .unwrap();
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    let servers = v["mcpServers"].as_object().unwrap();
    assert!(servers.contains_key("ev"), "{v}");
    assert!(!servers.contains_key("with space"), "{v}");
    assert_eq!(servers["legacy"]["type"], "sse", "{v}");
}

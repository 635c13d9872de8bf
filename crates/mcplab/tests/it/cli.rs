//! Black-box tests of the real `mcplab` binary against the shipped demo server: output,
//! `--json`, exit codes, typed `-a` arguments, elicitation modes, config management,
//! `--trace`, and Ctrl-C cancellation.

use std::path::Path;
use std::process::{Output, Stdio};
use std::time::Duration;

use serde_json::Value;
use tokio::io::AsyncWriteExt;
use tokio::process::Command;

use super::peer_support::{code, err, out};

const BIN: &str = env!("CARGO_BIN_EXE_mcplab");

fn demo() -> String {
    format!("{BIN} demo-server")
}

/// Runs mcplab with a private data dir; bounded so a hang fails the test instead of CI.
async fn run_in(data: &Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .env("MCPLAB_DATA_DIR", data)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("mcplab runs");
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.as_bytes()).await.unwrap();
    drop(input);
    tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
        .await
        .expect("mcplab finished in time")
        .unwrap()
}

async fn run(args: &[&str]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    run_in(dir.path(), args, "").await
}

#[tokio::test]
async fn tools_list_human_and_json() {
    let d = demo();
    let o = run(&["--stdio", &d, "tools", "list"]).await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    let text = out(&o);
    assert!(text.starts_with("NAME"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("show_counter_app") && l.contains("ui"))
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("app_only_increment") && l.contains("app-only"))
    );

    let o = run(&["--json", "--stdio", &d, "tools", "list"]).await;
    assert_eq!(code(&o), 0);
    let v: Value = serde_json::from_str(&out(&o)).expect("stdout is JSON only");
    let add = v["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "add")
        .unwrap();
    assert_eq!(add["inputSchema"]["properties"]["a"]["type"], "number");
    assert!(add["outputSchema"].is_object());
}

#[tokio::test]
async fn tools_call_typed_pairs_structured_and_exit_codes() {
    let d = demo();
    let o = run(&[
        "--stdio", &d, "tools", "call", "add", "-a", "a=2", "-a", "b=40.5",
    ])
    .await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert!(out(&o).contains("42.5"), "{}", out(&o));
    assert!(out(&o).contains("structuredContent:"));

    let o = run(&[
        "--json",
        "--stdio",
        &d,
        "tools",
        "call",
        "create_order",
        "-a",
        "customer.name=Ada",
        "-a",
        "customer.email=ada@example.com",
        "--args",
        r#"{"items": [{"sku": "A-1", "quantity": 2}]}"#,
    ])
    .await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    assert!(v["structuredContent"].is_object(), "{v}");
    assert_ne!(v["isError"], true);

    let o = run(&["--stdio", &d, "tools", "call", "get_image"]).await;
    assert_eq!(code(&o), 0);
    assert!(out(&o).contains("[image image/png, "), "{}", out(&o));

    let o = run(&["--stdio", &d, "tools", "call", "fail"]).await;
    assert_eq!(code(&o), 1, "isError is exit 1");
    assert!(out(&o).contains("isError: true"));

    let o = run(&["--stdio", &d, "tools", "call", "no_such_tool"]).await;
    assert_eq!(code(&o), 1, "an MCP error is exit 1: {}", err(&o));
    assert!(err(&o).contains("error"), "{}", err(&o));

    let o = run(&["--stdio", &d, "tools", "call", "add", "-a", "a=notanumber"]).await;
    assert_eq!(code(&o), 2, "a bad argument is a usage error: {}", err(&o));
    assert!(err(&o).contains("-a a:"), "{}", err(&o));

    let o = run(&["tools", "list"]).await;
    assert_eq!(code(&o), 2, "no target is a usage error");
    assert!(err(&o).contains("--stdio"), "{}", err(&o));

    let o = run(&["--stdio", "/nonexistent/server", "tools", "list"]).await;
    assert_eq!(code(&o), 3, "a connection failure is exit 3");
    assert!(err(&o).contains("not found"), "{}", err(&o));

    let o = run(&["--stdio", "sh -c 'echo boom >&2; exit 7'", "ping"]).await;
    assert_eq!(code(&o), 3);
    assert!(
        err(&o).contains("boom") && err(&o).contains("exit code 7"),
        "{}",
        err(&o)
    );
}

#[tokio::test]
async fn resources_prompts_complete_ping_loglevel_info() {
    let d = demo();
    let o = run(&["--stdio", &d, "resources", "list"]).await;
    assert!(out(&o).contains("demo://readme"), "{}", out(&o));
    let o = run(&["--stdio", &d, "resources", "templates"]).await;
    assert!(out(&o).contains("demo://items/{id}"));
    let o = run(&["--stdio", &d, "resources", "read", "demo://config.json"]).await;
    assert_eq!(code(&o), 0);
    assert!(out(&o).contains("application/json"));
    let o = run(&["--stdio", &d, "resources", "read", "demo://logo.png"]).await;
    assert!(out(&o).contains("binary"), "{}", out(&o));
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("logo.png");
    let o = run(&[
        "--stdio",
        &d,
        "resources",
        "read",
        "demo://logo.png",
        "-o",
        png.to_str().unwrap(),
    ])
    .await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert_eq!(&std::fs::read(&png).unwrap()[..4], b"\x89PNG");

    let o = run(&["--stdio", &d, "prompts", "list"]).await;
    assert!(out(&o).contains("code_review"));
    let o = run(&[
        "--stdio", &d, "prompts", "get", "greeting", "-a", "name=Ada",
    ])
    .await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert!(
        out(&o).contains("user:") && out(&o).contains("Ada"),
        "{}",
        out(&o)
    );

    let o = run(&[
        "--stdio",
        &d,
        "complete",
        "--prompt",
        "code_review",
        "--arg",
        "language",
        "--value",
        "ru",
    ])
    .await;
    assert_eq!(out(&o).lines().collect::<Vec<_>>(), ["ruby", "rust"]);
    let o = run(&[
        "--stdio",
        &d,
        "complete",
        "--resource",
        "demo://items/{id}",
        "--arg",
        "id",
        "--value",
        "item-1",
    ])
    .await;
    assert!(out(&o).lines().all(|l| l.starts_with("item-1")) && out(&o).contains("item-10"));

    let o = run(&["--stdio", &d, "ping"]).await;
    assert!(out(&o).starts_with("pong"));
    let o = run(&["--demo", "ping"]).await;
    assert!(
        out(&o).starts_with("pong"),
        "--demo targets the built-in server: {}",
        err(&o)
    );
    let o = run(&["--stdio", &d, "log-level", "warning"]).await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    let o = run(&["--stdio", &d, "info"]).await;
    assert!(out(&o).contains("mcplab-demo") && out(&o).contains("2025-11-25"));
}

#[tokio::test]
async fn elicitation_modes() {
    let d = demo();
    let o = run(&[
        "--json",
        "--stdio",
        &d,
        "--elicitation",
        "decline",
        "tools",
        "call",
        "elicit_form",
    ])
    .await;
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["structuredContent"]["action"], "decline");

    let dir = tempfile::tempdir().unwrap();
    // name, age, subscribe (default), colour (default): the schema's own order
    let o = run_in(
        dir.path(),
        &[
            "--json",
            "--stdio",
            &d,
            "--elicitation",
            "ask",
            "tools",
            "call",
            "elicit_form",
        ],
        "Grace\n33\n\n\n",
    )
    .await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(
        v["structuredContent"]["action"],
        "accept",
        "{v}\n{}",
        err(&o)
    );
    assert_eq!(v["structuredContent"]["content"]["name"], "Grace");
    assert_eq!(v["structuredContent"]["content"]["color"], "green");
    assert!(err(&o).contains("asks:"), "{}", err(&o));

    let o = run(&[
        "--stdio",
        &d,
        "tools",
        "call",
        "sample_llm",
        "-a",
        "prompt=hi",
    ])
    .await;
    assert!(err(&o).contains("declined"), "{}", err(&o));

    let o = run(&[
        "--json",
        "--stdio",
        &d,
        "--root",
        "/tmp",
        "tools",
        "call",
        "list_roots",
    ])
    .await;
    assert!(out(&o).contains("file:///tmp"), "{}", out(&o));
}

#[tokio::test]
async fn trace_prints_frames_to_stderr_only() {
    let d = demo();
    let o = run(&["--json", "--trace", "--stdio", &d, "ping"]).await;
    assert_eq!(code(&o), 0);
    let e = err(&o);
    assert!(
        // `auto` opens with the 2026-07-28 probe, which the demo server answers.
        e.contains("→ {\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"server/discover\""),
        "{e}"
    );
    assert!(e.contains("← {"), "{e}");
    // stdout holds the answer alone (2026-07-28 answers `ping` with `server/discover`).
    assert!(serde_json::from_str::<Value>(&out(&o)).unwrap().is_object());
}

#[tokio::test]
async fn servers_config_management() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let d = demo();
    let o = run_in(data, &["servers", "add", "demo", "--stdio", &d], "").await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    let o = run_in(data, &["servers", "list"], "").await;
    assert!(out(&o).contains("demo") && out(&o).contains("stdio"));
    // One configured server is the default target; --server names it explicitly.
    let o = run_in(data, &["tools", "call", "echo", "-a", "message=cfg"], "").await;
    assert_eq!(out(&o).trim(), "Echo: cfg", "{}", err(&o));
    let o = run_in(data, &["--server", "demo", "ping"], "").await;
    assert_eq!(code(&o), 0);
    let o = run_in(data, &["--server", "nope", "ping"], "").await;
    assert_eq!(code(&o), 2);

    let before = out(&run_in(data, &["--json", "servers", "list"], "").await);
    let bad = data.join("claude.json");
    std::fs::write(&bad, "{\n  \"mcpServers\": {\n    \"x\": {\n      \"command\": \"a\",\n      \"env\": {\"K\": 1}\n    }\n  }\n}\n").unwrap();
    let o = run_in(data, &["servers", "import", bad.to_str().unwrap()], "").await;
    assert_eq!(code(&o), 2);
    assert!(
        err(&o).contains("claude.json:5:") && err(&o).contains("mcpServers.x.env.K"),
        "{}",
        err(&o)
    );
    assert_eq!(
        out(&run_in(data, &["--json", "servers", "list"], "").await),
        before,
        "a failed import changes nothing"
    );

    let good = data.join("cursor.json");
    std::fs::write(&good, r#"{"mcpServers": {"remote": {"url": "http://127.0.0.1:9/mcp"}, "demo2": {"command": "x"}}}"#).unwrap();
    let o = run_in(data, &["servers", "import", good.to_str().unwrap()], "").await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    let o = run_in(data, &["--json", "servers", "list"], "").await;
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["mcpServers"]["remote"]["type"], "http");
    let o = run_in(data, &["servers", "remove", "demo2"], "").await;
    assert_eq!(code(&o), 0);
    let o = run_in(data, &["servers", "remove", "demo2"], "").await;
    assert_eq!(code(&o), 2);
}

/// Reads `child`'s stderr in the background and returns once a line contains `needle` (an
/// event to act on, instead of a sleep), failing after 15 s; the task it hands back yields all
/// of stderr when the child exits.
async fn stderr_until(
    child: &mut tokio::process::Child,
    needle: &'static str,
) -> tokio::task::JoinHandle<String> {
    use tokio::io::{AsyncBufReadExt, BufReader};
    let stderr = child.stderr.take().expect("stderr is piped");
    let (seen_tx, seen_rx) = tokio::sync::oneshot::channel();
    let task = tokio::spawn(async move {
        let mut lines = BufReader::new(stderr).lines();
        let mut all = String::new();
        let mut seen = Some(seen_tx);
        while let Ok(Some(line)) = lines.next_line().await {
            if line.contains(needle)
                && let Some(tx) = seen.take()
            {
                let _ = tx.send(());
            }
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    tokio::time::timeout(Duration::from_secs(15), seen_rx)
        .await
        .unwrap_or_else(|_| panic!("no stderr line with {needle:?} within 15 s"))
        .unwrap_or_else(|_| panic!("stderr ended before a line with {needle:?}"));
    task
}

/// `mcplab --trace --stdio SERVER tools call slow_task` (10 s of work) with `data` as its data
/// directory, handed back once the call is on its way (`--trace` prints the request as it is
/// sent), with the task that yields its whole stderr.
async fn slow_call(
    data: &Path,
    server: &str,
) -> (tokio::process::Child, tokio::task::JoinHandle<String>) {
    let mut child = Command::new(BIN)
        .args(["--trace", "--stdio", server, "tools", "call", "slow_task"])
        .args(["-a", "steps=100", "-a", "step_ms=100"])
        .env("MCPLAB_DATA_DIR", data)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let stderr = stderr_until(&mut child, "tools/call").await;
    (child, stderr)
}

/// Sends `signal` to `child` and waits (bounded) until it has exited.
async fn signalled(child: tokio::process::Child, signal: nix::sys::signal::Signal) -> Output {
    let pid = nix::unistd::Pid::from_raw(child.id().unwrap() as i32);
    nix::sys::signal::kill(pid, signal).unwrap();
    tokio::time::timeout(Duration::from_secs(15), child.wait_with_output())
        .await
        .unwrap_or_else(|_| panic!("still running 15 s after {signal}"))
        .unwrap()
}

#[tokio::test]
async fn ctrl_c_cancels_the_call_and_exits_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let (child, stderr) = slow_call(dir.path(), &demo()).await;
    let o = signalled(child, nix::sys::signal::Signal::SIGINT).await;
    let e = stderr.await.unwrap();
    assert_eq!(code(&o), 130, "{e}");
    assert!(e.contains("notifications/cancelled"), "{e}");
    assert!(!e.contains("panicked"), "{e}");
}

#[tokio::test]
async fn sigterm_stops_the_server_too() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("server.pid");
    let stdio = format!(
        "sh -c 'echo $$ > {}; exec {BIN} demo-server'",
        pidfile.display()
    );
    let (child, stderr) = slow_call(dir.path(), &stdio).await;
    // The server wrote its pid before it answered `initialize`.
    let server: i32 = std::fs::read_to_string(&pidfile)
        .expect("the server started")
        .trim()
        .parse()
        .unwrap();
    let o = signalled(child, nix::sys::signal::Signal::SIGTERM).await;
    assert_eq!(code(&o), 130, "{}", stderr.await.unwrap());
    for _ in 0..50 {
        let alive = std::fs::read_to_string(format!("/proc/{server}/stat"))
            .is_ok_and(|s| s.split(' ').nth(2) != Some("Z"));
        if !alive {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the server process outlived mcplab");
}

/// Runs mcplab with stdout a pipe whose reader is already gone (`mcplab … | head -0`), so
/// every write fails with EPIPE however fast the child is.
async fn run_into_closed_pipe(args: &[&str]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let (reader, writer) = nix::unistd::pipe().expect("a pipe");
    drop(reader);
    let child = Command::new(BIN)
        .args(args)
        .env("MCPLAB_DATA_DIR", dir.path())
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("mcplab runs");
    tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
        .await
        .expect("mcplab finished in time")
        .unwrap()
}

#[tokio::test]
async fn a_closed_stdout_ends_quietly_with_status_zero() {
    let d = demo();
    let commands: [&[&str]; 9] = [
        &["servers", "list"],
        &["chat", "--print-prices"],
        &["--json", "chat", "--print-prices"],
        &["--json", "servers", "list"],
        &["hosts", "list"],
        &["eval", "schema"],
        &["--stdio", &d, "tools", "list"],
        &["--stdio", &d, "--json", "info"],
        &["servers", "export"],
    ];
    for args in commands {
        let o = run_into_closed_pipe(args).await;
        assert_eq!(code(&o), 0, "{args:?}: {}", err(&o));
        assert!(!err(&o).contains("panicked"), "{args:?}: {}", err(&o));
    }
}

#[tokio::test]
async fn completion_scripts_name_the_subcommands_in_every_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = run(&["completions", shell]).await;
        assert_eq!(code(&o), 0, "{shell}: {}", err(&o));
        let script = out(&o);
        for word in ["tools", "resources", "chat", "eval", "demo", "data-dir"] {
            assert!(script.contains(word), "{shell} script lacks {word}");
        }
    }
}

#[tokio::test]
async fn the_man_page_is_roff_that_man_can_format() {
    let o = run(&["man"]).await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    let page = out(&o);
    assert!(
        page.lines().any(|l| l.starts_with(".TH mcplab 1")),
        "{page}"
    );
    assert!(page.contains(".SH SUBCOMMANDS"), "{page}");
    // groff formats it without warnings (-ww: every warning) into text naming the commands.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mcplab.1");
    std::fs::write(&file, &page).unwrap();
    let text = std::process::Command::new("groff")
        .args(["-k", "-man", "-Tutf8", "-ww", "-z"])
        .arg(&file)
        .output()
        .expect("groff runs (Debian package groff-base)");
    assert!(
        text.status.success() && text.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&text.stderr)
    );

    let o = run(&["man", "--dir", dir.path().to_str().unwrap()]).await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    for page in [
        "mcplab.1",
        "mcplab-tools.1",
        "mcplab-tools-call.1",
        "mcplab-chat.1",
    ] {
        assert!(dir.path().join(page).is_file(), "{page} missing");
    }
}

#[tokio::test]
async fn help_groups_flags_by_purpose_and_shows_only_a_commands_own() {
    let o = run(&["tools", "call", "--help"]).await;
    let help = out(&o);
    for heading in ["Target:", "Connection:", "Limits:", "OAuth (for --url):"] {
        assert!(
            help.contains(heading),
            "tools call --help lacks {heading}\n{help}"
        );
    }
    assert!(
        !help.contains("--port"),
        "tools call --help shows the inspector's --port"
    );
    let help = out(&run(&["servers", "list", "--help"]).await);
    assert!(
        !help.contains("--stdio") && !help.contains("--timeout"),
        "{help}"
    );
    let o = run(&["--demo", "servers", "list"]).await;
    assert_eq!(code(&o), 2, "a target means nothing to `servers list`");
    assert!(err(&o).contains("--demo does not apply"), "{}", err(&o));
}

/// Runs mcplab with no `MCPLAB_DATA_DIR`: the data directory comes from `HOME` and
/// `XDG_DATA_HOME` as given (`None`: unset).
async fn run_with_home(home: &Path, xdg: Option<&Path>, args: &[&str]) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .env_remove("MCPLAB_DATA_DIR")
        .env_remove("XDG_DATA_HOME")
        .env_remove("RUST_LOG")
        .env("HOME", home)
        .stdin(Stdio::null())
        .kill_on_drop(true);
    if let Some(xdg) = xdg {
        cmd.env("XDG_DATA_HOME", xdg);
    }
    tokio::time::timeout(Duration::from_secs(60), cmd.output())
        .await
        .expect("mcplab finished in time")
        .unwrap()
}

/// The default data directory is where earlier versions kept their data, so an upgrade finds
/// it: `$XDG_DATA_HOME/mcplab`, else `~/.local/share/mcplab` (macOS: `~/Library/Application
/// Support/mcplab`).
#[tokio::test]
async fn the_default_data_dir_is_where_earlier_versions_kept_data() {
    let home = tempfile::tempdir().unwrap();
    let o = run_with_home(
        home.path(),
        None,
        &["servers", "add", "kept", "--stdio", "x"],
    )
    .await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    let default = if cfg!(target_os = "macos") {
        "Library/Application Support/mcplab"
    } else {
        ".local/share/mcplab"
    };
    assert!(home.path().join(default).join("mcplab.db").is_file());
    let o = run_with_home(home.path(), None, &["servers", "list"]).await;
    assert!(out(&o).contains("kept"), "{}", out(&o));

    if cfg!(target_os = "linux") {
        let xdg = tempfile::tempdir().unwrap();
        let o = run_with_home(home.path(), Some(xdg.path()), &["servers", "list"]).await;
        assert!(!out(&o).contains("kept"), "{}", out(&o));
        assert!(xdg.path().join("mcplab/mcplab.db").is_file());
    }
}

/// `skills list` prints a table of the demo server's skills (name from the frontmatter, the
/// manifest's file count), and with `--json` the protocol result.
#[tokio::test]
async fn skills_list_human_and_json() {
    let d = demo();
    let o = run(&["--stdio", &d, "skills", "list"]).await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    let text = out(&o);
    assert!(text.starts_with("NAME "), "{text}");
    let greeting = text
        .lines()
        .find(|l| l.starts_with("demo-greeting "))
        .unwrap_or_default();
    assert!(
        greeting.contains(" 2 ") && greeting.contains("skill://demo-greeting/SKILL.md"),
        "{text}"
    );
    let o = run(&["--stdio", &d, "--json", "skills", "list"]).await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    assert!(v["skills"].as_array().is_some_and(|s| s.len() >= 2), "{v}");
}

/// Starts `mcplab demo-server --http` on a free loopback port and returns it with its MCP URL,
/// read from the line it prints (no sleep).
async fn demo_over_http() -> (tokio::process::Child, String) {
    use tokio::io::{AsyncBufReadExt, BufReader};
    let mut child = Command::new(BIN)
        .args(["demo-server", "--http", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the demo server runs");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let line = tokio::time::timeout(Duration::from_secs(15), lines.next_line())
        .await
        .expect("the demo server says where it listens")
        .unwrap()
        .unwrap_or_default();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_owned();
    (child, url)
}

/// `tasks get|cancel` on a task `tools call --no-wait` left running on a long-lived server:
/// one line per task for a person (the server's status message included), the task view with
/// `--json`, and the cancel acknowledged and seen.
#[tokio::test]
async fn a_task_left_running_is_read_and_cancelled() {
    let (_server, url) = demo_over_http().await;
    let dir = tempfile::tempdir().unwrap();
    let call = [
        "--url",
        &url,
        "tools",
        "call",
        "approve_deploy",
        "--no-wait",
    ];
    let o = run_in(dir.path(), &call, "").await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    let created = out(&o);
    let id = created
        .strip_prefix("task ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("{created}"))
        .to_owned();
    let o = run_in(dir.path(), &["--url", &url, "tasks", "get", &id], "").await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert_eq!(
        out(&o),
        format!("{id}  input_required: Waiting for approval.\n")
    );
    let o = run_in(
        dir.path(),
        &["--url", &url, "--json", "tasks", "get", &id],
        "",
    )
    .await;
    let view: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(
        (view["taskId"].as_str(), view["status"].as_str()),
        (Some(id.as_str()), Some("input_required"))
    );
    let o = run_in(dir.path(), &["--url", &url, "tasks", "cancel", &id], "").await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert!(
        out(&o).starts_with(&format!("asked the server to cancel task {id}")),
        "{}",
        out(&o)
    );
    let o = run_in(dir.path(), &["--url", &url, "tasks", "get", &id], "").await;
    assert!(
        out(&o).starts_with(&format!("{id}  cancelled")),
        "{}",
        out(&o)
    );
}

//! `mcplab check --host`, `--readiness` and `--fuzz` end to end against
//! `tests/interop/rulesrv.py`, a raw server whose modes break host, directory and robustness
//! rules (and one that keeps them): verdicts with their profile fields, directory findings,
//! crashes shrunk, hangs, outputSchema breaks, same seed same inputs, and — read from the
//! server's own log — that a tool not marked read-only is never called.

use std::path::Path;
use std::process::Output;

use serde_json::Value;
use tokio::process::Command;

use super::check::check_within;
use super::peer_support::{BIN, repo};

fn server(log: Option<&Path>, modes: &str) -> String {
    let script = repo().join("tests/interop/rulesrv.py");
    let log = log
        .map(|l| format!(" --log={}", l.display()))
        .unwrap_or_default();
    format!("python3 {}{log} {modes}", script.display())
}

/// `mcplab check --json --stdio STDIO EXTRA` (fuzzing takes a while: 120 s).
async fn check(stdio: &str, extra: &[&str]) -> (Output, Value) {
    let mut args = vec!["--stdio", stdio];
    args.extend(extra);
    check_within(120, &args).await
}

fn findings<'a>(r: &'a Value, rule: &str) -> Vec<&'a Value> {
    r["findings"]
        .as_array()
        .unwrap_or_else(|| panic!("no findings in {r}"))
        .iter()
        .filter(|f| f["rule"] == rule)
        .collect()
}

/// The `tools/call`s the server logged: (tool, arguments).
fn calls(log: &Path) -> Vec<(String, Value)> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["method"] == "tools/call")
        .map(|v| {
            (
                v["tool"].as_str().unwrap_or("").to_owned(),
                v["arguments"].clone(),
            )
        })
        .collect()
}

#[tokio::test]
async fn fuzzing_finds_crashes_hangs_and_output_schema_breaks_and_never_calls_unsafe_tools() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("calls.jsonl");
    let args = ["--fuzz", "12", "--seed", "3", "--timeout", "2"];
    let (o, r) = check(&server(Some(&log), "fuzz"), &args).await;
    assert_eq!(o.status.code(), Some(1), "{r}");
    let crashes = findings(&r, "fuzz-crash");
    assert!(!crashes.is_empty(), "{r}");
    let first = crashes[0]["message"].as_str().unwrap();
    assert!(
        first.contains("tool `lookup`") && first.contains("exit code 3"),
        "{first}"
    );
    assert!(
        first.contains("lookup: buffer overflow"),
        "the server's last stderr line: {first}"
    );
    // Shrunk: a string of at most 2000 characters still over the 1000 that crash it.
    let shrunk = first
        .split("still crashes it: ")
        .nth(1)
        .unwrap_or_else(|| panic!("no shrunk input: {first}"));
    let n: usize = shrunk
        .split("… (")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("a cut string: {shrunk}"));
    assert!(
        (1001..=2000).contains(&n),
        "shrunk to {n} characters: {first}"
    );
    assert!(
        crashes[0]["excerpt"]
            .as_str()
            .unwrap()
            .starts_with("{\"q\":"),
        "the exact input"
    );
    let hang = findings(&r, "fuzz-hang");
    assert!(
        hang.iter()
            .any(|f| f["message"].as_str().unwrap().contains("tool `slow`")),
        "{r}"
    );
    assert!(
        hang.iter().all(|f| f["excerpt"] == "{\"q\":\"\"}"),
        "{hang:?}"
    );
    let output = findings(&r, "fuzz-output-schema");
    assert!(
        output.iter().any(|f| f["message"]
            .as_str()
            .unwrap()
            .contains("\"many\" is not of type")),
        "{r}"
    );
    let skipped: Vec<&str> = findings(&r, "fuzz-skipped")
        .iter()
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert_eq!(skipped.len(), 2, "{skipped:?}");
    let called = calls(&log);
    assert!(called.iter().any(|(t, _)| t == "lookup"), "{called:?}");
    assert!(
        called
            .iter()
            .all(|(t, _)| t != "delete_everything" && t != "write_note"),
        "a tool not marked read-only was called: {called:?}"
    );
    assert!(!String::from_utf8_lossy(&o.stderr).contains("UNSAFE TOOL CALLED"));
}

#[tokio::test]
async fn the_same_seed_sends_the_same_inputs_and_another_seed_others() {
    let dir = tempfile::tempdir().unwrap();
    let mut runs = Vec::new();
    for (i, seed) in ["9", "9", "10"].iter().enumerate() {
        let log = dir.path().join(format!("calls{i}.jsonl"));
        let (o, r) = check(
            &server(Some(&log), "clean"),
            &["--fuzz", "8", "--seed", seed],
        )
        .await;
        assert_eq!(findings(&r, "fuzz-crash").len(), 0, "{r}");
        assert!(o.status.code().is_some());
        runs.push(calls(&log));
    }
    assert_eq!(runs[0].len(), 8, "{:?}", runs[0]);
    assert_eq!(runs[0], runs[1]);
    assert_ne!(runs[0], runs[2]);
}

/// A crashed server that cannot be started again: the crash says why no smaller input was
/// found (the connect error with the server's stderr), not just that there is none.
#[tokio::test]
async fn a_crash_that_cannot_be_shrunk_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let crashed = dir.path().join("crashed");
    let stdio = format!(
        "{} --no-restart={}",
        server(None, "fuzz"),
        crashed.display()
    );
    let args = ["--fuzz", "12", "--seed", "3", "--timeout", "2"];
    let (_, r) = check(&stdio, &args).await;
    let crashes = findings(&r, "fuzz-crash");
    let first = crashes
        .first()
        .and_then(|c| c["message"].as_str())
        .unwrap_or_else(|| panic!("a crash: {r}"));
    assert!(!first.contains("still crashes it"), "{first}");
    assert!(
        first.contains("shrinking stopped early: the server could not be started again")
            && first.contains("rulesrv: not starting again after a crash"),
        "{first}"
    );
}

#[tokio::test]
async fn fuzz_tool_fuzzes_a_tool_not_marked_read_only() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("calls.jsonl");
    let args = ["--fuzz", "1", "--fuzz-tool", "write_note", "--timeout", "2"];
    let (_, r) = check(&server(Some(&log), "fuzz"), &args).await;
    let called = calls(&log);
    assert!(called.iter().any(|(t, _)| t == "write_note"), "{called:?}");
    assert!(
        called.iter().all(|(t, _)| t != "delete_everything"),
        "{called:?}"
    );
    let crash = findings(&r, "fuzz-crash");
    assert!(
        crash.iter().any(|f| f["message"]
            .as_str()
            .unwrap()
            .contains("UNSAFE TOOL CALLED: write_note")),
        "{r}"
    );
}

fn host<'a>(r: &'a Value, name: &str) -> &'a Value {
    r["hosts"]
        .as_array()
        .unwrap_or_else(|| panic!("no hosts in {r}"))
        .iter()
        .find(|h| h["host"] == name)
        .unwrap_or_else(|| panic!("no verdict for {name}: {r}"))
}

fn item<'a>(h: &'a Value, name: &str) -> &'a Value {
    h["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == name)
        .unwrap_or_else(|| panic!("no item {name}: {h}"))
}

fn reason<'a>(item: &'a Value, field: &str) -> &'a Value {
    item["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["field"] == field)
        .unwrap_or_else(|| panic!("no reason on {field}: {item}"))
}

#[tokio::test]
async fn host_verdicts_rest_on_profile_fields_with_their_sources() {
    let args = [
        "--host",
        "claude",
        "--host",
        "chatgpt",
        "--host",
        "vscode",
        "--host",
        "cursor",
        // The static scan's reasons; live renders are check_live's.
        "--no-render",
    ];
    let (o, r) = check(&server(None, "hosts clean"), &args).await;
    assert_eq!(
        o.status.code(),
        Some(1),
        "the chart's script is blocked: {r}"
    );
    let names: Vec<&str> = r["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["host"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["claude", "chatgpt", "vscode", "cursor"]);
    for h in r["hosts"].as_array().unwrap() {
        assert_eq!(
            h["verdict"], "blocked",
            "the chart's undeclared script: {h}"
        );
        for i in h["items"].as_array().unwrap() {
            assert!(
                !i["reasons"].as_array().unwrap().is_empty(),
                "a verdict without a reason: {i}"
            );
            for reason in i["reasons"].as_array().unwrap() {
                assert!(
                    reason["field"].as_str().is_some_and(|f| !f.is_empty()),
                    "{reason}"
                );
            }
        }
        let chart = item(h, "ui://rules/chart.html");
        assert_eq!(chart["verdict"], "blocked", "{chart}");
        let long = item(h, &"n".repeat(70));
        assert_eq!(long["verdict"], "degraded", "{long}");
        assert_eq!(item(h, "search_notes")["verdict"], "works", "{h}");
    }
    let claude = host(&r, "claude");
    let task = item(claude, "export_report");
    assert_eq!(
        task["verdict"], "blocked",
        "Claude declares no tasks: {task}"
    );
    let tasks = reason(task, "client.tasks");
    assert_eq!(tasks["verdict"], "blocked", "{task}");
    assert!(
        tasks["source"]["url"]
            .as_str()
            .unwrap()
            .starts_with("https://"),
        "{task}"
    );
    let widget = item(claude, "ui://rules/widget.html");
    assert_eq!(
        widget["verdict"], "unknown",
        "Claude's window.openai is unknown: {widget}"
    );
    assert_eq!(reason(widget, "appHost.windowOpenai")["source"], "unknown");
    let chart = item(claude, "ui://rules/chart.html");
    let pip = chart["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["field"] == "appHost.displayModes")
        .expect("pip");
    assert_eq!(
        pip["verdict"], "degraded",
        "Claude offers inline and fullscreen: {pip}"
    );
    assert_eq!(
        item(host(&r, "chatgpt"), "ui://rules/widget.html")["verdict"],
        "works"
    );
    assert_eq!(
        item(host(&r, "vscode"), "ui://rules/widget.html")["verdict"],
        "degraded"
    );
    let cursor_chart = item(host(&r, "cursor"), "ui://rules/chart.html");
    assert!(
        cursor_chart["reasons"].as_array().unwrap().iter().any(|x| x["field"] == "appHost.hostCapabilities.message" && x["verdict"] == "degraded"),
        "Cursor offers no ui/message: {cursor_chart}"
    );
    // Each reason that is not "works" is a finding of its rule, at its verdict's severity.
    for (rule, severity, start) in [
        (
            "host-capability",
            "error",
            "claude: blocked — tool `export_report`",
        ),
        ("host-tool-name", "warning", "cursor: degraded — tool `nnnn"),
        (
            "host-display-mode",
            "warning",
            "claude: degraded — app ui://rules/chart.html",
        ),
        (
            "host-display-mode",
            "info",
            "vscode: unknown — app ui://rules/chart.html",
        ),
        (
            "host-app-capability",
            "warning",
            "cursor: degraded — app ui://rules/chart.html: its HTML uses `ui/message`",
        ),
        (
            "host-app-render",
            "warning",
            "vscode: degraded — app ui://rules/widget.html: show_widget links it",
        ),
        (
            "host-app-render",
            "info",
            "claude: unknown — app ui://rules/widget.html",
        ),
    ] {
        assert!(
            findings(&r, rule)
                .iter()
                .any(|f| f["severity"] == severity
                    && f["message"].as_str().unwrap().starts_with(start)),
            "{rule}: a {severity} starting {start:?}: {r}"
        );
    }
    assert!(
        findings(&r, "host-app-render")
            .iter()
            .all(|f| !f["message"].as_str().unwrap().starts_with("chatgpt")),
        "ChatGPT renders OpenAI widgets: {r}"
    );
    let blocked = findings(&r, "host-app-csp");
    assert!(
        blocked.iter().all(|f| f["severity"] == "error"),
        "{blocked:?}"
    );
    assert!(
        blocked[0]["message"]
            .as_str()
            .unwrap()
            .contains("https://cdn.example.com/chart.js")
    );
}

#[tokio::test]
async fn a_server_that_needs_nothing_special_works_in_every_host_and_unknown_hosts_are_refused() {
    let (o, r) = check(&server(None, "clean"), &["--host", "all"]).await;
    assert_eq!(o.status.code(), Some(0), "{r}");
    let hosts = r["hosts"].as_array().unwrap();
    assert!(hosts.len() >= 6, "{r}");
    for h in hosts {
        assert_eq!(h["verdict"], "works", "{h}");
    }
    let (o, _) = check(&server(None, "clean"), &["--host", "nosuch"]).await;
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nosuch"));
}

#[tokio::test]
async fn readiness_finds_what_each_directory_rejects() {
    let args = ["--readiness", "claude", "--readiness", "openai"];
    let (o, r) = check(&server(None, "readiness clean"), &args).await;
    assert_eq!(o.status.code(), Some(1), "{r}");
    for (rule, tool) in [
        ("claude-annotations", "api_request"),
        ("claude-read-write-split", "api_request"),
        ("claude-query-api-docs", "api_request"),
        ("claude-annotation-honesty", "delete_user"),
        ("claude-conversation-data", "summarize"),
        ("openai-annotations", "delete_user"),
        ("openai-catch-all", "api_request"),
        ("openai-annotation-honesty", "delete_user"),
        ("openai-minimal-inputs", "summarize"),
        ("openai-sensitive-data", "login"),
    ] {
        let f = findings(&r, rule);
        assert!(
            f.iter().any(|f| f["message"]
                .as_str()
                .unwrap()
                .contains(&format!("`{tool}`"))),
            "{rule} for {tool}: {r}"
        );
        assert!(
            f.iter()
                .all(|f| f["severity"] == "error" && f["sourceRead"] == "2026-12-06"),
            "{f:?}"
        );
        assert!(
            f.iter()
                .all(|f| f["source"].as_str().unwrap().starts_with("https://")),
            "{f:?}"
        );
    }
    for f in r["findings"].as_array().unwrap() {
        assert!(
            !f["message"].as_str().unwrap().contains("`search_notes`") || f["severity"] == "info",
            "the clean tool: {f}"
        );
    }
    assert!(
        findings(&r, "openai-remote")
            .iter()
            .any(|f| f["message"].as_str().unwrap().contains("stdio"))
    );
}

#[tokio::test]
async fn list_rules_prints_every_new_set_with_sources() {
    let o = Command::new(BIN)
        .args(["check", "--list-rules", "--json"])
        .output()
        .await
        .unwrap();
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let sets: Vec<&str> = v["ruleSets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["ruleSet"].as_str().unwrap())
        .collect();
    for set in ["hosts", "readiness-claude", "readiness-openai", "fuzz"] {
        assert!(sets.contains(&set), "{sets:?}");
    }
    for s in v["ruleSets"].as_array().unwrap() {
        for rule in s["rules"].as_array().unwrap() {
            assert!(
                rule["source"].as_str().unwrap().starts_with("https://"),
                "{rule}"
            );
        }
        if s["ruleSet"].as_str().unwrap().starts_with("readiness") {
            assert!(
                s["rules"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|r| r["sourceRead"] == "2026-12-06"),
                "{s}"
            );
        }
    }
}

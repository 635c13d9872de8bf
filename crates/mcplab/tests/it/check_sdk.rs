//! `mcplab check` against independently written servers (issue 24 items 1 and 9): the
//! official TypeScript SDK 2.x (`tests/interop/ts/server.mjs`: dual-era, and 2026-07-28 only
//! with the SDK's `legacy: 'reject'`), the Python SDK 2.x (`tests/interop/python/server.py`,
//! always dual-era) and server-everything, over stdio and HTTP (and SSE for server-everything).
//! Each is spec-valid, so any error or warning is mcplab's; each era a server speaks is
//! checked and reported on its own. Needs tests/npm and tests/interop/python (`peer-tests`).

use serde_json::Value;
use tokio::process::Command;

use super::check::{check_args, npm_server, rules};
use super::peer_support::{Served, node22, repo};

fn ts(mode: &str) -> Vec<String> {
    let script = repo().join("tests/interop/ts/server.mjs");
    vec![node22(), script.display().to_string(), mode.into()]
}

fn py(mode: &str) -> Vec<String> {
    let python = repo().join("tests/interop/python/.venv/bin/python");
    assert!(
        python.exists(),
        "the Python SDK 2.x is not installed: run tests/interop/python/setup.sh"
    );
    let script = repo().join("tests/interop/python/server.py");
    vec![
        python.display().to_string(),
        script.display().to_string(),
        mode.into(),
    ]
}

fn everything(mode: &str) -> Vec<String> {
    let loopback = repo().join("tests/npm/loopback.cjs");
    let server = npm_server("server-everything");
    let script = server.strip_prefix("node ").unwrap().to_owned();
    vec![
        node22(),
        "--require".into(),
        loopback.display().to_string(),
        script,
        mode.into(),
    ]
}

/// A server from `argv` (run in tests/interop) on a free loopback port; killed on drop.
async fn serve(argv: Vec<String>) -> Served {
    let mut server = Command::new(&argv[0]);
    server
        .args(&argv[1..])
        .current_dir(repo().join("tests/interop"));
    Served::start(server).await
}

/// Checks and asserts a spec-valid server: exit 0, no error or warning, the eras expected
/// (newest first). Returns the report.
async fn valid(what: &str, args: &[&str], eras: &[&str]) -> Value {
    // A slow start on a loaded machine is not the server's fault.
    let mut args = args.to_vec();
    args.extend(["--connect-timeout", "60"]);
    let (o, r) = check_args(&args).await;
    let problems: Vec<_> = rules(&r).into_iter().filter(|(s, _)| s != "info").collect();
    assert!(problems.is_empty(), "{what}: {problems:?}: {r}");
    assert_eq!(o.status.code(), Some(0), "{what}: {r}");
    let revisions: Vec<&str> = r["eras"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["revision"].as_str().unwrap())
        .collect();
    assert_eq!(revisions, eras, "{what}: {r}");
    for era in r["eras"].as_array().unwrap() {
        assert_eq!(era["connected"], true, "{what}: {era}");
        let exercised = era["exercised"].to_string();
        assert!(exercised.contains("tools/list: "), "{what}: {era}");
    }
    r
}

const BOTH: &[&str] = &["2026-07-28", "2025-11-25"];
const MODERN: &[&str] = &["2026-07-28"];

/// FP1: a 2026-07-28-only server (TS SDK v2, `legacy: 'reject'`) is checked in 2026-07-28
/// under `--protocol auto` (it failed `initialize` with exit 3), and its refusal of the 2025
/// handshake is a note, not a finding.
#[tokio::test]
async fn a_2026_only_server_is_checked_in_its_era() {
    let stdio = ts("stdio-modern").join(" ");
    let r = valid(
        "ts stdio-modern",
        &["--stdio", &stdio, "--protocol", "auto"],
        MODERN,
    )
    .await;
    let notes = r["notes"].to_string();
    assert!(notes.contains("2025 era: not spoken"), "{r}");
    assert!(notes.contains("-32022"), "the refusal is named: {r}");
    let http = serve(ts("http-modern")).await;
    valid("ts http-modern", &["--url", &http.url("/mcp")], MODERN).await;
}

/// FP1 and FP2: a dual-era server is checked in both eras, each reported on its own; a tool
/// that answers `input_required` (with an outputSchema) is valid in 2026-07-28 — a note that
/// points at each round's frame — and its final result is judged as a CallToolResult.
#[tokio::test]
async fn a_dual_era_server_is_checked_in_both_eras() {
    let stdio = ts("stdio").join(" ");
    let calls = ["--call", "forecast", "--call", "echo={\"message\":\"hi\"}"];
    let mut args = vec!["--stdio", stdio.as_str()];
    args.extend(calls);
    let r = valid("ts stdio (dual)", &args, BOTH).await;
    let notes: Vec<&Value> = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "input-required")
        .collect();
    assert_eq!(notes.len(), 1, "one note for the one request: {r}");
    assert_eq!(notes[0]["era"], "2026-07-28", "{r}");
    assert!(notes[0]["frames"][0].is_u64(), "{r}");
    assert!(
        notes[0]["message"]
            .as_str()
            .unwrap()
            .contains("`tools/call` forecast needed input (for elicitation/create)"),
        "{r}"
    );
    for era in r["eras"].as_array().unwrap() {
        let exercised = era["exercised"].to_string();
        assert!(exercised.contains("tools/call forecast: ok"), "{era}");
        assert!(exercised.contains("tools/call echo: ok"), "{era}");
    }
    let per_era: Vec<&str> = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "tool-list-cost")
        .map(|f| f["era"].as_str().unwrap())
        .collect();
    assert_eq!(per_era, BOTH, "each era reported on its own: {r}");
    let http = serve(ts("http")).await;
    let url = http.url("/mcp");
    let mut args = vec!["--url", url.as_str()];
    args.extend(calls);
    valid("ts http (dual)", &args, BOTH).await;
}

/// The Python SDK 2.x serves both eras over stdio and stateless streamable HTTP.
#[tokio::test]
async fn python_sdk_2_is_valid_in_both_eras() {
    let stdio = py("stdio").join(" ");
    let call = ["--call", "add={\"a\":1,\"b\":2}"];
    let mut args = vec!["--stdio", stdio.as_str()];
    args.extend(call);
    valid("py2 stdio", &args, BOTH).await;
    let http = serve(py("http")).await;
    let url = http.url("/mcp");
    let mut args = vec!["--url", url.as_str()];
    args.extend(call);
    valid("py2 http", &args, BOTH).await;
}

/// server-everything over stdio, streamable HTTP and SSE, with a plain and a structured call.
#[tokio::test]
async fn server_everything_is_valid_on_every_transport() {
    let calls = [
        "--call",
        "echo={\"message\":\"hi\"}",
        "--call",
        "get-structured-content={\"location\":\"New York\"}",
    ];
    let stdio = everything("stdio").join(" ");
    let mut args = vec!["--stdio", stdio.as_str()];
    args.extend(calls);
    let r = valid("everything stdio", &args, &["2025-11-25"]).await;
    let revisions = r["eras"].to_string();
    assert!(revisions.contains("2025-11-25"), "{r}");
    let http = serve(everything("streamableHttp")).await;
    let url = http.url("/mcp");
    let mut args = vec!["--url", url.as_str()];
    args.extend(calls);
    valid("everything http", &args, &["2025-11-25"]).await;
    let sse = serve(everything("sse")).await;
    let url = sse.url("/sse");
    let mut args = vec!["--url", url.as_str(), "--transport", "sse"];
    args.extend(calls);
    valid("everything sse", &args, &["2025-11-25"]).await;
}

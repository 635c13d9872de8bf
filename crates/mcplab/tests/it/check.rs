//! `mcplab check` against servers written to break each rule (`tests/interop/rawsrv.py`
//! modes) and against servers that follow them (the demo server, and the npm servers
//! everything, filesystem, memory and sequential-thinking, where any finding would be theirs
//! or ours): findings, exit codes, `--json` and `--junit`.

use std::path::Path;
use std::process::{Output, Stdio};
use std::time::Duration;

use serde_json::Value;
use tokio::process::Command;

use super::peer_support::{BIN, rawsrv};
pub(crate) use super::peer_support::{raw, repo};

pub(crate) fn npm_server(name: &str) -> String {
    let p = repo().join(format!(
        "tests/npm/node_modules/@modelcontextprotocol/{name}/dist/index.js"
    ));
    assert!(
        p.exists(),
        "{name} is not installed: run `npm ci` in tests/npm"
    );
    format!("node {}", p.display())
}

pub(crate) async fn check(stdio: &str, extra: &[&str]) -> (Output, Value) {
    let mut args = vec!["--stdio", stdio];
    args.extend(extra);
    check_args(&args).await
}

/// `mcplab check --json ARGS` in a scratch data directory: its exit and its report.
pub(crate) async fn check_args(target_and_flags: &[&str]) -> (Output, Value) {
    reported(check_within(60, target_and_flags).await)
}

/// A check run's exit and report, asserting it printed one (the output says why not).
#[track_caller]
pub(crate) fn reported((o, report): (Output, Value)) -> (Output, Value) {
    assert!(
        !report.is_null(),
        "no JSON report: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o, report)
}

/// [`check_args`] given `secs` to finish, its report `null` when it printed none (a refused
/// command line).
pub(crate) async fn check_within(secs: u64, target_and_flags: &[&str]) -> (Output, Value) {
    let dir = tempfile::tempdir().unwrap();
    check_in_dir(secs, dir.path(), target_and_flags).await
}

/// [`check_within`] with `data` as the data directory (a test that reads what it kept).
pub(crate) async fn check_in_dir(
    secs: u64,
    data: &Path,
    target_and_flags: &[&str],
) -> (Output, Value) {
    let mut args = vec!["check", "--json"];
    args.extend(target_and_flags);
    let o = tokio::time::timeout(
        Duration::from_secs(secs),
        Command::new(BIN)
            .args(&args)
            .env("MCPLAB_DATA_DIR", data)
            .stdin(Stdio::null())
            .kill_on_drop(true)
            .output(),
    )
    .await
    .expect("check finished in time")
    .unwrap();
    let report = serde_json::from_slice(&o.stdout).unwrap_or(Value::Null);
    (o, report)
}

/// (severity, rule) of every finding.
pub(crate) fn rules(report: &Value) -> Vec<(String, String)> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["severity"].as_str().unwrap().to_owned(),
                f["rule"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

pub(crate) fn has(report: &Value, severity: &str, rule: &str) -> bool {
    rules(report)
        .iter()
        .any(|(s, r)| s == severity && r == rule)
}

#[tokio::test]
async fn bad_tool_definitions() {
    let (o, r) = check(&raw("bad-tools"), &[]).await;
    assert_eq!(o.status.code(), Some(1), "{r}");
    for rule in ["tool-name", "tool-duplicate", "input-schema", "annotations"] {
        assert!(has(&r, "error", rule), "{rule}: {r}");
    }
    assert!(has(&r, "warning", "tool-name"), "a name with a space: {r}");
    let f = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "annotations")
        .unwrap();
    assert_eq!(f["path"], "/result/tools/4/annotations/readOnlyHint", "{f}");
    assert_eq!(f["excerpt"], "\"yes\"", "{f}");
    assert!(f["frames"][0].is_u64(), "{f}");
    assert!(f["source"].as_str().unwrap().contains("2025-11-25"), "{f}");
}

#[tokio::test]
async fn bad_call_results() {
    let calls = [
        "--call",
        "unknown_content",
        "--call",
        "string_is_error",
        "--call",
        "mismatch",
        "--call",
        "weather",
    ];
    let (o, r) = check(&raw("bad-results"), &calls).await;
    assert_eq!(o.status.code(), Some(1), "{r}");
    for rule in ["content-type", "is-error", "structured-content"] {
        assert!(has(&r, "error", rule), "{rule}: {r}");
    }
    let structured: Vec<&Value> = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "structured-content")
        .collect();
    assert_eq!(structured.len(), 1, "weather conforms: {structured:?}");
    assert!(
        structured[0]["message"]
            .as_str()
            .unwrap()
            .contains("mismatch")
    );
}

#[tokio::test]
async fn endless_pagination_noise_and_undeclared_behaviour() {
    let (_, r) = check(&raw("loop-cursor"), &[]).await;
    assert!(has(&r, "error", "pagination"), "{r}");
    let (o, r) = check(&raw("noise"), &[]).await;
    assert_eq!(o.status.code(), Some(1));
    assert!(has(&r, "error", "stdout-noise"), "{r}");
    let (o, r) = check(&raw("undeclared"), &[]).await;
    assert_eq!(o.status.code(), Some(0), "warnings only: {r}");
    assert!(has(&r, "warning", "list-changed"), "{r}");
    assert!(has(&r, "warning", "capability-undeclared"), "{r}");
    let (o, r) = check(&raw("many-tools"), &["--token-budget", "1000"]).await;
    assert_eq!(o.status.code(), Some(0), "{r}");
    assert!(has(&r, "warning", "tool-list-size"), "{r}");
}

#[tokio::test]
async fn invalid_initialize_is_judged_even_though_connecting_fails() {
    let (o, r) = check(&raw("bad-message"), &[]).await;
    assert_eq!(o.status.code(), Some(3), "{r}");
    assert!(has(&r, "error", "initialize"), "{r}");
    let schema = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "schema")
        .unwrap_or_else(|| panic!("{r}"));
    assert_eq!(schema["path"], "/result/serverInfo/name", "{schema}");
}

#[tokio::test]
async fn junit_report_has_a_case_per_rule() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("check.xml");
    let (o, r) = check(&raw("bad-tools"), &["--junit", file.to_str().unwrap()]).await;
    assert_eq!(o.status.code(), Some(1));
    let xml = std::fs::read_to_string(&file).unwrap();
    let cases = xml.matches("<testcase ").count();
    let rules: usize = r["eras"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["rules"].as_array().unwrap().len())
        .sum();
    assert_eq!(cases, rules, "{xml}");
    assert!(
        xml.contains("<failure message=\"two tools are named `dup`\">"),
        "{xml}"
    );
}

#[tokio::test]
async fn well_behaved_servers_have_no_errors() {
    let demo = format!("{BIN} demo-server");
    let fs_root = tempfile::tempdir().unwrap();
    let servers = [
        (demo, vec!["--call", "add={\"a\":1,\"b\":2}"]),
        (
            npm_server("server-everything"),
            vec![
                "--call",
                "echo={\"message\":\"hi\"}",
                "--call",
                "get-structured-content={\"location\":\"New York\"}",
            ],
        ),
        (
            format!(
                "{} {}",
                npm_server("server-filesystem"),
                fs_root.path().display()
            ),
            vec!["--call", "list_allowed_directories"],
        ),
        (npm_server("server-memory"), vec!["--call", "read_graph"]),
        (npm_server("server-sequential-thinking"), vec![]),
    ];
    for (server, calls) in servers {
        let (o, r) = check(&server, &calls).await;
        let problems: Vec<_> = rules(&r).into_iter().filter(|(s, _)| s != "info").collect();
        assert!(problems.is_empty(), "{server}: {r}");
        assert_eq!(o.status.code(), Some(0), "{server}: {r}");
        assert!(
            r["eras"][0]["exercised"].as_array().unwrap().len() >= 3,
            "{server}: {r}"
        );
    }
}

/// A 2026-07-28 connection is checked in its own revision: its schema, `server/discover`
/// instead of the handshake, and no `ping` or `logging/setLevel` (removed in that revision),
/// so a well-behaved server gets no error (it got a protocol-version error and a failed ping).
#[tokio::test]
async fn a_2026_connection_is_checked_in_its_revision() {
    let demo = format!("{BIN} demo-server");
    let (o, r) = check(
        &demo,
        &[
            "--protocol",
            "2026-07-28",
            "--call",
            "add={\"a\":1,\"b\":2}",
        ],
    )
    .await;
    let problems: Vec<_> = rules(&r).into_iter().filter(|(s, _)| s != "info").collect();
    assert!(problems.is_empty(), "{r}");
    assert_eq!(o.status.code(), Some(0), "{r}");
    assert_eq!(
        r["eras"].as_array().unwrap().len(),
        1,
        "pinned: one era: {r}"
    );
    assert_eq!(r["eras"][0]["revision"], "2026-07-28", "{r}");
    let exercised = r["eras"][0]["exercised"].to_string();
    assert!(exercised.contains("server/discover"), "{r}");
    assert!(exercised.contains("tools/call add"), "{r}");
}

/// The API: `POST /api/servers/{name}/check` on a connected server points findings at frames,
/// and a listing of an undeclared capability is empty with a note (G5).
#[tokio::test]
async fn api_check_route_and_absent_capabilities() {
    use axum::body::Body;
    use axum::http::{Request, header};
    use http_body_util::BodyExt;
    use mcplab_mcp::{ConnectionManager, ManagerOptions};
    use tower::ServiceExt;

    const TOKEN: &str = "test-token-0123456789";
    let store = std::sync::Arc::new(mcplab_store::Store::open_in_memory().unwrap());
    let manager = ConnectionManager::new(ManagerOptions::default());
    let state = mcplab_server::AppState::new(
        manager.clone(),
        store,
        mcplab_server::Security::new(TOKEN.into(), 6274, None),
        mcplab_llm::ProviderSettings::from_vars(&Default::default()),
    );
    let app = mcplab_server::router(state);
    let post = |path: &str, body: Value, method: &str| {
        Request::builder()
            .method(method)
            .uri(path)
            .header(header::HOST, "127.0.0.1:6274")
            .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .unwrap()
    };
    let config = |name: &str, mode: &str| mcplab_protocol::ServerConfig {
        name: name.into(),
        transport: mcplab_protocol::ServerTransport::Stdio {
            command: "python3".into(),
            args: vec![rawsrv(), mode.into()],
            env: Default::default(),
            cwd: None,
        },
        timeout_ms: None,
        inherit_env: false,
        protocol: Default::default(),
    };
    manager.connect(config("bad", "bad-results")).await.unwrap();
    let body = serde_json::json!({"calls": [{"name": "string_is_error"}]});
    let resp = app
        .clone()
        .oneshot(post("/api/servers/bad/check", body, "POST"))
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let report: Value =
        serde_json::from_slice(&resp.into_body().collect().await.unwrap().to_bytes()).unwrap();
    let finding = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "is-error")
        .unwrap_or_else(|| panic!("{report}"));
    let seq = finding["frames"][0].as_u64().unwrap();
    let frames = manager.traffic().snapshot("bad").frames;
    let frame = frames.iter().find(|f| f.seq == seq).unwrap();
    assert!(frame.text.contains("\"isError\": \"no\""), "{}", frame.text);

    manager.connect(config("bare", "nocaps")).await.unwrap();
    let resp = app
        .clone()
        .oneshot(post("/api/servers/bare/resources", Value::Null, "GET"))
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let listed: Value =
        serde_json::from_slice(&resp.into_body().collect().await.unwrap().to_bytes()).unwrap();
    assert_eq!(listed["resources"], serde_json::json!([]), "{listed}");
    assert!(
        listed["note"]
            .as_str()
            .unwrap()
            .contains("does not offer resources"),
        "{listed}"
    );
    manager.shutdown().await;
}

//! `mcplab check` on the wire: the false errors and misses of the interop review (issue 24
//! item 1) against raw servers (`tests/interop/rawsrv.py`, no SDK) that each do one thing —
//! spec-valid but unusual (templates answered -32601, a remote `$ref`) or broken in one way
//! (a wrong response id, a notification with an id, a second answer, a bad log level) — over
//! stdio, streamable HTTP and the legacy HTTP+SSE transport; and every broken raw server
//! caught for its own reason (item 9).

use std::net::TcpListener;
use std::time::Duration;

use serde_json::Value;
use tokio::process::{Child, Command};

use super::check::{check, check_args, has, raw, repo, rules};

/// Findings of `rule`.
fn of<'a>(report: &'a Value, rule: &str) -> Vec<&'a Value> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == rule)
        .collect()
}

/// No errors and no warnings (notes are fine).
fn clean(report: &Value) -> bool {
    rules(report).iter().all(|(s, _)| s == "info")
}

/// A raw server over HTTP (`http`: streamable, `sse`: HTTP+SSE) on a free loopback port.
pub(crate) struct RawHttp {
    _child: Child,
    port: u16,
}

impl RawHttp {
    pub(crate) async fn start(transport: &str, modes: &str) -> Self {
        let port = mcplab_testkit::ports::spare_port();
        let mut args = vec![
            repo().join("tests/interop/rawsrv.py").display().to_string(),
            transport.to_owned(),
        ];
        args.extend(modes.split_whitespace().map(str::to_owned));
        let child = Command::new("python3")
            .args(args)
            .env("PORT", port.to_string())
            .stdout(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("python3 runs rawsrv.py");
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        while tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_err()
        {
            assert!(
                tokio::time::Instant::now() < deadline,
                "rawsrv did not listen on {port}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Self {
            _child: child,
            port,
        }
    }

    pub(crate) fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }
}

/// FP3: nothing requires resource templates; -32601 on resources/templates/list is a note.
#[tokio::test]
async fn templates_method_not_found_is_a_note_not_an_error() {
    let (o, r) = check(&raw("no-templates"), &[]).await;
    assert_eq!(o.status.code(), Some(0), "{r}");
    assert!(clean(&r), "{r}");
    assert!(!has(&r, "error", "capability-broken"), "{r}");
    assert!(has(&r, "info", "templates-unsupported"), "{r}");
}

/// FP4: a remote `$ref` is valid JSON Schema mcplab does not resolve: a note that says so,
/// and nothing is fetched (the test listens where the `$ref` points).
#[tokio::test]
async fn remote_ref_is_not_resolved_and_not_an_error() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let url = format!(
        "http://127.0.0.1:{}/schemas/address.json",
        listener.local_addr().unwrap().port()
    );
    let (o, r) = check(&format!("env RAWSRV_REF={url} {}", raw("remote-ref")), &[]).await;
    assert_eq!(o.status.code(), Some(0), "{r}");
    assert!(clean(&r), "{r}");
    let note = of(&r, "schema-remote-ref");
    assert_eq!(note.len(), 1, "{r}");
    let message = note[0]["message"].as_str().unwrap();
    assert!(message.contains(&url), "{message}");
    assert!(message.contains("not resolved"), "{message}");
    assert!(
        listener.accept().is_err(),
        "check must never fetch a remote $ref"
    );
}

/// FN1: a response with the wrong id is named at once — the stray id and the request still
/// waiting — instead of the request timing out (60 s) as "no response". The check's own
/// deadline (`check_args`: 60 s) fails this test if it waits.
#[tokio::test]
async fn a_wrong_response_id_is_named_at_once() {
    let (o, r) = check(&raw("wrong-id"), &[]).await;
    assert_eq!(o.status.code(), Some(1), "{r}");
    let found = of(&r, "response-id");
    assert_eq!(found.len(), 1, "{r}");
    // rawsrv answers request id N with id 1000 + N.
    let message = found[0]["message"].as_str().unwrap();
    let asked: u64 = message
        .split("`tools/list` (id ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("names the request waiting: {message}"));
    assert!(
        message.contains(&format!("a response with id {}", 1000 + asked)),
        "{message}"
    );
    assert_eq!(found[0]["path"], "/id", "{r}");
    assert!(found[0]["frames"][0].is_u64(), "{r}");
    assert!(
        !r.to_string().contains("no response within"),
        "no timeout: {r}"
    );
    // The failed listing is not blamed on the capability as well.
    assert!(!has(&r, "error", "capability-broken"), "{r}");
}

/// FN2: a notification that carries an id is reported, at the id; a second answer to one
/// request too.
#[tokio::test]
async fn notification_with_an_id_and_a_second_answer_are_reported() {
    let (o, r) = check(&raw("notify-id"), &[]).await;
    assert_eq!(o.status.code(), Some(1), "{r}");
    let found = of(&r, "notification-id");
    assert_eq!(found.len(), 1, "{r}");
    assert_eq!(found[0]["path"], "/id", "{r}");
    assert_eq!(found[0]["excerpt"], "77", "{r}");
    // `twice` answers every ping twice (mcplab's discover-probe ping too).
    let (o, r) = check(&raw("twice"), &[]).await;
    assert_eq!(o.status.code(), Some(1), "{r}");
    let second = of(&r, "response-id")
        .into_iter()
        .find(|f| {
            f["message"]
                .as_str()
                .unwrap()
                .contains("a second response to id 2")
        })
        .unwrap_or_else(|| panic!("{r}"));
    assert_eq!(second["frames"].as_array().unwrap().len(), 2, "{r}");
}

/// Every frame is judged on every transport: the same broken server (a notification with an
/// id, a log level the schema does not have, a stray response id) over stdio, streamable HTTP
/// and HTTP+SSE gives the same findings, each naming its rule, spec section and frame.
#[tokio::test]
async fn every_frame_is_validated_on_stdio_http_and_sse() {
    const MODES: &str = "notify-id bad-log wrong-id";
    let http = RawHttp::start("http", MODES).await;
    let sse = RawHttp::start("sse", MODES).await;
    let stdio = raw(MODES);
    let (http_url, sse_url) = (http.url("/mcp"), sse.url("/sse"));
    let targets: [(&str, Vec<&str>); 3] = [
        ("stdio", vec!["--stdio", &stdio]),
        ("http", vec!["--url", &http_url]),
        ("sse", vec!["--url", &sse_url, "--transport", "sse"]),
    ];
    for (transport, args) in targets {
        let (o, r) = check_args(&args).await;
        assert_eq!(o.status.code(), Some(1), "{transport}: {r}");
        let mut errors: Vec<String> = rules(&r)
            .into_iter()
            .filter(|(s, _)| s == "error")
            .map(|(_, rule)| rule)
            .collect();
        errors.sort();
        assert_eq!(
            errors,
            ["notification-id", "response-id", "schema"],
            "{transport}: {r}"
        );
        // Only the request the stray answer left waiting (the handshake's answer matched,
        // also on a new HTTP connection whose ids start again at 0).
        let stray = of(&r, "response-id")[0]["message"].as_str().unwrap();
        assert!(
            stray.contains("waiting for an answer: `tools/list` (id "),
            "{transport}: {stray}"
        );
        assert!(!stray.contains("initialize"), "{transport}: {stray}");
        let schema = &of(&r, "schema")[0];
        assert_eq!(schema["path"], "/params/level", "{transport}: {schema}");
        for f in r["findings"].as_array().unwrap() {
            if f["severity"] != "error" {
                continue;
            }
            let source = f["source"].as_str().unwrap();
            assert!(
                source.starts_with("https://modelcontextprotocol.io/specification/2025-11-25/"),
                "{transport}: {f}"
            );
            assert!(f["frames"][0].is_u64(), "{transport}: {f}");
        }
    }
}

/// A tool list longer than the traffic log's preview (16 KiB) is judged whole: a bad tool at
/// its end is still found (the rules once read only the preview, and skipped the frame).
#[tokio::test]
async fn a_long_tool_list_is_judged_whole() {
    let (o, r) = check(&raw("many-tools bad-last"), &[]).await;
    assert_eq!(o.status.code(), Some(1), "{r}");
    let found = of(&r, "input-schema");
    assert_eq!(found.len(), 1, "{r}");
    assert_eq!(found[0]["path"], "/result/tools/300/inputSchema", "{r}");
}

/// Item 9: each raw server that breaks one rule is caught for that reason, with that rule's
/// severity and the exit code it calls for, and with nothing else at error level (a server
/// that cannot be connected also fails the `initialize` rule).
#[tokio::test]
async fn each_broken_raw_server_is_caught_for_its_reason() {
    let cases: &[(&str, &[&str], &str, &str, i32)] = &[
        ("wrong-id", &[], "error", "response-id", 1),
        ("twice", &[], "error", "response-id", 1),
        ("notify-id", &[], "error", "notification-id", 1),
        ("bad-log", &[], "error", "schema", 1),
        ("fraction-id", &[], "error", "schema", 1),
        ("noise", &[], "error", "stdout-noise", 1),
        ("loop-cursor", &[], "error", "pagination", 1),
        ("dup-tool", &[], "error", "tool-duplicate", 1),
        ("bad-name", &[], "warning", "tool-name", 0),
        ("future-proto", &[], "error", "protocol-version", 3),
        ("noproto", &[], "error", "schema", 3),
        ("bad-message", &[], "error", "schema", 3),
        (
            "no-structured",
            &["--call", "weather"],
            "error",
            "structured-content",
            1,
        ),
        (
            "bad-results",
            &["--call", "mismatch"],
            "error",
            "structured-content",
            1,
        ),
        (
            "bad-results",
            &["--call", "unknown_content"],
            "error",
            "content-type",
            1,
        ),
        (
            "bad-results",
            &["--call", "string_is_error"],
            "error",
            "is-error",
            1,
        ),
        ("undeclared", &[], "warning", "list-changed", 0),
    ];
    for (modes, extra, severity, rule, exit) in cases {
        let (o, r) = check(&raw(modes), extra).await;
        assert!(
            has(&r, severity, rule),
            "{modes}: expected {severity} {rule}: {r}"
        );
        let others: Vec<_> = rules(&r)
            .into_iter()
            .filter(|(s, x)| s == "error" && x != rule && !(*exit == 3 && x == "initialize"))
            .collect();
        assert!(others.is_empty(), "{modes}: other errors {others:?}: {r}");
        assert_eq!(o.status.code(), Some(*exit), "{modes}: {r}");
    }
}

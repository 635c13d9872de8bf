//! Interop with servers written with the official Python SDK (`tests/python/kitchen.py`): 1.x
//! FastMCP and 2.x MCPServer, over stdio, streamable HTTP (SSE-framed and JSON responses) and
//! legacy SSE, driven through the real `mcplab` binary. The venvs come from
//! `tests/python/setup.sh` (scripts/test.sh runs it); without them these tests fail and say so.

use std::process::Output;

use serde_json::Value;
use tokio::process::Child;

use super::peer_support::{kitchen_http, kitchen_stdio, mcplab};

/// How the CLI reaches the server under test (and the HTTP server process, if any).
struct Target {
    args: Vec<String>,
    _server: Option<Child>,
}

/// SDK 2.x speaks 2026-07-28 too, which `auto` would pick: these tests cover the handshake era
/// (the 2026-07-28 era of SDK 2.x is `interop_sdk2.rs`'s), so 2.x is pinned to 2025-11-25.
fn era(major: u8) -> Vec<String> {
    if major >= 2 {
        vec!["--protocol".into(), "2025-11-25".into()]
    } else {
        Vec::new()
    }
}

async fn target(major: u8, mode: &str) -> Target {
    if mode == "stdio" {
        let mut args = era(major);
        args.extend(["--stdio".into(), kitchen_stdio(major)]);
        return Target {
            args,
            _server: None,
        };
    }
    let (child, port) = kitchen_http(major, mode).await;
    let mut args = era(major);
    args.extend(["--oauth".to_owned(), "off".into(), "--url".into()]);
    if mode == "sse" {
        args.push(format!("http://127.0.0.1:{port}/sse"));
        args.extend(["--transport".into(), "sse".into()]);
    } else {
        args.push(format!("http://127.0.0.1:{port}/mcp"));
    }
    Target {
        args,
        _server: Some(child),
    }
}

async fn run(t: &Target, args: &[&str]) -> Output {
    let mut all: Vec<&str> = t.args.iter().map(String::as_str).collect();
    all.extend(args);
    mcplab(&all).await
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

async fn ok(t: &Target, args: &[&str]) -> String {
    let o = run(t, args).await;
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {out}{err}");
    out
}

/// The same exercise for every SDK and transport.
async fn exercise(major: u8, mode: &str) {
    let t = target(major, mode).await;
    let listed = ok(&t, &["tools", "list"]).await;
    assert!(listed.contains("create_order"), "{listed}");
    let order = ok(
        &t,
        &[
            "tools",
            "call",
            "create_order",
            "-a",
            "customer.name=Ada",
            "-a",
            "customer.address.city=Paris",
            "-a",
            "items=[\"tea\"]",
            "-a",
            "priority=high",
        ],
    )
    .await;
    assert!(
        order.contains("order for Ada in Paris: 1 item(s), high, note=None"),
        "{order}"
    );
    // G7: FastMCP's {"result": …} wrapper is not printed next to the same text.
    assert_eq!(order.matches("order for Ada").count(), 1, "{order}");
    let weather = ok(
        &t,
        &["--json", "tools", "call", "weather", "-a", "city=Oslo"],
    )
    .await;
    let v: Value = serde_json::from_str(&weather).unwrap();
    assert_eq!(v["structuredContent"]["celsius"], 21.5, "{v}");
    let o = run(&t, &["tools", "call", "fail"]).await;
    assert_eq!(o.status.code(), Some(1), "{:?}", text(&o));
    let o = run(&t, &["tools", "call", "slow", "-a", "steps=2"]).await;
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    // JSON responses carry no notifications of the request (logs are dropped by the SDK).
    if mode != "http-json" {
        assert!(err.contains("warning at step 2"), "logs on stderr: {err}");
    }
    let summary = ok(&t, &["tools", "call", "summarize", "-a", "text=hi"]).await;
    assert!(summary.contains("sampling refused"), "{summary}");
    let completed = ok(
        &t,
        &[
            "complete", "--prompt", "greet", "--arg", "language", "--value", "e",
        ],
    )
    .await;
    assert_eq!(
        completed.lines().collect::<Vec<_>>(),
        ["english", "esperanto"]
    );
    let prompt = ok(&t, &["prompts", "get", "greet", "-a", "language=french"]).await;
    assert!(prompt.contains("Say hello in french."), "{prompt}");
    let recipe = ok(&t, &["resources", "read", "kitchen://recipes/soup"]).await;
    assert!(recipe.contains("recipe of soup"), "{recipe}");
    // A JSON-response server has no channel for server-initiated requests (an SDK limitation).
    if mode != "http-json" {
        // B1: the Optional field arrives as anyOf [string, null].
        let asked = ok(
            &t,
            &["--elicitation", "accept-defaults", "tools", "call", "ask"],
        )
        .await;
        assert!(asked.contains("accept name=Ada nick=None"), "{asked}");
        let declined = ok(&t, &["--elicitation", "decline", "tools", "call", "ask"]).await;
        assert!(declined.starts_with("decline"), "{declined}");
    }
    // The checker finds nothing wrong with the SDK's server (or says what, and we look).
    let o = run(
        &t,
        &["check", "--json", "--call", "weather={\"city\":\"Oslo\"}"],
    )
    .await;
    let (out, err) = text(&o);
    let report: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{out}{err}"));
    let errors: Vec<&Value> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "error")
        .collect();
    assert!(errors.is_empty(), "SDK {major}.x {mode}: {errors:#?}");
}

#[tokio::test]
async fn python_sdk1_fastmcp_stdio() {
    exercise(1, "stdio").await;
    // G3: the server's stderr (its traceback) is shown live.
    let t = target(1, "stdio").await;
    let o = run(&t, &["tools", "call", "fail"]).await;
    assert!(text(&o).1.contains("kitchen boom"), "{:?}", text(&o));
}

#[tokio::test]
async fn python_sdk1_fastmcp_streamable_http() {
    exercise(1, "http").await;
}

#[tokio::test]
async fn python_sdk1_fastmcp_json_responses() {
    exercise(1, "http-json").await;
}

#[tokio::test]
async fn python_sdk1_fastmcp_legacy_sse() {
    exercise(1, "sse").await;
}

#[tokio::test]
async fn python_sdk2_mcpserver_stdio() {
    exercise(2, "stdio").await;
}

#[tokio::test]
async fn python_sdk2_mcpserver_streamable_http() {
    exercise(2, "http").await;
}

#[tokio::test]
async fn python_sdk2_mcpserver_json_responses() {
    exercise(2, "http-json").await;
}

#[tokio::test]
async fn python_sdk2_mcpserver_legacy_sse() {
    exercise(2, "sse").await;
}

//! Interop with servers written with the official SDKs that speak protocol 2026-07-28: the
//! TypeScript SDK 2.x (`@modelcontextprotocol/server`, tests/interop/ts/server.mjs, run with
//! the Node 22 of tests/npm) and the Python SDK 2.x (`mcp`, tests/interop/python/server.py in
//! the venv `tests/interop/python/setup.sh` makes). Each over stdio and stateless streamable
//! HTTP on loopback, in both eras: `auto` must find 2026-07-28, and a 2025-11-25 pin must still
//! work where the SDK serves the handshake too.

use std::collections::BTreeMap;
use std::sync::Arc;

use mcplab_mcp::{Connection, ConnectionManager, ManagerOptions, RequestOptions};
use mcplab_protocol::{
    Direction, Era, HumanAnswer, ProtocolChoice, ServerConfig, ServerEvent, ServerTransport,
};
use serde_json::{Value, json};
use tokio::process::Command;

use super::peer_support::{Served, node22, repo};

/// The TypeScript server's command line (it imports its packages from tests/npm).
fn ts_server(mode: &str) -> (String, Vec<String>, BTreeMap<String, String>) {
    let script = repo().join("tests/interop/ts/server.mjs");
    let args = vec![script.display().to_string(), mode.into()];
    (node22(), args, BTreeMap::new())
}

fn python() -> String {
    let py = repo().join("tests/interop/python/.venv/bin/python");
    assert!(
        py.exists(),
        "the Python SDK 2.x is not installed: run tests/interop/python/setup.sh"
    );
    py.display().to_string()
}

fn py_server(mode: &str) -> (String, Vec<String>, BTreeMap<String, String>) {
    let script = repo().join("tests/interop/python/server.py");
    (
        python(),
        vec![script.display().to_string(), mode.into()],
        BTreeMap::new(),
    )
}

fn stdio(
    name: &str,
    protocol: ProtocolChoice,
    cmd: (String, Vec<String>, BTreeMap<String, String>),
) -> ServerConfig {
    let (command, args, env) = cmd;
    ServerConfig {
        name: name.into(),
        transport: ServerTransport::Stdio {
            command,
            args,
            env,
            cwd: Some(repo().join("tests/interop").display().to_string()),
        },
        timeout_ms: None,
        inherit_env: false,
        protocol,
    }
}

fn http(name: &str, protocol: ProtocolChoice, port: u16) -> ServerConfig {
    ServerConfig {
        name: name.into(),
        transport: ServerTransport::Http {
            url: format!("http://127.0.0.1:{port}/mcp"),
            headers: BTreeMap::new(),
            oauth: None,
        },
        timeout_ms: None,
        inherit_env: false,
        protocol,
    }
}

/// An SDK server in HTTP mode on a free loopback port; killed on drop.
async fn start_http(cmd: (String, Vec<String>, BTreeMap<String, String>)) -> Served {
    let (command, args, env) = cmd;
    let mut server = Command::new(command);
    server
        .args(args)
        .envs(env)
        .current_dir(repo().join("tests/interop"));
    Served::start(server).await
}

async fn call(conn: &Connection, name: &str, args: Value) -> Value {
    let params = Some(json!({"name": name, "arguments": args}));
    conn.request("tools/call", params, RequestOptions::default())
        .await
        .unwrap_or_else(|e| panic!("{name} failed: {e}"))
}

fn text(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

async fn connect(config: ServerConfig) -> (Arc<ConnectionManager>, Arc<Connection>) {
    let manager = ConnectionManager::new(ManagerOptions::default());
    let conn = manager.connect(config).await.expect("connects");
    (manager, conn)
}

fn assert_era(conn: &Connection, protocol: ProtocolChoice) {
    let want = if protocol == ProtocolChoice::V2025_11_25 {
        Era::Legacy
    } else {
        Era::Modern
    };
    assert_eq!(conn.era().era, want, "{:?}", conn.era());
}

/// What both SDKs' servers do alike: speak `protocol`'s era, echo, and serve a readme at
/// `readme` that names them (`says`).
async fn assert_echo_and_readme(
    conn: &Connection,
    protocol: ProtocolChoice,
    readme: &str,
    says: &str,
) {
    assert_era(conn, protocol);
    assert_eq!(
        text(&call(conn, "echo", json!({"message": "hi"})).await),
        "echo: hi"
    );
    let read = conn
        .request(
            "resources/read",
            Some(json!({ "uri": readme })),
            RequestOptions::default(),
        )
        .await
        .unwrap();
    let body = read["contents"][0]["text"].as_str().unwrap();
    assert!(body.contains(says), "{body}");
}

/// The TypeScript server: echo, a resource, and in 2026-07-28 an input_required round whose
/// requestState comes back.
async fn exercise_ts(
    manager: &Arc<ConnectionManager>,
    conn: &Connection,
    protocol: ProtocolChoice,
) {
    assert_echo_and_readme(conn, protocol, "ts://readme", "TypeScript SDK 2.x").await;
    if protocol == ProtocolChoice::V2025_11_25 {
        return;
    }
    let mut events = manager.subscribe();
    let broker = manager.broker().clone();
    let answer = tokio::spawn(async move {
        while let Ok(e) = events.recv().await {
            if let ServerEvent::HumanRequested { request } = e {
                broker.answer(
                    request.id,
                    HumanAnswer::Accept {
                        content: json!({"name": "Ada"}),
                    },
                );
                return;
            }
        }
    });
    let greeted = call(conn, "greet", json!({})).await;
    answer.await.unwrap();
    assert_eq!(text(&greeted), "hello Ada (greet-round-1)");
}

async fn exercise_py(conn: &Connection, protocol: ProtocolChoice) {
    assert_echo_and_readme(conn, protocol, "py://readme", "Python SDK 2.x").await;
    assert_eq!(
        call(conn, "add", json!({"a": 2, "b": 40})).await["structuredContent"]["result"],
        42
    );
}

#[tokio::test]
async fn typescript_sdk2_over_stdio_in_both_eras() {
    for protocol in [ProtocolChoice::Auto, ProtocolChoice::V2025_11_25] {
        let (manager, conn) = connect(stdio("ts", protocol, ts_server("stdio"))).await;
        exercise_ts(&manager, &conn, protocol).await;
        manager.shutdown().await;
    }
}

#[tokio::test]
async fn typescript_sdk2_over_stateless_http_in_both_eras() {
    let server = start_http(ts_server("http")).await;
    for protocol in [ProtocolChoice::Auto, ProtocolChoice::V2025_11_25] {
        let (manager, conn) = connect(http("ts-http", protocol, server.port)).await;
        exercise_ts(&manager, &conn, protocol).await;
        if protocol == ProtocolChoice::Auto {
            // What went over the wire: the metadata headers, recorded with the frame.
            let frames = manager.traffic().snapshot("ts-http").frames;
            let echo = frames
                .iter()
                .find(|f| f.direction == Direction::Outbound && f.text.contains("\"echo\""))
                .unwrap();
            let headers = echo.headers.clone().unwrap();
            assert!(
                headers.contains(&("Mcp-Name".into(), "echo".into())),
                "{headers:?}"
            );
        }
        manager.shutdown().await;
    }
}

#[tokio::test]
async fn python_sdk2_over_stdio_in_both_eras() {
    for protocol in [ProtocolChoice::Auto, ProtocolChoice::V2025_11_25] {
        let (manager, conn) = connect(stdio("py", protocol, py_server("stdio"))).await;
        exercise_py(&conn, protocol).await;
        manager.shutdown().await;
    }
}

#[tokio::test]
async fn python_sdk2_over_stateless_http_in_both_eras() {
    let server = start_http(py_server("http")).await;
    for protocol in [ProtocolChoice::Auto, ProtocolChoice::V2025_11_25] {
        let (manager, conn) = connect(http("py-http", protocol, server.port)).await;
        exercise_py(&conn, protocol).await;
        manager.shutdown().await;
    }
}

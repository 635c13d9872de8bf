//! Interop against an independently written server, `@modelcontextprotocol/server-everything`
//! from npm (installed by `npm ci` in tests/npm), over stdio, streamable HTTP and legacy SSE.
//! HTTP modes listen on loopback only, forced by tests/npm/loopback.cjs.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use mcplab_mcp::{Connection, ConnectionManager, Listing, ManagerOptions, RequestOptions};
use mcplab_protocol::{HumanAnswer, ServerConfig, ServerEvent, ServerTransport};
use serde_json::{Value, json};
use tokio::process::Command;
use tokio::sync::{broadcast, mpsc};

use super::peer_support::Served;

fn npm_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/npm")
}

fn everything() -> PathBuf {
    let p = npm_dir().join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(
        p.exists(),
        "server-everything is not installed: run `npm ci` in tests/npm"
    );
    p
}

/// server-everything in an HTTP mode on a free loopback port; killed on drop.
pub(crate) async fn start_http(mode: &str) -> Served {
    let mut node = Command::new("node");
    node.arg("--require")
        .arg(npm_dir().join("loopback.cjs"))
        .arg(everything())
        .arg(mode);
    Served::start(node).await
}

fn config(name: &str, transport: ServerTransport) -> ServerConfig {
    ServerConfig {
        name: name.into(),
        transport,
        timeout_ms: None,
        inherit_env: false,
        protocol: Default::default(),
    }
}

async fn next_event(
    rx: &mut mcplab_mcp::EventReceiver,
    within: Duration,
    pred: impl Fn(&ServerEvent) -> bool,
) -> ServerEvent {
    tokio::time::timeout(within, async {
        loop {
            match rx.recv().await {
                Ok(e) if pred(&e) => return e,
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(e) => panic!("event stream ended: {e}"),
            }
        }
    })
    .await
    .expect("the event arrives in time")
}

async fn call(conn: &Connection, name: &str, args: Value) -> Value {
    conn.request(
        "tools/call",
        Some(json!({"name": name, "arguments": args})),
        RequestOptions::default(),
    )
    .await
    .unwrap_or_else(|e| panic!("{name} failed: {e}"))
}

/// The same exercise over every transport.
async fn exercise(manager: &Arc<ConnectionManager>, conn: &Connection) {
    // server-everything speaks the handshake era only: `auto` falls back and says why.
    let era = conn.era();
    assert_eq!(era.era, mcplab_protocol::Era::Legacy, "{era:?}");
    assert!(
        era.how.contains("fell back") || era.how.contains("HTTP+SSE"),
        "{}",
        era.how
    );
    // G1: a tool that requires task augmentation (2025-11-25 experimental tasks) runs to
    // its result through tasks/get and tasks/result.
    let research = call(conn, "simulate-research-query", json!({"topic": "interop"})).await;
    assert!(
        research.to_string().contains("research report"),
        "{research}"
    );
    let task = &conn.tasks()[0];
    assert_eq!(task.flavor, mcplab_protocol::TaskFlavor::Experimental);
    assert_eq!(task.status, "completed");
    let mut events = manager.subscribe();
    let opts = RequestOptions::default;
    for (listing, at_least) in [
        (Listing::Tools, 10),
        (Listing::Resources, 3),
        (Listing::Prompts, 2),
        (Listing::ResourceTemplates, 1),
    ] {
        let all = conn.list_all(listing, opts()).await.unwrap();
        let (method, key) = (listing.method(), listing.key());
        let n = all[key].as_array().unwrap().len();
        assert!(n >= at_least, "{method}: {n} {key}");
    }

    let echoed = call(conn, "echo", json!({"message": "interop"})).await;
    assert!(
        echoed["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("interop")
    );

    let (tx, mut rx) = mpsc::unbounded_channel();
    let long = conn
        .request(
            "tools/call",
            Some(json!({"name": "trigger-long-running-operation", "arguments": {"duration": 1, "steps": 3}})),
            RequestOptions {
                progress: Some(tx),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_ne!(long["isError"], true, "{long}");
    let mut progress = Vec::new();
    while let Ok(p) = rx.try_recv() {
        progress.push(p.progress);
    }
    assert_eq!(progress.len(), 3, "{progress:?}");

    let broker = manager.broker().clone();
    let mut ev = manager.subscribe();
    let answer = tokio::spawn(async move {
        if let ServerEvent::HumanRequested { request } =
            next_event(&mut ev, Duration::from_secs(20), |e| {
                matches!(e, ServerEvent::HumanRequested { .. })
            })
            .await
        {
            assert!(request.params["requestedSchema"].is_object());
            broker.answer(
                request.id,
                HumanAnswer::Accept {
                    content: json!({"name": "Ada Lovelace"}),
                },
            );
        }
    });
    let elicited = call(conn, "trigger-elicitation-request", json!({})).await;
    answer.await.unwrap();
    assert!(elicited.to_string().contains("Ada Lovelace"), "{elicited}");

    let read = conn
        .request(
            "resources/read",
            Some(json!({"uri": "demo://resource/dynamic/text/7"})),
            opts(),
        )
        .await
        .unwrap();
    assert_eq!(read["contents"][0]["uri"], "demo://resource/dynamic/text/7");

    let uri = "demo://resource/dynamic/text/1";
    conn.request("resources/subscribe", Some(json!({"uri": uri})), opts())
        .await
        .unwrap();
    call(conn, "toggle-subscriber-updates", json!({})).await;
    next_event(
        &mut events,
        Duration::from_secs(20),
        |e| matches!(e, ServerEvent::ResourceUpdated { uri: u, .. } if u == uri),
    )
    .await;
}

#[tokio::test]
async fn server_everything_over_stdio() {
    let manager = ConnectionManager::new(ManagerOptions::default());
    let conn = manager
        .connect(config(
            "everything",
            ServerTransport::Stdio {
                command: "node".into(),
                args: vec![everything().display().to_string(), "stdio".into()],
                env: BTreeMap::new(),
                cwd: None,
            },
        ))
        .await
        .expect("connects over stdio");
    exercise(&manager, &conn).await;
    manager.shutdown().await;
}

#[tokio::test]
async fn server_everything_over_streamable_http() {
    let server = start_http("streamableHttp").await;
    let manager = ConnectionManager::new(ManagerOptions::default());
    let conn = manager
        .connect(config(
            "everything-http",
            ServerTransport::Http {
                url: format!("http://127.0.0.1:{}/mcp", server.port),
                headers: BTreeMap::new(),
                oauth: None,
            },
        ))
        .await
        .expect("connects over streamable HTTP");
    exercise(&manager, &conn).await;
    manager.shutdown().await;
}

#[tokio::test]
async fn server_everything_over_legacy_sse() {
    let server = start_http("sse").await;
    let manager = ConnectionManager::new(ManagerOptions::default());
    let conn = manager
        .connect(config(
            "everything-sse",
            ServerTransport::Sse {
                url: format!("http://127.0.0.1:{}/sse", server.port),
                headers: BTreeMap::new(),
                oauth: None,
            },
        ))
        .await
        .expect("connects over SSE");
    exercise(&manager, &conn).await;
    manager.shutdown().await;
}

#[tokio::test]
async fn cli_against_server_everything_over_http() {
    let server = start_http("streamableHttp").await;
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mcplab"))
        .args([
            "--url",
            &format!("http://127.0.0.1:{}/mcp", server.port),
            "tools",
            "call",
            "get-sum",
            "-a",
            "a=2",
            "-a",
            "b=3",
        ])
        .env("MCPLAB_DATA_DIR", dir.path())
        .output()
        .await
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("The sum of 2 and 3 is 5"), "{stdout}");
}

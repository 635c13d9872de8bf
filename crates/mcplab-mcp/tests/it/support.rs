//! Shared by the tests: the demo server served in this process over a byte stream, a tool
//! call, a result's text and a bounded wait for an event (in_process.rs, modern.rs); a
//! scripted HTTP server on loopback and a config that connects to it (hostile*.rs,
//! oauth_ssrf.rs).

use std::sync::Arc;
use std::time::Duration;

use mcplab_mcp::{Connection, ConnectionManager, ManagerOptions, McpError, RequestOptions};
use mcplab_protocol::{ProtocolChoice, ServerConfig, ServerEvent, ServerTransport};
use serde_json::{Value, json};
use tokio::task::JoinHandle;

/// The testkit's demo server run in this process over a duplex byte stream (the same
/// connection code as a child process, minus the process), and a manager connected to it as
/// `demo` with `protocol`. Aborting the handle stops the server.
pub async fn demo_in_process(
    protocol: ProtocolChoice,
    opts: ManagerOptions,
) -> (Arc<ConnectionManager>, Arc<Connection>, JoinHandle<()>) {
    let manager = ConnectionManager::new(opts);
    let (client_io, server_io) = tokio::io::duplex(1 << 16);
    let (sr, sw) = tokio::io::split(server_io);
    let server = tokio::spawn(async move {
        let _ = mcplab_testkit::serve_io(sr, sw).await;
    });
    let (cr, cw) = tokio::io::split(client_io);
    let conn = manager
        .connect_io_with("demo", protocol, cr, cw)
        .await
        .expect("connects");
    (manager, conn, server)
}

/// `tools/call` of `name` with `args`.
pub async fn call(conn: &Connection, name: &str, args: Value) -> Result<Value, McpError> {
    let params = Some(json!({ "name": name, "arguments": args }));
    conn.request("tools/call", params, RequestOptions::default())
        .await
}

/// A tool result's text parts, one a line.
pub fn text_of(result: &Value) -> String {
    result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Waits (bounded) for the first event matching `pred`.
pub async fn next_event(
    rx: &mut mcplab_mcp::EventReceiver,
    pred: impl Fn(&ServerEvent) -> bool,
) -> ServerEvent {
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let e = rx.recv().await.expect("event stream open");
            if pred(&e) {
                return e;
            }
        }
    })
    .await
    .expect("event arrives in time")
}

/// Serves `handler` at /mcp on loopback: its URL, and the task whose abort stops it.
pub async fn http_server<H, T>(handler: H) -> (String, JoinHandle<()>)
where
    H: axum::handler::Handler<T, ()>,
    T: 'static,
{
    let app = axum::Router::new().route("/mcp", axum::routing::any(handler));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (url, task)
}

/// A streamable HTTP server at `url` named `name`, spoken to in `protocol`.
pub fn http_config(name: &str, url: &str, protocol: ProtocolChoice) -> ServerConfig {
    ServerConfig {
        name: name.into(),
        transport: ServerTransport::Http {
            url: url.into(),
            headers: Default::default(),
            oauth: None,
        },
        timeout_ms: None,
        inherit_env: false,
        protocol,
    }
}

/// Asserts that a connect failed on an `application/json` answer `this is not json` and says
/// so with what came.
pub fn assert_not_json_quoted(message: &str) {
    for part in [
        "unparsable",
        "HTTP 200",
        "application/json",
        "this is not json",
    ] {
        assert!(message.contains(part), "{part} missing: {message}");
    }
}

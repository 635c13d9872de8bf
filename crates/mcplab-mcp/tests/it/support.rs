//! Shared by the in-process tests (in_process.rs, modern.rs): the demo server served in this
//! process over a byte stream, a tool call, a result's text, and a bounded wait for an event.

use std::sync::Arc;
use std::time::Duration;

use mcplab_mcp::{Connection, ConnectionManager, ManagerOptions, McpError, RequestOptions};
use mcplab_protocol::{ProtocolChoice, ServerEvent};
use serde_json::{Value, json};
use tokio::sync::broadcast;
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
    rx: &mut broadcast::Receiver<ServerEvent>,
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

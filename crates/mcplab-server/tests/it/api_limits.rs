//! The byte budget as `serve` applies it: a server floods large notifications; the traffic the
//! API lists is truncated to the preview size with each whole frame one request away while it
//! is recorded, the host event ring stays within its bytes, and clearing the traffic lets go.

use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use mcplab_mcp::{ConnectionManager, Limits, ManagerOptions, RequestOptions};
use mcplab_protocol::ProtocolChoice;
use mcplab_server::router;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const KIB: usize = 1024;

use crate::router_support::{PORT, authed, state_with};

/// A server in this process that answers `initialize`, then floods `count` notifications of
/// `size` bytes and answers the next request.
async fn flooding_server(manager: &Arc<ConnectionManager>, count: usize, size: usize) {
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    let (sr, mut sw) = tokio::io::split(server_io);
    tokio::spawn(async move {
        let mut lines = BufReader::new(sr).lines();
        let mut answered = 0;
        while let Ok(Some(line)) = lines.next_line().await {
            let msg: Value = serde_json::from_str(&line).unwrap();
            let Some(id) = msg.get("id").cloned() else {
                continue;
            };
            let result = match answered {
                0 => json!({"protocolVersion": "2025-11-25", "capabilities": {"logging": {}},
                    "serverInfo": {"name": "flood", "version": "1"}}),
                _ => {
                    let blob = "z".repeat(size);
                    for i in 0..count {
                        let note = json!({"jsonrpc": "2.0", "method": "notifications/message",
                            "params": {"level": "info", "data": {"i": i, "blob": blob}}});
                        sw.write_all(format!("{note}\n").as_bytes()).await.unwrap();
                    }
                    json!({})
                }
            };
            answered += 1;
            let reply = json!({"jsonrpc": "2.0", "id": id, "result": result});
            sw.write_all(format!("{reply}\n").as_bytes()).await.unwrap();
        }
    });
    let (cr, cw) = tokio::io::split(client_io);
    // The script speaks the handshake era only (it answers any first request like `initialize`).
    let era = ProtocolChoice::V2025_11_25;
    let conn = manager.connect_io_with("flood", era, cr, cw).await.unwrap();
    let ping = conn.request("ping", None, RequestOptions::default());
    tokio::time::timeout(Duration::from_secs(30), ping)
        .await
        .expect("answered")
        .unwrap();
}

#[tokio::test]
async fn a_flood_is_listed_truncated_kept_whole_and_let_go() {
    let limits = Limits {
        traffic_bytes: 2 * 1024 * KIB,
        preview_bytes: KIB,
        replay_bytes: 512 * KIB,
        ..Limits::default()
    };
    let manager = ConnectionManager::new(ManagerOptions {
        limits,
        ..ManagerOptions::default()
    });
    let state = state_with(manager.clone(), PORT, &Default::default());
    let app = router(state.clone());
    flooding_server(&manager, 30, 256 * KIB).await;

    let (status, listed) = authed(&app, "GET", "/api/servers/flood/traffic", None).await;
    assert_eq!(status, StatusCode::OK);
    let frames = listed["frames"].as_array().unwrap();
    assert!(
        listed["dropped"].as_u64().unwrap() > 0,
        "older frames were evicted"
    );
    assert!(
        frames
            .iter()
            .all(|f| f["text"].as_str().unwrap().len() <= KIB)
    );
    let big = frames
        .iter()
        .find(|f| f["fullBytes"].is_u64())
        .expect("a truncated frame");
    let seq = big["seq"].as_u64().unwrap();
    let (status, whole) = authed(
        &app,
        "GET",
        &format!("/api/servers/flood/traffic/{seq}"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        whole["text"].as_str().unwrap().len() as u64,
        big["fullBytes"].as_u64().unwrap()
    );
    assert!(whole.get("fullBytes").is_none());

    assert!(manager.traffic().bytes_held() <= 2 * 1024 * KIB);
    assert!(
        state.events.bytes_held() <= 512 * KIB,
        "{}",
        state.events.bytes_held()
    );

    let (status, _) = authed(&app, "DELETE", "/api/servers/flood/traffic", None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(manager.traffic().bytes_held(), 0);
    let (status, gone) = authed(
        &app,
        "GET",
        &format!("/api/servers/flood/traffic/{seq}"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(gone["code"], "frame_gone");
}

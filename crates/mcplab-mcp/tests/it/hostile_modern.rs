//! The byte budget on the 2026-07-28 streamable HTTP wire (`modern/http.rs`): a JSON body that
//! is not JSON, a body over the message limit and an endless SSE line each fail the
//! `server/discover` handshake at once, naming what came or the limit, instead of waiting for
//! the connect timeout (or holding more than the limit).

use std::convert::Infallible;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use futures::StreamExt;
use mcplab_mcp::{ConnectionManager, Limits, ManagerOptions};
use mcplab_protocol::ProtocolChoice;

use crate::support::{assert_not_json_quoted, http_config, http_server};

/// Much shorter than the connect timeout: "fails at once", not "after the deadline".
const AT_ONCE: Duration = Duration::from_secs(10);
/// A message limit small enough for a test to go over.
const LIMIT: usize = 1024;

/// Serves `reply` to every request at /mcp on loopback; the task's handle stops it.
async fn serve(reply: fn() -> axum::response::Response) -> (String, tokio::task::JoinHandle<()>) {
    http_server(move || async move { reply() }).await
}

/// Connects to `url` pinned to 2026-07-28 with a small message limit; the error's words.
async fn connect_error(url: &str) -> String {
    let manager = ConnectionManager::new(ManagerOptions {
        limits: Limits {
            message_bytes: LIMIT,
            ..Limits::default()
        },
        ..ManagerOptions::default()
    });
    let connect = manager.connect(http_config("modern", url, ProtocolChoice::V2026_07_28));
    let result = tokio::time::timeout(AT_ONCE, connect)
        .await
        .expect("fails at once, not at the connect timeout");
    result.expect_err("the handshake must fail").to_string()
}

#[tokio::test]
async fn a_2026_answer_that_is_not_json_fails_at_once_with_what_came() {
    let (url, _server) =
        serve(|| ([(CONTENT_TYPE, "application/json")], "this is not json").into_response()).await;
    let message = connect_error(&url).await;
    assert_not_json_quoted(&message);
}

#[tokio::test]
async fn a_2026_body_over_the_message_limit_fails_at_once() {
    let (url, _server) = serve(|| {
        let pad = "x".repeat(4 * LIMIT);
        let body = format!(r#"{{"jsonrpc":"2.0","id":0,"result":{{"pad":"{pad}"}}}}"#);
        ([(CONTENT_TYPE, "application/json")], body).into_response()
    })
    .await;
    let message = connect_error(&url).await;
    assert!(message.contains("message limit"), "{message}");
}

#[tokio::test]
async fn a_2026_endless_sse_line_stops_at_the_message_limit() {
    let (url, _server) = serve(|| {
        // One `data:` line that never ends: chunks of x forever.
        let chunks = futures::stream::once(async { Ok::<_, Infallible>(Bytes::from("data: ")) })
            .chain(futures::stream::repeat_with(|| {
                Ok::<_, Infallible>(Bytes::from("x".repeat(256)))
            }));
        (
            [(CONTENT_TYPE, "text/event-stream")],
            Body::from_stream(chunks),
        )
            .into_response()
    })
    .await;
    let message = connect_error(&url).await;
    assert!(message.contains("message limit"), "{message}");
}

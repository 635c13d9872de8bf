//! A hostile server cannot make mcplab hold what it likes or wait for nothing: scripted servers
//! (in process over a byte stream, and over HTTP on loopback) send over-long and unparsable
//! responses, floods of large notifications and of elicitation requests, bodies that are not
//! JSON, and die. The assertions are on bytes held, on the errors (which name the limit), and
//! on nothing waiting for a timeout (`tokio::time::timeout` far below the request timeout).

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{Method, StatusCode, header::CONTENT_TYPE};
use axum::response::IntoResponse;
use futures::StreamExt;
use mcplab_mcp::{Connection, ConnectionManager, Limits, ManagerOptions, McpError, RequestOptions};
use mcplab_protocol::{ProtocolChoice, ServerConfig, ServerEvent, ServerStatus};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf};

use crate::support::{self, assert_not_json_quoted, http_server};

const MIB: usize = 1024 * 1024;
/// Far below the 60 s request timeout: a test that needs the timeout fails.
const AT_ONCE: Duration = Duration::from_secs(10);

type Lines = tokio::io::Lines<BufReader<ReadHalf<DuplexStream>>>;

/// The server end of an in-process connection, after the handshake.
struct Server {
    lines: Lines,
    out: WriteHalf<DuplexStream>,
}

impl Server {
    async fn read(&mut self) -> Value {
        let line = tokio::time::timeout(AT_ONCE, self.lines.next_line()).await;
        let line = line.expect("a frame in time").unwrap().expect("open");
        serde_json::from_str(&line).unwrap()
    }

    async fn write(&mut self, text: &str) {
        self.out.write_all(text.as_bytes()).await.unwrap();
        self.out.write_all(b"\n").await.unwrap();
        self.out.flush().await.unwrap();
    }
}

fn with_limits(limits: Limits) -> Arc<ConnectionManager> {
    ConnectionManager::new(ManagerOptions {
        limits,
        ..ManagerOptions::default()
    })
}

/// Connects `manager` to a scripted in-process server that answers `initialize` and returns
/// its end for the test to play.
async fn scripted(manager: &Arc<ConnectionManager>) -> (Arc<Connection>, Server) {
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    let (sr, sw) = tokio::io::split(server_io);
    let server = tokio::spawn(async move {
        let mut server = Server {
            lines: BufReader::new(sr).lines(),
            out: sw,
        };
        let init = server.read().await;
        let reply = json!({"jsonrpc": "2.0", "id": init["id"], "result": {
            "protocolVersion": "2025-11-25", "capabilities": {"logging": {}},
            "serverInfo": {"name": "hostile", "version": "1"}}});
        server.write(&reply.to_string()).await;
        assert_eq!(server.read().await["method"], "notifications/initialized");
        server
    });
    let (cr, cw) = tokio::io::split(client_io);
    let conn = manager
        .connect_io_with("hostile", ProtocolChoice::V2025_11_25, cr, cw)
        .await
        .expect("connects");
    (conn, server.await.unwrap())
}

async fn ping(conn: &Connection) -> Result<Value, McpError> {
    let call = conn.request("ping", None, RequestOptions::default());
    tokio::time::timeout(AT_ONCE, call)
        .await
        .expect("no waiting for the timeout")
}

#[tokio::test]
async fn an_over_long_response_fails_its_request_at_once() {
    let manager = with_limits(Limits {
        message_bytes: MIB,
        ..Limits::default()
    });
    let (conn, mut server) = scripted(&manager).await;
    let answer = tokio::spawn(async move {
        let request = server.read().await;
        let big = "x".repeat(2 * MIB);
        let reply = format!(
            r#"{{"jsonrpc":"2.0","id":{},"result":{{"big":"{big}"}}}}"#,
            request["id"]
        );
        server.write(&reply).await;
        let next = server.read().await;
        server
            .write(&json!({"jsonrpc": "2.0", "id": next["id"], "result": {}}).to_string())
            .await;
        server
    });
    let err = ping(&conn).await.expect_err("refused");
    let message = err.to_string();
    assert!(matches!(err, McpError::BadResponse { .. }), "{err:?}");
    assert!(
        message.contains("over the 1 MiB limit") && message.contains("--limit message"),
        "{message}"
    );
    // The connection goes on: the rest of the line was skipped.
    ping(&conn).await.expect("the next request works");
    answer.await.unwrap();
}

#[tokio::test]
async fn a_deeply_nested_response_fails_at_once() {
    let manager = with_limits(Limits::default());
    let (conn, mut server) = scripted(&manager).await;
    // The server stays: only the refusal can end the wait.
    let _server = tokio::spawn(async move {
        let request = server.read().await;
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let reply = format!(
            r#"{{"jsonrpc":"2.0","id":{},"result":{{"deep":{deep}}}}}"#,
            request["id"]
        );
        server.write(&reply).await;
        server
    });
    let err = ping(&conn).await.expect_err("unparsable");
    let message = err.to_string();
    assert!(matches!(err, McpError::BadResponse { .. }), "{err:?}");
    assert!(message.contains("unparsable response"), "{message}");
    assert!(message.contains("recursion limit"), "{message}");
}

#[tokio::test]
async fn a_notification_flood_stays_within_the_byte_budget() {
    let limits = Limits {
        traffic_bytes: 4 * MIB,
        preview_bytes: 16 * 1024,
        events_per_second: 1,
        ..Limits::default()
    };
    let manager = with_limits(limits);
    let mut events = manager.subscribe();
    let (conn, server) = scripted(&manager).await;
    let _server = flood_then_answer(&conn, server, 40, MIB / 2).await;

    let traffic = manager.traffic();
    let snapshot = traffic.snapshot("hostile");
    let shown: usize = snapshot.frames.iter().map(|f| f.text.len()).sum();
    assert!(traffic.bytes_held() <= 4 * MIB, "{}", traffic.bytes_held());
    assert!(shown <= 4 * MIB, "{shown}");
    assert!(
        snapshot.dropped > 25,
        "the oldest were evicted: {}",
        snapshot.dropped
    );
    let big = snapshot
        .frames
        .iter()
        .find(|f| f.full_bytes.is_some())
        .expect("a big frame");
    assert!(big.text.len() <= 16 * 1024);
    let whole = traffic
        .frame("hostile", big.seq)
        .expect("whole while in the ring");
    assert_eq!(whole.text.len() as u64, big.full_bytes.unwrap());

    // Forwarded: the burst, each cut to the preview size, and a note that counts the rest.
    let mut logs = 0;
    let note = tokio::time::timeout(AT_ONCE, async {
        loop {
            if let Ok(ServerEvent::Log { logger, data, .. }) = events.recv().await {
                if logger.as_deref() == Some("mcplab") {
                    return data;
                }
                assert!(
                    data.to_string().len() < 17 * 1024,
                    "cut to the preview size"
                );
                logs += 1;
            }
        }
    })
    .await
    .expect("a note about what was dropped");
    assert!(note.as_str().unwrap().contains("did not forward"), "{note}");
    assert!(logs < 40, "{logs}");

    traffic.clear("hostile");
    assert_eq!(traffic.bytes_held(), 0, "memory is let go on clear");
}

#[tokio::test]
async fn an_elicitation_flood_is_capped_per_server() {
    let manager = with_limits(Limits {
        pending_human: 4,
        ..Limits::default()
    });
    let (_conn, mut server) = scripted(&manager).await;
    for i in 0..10 {
        let ask = json!({"jsonrpc": "2.0", "id": format!("e{i}"), "method": "elicitation/create",
            "params": {"mode": "form", "message": "?", "requestedSchema": {"type": "object", "properties": {}}}});
        server.write(&ask.to_string()).await;
    }
    let mut refusals = Vec::new();
    while refusals.len() < 6 {
        let reply = server.read().await;
        let message = reply["error"]["message"]
            .as_str()
            .expect("an error reply")
            .to_string();
        refusals.push(message);
    }
    assert!(
        refusals[0].contains("`hostile`")
            && refusals[0].contains("4 elicitation/sampling requests waiting")
            && refusals[0].contains("--limit pending-human"),
        "{}",
        refusals[0]
    );
    assert_eq!(manager.broker().pending().len(), 4);
    manager.disconnect("hostile").await;
    assert!(manager.broker().pending().is_empty());
}

/// A JSON reply over HTTP.
fn json_reply(text: String) -> axum::response::Response {
    ([(CONTENT_TYPE, "application/json")], text).into_response()
}

fn http_config(url: &str) -> ServerConfig {
    support::http_config("remote", url, ProtocolChoice::default())
}

#[tokio::test]
async fn an_http_answer_that_is_not_json_fails_the_connect_at_once() {
    // B4 of the interop review: 200 application/json "this is not json" to `initialize`.
    let (url, _server) = http_server(|| async { json_reply("this is not json".into()) }).await;
    let manager = with_limits(Limits::default());
    let connect = manager.connect(http_config(&url));
    let err = tokio::time::timeout(AT_ONCE, connect)
        .await
        .expect("at once");
    let message = err.expect_err("unparsable").to_string();
    assert_not_json_quoted(&message);
    assert!(
        !message.contains("stdout"),
        "no stdio hint over HTTP: {message}"
    );
}

#[tokio::test]
async fn an_http_server_that_dies_turns_failed_with_the_reason() {
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let handler = move |verb: Method, body: Bytes| {
        let mut stopped = stopped.clone();
        async move {
            if verb == Method::GET {
                let end = async move {
                    let _ = stopped.wait_for(|s| *s).await;
                    None::<Result<Bytes, Infallible>>
                };
                let body = futures::stream::once(async { Ok(Bytes::from("retry: 10\n\n")) })
                    .chain(futures::stream::once(end).filter_map(|e| async { e }));
                return (
                    [(CONTENT_TYPE, "text/event-stream")],
                    Body::from_stream(body),
                )
                    .into_response();
            }
            let rpc: Value = serde_json::from_slice(&body).unwrap_or_default();
            let Some(id) = rpc.get("id") else {
                return StatusCode::ACCEPTED.into_response();
            };
            let result = match rpc["method"].as_str() {
                Some("initialize") => json!({"protocolVersion": "2025-11-25",
                    "capabilities": {}, "serverInfo": {"name": "mortal", "version": "1"}}),
                _ => json!({}),
            };
            json_reply(json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string())
        }
    };
    let (url, server) = http_server(handler).await;
    let manager = with_limits(Limits::default());
    let mut events = manager.subscribe();
    let conn = manager.connect(http_config(&url)).await.expect("connects");
    ping(&conn).await.expect("alive");
    server.abort();
    let _ = server.await;
    stop.send(true).unwrap();
    let message = tokio::time::timeout(AT_ONCE, async {
        loop {
            if let Ok(ServerEvent::Status {
                status: ServerStatus::Failed { message },
                ..
            }) = events.recv().await
            {
                return message;
            }
        }
    })
    .await
    .expect("the connection turns failed");
    assert!(
        message.contains("stopped accepting connections"),
        "{message}"
    );
    assert!(matches!(
        manager.status("remote"),
        Some(ServerStatus::Failed { .. })
    ));
}

/// Pings through `conn` while `server` answers it only after `count` log notifications, each
/// carrying a blob of `blob_bytes`; returns the server once the answer arrived. Not a promptness
/// test: parsing 20 MB of notifications in a debug build took over 10 s at load 20, so the answer
/// gets a generous deadline.
async fn flood_then_answer(
    conn: &Connection,
    mut server: Server,
    count: usize,
    blob_bytes: usize,
) -> Server {
    let flood = tokio::spawn(async move {
        let request = server.read().await;
        let blob = "y".repeat(blob_bytes);
        for i in 0..count {
            let note = json!({"jsonrpc": "2.0", "method": "notifications/message",
                "params": {"level": "info", "data": {"n": i, "blob": blob}}});
            server.write(&note.to_string()).await;
        }
        server
            .write(&json!({"jsonrpc": "2.0", "id": request["id"], "result": {}}).to_string())
            .await;
        server
    });
    let call = conn.request("ping", None, RequestOptions::default());
    tokio::time::timeout(Duration::from_secs(120), call)
        .await
        .expect("answered within two minutes")
        .expect("answered after the flood");
    flood.await.unwrap()
}

/// A flood's notification `n` with a 16 KB blob.
fn numbered_note(n: usize) -> String {
    json!({"jsonrpc": "2.0", "method": "notifications/message",
        "params": {"level": "info", "data": {"n": n, "blob": "y".repeat(16_000)}}})
    .to_string()
}

/// N5, per reader: 600 notifications of 16 KB (9.6 MB) while one subscriber reads each batch
/// of 50 before the next is sent and another reads nothing. The reading one gets every one; the
/// stalled one holds at most its budget, is told how many it missed, and then goes on. (Before,
/// the budget was counted over the slowest reader, and the reading one lost them too.)
#[tokio::test]
async fn a_stalled_reader_costs_only_itself_events() {
    use mcplab_mcp::event_hub::EVENT_BYTES;
    let manager = with_limits(Limits {
        events_per_second: 1_000_000,
        ..Limits::default()
    });
    let mut reading = manager.subscribe();
    let mut stalled = manager.subscribe();
    let (_conn, mut server) = scripted(&manager).await;
    let (mut next, mut notes) = (0, Vec::new());
    for batch in 1..=12 {
        for n in next..batch * 50 {
            server.write(&numbered_note(n)).await;
        }
        while next < batch * 50 {
            let event = tokio::time::timeout(AT_ONCE, reading.recv()).await;
            match event.expect("the batch in time") {
                Ok(ServerEvent::Log { logger, data, .. })
                    if logger.as_deref() == Some("mcplab") =>
                {
                    notes.push(data.as_str().unwrap().to_owned())
                }
                Ok(ServerEvent::Log { data, .. }) => {
                    assert_eq!(data["n"], next, "the reading one gets every one");
                    next += 1;
                }
                Ok(_) => {}
                Err(e) => panic!("the reading one missed events at {next}: {e:?}"),
            }
        }
        let held = stalled.queued_bytes();
        assert!(held <= EVENT_BYTES, "{held} bytes held for the stalled one");
        assert_eq!(
            manager.queued_event_bytes(),
            held,
            "and none for the reading one"
        );
    }
    let note = notes
        .first()
        .expect("a note about the reader that fell behind");
    assert!(
        note.contains("did not reach 1 reader(s) that fell behind"),
        "{note}"
    );

    // The stalled one: what fitted, then how many it missed, adding up to all that was sent.
    let (mut logs, mut lagged, mut its_notes) = (0, 0, 0);
    loop {
        match stalled.try_recv() {
            Ok(ServerEvent::Log { logger, .. }) if logger.as_deref() == Some("mcplab") => {
                its_notes += 1
            }
            Ok(ServerEvent::Log { .. }) => logs += 1,
            Ok(_) => {}
            Err(tokio::sync::broadcast::error::TryRecvError::Lagged(n)) => lagged += n,
            Err(_) => break,
        }
    }
    assert!(logs > 400, "its budget's worth: {logs}");
    assert_eq!(logs + its_notes + lagged as usize, 600 + notes.len());
    assert_eq!(manager.queued_event_bytes(), 0, "all taken: nothing held");
    server.write(&numbered_note(600)).await;
    let resumed = support::next_event(&mut stalled, |e| {
        matches!(e, ServerEvent::Log { logger: None, .. })
    });
    let ServerEvent::Log { data, .. } = resumed.await else {
        unreachable!()
    };
    assert_eq!(data["n"], 600, "the stalled one goes on with new events");
}

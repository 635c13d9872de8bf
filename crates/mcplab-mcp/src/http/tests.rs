//! Tests of the streamable HTTP wire against scripted axum servers on loopback.
use super::*;
use crate::wire::{TRANSPORT_ERROR_CODE, Wire, wire_pair};
use axum::body::Body;
use axum::extract::State;
use axum::response::{IntoResponse, Response as Reply};
use futures::StreamExt;
use reqwest::Url;
use reqwest::header::HeaderValue;
use std::convert::Infallible;

/// One request as a scripted server saw it.
#[derive(Debug, Clone)]
struct Seen {
    verb: Method,
    rpc: Option<String>,
    headers: HeaderMap,
}

impl Seen {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

type Log = Arc<Mutex<Vec<Seen>>>;
type Script = fn(&Seen, &Log) -> Reply;

/// Serves `script` on 127.0.0.1 at /mcp, logging every request first.
async fn serve(script: Script) -> (Url, Log) {
    let log = Log::default();
    let handler = move |State(log): State<Log>, verb: Method, headers: HeaderMap, body: Bytes| async move {
        let rpc = serde_json::from_slice::<Value>(&body).ok();
        let rpc = rpc.and_then(|v| v.get("method").and_then(Value::as_str).map(String::from));
        let seen = Seen { verb, rpc, headers };
        log.lock().push(seen.clone());
        script(&seen, &log)
    };
    let app = axum::Router::new()
        .route("/mcp", axum::routing::any(handler))
        .with_state(log.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = Url::parse(&format!("http://{}/mcp", listener.local_addr().unwrap())).unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, log)
}

/// An event-stream reply with `body`, then either the end of the stream or silence.
fn sse(body: String, hold_open: bool, headers: &[(&'static str, &'static str)]) -> Reply {
    let first = futures::stream::once(async move { Ok::<_, Infallible>(Bytes::from(body)) });
    let body = match hold_open {
        true => Body::from_stream(first.chain(futures::stream::pending())),
        false => Body::from_stream(first),
    };
    let mut reply = ([(CONTENT_TYPE, "text/event-stream")], body).into_response();
    for (name, value) in headers {
        reply
            .headers_mut()
            .insert(*name, HeaderValue::from_static(value));
    }
    reply
}

fn json(body: &str) -> Reply {
    ([(CONTENT_TYPE, "application/json")], body.to_string()).into_response()
}

fn start(url: Url) -> (Wire, CancellationToken, tokio::task::JoinHandle<()>) {
    let (wire, end) = wire_pair();
    let cancel = CancellationToken::new();
    let target = HttpTarget {
        url,
        headers: vec![("X-Api-Key".into(), "k1".into())],
        bearer: Some("tok".into()),
        auth: None,
        max_message: 1024 * 1024,
    };
    let handle = spawn_streamable_http(target, mcplab_net::tls::client(), end, cancel.clone());
    (wire, cancel, handle)
}

pub(crate) async fn next(wire: &mut Wire) -> WireEvent {
    let event = tokio::time::timeout(Duration::from_secs(10), wire.inbound.recv()).await;
    event
        .expect("a wire event within 10 s")
        .expect("the wire is open")
}

/// The next event that is not an HTTP exchange record.
pub(crate) async fn next_past_exchanges(wire: &mut Wire) -> WireEvent {
    loop {
        match next(wire).await {
            WireEvent::Exchange { .. } => {}
            other => return other,
        }
    }
}

/// The next frame (false) or synthetic frame (true), collecting notes on the way.
pub(crate) async fn next_message(wire: &mut Wire, notes: &mut Vec<String>) -> (bool, Value) {
    loop {
        match next(wire).await {
            WireEvent::Frame(f) | WireEvent::Carried { frame: f, .. } => {
                return (false, serde_json::from_slice(&f).unwrap());
            }
            WireEvent::Exchange { .. } => {}
            WireEvent::Synthetic(f) => return (true, serde_json::from_slice(&f).unwrap()),
            // Shaped like the error the frame transport makes of it.
            WireEvent::Unusable { why, request, .. } => {
                return (
                    true,
                    serde_json::json!({"id": request, "error": {"message": why}}),
                );
            }
            WireEvent::Note(note) => notes.push(note),
            WireEvent::Closed(why) => panic!("closed early: {why}"),
        }
    }
}

/// Drains to the one `Closed`, then checks every task let go of the channel.
pub(crate) async fn closed(wire: &mut Wire) -> String {
    let reason = loop {
        if let WireEvent::Closed(reason) = next(wire).await {
            break reason;
        }
    };
    let rest = tokio::time::timeout(Duration::from_secs(10), wire.inbound.recv()).await;
    assert!(
        rest.expect("channel ends").is_none(),
        "nothing after Closed"
    );
    reason
}

pub(crate) fn rpc(text: &str) -> Bytes {
    Bytes::from(text.to_string())
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#;

#[tokio::test]
async fn session_and_protocol_version_follow_initialize() {
    let (url, log) = serve(|seen, _| match (&seen.verb, seen.rpc.as_deref()) {
        (&Method::POST, Some("initialize")) => sse(
            "event: message\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\
             {\"protocolVersion\":\"2025-11-25\",\"capabilities\":{}}}\n\n"
                .into(),
            false,
            &[("mcp-session-id", "sess-1")],
        ),
        (&Method::POST, Some("tools/list")) => {
            json(r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}"#)
        }
        (&Method::POST, _) => StatusCode::ACCEPTED.into_response(),
        (&Method::GET, _) => StatusCode::METHOD_NOT_ALLOWED.into_response(),
        _ => StatusCode::OK.into_response(),
    })
    .await;
    let (mut wire, cancel, handle) = start(url);
    let mut notes = Vec::new();
    wire.outbound.send(rpc(INIT)).await.unwrap();
    let (synthetic, init) = next_message(&mut wire, &mut notes).await;
    assert!(!synthetic);
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25");
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    wire.outbound.send(rpc(initialized)).await.unwrap();
    wire.outbound
        .send(rpc(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#))
        .await
        .unwrap();
    let (_, list) = next_message(&mut wire, &mut notes).await;
    assert_eq!(list["id"], 2);
    // The standalone GET is opened after `initialized`; this server has none.
    while !notes.iter().any(|n| n.contains("405")) {
        match next(&mut wire).await {
            WireEvent::Note(note) => notes.push(note),
            WireEvent::Exchange { .. } => {}
            other => panic!("unexpected {other:?}"),
        }
    }
    cancel.cancel();
    assert_eq!(closed(&mut wire).await, "disconnected");
    handle.await.unwrap();

    let log = log.lock().clone();
    let init = &log[0];
    assert_eq!(init.rpc.as_deref(), Some("initialize"));
    assert_eq!(init.header(SESSION_HEADER), None);
    assert_eq!(init.header(VERSION_HEADER), None);
    assert_eq!(init.header("accept"), Some(ACCEPT_BOTH));
    assert_eq!(init.header("authorization"), Some("Bearer tok"));
    assert_eq!(init.header("x-api-key"), Some("k1"));
    let list = log.iter().find(|s| s.rpc.as_deref() == Some("tools/list"));
    let list = list.expect("tools/list was posted");
    assert_eq!(list.header(SESSION_HEADER), Some("sess-1"));
    assert_eq!(list.header(VERSION_HEADER), Some("2025-11-25"));
    assert_eq!(list.header("content-type"), Some("application/json"));
    let verbs: Vec<_> = log.iter().map(|s| s.verb.clone()).collect();
    assert!(
        verbs.contains(&Method::GET),
        "standalone stream tried: {verbs:?}"
    );
    let delete = log.iter().find(|s| s.verb == Method::DELETE);
    let delete = delete.expect("the session was ended with DELETE");
    assert_eq!(delete.header(SESSION_HEADER), Some("sess-1"));
}

#[tokio::test]
async fn dropped_response_stream_resumes_with_last_event_id() {
    let (url, log) = serve(|seen, _| match (&seen.verb, seen.header(LAST_EVENT_ID)) {
        (&Method::POST, _) => sse(
            "id: ev-1\nretry: 100\ndata: \n\nid: ev-2\ndata: {\"jsonrpc\":\"2.0\",\
             \"method\":\"notifications/progress\",\"params\":{\"progress\":1}}\n\n"
                .into(),
            false,
            &[],
        ),
        (&Method::GET, Some("ev-2")) => sse(
            "id: ev-3\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\n".into(),
            true,
            &[],
        ),
        _ => StatusCode::BAD_REQUEST.into_response(),
    })
    .await;
    let (mut wire, cancel, handle) = start(url);
    let mut notes = Vec::new();
    let call = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow"}}"#;
    wire.outbound.send(rpc(call)).await.unwrap();
    let (_, progress) = next_message(&mut wire, &mut notes).await;
    assert_eq!(progress["method"], "notifications/progress");
    let (synthetic, answer) = next_message(&mut wire, &mut notes).await;
    assert!(!synthetic, "{answer}");
    assert_eq!(answer["id"], 7);
    assert!(
        notes
            .iter()
            .any(|n| n.contains("Last-Event-ID ev-2") && n.contains("100 ms"))
    );
    stop(wire, cancel, handle).await;
    let log = log.lock().clone();
    let gets: Vec<_> = log.iter().filter(|s| s.verb == Method::GET).collect();
    assert_eq!(gets.len(), 1, "{log:?}");
    assert_eq!(gets[0].header(LAST_EVENT_ID), Some("ev-2"));
}

/// The request a dropped response stream was answering fails with each of `expected` in its
/// error; what the server saw.
async fn resume_fails_with(script: Script, expected: &[&str]) -> Log {
    let (url, log) = serve(script).await;
    let message = failure_at(url, 9, "tools/call").await;
    for part in expected {
        assert!(message.contains(part), "{part} missing: {message}");
    }
    log
}

#[tokio::test]
async fn resuming_gives_up_after_repeated_failures() {
    let script: Script = |seen, _| match seen.verb {
        Method::POST => sse("id: a\nretry: 10\n\n".into(), false, &[]),
        _ => StatusCode::SERVICE_UNAVAILABLE.into_response(),
    };
    let log = resume_fails_with(script, &["gave up", "503"]).await;
    let gets = log.lock().iter().filter(|s| s.verb == Method::GET).count();
    assert_eq!(gets, MAX_RECONNECT_FAILURES as usize);
}

#[tokio::test]
async fn a_resume_refused_with_405_fails_the_request_at_once() {
    let script: Script = |seen, _| match seen.verb {
        Method::POST => sse("id: a\nretry: 10\n\n".into(), false, &[]),
        _ => StatusCode::METHOD_NOT_ALLOWED.into_response(),
    };
    resume_fails_with(script, &["does not allow resuming it (GET returned 405)"]).await;
}

#[tokio::test]
async fn a_resume_that_is_not_an_event_stream_counts_as_a_failed_attempt() {
    let script: Script = |seen, _| match seen.verb {
        Method::POST => sse("id: a\nretry: 10\n\n".into(), false, &[]),
        _ => json("{}"),
    };
    let expected = format!(
        "gave up resuming the response stream after {MAX_RECONNECT_FAILURES} attempts (the \
         resumed stream is not text/event-stream)"
    );
    resume_fails_with(script, &[&expected]).await;
}

#[tokio::test]
async fn http_error_answers_requests_and_notes_notifications() {
    let (url, _log) =
        serve(|_, _| (StatusCode::INTERNAL_SERVER_ERROR, "boom: database down").into_response())
            .await;
    let (mut wire, _cancel, handle) = start(url);
    let mut notes = Vec::new();
    wire.outbound
        .send(rpc(r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#))
        .await
        .unwrap();
    let (synthetic, reply) = next_message(&mut wire, &mut notes).await;
    assert!(synthetic);
    assert_eq!(reply["id"], 3);
    assert_eq!(reply["error"]["code"], TRANSPORT_ERROR_CODE);
    let message = reply["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("500") && message.contains("boom: database down"),
        "{message}"
    );
    let note = r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#;
    wire.outbound.send(rpc(note)).await.unwrap();
    match next_past_exchanges(&mut wire).await {
        WireEvent::Note(note) => assert!(note.contains("500"), "{note}"),
        other => panic!("expected a note, got {other:?}"),
    }
    // Dropping our only sender closes `outbound` (the stand-in's receiver is gone at once).
    drop(std::mem::replace(
        &mut wire.outbound,
        tokio::sync::mpsc::channel(1).0,
    ));
    assert_eq!(closed(&mut wire).await, "the client closed the connection");
    handle.await.unwrap();
}

#[tokio::test]
async fn unauthorized_says_what_to_do() {
    let (url, _log) = serve(|_, _| StatusCode::UNAUTHORIZED.into_response()).await;
    let (mut wire, cancel, handle) = start(url);
    wire.outbound.send(rpc(INIT)).await.unwrap();
    let (synthetic, reply) = next_message(&mut wire, &mut Vec::new()).await;
    assert!(synthetic);
    let message = reply["error"]["message"].as_str().unwrap();
    assert!(message.contains("requires authorization"), "{message}");
    stop(wire, cancel, handle).await;
}

#[tokio::test]
async fn json_batch_body_becomes_separate_frames() {
    let (url, _log) = serve(|_, _| {
        json(
            r#"[{"jsonrpc":"2.0","method":"notifications/message","params":{}},
                {"jsonrpc":"2.0","id":4,"result":{}}]"#,
        )
    })
    .await;
    let (mut wire, cancel, handle) = start(url);
    let mut notes = Vec::new();
    wire.outbound
        .send(rpc(r#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#))
        .await
        .unwrap();
    let (_, first) = next_message(&mut wire, &mut notes).await;
    assert_eq!(first["method"], "notifications/message");
    let (_, second) = next_message(&mut wire, &mut notes).await;
    assert_eq!(second["id"], 4);
    stop(wire, cancel, handle).await;
}

#[tokio::test]
async fn unreachable_server_fails_the_request_at_once() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = Url::parse(&format!("http://{}/mcp", listener.local_addr().unwrap())).unwrap();
    drop(listener);
    let (mut wire, cancel, handle) = start(url);
    wire.outbound.send(rpc(INIT)).await.unwrap();
    let (synthetic, reply) = next_message(&mut wire, &mut Vec::new()).await;
    assert!(synthetic);
    assert_eq!(reply["id"], 1);
    let message = reply["error"]["message"].as_str().unwrap();
    assert!(message.contains("could not reach"), "{message}");
    stop(wire, cancel, handle).await;
}

/// How much a flooding server sends after its head.
const FLOOD: usize = 16 * 1024 * 1024;

/// A reply of `content_type` to request `id` whose result goes on with [`FLOOD`] bytes of `x`
/// (never ending its string, nor for SSE its line).
fn flood(content_type: &'static str, id: u64) -> Reply {
    let data = if content_type == "text/event-stream" {
        "data: "
    } else {
        ""
    };
    let head = format!(r#"{data}{{"jsonrpc":"2.0","id":{id},"result":{{"x":""#);
    let chunk = Bytes::from(vec![b'x'; 64 * 1024]);
    let body = futures::stream::once(async move { Ok::<_, Infallible>(Bytes::from(head)) })
        .chain(futures::stream::repeat(Ok(chunk)).take(FLOOD / (64 * 1024)));
    ([(CONTENT_TYPE, content_type)], Body::from_stream(body)).into_response()
}

/// Stops the transport of [`start`] and waits until it has ended.
async fn stop(mut wire: Wire, cancel: CancellationToken, handle: tokio::task::JoinHandle<()>) {
    cancel.cancel();
    closed(&mut wire).await;
    handle.await.unwrap();
}

/// The message a new transport to `url` fails request `id` (`method`) with; the transport
/// is stopped after.
async fn failure_at(url: Url, id: u64, method: &str) -> String {
    let (mut wire, cancel, handle) = start(url);
    let message = failure_of(&mut wire, id, method).await;
    stop(wire, cancel, handle).await;
    message
}

/// Sends one request and returns the error message of the synthetic reply that fails it.
async fn failure_of(wire: &mut Wire, id: u64, method: &str) -> String {
    let request = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}"}}"#);
    wire.outbound.send(rpc(&request)).await.unwrap();
    let mut notes = Vec::new();
    loop {
        let (synthetic, reply) = next_message(wire, &mut notes).await;
        if synthetic {
            assert_eq!(reply["id"], id, "{reply}");
            return reply["error"]["message"].as_str().unwrap().to_string();
        }
        assert_ne!(reply["id"], id, "answered, not failed: {reply}");
    }
}

/// The message request `id` (`method`) fails with when `script` answers it, which says it
/// went over the message limit.
async fn over_the_limit(script: Script, id: u64, method: &str) -> String {
    let (url, _log) = serve(script).await;
    let message = failure_at(url, id, method).await;
    assert!(
        message.contains("over the 1 MiB message limit"),
        "{message}"
    );
    message
}

#[tokio::test]
async fn a_json_body_over_the_limit_fails_its_request() {
    let script = |_: &Seen, _: &Log| flood("application/json", 5);
    let message = over_the_limit(script, 5, "tools/list").await;
    assert!(message.contains("--limit message"), "{message}");
}

#[tokio::test]
async fn an_sse_line_over_the_limit_fails_its_request() {
    let script = |_: &Seen, _: &Log| flood("text/event-stream", 6);
    let message = over_the_limit(script, 6, "tools/call").await;
    assert!(message.contains("response stream"), "{message}");
}

#[tokio::test]
async fn a_body_that_is_not_json_fails_at_once_with_what_came() {
    // B4 of the interop review: a 200 application/json answer that is not JSON.
    let (url, _log) = serve(|_, _| json("this is not json")).await;
    let message = failure_at(url, 1, "initialize").await;
    for part in [
        "unparsable",
        "HTTP 200",
        "application/json",
        "this is not json",
    ] {
        assert!(message.contains(part), "{part} missing: {message}");
    }
    assert!(!message.contains("stdout"), "{message}");
}

#[tokio::test]
async fn json_that_does_not_answer_the_request_fails_it() {
    let (url, _log) = serve(|_, _| json(r#"{"jsonrpc":"2.0","id":999,"result":{}}"#)).await;
    let message = failure_at(url, 8, "tools/list").await;
    assert!(
        message.contains("not its response") && message.contains("999"),
        "{message}"
    );
}

#[tokio::test]
async fn a_server_that_dies_ends_the_wire_with_the_reason() {
    // Connection truth (issue 16): the standalone stream ends and the server no longer
    // accepts connections, so the wire closes instead of looking connected.
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let handler = move |verb: Method, body: Bytes| {
        let mut stopped = stopped.clone();
        async move {
            if verb == Method::GET {
                let ends = async move {
                    let _ = stopped.wait_for(|s| *s).await;
                };
                let first = futures::stream::once(async {
                    Ok::<_, Infallible>(Bytes::from("retry: 10\nid: 1\ndata: \n\n"))
                });
                let body = first.chain(futures::stream::once(ends).filter_map(|_| async { None }));
                return (
                    [(CONTENT_TYPE, "text/event-stream")],
                    Body::from_stream(body),
                )
                    .into_response();
            }
            let rpc: Value = serde_json::from_slice(&body).unwrap_or_default();
            match rpc.get("id") {
                Some(id) => json(&format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#)),
                None => StatusCode::ACCEPTED.into_response(),
            }
        }
    };
    let app = axum::Router::new().route("/mcp", axum::routing::any(handler));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = Url::parse(&format!("http://{}/mcp", listener.local_addr().unwrap())).unwrap();
    let server = tokio::spawn(async move { axum::serve(listener, app).await });
    let (mut wire, _cancel, handle) = start(url);
    let mut notes = Vec::new();
    wire.outbound.send(rpc(INIT)).await.unwrap();
    next_message(&mut wire, &mut notes).await;
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    wire.outbound.send(rpc(initialized)).await.unwrap();
    wire.outbound
        .send(rpc(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#))
        .await
        .unwrap();
    // The ping's answer comes after the standalone stream was answered.
    next_message(&mut wire, &mut notes).await;
    server.abort();
    let _ = server.await;
    stop.send(true).unwrap();
    let reason = closed(&mut wire).await;
    assert!(
        reason.contains("stopped accepting connections") && reason.contains("could not reach"),
        "{reason}"
    );
    handle.await.unwrap();
}

#[tokio::test]
async fn every_request_is_reported_as_an_exchange_with_masked_headers() {
    let (url, _log) = serve(|seen, _| match (&seen.verb, seen.rpc.as_deref()) {
        (&Method::POST, Some("initialize")) => sse(
            "event: message\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\
             {\"protocolVersion\":\"2025-11-25\",\"capabilities\":{}}}\n\n"
                .into(),
            false,
            &[
                ("mcp-session-id", "sess-1"),
                ("set-cookie", "sid=abcdefghijklmnop"),
            ],
        ),
        (&Method::POST, _) => StatusCode::ACCEPTED.into_response(),
        (&Method::GET, _) => StatusCode::METHOD_NOT_ALLOWED.into_response(),
        _ => StatusCode::OK.into_response(),
    })
    .await;
    let (mut wire, cancel, handle) = start(url.clone());
    let posted = rpc(INIT);
    wire.outbound.send(posted.clone()).await.unwrap();
    let (id, exchange, sent) = loop {
        if let WireEvent::Exchange { id, exchange, sent } = next(&mut wire).await {
            break (id, exchange, sent);
        }
    };
    assert_eq!(exchange.method, "POST");
    assert_eq!(exchange.url, url.to_string());
    assert_eq!(exchange.purpose, "post");
    assert_eq!(exchange.status, Some(200));
    let sent = sent.expect("the posted frame comes back");
    assert_eq!(sent.as_ptr(), posted.as_ptr(), "the very bytes handed down");
    let req: HashMap<_, _> = exchange.request_headers.iter().cloned().collect();
    assert_eq!(req["authorization"], "Bearer … (3 chars)");
    assert_eq!(req["x-api-key"], "… (2 chars)");
    assert_eq!(req["content-type"], "application/json");
    let resp: HashMap<_, _> = exchange.response_headers.iter().cloned().collect();
    assert_eq!(resp["mcp-session-id"], "sess-1");
    assert!(!resp["set-cookie"].contains("abcdefghijklmnop"));
    // The answer travels in that exchange.
    loop {
        match next(&mut wire).await {
            WireEvent::Carried { frame, exchange } => {
                assert_eq!(exchange, id);
                assert!(String::from_utf8_lossy(&frame).contains("protocolVersion"));
                break;
            }
            WireEvent::Frame(_) => panic!("the answer was not tied to its exchange"),
            _ => {}
        }
    }
    stop(wire, cancel, handle).await;
}

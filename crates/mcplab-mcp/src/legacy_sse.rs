//! The legacy HTTP+SSE client wire (MCP 2024-11-05), which rmcp no longer ships: one long GET
//! event stream carries every server frame as a `message` event, after an `endpoint` event
//! that names where the client POSTs its own frames. It moves bytes only, like every wire
//! (see [`super::wire`]); connecting waits for the endpoint so a wrong URL fails with a
//! message instead of a half-open connection. It never follows an endpoint to another origin:
//! that would send the user's headers and token to a host they did not choose.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use futures::{Stream, StreamExt};
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap};
use reqwest::{Response, Url};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use super::http::exchange::{Purpose, Started, send_recorded};
use super::http::{
    BodyKind, FramePeek, HttpTarget, Outlet, body_excerpt, body_kind, describe_error,
    send_with_auth, status_problem,
};
use super::sse::SseParser;
use super::wire::WireEnd;

type EventStream = std::pin::Pin<Box<dyn Stream<Item = reqwest::Result<Bytes>> + Send>>;

/// Connects (bounded by `connect_timeout`) and starts the wire task, which runs until the
/// server closes the stream, `cancel` fires or `end.outbound` closes, and then sends exactly
/// one `Closed`. Connection failures are returned as a message for the user.
pub(crate) async fn spawn_legacy_sse(
    target: HttpTarget,
    client: reqwest::Client,
    end: WireEnd,
    cancel: CancellationToken,
    connect_timeout: Duration,
) -> Result<tokio::task::JoinHandle<()>, String> {
    let (base, problems) = target.base_headers();
    let url = &target.url;
    target.send_auth_notes(&end.inbound);
    let connect = connect(&client, &target, &base);
    // Time spent waiting for a person to sign in does not count against the deadline.
    let connect = super::manager::bounded(
        connect,
        connect_timeout,
        target.auth.as_ref().map(|a| a.waiting()),
    );
    let connected = tokio::select! {
        _ = cancel.cancelled() => return Err("the connection was cancelled".to_string()),
        connected = connect => connected,
    };
    let Connected {
        stream,
        parser,
        endpoint,
        early,
        opened,
    } = connected.map_err(|_| {
        format!(
            "{url} sent no `endpoint` event within {} s; is it a legacy HTTP+SSE endpoint \
             (often /sse)? Servers speaking streamable HTTP need that transport instead",
            connect_timeout.as_secs_f32()
        )
    })??;
    let WireEnd { inbound, outbound } = end;
    let out = Outlet::new(inbound, &cancel);
    for problem in problems {
        out.note(problem).await;
    }
    out.note(format!("messages go to {endpoint}")).await;
    let stream_exchange = out.exchange(opened, None).await;
    for frame in early {
        out.carried(frame, stream_exchange).await;
    }
    let shared = Arc::new(Shared {
        client,
        base,
        endpoint,
        out,
        target,
        stream_exchange,
    });
    Ok(tokio::spawn(run(shared, stream, parser, outbound, cancel)))
}

struct Connected {
    stream: EventStream,
    parser: SseParser,
    endpoint: Url,
    /// Message frames that arrived before or alongside the endpoint event.
    early: Vec<Bytes>,
    /// The event stream's GET, for the traffic view.
    opened: mcplab_protocol::TrafficHttpExchange,
}

async fn connect(
    client: &reqwest::Client,
    target: &HttpTarget,
    base: &HeaderMap,
) -> Result<Connected, String> {
    let url = &target.url;
    let build = || {
        client
            .get(url.clone())
            .headers(base.clone())
            .header(ACCEPT, "text/event-stream")
    };
    let started = Started::new(Purpose::Stream, target, build());
    let resp = send_with_auth(target, build)
        .await
        .map_err(|failure| failure.message(url))?;
    let opened = started.answered(&resp);
    let status = resp.status();
    if !status.is_success() {
        let excerpt = body_excerpt(resp).await;
        return Err(status_problem(status, &excerpt, url, None));
    }
    if let BodyKind::Json | BodyKind::Other(_) = body_kind(&resp) {
        let kind = content_type(&resp);
        return Err(format!(
            "{url} answered with `{kind}`, not an event stream; is it a legacy HTTP+SSE \
             endpoint? Servers speaking streamable HTTP need that transport instead"
        ));
    }
    let mut stream: EventStream = Box::pin(resp.bytes_stream());
    let mut parser = SseParser::with_limit(target.max_message);
    let mut endpoint = None;
    let mut early = Vec::new();
    while endpoint.is_none() {
        let chunk = match stream.next().await {
            Some(Ok(chunk)) => chunk,
            Some(Err(err)) => {
                return Err(format!(
                    "the SSE stream from {url} failed: {}",
                    describe_error(&err)
                ));
            }
            None => {
                return Err(format!(
                    "{url} closed the SSE stream without sending its `endpoint` event"
                ));
            }
        };
        let events = parser.feed(&chunk);
        if parser.exceeded().is_some() {
            return Err(over_limit(&parser));
        }
        for event in events {
            if event.event.as_deref() == Some("endpoint") && endpoint.is_none() {
                endpoint = Some(resolve_endpoint(url, event.data.trim())?);
            } else if event.is_message() && !event.data.trim().is_empty() {
                early.push(Bytes::from(event.data));
            }
        }
    }
    Ok(Connected {
        stream,
        parser,
        endpoint: endpoint.unwrap_or_else(|| url.clone()),
        early,
        opened,
    })
}

/// The words for an event stream that went over the message limit (the connection ends).
fn over_limit(parser: &SseParser) -> String {
    format!(
        "the server sent an SSE line or event over the {} message limit; the stream was \
         dropped (raise the limit with --limit message=SIZE)",
        super::limits::Size(parser.limit())
    )
}

/// Resolves the endpoint against the stream's URL and keeps it on the same origin.
fn resolve_endpoint(url: &Url, data: &str) -> Result<Url, String> {
    let endpoint = url
        .join(data)
        .map_err(|err| format!("the server's endpoint `{data}` is not a valid URL: {err}"))?;
    if endpoint.origin() != url.origin() {
        return Err(format!(
            "the server asked for messages to be sent to {endpoint}, another origin than \
             {url}; refusing, since that would send your headers and token elsewhere"
        ));
    }
    Ok(endpoint)
}

fn content_type(resp: &Response) -> String {
    resp.headers()
        .get(CONTENT_TYPE)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        .unwrap_or_else(|| "no content type".to_string())
}

struct Shared {
    client: reqwest::Client,
    base: HeaderMap,
    endpoint: Url,
    out: Outlet,
    /// For its OAuth session.
    target: HttpTarget,
    /// The event stream's exchange: every frame from the server travels in it.
    stream_exchange: u64,
}

async fn run(
    shared: Arc<Shared>,
    mut stream: EventStream,
    mut parser: SseParser,
    mut outbound: tokio::sync::mpsc::Receiver<Bytes>,
    cancel: CancellationToken,
) {
    let out = &shared.out;
    let reason = 'wire: loop {
        tokio::select! {
            _ = cancel.cancelled() => break "disconnected".to_string(),
            _ = out.inbound.closed() => break "the client went away".to_string(),
            why = out.gone() => break why,
            frame = outbound.recv() => {
                let Some(frame) = frame else {
                    break "the client closed the connection".to_string();
                };
                let ordered = !FramePeek::of(&frame).is_request();
                let (headers_done, headers_seen) = oneshot::channel();
                out.tasks.spawn(post(shared.clone(), frame, headers_done));
                if ordered {
                    out.keep_order(headers_seen).await;
                }
            }
            chunk = stream.next() => {
                let chunk = match chunk {
                    Some(Ok(chunk)) => chunk,
                    Some(Err(err)) => {
                        break format!("the SSE stream failed: {}", describe_error(&err));
                    }
                    None => break "the server closed the SSE stream".to_string(),
                };
                let events = parser.feed(&chunk);
                for event in events {
                    if event.event.as_deref() == Some("endpoint") {
                        out.note("ignored a second `endpoint` event".to_string()).await;
                    } else if event.is_message()
                        && !event.data.trim().is_empty()
                        && !out
                            .carried(Bytes::from(event.data), shared.stream_exchange)
                            .await
                    {
                        break 'wire "disconnected".to_string();
                    }
                }
                if parser.exceeded().is_some() {
                    break over_limit(&parser);
                }
            }
        }
    };
    out.stop_tasks().await;
    out.closed(&reason).await;
}

/// POSTs one frame to the endpoint. The answer arrives on the event stream; the POST's own
/// body (usually "Accepted") is ignored unless the status says the frame was refused.
async fn post(shared: Arc<Shared>, frame: Bytes, headers_done: oneshot::Sender<()>) {
    let send = send_recorded(
        &shared.out,
        &shared.target,
        Purpose::Post,
        Some(&frame),
        || {
            shared
                .client
                .post(shared.endpoint.clone())
                .headers(shared.base.clone())
                .header(CONTENT_TYPE, "application/json")
                .body(frame.clone())
        },
    );
    let (resp, _) = tokio::select! {
        _ = shared.out.cancel.cancelled() => return,
        sent = send => sent,
    };
    let _ = headers_done.send(());
    match resp {
        Err(failure) => {
            let refused = failure.is_refused();
            let message = failure.message(&shared.endpoint);
            shared.out.fail(&frame, message.clone()).await;
            if refused {
                let why = format!("the server stopped accepting connections: {message}");
                shared.out.server_gone(why);
            }
        }
        Ok(resp) if !resp.status().is_success() => {
            let status = resp.status();
            let excerpt = body_excerpt(resp).await;
            let problem = status_problem(status, &excerpt, &shared.endpoint, None);
            shared.out.fail(&frame, problem).await;
        }
        Ok(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::tests::{closed, next_message, rpc};
    use crate::wire::{Wire, WireEvent, wire_pair};
    use axum::body::Body;
    use axum::extract::{Query, State};
    use axum::http::StatusCode;
    use axum::response::{IntoResponse, Response as Reply};
    use std::collections::HashMap;
    use std::convert::Infallible;
    use std::sync::Mutex;
    use tokio::sync::mpsc;

    /// One POST to /messages: its query and its body.
    type Post = (HashMap<String, String>, serde_json::Value);

    /// A scripted legacy server: GET /sse announces `endpoint`, then relays what POST
    /// /messages pushes; every POST is logged with its query and body.
    #[derive(Clone, Default)]
    struct Server {
        endpoint: &'static str,
        stream: Arc<Mutex<Option<mpsc::UnboundedSender<Bytes>>>>,
        posts: Arc<Mutex<Vec<Post>>>,
        post_status: Option<StatusCode>,
    }

    async fn sse(State(server): State<Server>) -> Reply {
        let (tx, rx) = mpsc::unbounded_channel();
        let announce = format!("event: endpoint\ndata: {}\n\n", server.endpoint);
        tx.send(Bytes::from(announce)).unwrap();
        *server.stream.lock().unwrap() = Some(tx);
        let body = futures::stream::unfold(rx, |mut rx| async move {
            rx.recv().await.map(|b| (Ok::<_, Infallible>(b), rx))
        });
        (
            [(CONTENT_TYPE, "text/event-stream")],
            Body::from_stream(body),
        )
            .into_response()
    }

    async fn messages(
        State(server): State<Server>,
        Query(query): Query<HashMap<String, String>>,
        body: Bytes,
    ) -> Reply {
        let value: serde_json::Value = serde_json::from_slice(&body).unwrap();
        server.posts.lock().unwrap().push((query, value.clone()));
        if let Some(status) = server.post_status {
            return (status, "no such session").into_response();
        }
        if let Some(id) = value.get("id") {
            let reply = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {"ok": true}});
            let event = format!("event: message\ndata: {reply}\n\n");
            let stream = server.stream.lock().unwrap().clone();
            stream.unwrap().send(Bytes::from(event)).unwrap();
        }
        (StatusCode::ACCEPTED, "Accepted").into_response()
    }

    async fn serve(server: Server) -> Url {
        let app = axum::Router::new()
            .route("/sse", axum::routing::get(sse))
            .route("/messages", axum::routing::post(messages))
            .with_state(server);
        listen(app, "/sse").await
    }

    /// Serves `app` on a free loopback port; the URL of `path` there.
    async fn listen(app: axum::Router, path: &str) -> Url {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}{path}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Url::parse(&url).unwrap()
    }

    /// Spawns the legacy SSE wire to `url` (connecting within `within`): the test's end of the
    /// wire and what spawning returned.
    async fn start(
        url: Url,
        cancel: CancellationToken,
        within: Duration,
    ) -> (Wire, Result<tokio::task::JoinHandle<()>, String>) {
        let (wire, end) = wire_pair();
        let client = mcplab_net::tls::client();
        (
            wire,
            spawn_legacy_sse(target(url), client, end, cancel, within).await,
        )
    }

    fn target(url: Url) -> HttpTarget {
        HttpTarget {
            url,
            headers: Vec::new(),
            bearer: None,
            auth: None,
            max_message: 1024 * 1024,
        }
    }

    const CONNECT: Duration = Duration::from_secs(10);

    #[tokio::test]
    async fn the_stream_get_and_each_post_are_exchanges_and_frames_travel_in_the_stream() {
        let server = Server {
            endpoint: "/messages?sessionId=abc",
            ..Server::default()
        };
        let url = serve(server.clone()).await;
        let (mut wire, handle) = start(url.clone(), CancellationToken::new(), CONNECT).await;
        let handle = handle.expect("connected");
        let posted = rpc(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#);
        wire.outbound.send(posted.clone()).await.unwrap();
        // The answer may come down the stream before the POST's 202 is in: wait for both.
        let mut exchanges = Vec::new();
        let mut stream_id = None;
        while stream_id.is_none() || exchanges.len() < 2 {
            match crate::http::tests::next(&mut wire).await {
                WireEvent::Exchange { id, exchange, sent } => exchanges.push((id, exchange, sent)),
                WireEvent::Carried { exchange, .. } => stream_id = Some(exchange),
                WireEvent::Note(_) => {}
                other => panic!("unexpected {other:?}"),
            }
        }
        let (get_id, get, _) = &exchanges[0];
        assert_eq!(
            (get.method.as_str(), get.purpose.as_str()),
            ("GET", "stream")
        );
        assert_eq!(get.url, url.to_string());
        assert_eq!(get.status, Some(200));
        assert_eq!(
            Some(*get_id),
            stream_id,
            "the answer travels in the stream's exchange"
        );
        let (_, post, sent) = &exchanges[1];
        assert_eq!((post.method.as_str(), post.status), ("POST", Some(202)));
        assert!(
            post.url.ends_with("/messages?sessionId=abc"),
            "{}",
            post.url
        );
        let sent = sent.as_ref().expect("the posted frame");
        assert_eq!(sent.as_ptr(), posted.as_ptr());
        server.stream.lock().unwrap().take();
        closed(&mut wire).await;
        handle.await.unwrap();
    }

    #[tokio::test]
    async fn frames_flow_through_the_announced_endpoint() {
        let server = Server {
            endpoint: "/messages?sessionId=abc",
            ..Server::default()
        };
        let url = serve(server.clone()).await;
        let (mut wire, handle) = start(url, CancellationToken::new(), CONNECT).await;
        let handle = handle.expect("connected");
        let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#;
        wire.outbound.send(rpc(init)).await.unwrap();
        let mut notes = Vec::new();
        let (synthetic, reply) = next_message(&mut wire, &mut notes).await;
        assert!(!synthetic);
        assert_eq!(reply["id"], 1);
        assert_eq!(reply["result"]["ok"], true);
        assert!(
            notes.iter().any(|n| n.ends_with("/messages?sessionId=abc")),
            "{notes:?}"
        );
        let posts = server.posts.lock().unwrap().clone();
        assert_eq!(posts.len(), 1);
        assert_eq!(posts[0].0.get("sessionId").map(String::as_str), Some("abc"));
        assert_eq!(posts[0].1["method"], "initialize");
        // The server ending the stream ends the wire.
        server.stream.lock().unwrap().take();
        assert_eq!(closed(&mut wire).await, "the server closed the SSE stream");
        handle.await.unwrap();
    }

    #[tokio::test]
    async fn refused_post_answers_the_request() {
        let server = Server {
            endpoint: "/messages?sessionId=gone",
            post_status: Some(StatusCode::NOT_FOUND),
            ..Server::default()
        };
        let url = serve(server.clone()).await;
        let cancel = CancellationToken::new();
        let (mut wire, handle) = start(url, cancel.clone(), CONNECT).await;
        let handle = handle.expect("connected");
        let call = r#"{"jsonrpc":"2.0","id":5,"method":"tools/list"}"#;
        wire.outbound.send(rpc(call)).await.unwrap();
        let (synthetic, reply) = next_message(&mut wire, &mut Vec::new()).await;
        assert!(synthetic);
        assert_eq!(reply["id"], 5);
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("404") && message.contains("no such session"),
            "{message}"
        );
        cancel.cancel();
        assert_eq!(closed(&mut wire).await, "disconnected");
        handle.await.unwrap();
    }

    #[tokio::test]
    async fn endpoint_on_another_origin_is_refused() {
        let server = Server {
            endpoint: "http://127.0.0.2:9/messages",
            ..Server::default()
        };
        let url = serve(server.clone()).await;
        let (_wire, err) = start(url, CancellationToken::new(), CONNECT).await;
        let err = err.expect_err("must refuse");
        assert!(err.contains("another origin"), "{err}");
        assert!(server.posts.lock().unwrap().is_empty());
    }

    #[tokio::test]
    async fn failing_get_is_reported_with_status_and_body() {
        // Streamable HTTP servers without a standalone stream answer a bare GET with 405.
        let app = axum::Router::new().route(
            "/mcp",
            axum::routing::get(|| async { (StatusCode::METHOD_NOT_ALLOWED, "use POST") }),
        );
        let url = listen(app, "/mcp").await;
        let (_wire, err) = start(url, CancellationToken::new(), CONNECT).await;
        let err = err.expect_err("must fail");
        assert!(err.contains("405") && err.contains("use POST"), "{err}");
    }

    #[tokio::test]
    async fn stream_without_endpoint_times_out_with_advice() {
        let app = axum::Router::new().route(
            "/sse",
            axum::routing::get(|| async {
                let body = futures::stream::pending::<Result<Bytes, Infallible>>();
                (
                    [(CONTENT_TYPE, "text/event-stream")],
                    Body::from_stream(body),
                )
            }),
        );
        let url = listen(app, "/sse").await;
        let short = Duration::from_millis(200);
        let (mut wire, err) = start(url, CancellationToken::new(), short).await;
        let err = err.expect_err("must time out");
        assert!(err.contains("no `endpoint` event"), "{err}");
        // Nothing was started: the wire's channels are simply dropped.
        assert!(wire.inbound.try_recv().is_err());
    }
}

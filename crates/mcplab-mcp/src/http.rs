//! The streamable HTTP client wire (MCP 2025-11-25 "Streamable HTTP"): POSTs each outbound
//! frame, turns JSON and SSE response bodies back into frames, resumes a response stream that
//! dropped before its answer with `GET` + `Last-Event-ID` (honouring `retry`), keeps the
//! standalone GET stream for server-initiated messages, and ends the session with `DELETE`.
//! It moves bytes only: it peeks at a frame's `id`/`method` to route and to answer failed
//! requests with a synthetic error, and at the initialize response for the negotiated protocol
//! version, and nothing else. Recording and JSON-RPC semantics live above [`super::wire`].
//!
//! Nothing here waits forever: every wait also watches the cancellation token, the caller's
//! `reqwest::Client` bounds connecting (give it a `connect_timeout`), and reconnect loops
//! give up after [`MAX_RECONNECT_FAILURES`] attempts in a row that delivered nothing.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use bytes::Bytes;
use parking_lot::Mutex;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap};
use reqwest::{Method, RequestBuilder, Response, StatusCode};
use serde_json::Value;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use super::limits::Size;
use super::sse::SseParser;
use super::wire::{WireEnd, WireEvent, bad_response};
pub(crate) mod body;
pub(crate) mod exchange;
mod outlet;
mod response;
mod target;

use body::{JsonBody, Seen, not_an_answer, read_json_body};
use exchange::{Purpose, Started, send_recorded};
pub(crate) use outlet::Outlet;

pub use exchange::shown as shown_headers;
pub(crate) use response::{BodyKind, body_excerpt, body_kind, describe_error, status_problem};
pub use target::HttpTarget;
use target::SendFailure;
pub(crate) use target::send_with_auth;

/// Reconnect delay when the stream never sent `retry` (the spec leaves it to the client).
pub(crate) const DEFAULT_RETRY: Duration = Duration::from_millis(1000);
/// Consecutive reconnect attempts that delivered no frame before a stream is given up.
pub(crate) const MAX_RECONNECT_FAILURES: u32 = 5;
/// Bounds on the courtesy `DELETE` and the final `Closed` at shutdown.
const SHUTDOWN_STEP_TIMEOUT: Duration = Duration::from_secs(3);
/// How long the first frame after `initialized` waits for the standalone GET to be answered.
const STANDALONE_READY_WAIT: Duration = Duration::from_secs(2);
const ACCEPT_BOTH: &str = "application/json, text/event-stream";
const SESSION_HEADER: &str = "mcp-session-id";
const VERSION_HEADER: &str = "mcp-protocol-version";
const LAST_EVENT_ID: &str = "last-event-id";

/// Starts the wire task. It runs until `cancel` fires or `end.outbound` closes, then ends the
/// session with `DELETE`, stops every request task and sends exactly one `Closed`.
pub fn spawn_streamable_http(
    target: HttpTarget,
    client: reqwest::Client,
    end: WireEnd,
    cancel: CancellationToken,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(run(target, client, end, cancel))
}

/// What the wire needs to know about an outbound frame.
#[derive(Debug, Default)]
pub(crate) struct FramePeek {
    pub id: Option<Value>,
    pub method: Option<String>,
    /// `params.requestId` of a `notifications/cancelled`.
    cancels: Option<Value>,
}

impl FramePeek {
    pub(crate) fn of(frame: &[u8]) -> Self {
        let Ok(value) = serde_json::from_slice::<Value>(frame) else {
            return Self::default();
        };
        let method = value
            .get("method")
            .and_then(Value::as_str)
            .map(String::from);
        let cancels = match method.as_deref() {
            Some("notifications/cancelled") => value.pointer("/params/requestId").cloned(),
            _ => None,
        };
        Self {
            id: value.get("id").cloned(),
            method,
            cancels,
        }
    }

    pub(crate) fn is_request(&self) -> bool {
        self.id.is_some() && self.method.is_some()
    }

    fn key(&self) -> Option<String> {
        match self.is_request() {
            true => self.id.as_ref().map(Value::to_string),
            false => None,
        }
    }
}

struct Shared {
    target: HttpTarget,
    base: HeaderMap,
    client: reqwest::Client,
    out: Outlet,
    session_id: Mutex<Option<String>>,
    protocol_version: Mutex<Option<String>>,
    standalone_started: AtomicBool,
    /// Requests still waiting for their response, so `notifications/cancelled` can stop them;
    /// the number tells one POST from a later one that reused the id.
    inflight: Mutex<HashMap<String, (u64, CancellationToken)>>,
    next_post: AtomicU64,
}

fn get<T: Clone>(slot: &Mutex<T>) -> T {
    slot.lock().clone()
}

fn set<T>(slot: &Mutex<T>, value: T) {
    *slot.lock() = value;
}

impl Shared {
    fn request(&self, method: Method) -> RequestBuilder {
        let mut req = self
            .client
            .request(method, self.target.url.clone())
            .headers(self.base.clone());
        if let Some(session) = get(&self.session_id) {
            req = req.header(SESSION_HEADER, session);
        }
        if let Some(version) = get(&self.protocol_version) {
            req = req.header(VERSION_HEADER, version);
        }
        req
    }

    /// Looks at a received frame on behalf of the POST described by `peek`: records the
    /// negotiated protocol version from the initialize response and tells whether the frame is
    /// the response to that POST's request.
    fn observe(&self, peek: &FramePeek, frame: &[u8]) -> bool {
        let Some(id) = peek.id.as_ref().filter(|_| peek.is_request()) else {
            return false;
        };
        let Ok(value) = serde_json::from_slice::<Value>(frame) else {
            return false;
        };
        let answers = value.get("id") == Some(id) && value.get("method").is_none();
        if answers && peek.method.as_deref() == Some("initialize") {
            let version = value
                .pointer("/result/protocolVersion")
                .and_then(Value::as_str);
            if let Some(version) = version {
                set(&self.protocol_version, Some(version.to_string()));
            }
        }
        answers
    }
}

async fn run(target: HttpTarget, client: reqwest::Client, end: WireEnd, cancel: CancellationToken) {
    let WireEnd {
        inbound,
        mut outbound,
    } = end;
    let (base, problems) = target.base_headers();
    let shared = Arc::new(Shared {
        target,
        base,
        client,
        out: Outlet::new(inbound, &cancel),
        session_id: Mutex::new(None),
        protocol_version: Mutex::new(None),
        standalone_started: AtomicBool::new(false),
        inflight: Mutex::new(HashMap::new()),
        next_post: AtomicU64::new(0),
    });
    for problem in problems {
        shared.out.note(problem).await;
    }
    shared.target.send_auth_notes(&shared.out.inbound);
    let reason = loop {
        let frame = tokio::select! {
            _ = cancel.cancelled() => break "disconnected".to_string(),
            _ = shared.out.inbound.closed() => break "the client went away".to_string(),
            why = shared.out.gone() => break why,
            frame = outbound.recv() => match frame {
                Some(frame) => frame,
                None => break "the client closed the connection".to_string(),
            },
        };
        let peek = FramePeek::of(&frame);
        let cancels = peek.cancels.as_ref().map(Value::to_string);
        let ordered = !peek.is_request();
        let (headers_done, headers_seen) = oneshot::channel();
        shared
            .out
            .tasks
            .spawn(post(shared.clone(), frame, peek, headers_done));
        // Notifications and responses keep their order (`initialized` must reach the server
        // before the requests that follow it): wait, bounded, until the server has taken it.
        if ordered {
            shared.out.keep_order(headers_seen).await;
        }
        if let Some(key) = cancels {
            let waiting = shared.inflight.lock().remove(&key);
            if let Some((_, token)) = waiting {
                token.cancel();
            }
        }
    };
    shared.out.stop_tasks().await;
    end_session(&shared).await;
    shared.out.closed(&reason).await;
}

/// Tells the server the session is over. Best effort: 405 means the server does not allow
/// clients to end sessions, and a server that is already gone needs no goodbye.
async fn end_session(shared: &Shared) {
    if get(&shared.session_id).is_none() {
        return;
    }
    let mut request = shared
        .request(Method::DELETE)
        .timeout(SHUTDOWN_STEP_TIMEOUT);
    // The courtesy DELETE never starts an authorization; it carries the token there is.
    if let Some(token) = shared.target.auth.as_ref().and_then(|a| a.current_token()) {
        request = request.bearer_auth(token);
    }
    let started = request
        .try_clone()
        .map(|r| Started::new(Purpose::End, &shared.target, r));
    let answer = tokio::time::timeout(SHUTDOWN_STEP_TIMEOUT, request.send()).await;
    if let Some(started) = started {
        let exchange = match &answer {
            Ok(Ok(resp)) => started.answered(resp),
            Ok(Err(err)) => started.failed(describe_error(err)),
            Err(_) => started.failed("no answer in time".into()),
        };
        shared.out.exchange(exchange, None).await;
    }
    if let Ok(Ok(resp)) = answer
        && !resp.status().is_success()
        && resp.status() != StatusCode::METHOD_NOT_ALLOWED
    {
        let _ = shared.out.inbound.try_send(WireEvent::Note(format!(
            "ending the session: the server answered DELETE with HTTP {}",
            resp.status()
        )));
    }
}

async fn post(
    shared: Arc<Shared>,
    frame: Bytes,
    peek: FramePeek,
    headers_done: oneshot::Sender<()>,
) {
    let token = shared.out.cancel.child_token();
    let number = shared.next_post.fetch_add(1, Ordering::Relaxed);
    let key = peek.key();
    if let Some(key) = &key {
        shared
            .inflight
            .lock()
            .insert(key.clone(), (number, token.clone()));
    }
    post_and_read(&shared, &frame, &peek, headers_done, &token).await;
    if let Some(key) = key {
        let mut inflight = shared.inflight.lock();
        // A later request may have reused the id; only remove our own entry.
        if inflight.get(&key).is_some_and(|(n, _)| *n == number) {
            inflight.remove(&key);
        }
    }
}

async fn post_and_read(
    shared: &Arc<Shared>,
    frame: &Bytes,
    peek: &FramePeek,
    headers_done: oneshot::Sender<()>,
    token: &CancellationToken,
) {
    let send = send_recorded(
        &shared.out,
        &shared.target,
        Purpose::Post,
        Some(frame),
        || {
            shared
                .request(Method::POST)
                .header(ACCEPT, ACCEPT_BOTH)
                .header(CONTENT_TYPE, "application/json")
                .body(frame.clone())
        },
    );
    let (resp, exchange) = tokio::select! {
        _ = token.cancelled() => return,
        sent = send => sent,
    };
    let resp = match resp {
        Ok(resp) => resp,
        Err(failure) => {
            let refused = failure.is_refused();
            let message = failure.message(&shared.target.url);
            shared.out.fail(frame, message.clone()).await;
            if refused {
                shared.out.server_gone(format!(
                    "the server stopped accepting connections: {message}"
                ));
            }
            return;
        }
    };
    let status = resp.status();
    if status.is_success() && peek.method.as_deref() == Some("initialize") {
        let session = resp.headers().get(SESSION_HEADER);
        if let Some(session) = session.and_then(|v| v.to_str().ok()) {
            set(&shared.session_id, Some(session.to_string()));
        }
    }
    if !status.is_success() {
        let _ = headers_done.send(());
        let session = get(&shared.session_id);
        let excerpt = body_excerpt(resp).await;
        let problem = status_problem(status, &excerpt, &shared.target.url, session.as_deref());
        return shared.out.fail(frame, problem).await;
    }
    if peek.method.as_deref() == Some("notifications/initialized")
        && !shared.standalone_started.swap(true, Ordering::SeqCst)
    {
        // Servers may send requests that belong to no POST (e.g. an elicitation from a tool
        // that does not pass its request id) on the standalone stream only, and drop them
        // while it is not open. So the next frame waits, bounded, until the GET is answered.
        let (ready_tx, ready_rx) = oneshot::channel();
        shared
            .out
            .tasks
            .spawn(standalone_stream(shared.clone(), Some(ready_tx)));
        let _ = tokio::time::timeout(STANDALONE_READY_WAIT, ready_rx).await;
    }
    let _ = headers_done.send(());
    if status == StatusCode::ACCEPTED {
        return;
    }
    match body_kind(&resp) {
        BodyKind::EventStream => {
            read_response_stream(shared, (resp, exchange), frame, peek, token).await
        }
        BodyKind::Json => {
            let seen = Seen::of(&resp);
            let max = shared.target.max_message;
            let body = tokio::select! {
                _ = token.cancelled() => return,
                body = read_json_body(resp, max, &seen) => body,
            };
            match body {
                Ok(body) => deliver_json_body(shared, (body, exchange), frame, peek, &seen).await,
                Err(message) => shared.out.fail(frame, message).await,
            }
        }
        BodyKind::Other(kind) if peek.is_request() => {
            let message = format!(
                "the server answered with content type `{kind}`; a streamable HTTP MCP server \
                 answers with application/json or text/event-stream (is this the right URL?)"
            );
            shared.out.fail(frame, message).await;
        }
        BodyKind::Other(_) => {}
    }
}

/// Delivers a JSON body's frames; a body that is unusable or does not answer the POST's request
/// fails that request at once.
async fn deliver_json_body(
    shared: &Shared,
    (body, exchange): (JsonBody, u64),
    frame: &[u8],
    peek: &FramePeek,
    seen: &Seen,
) {
    let request = peek.id.clone().filter(|_| peek.is_request());
    let frames = match body {
        JsonBody::Frames(frames) => frames,
        JsonBody::Empty => {
            if request.is_some() {
                let message = "the server answered the request with an empty body".to_string();
                shared.out.fail(frame, message).await;
            }
            return;
        }
        JsonBody::Unusable { start, why } => {
            let event = WireEvent::Unusable {
                start,
                why,
                request,
            };
            shared.out.emit(event).await;
            return;
        }
    };
    let mut answered = false;
    for frame in &frames {
        answered |= shared.observe(peek, frame);
        if !shared.out.carried(frame.clone(), exchange).await {
            return;
        }
    }
    if let (Some(id), false) = (&request, answered) {
        let method = peek.method.as_deref().unwrap_or("request");
        let why = not_an_answer(method, &frames, seen);
        shared
            .out
            .emit(WireEvent::Synthetic(bad_response(id, &why)))
            .await;
    }
}

enum PumpEnd {
    /// The response to the POST's request arrived.
    Answered,
    Cancelled,
    /// The stream ended or failed; the words say how.
    Ended(String),
    /// A line or an event went over the message limit: the stream cannot be used.
    Exceeded,
}

/// Delivers the message events of one SSE response as frames until the response for `peek`'s
/// request arrives, the stream ends, or `token` fires. Counts delivered frames in `frames`.
async fn pump(
    shared: &Shared,
    (mut resp, exchange): (Response, u64),
    parser: &mut SseParser,
    peek: &FramePeek,
    token: &CancellationToken,
    frames: &mut usize,
) -> PumpEnd {
    loop {
        let chunk = tokio::select! {
            _ = token.cancelled() => return PumpEnd::Cancelled,
            chunk = resp.chunk() => chunk,
        };
        let chunk = match chunk {
            Ok(Some(chunk)) => chunk,
            Ok(None) => return PumpEnd::Ended("the server closed the stream".into()),
            Err(err) => return PumpEnd::Ended(describe_error(&err)),
        };
        for event in parser.feed(&chunk) {
            // Priming blocks (id/retry only) and other event types carry no frame.
            if !event.is_message() || event.data.trim().is_empty() {
                continue;
            }
            let frame = Bytes::from(event.data);
            let answered = shared.observe(peek, &frame);
            *frames += 1;
            if !shared.out.carried(frame, exchange).await {
                return PumpEnd::Cancelled;
            }
            if answered {
                return PumpEnd::Answered;
            }
        }
        if parser.exceeded().is_some() {
            return PumpEnd::Exceeded;
        }
    }
}

/// Reads a POST's SSE response and, if it drops before the answer, resumes it with `GET` +
/// `Last-Event-ID` after the announced `retry` delay (SEP-1699) until the answer arrives.
async fn read_response_stream(
    shared: &Shared,
    resp: (Response, u64),
    frame: &[u8],
    peek: &FramePeek,
    token: &CancellationToken,
) {
    let mut parser = SseParser::with_limit(shared.target.max_message);
    let mut frames = 0;
    let mut why = match pump(shared, resp, &mut parser, peek, token, &mut frames).await {
        PumpEnd::Answered | PumpEnd::Cancelled => return,
        PumpEnd::Exceeded => return exceeded(shared, &parser, peek, "response stream").await,
        PumpEnd::Ended(why) => why,
    };
    if !peek.is_request() {
        return;
    }
    let mut failures = 0;
    loop {
        let Some(last_id) = parser.last_event_id().map(String::from) else {
            let message = format!(
                "the response stream ended before the answer ({why}) and the server sent no \
                 event id to resume from; retry the request"
            );
            return shared.out.fail(frame, message).await;
        };
        let delay = parser.retry().map_or(DEFAULT_RETRY, Duration::from_millis);
        shared
            .out
            .note(format!(
                "response stream dropped before the answer ({why}); resuming with \
                 Last-Event-ID {last_id} in {} ms",
                delay.as_millis()
            ))
            .await;
        tokio::select! {
            _ = token.cancelled() => return,
            _ = tokio::time::sleep(delay) => {}
        }
        let send = send_recorded(&shared.out, &shared.target, Purpose::Resume, None, || {
            shared
                .request(Method::GET)
                .header(ACCEPT, "text/event-stream")
                .header(LAST_EVENT_ID, last_id.as_str())
        });
        let (resp, exchange) = tokio::select! {
            _ = token.cancelled() => return,
            sent = send => sent,
        };
        let before = frames;
        why = match stream_opened(shared, resp, "resumed stream").await {
            StreamOpen::Failed(why) => why,
            StreamOpen::NotAllowed => {
                let message = "the response stream ended before the answer and the server \
                               does not allow resuming it (GET returned 405); retry the request";
                return shared.out.fail(frame, message.to_string()).await;
            }
            StreamOpen::Open(resp) => match pump(
                shared,
                (resp, exchange),
                &mut parser,
                peek,
                token,
                &mut frames,
            )
            .await
            {
                PumpEnd::Answered | PumpEnd::Cancelled => return,
                PumpEnd::Exceeded => {
                    return exceeded(shared, &parser, peek, "response stream").await;
                }
                PumpEnd::Ended(why) => why,
            },
        };
        failures = if frames > before { 1 } else { failures + 1 };
        if failures >= MAX_RECONNECT_FAILURES {
            let message = format!(
                "gave up resuming the response stream after {failures} attempts ({why}); \
                 retry the request"
            );
            shared.out.note(message.clone()).await;
            return shared.out.fail(frame, message).await;
        }
    }
}

/// What a GET for an SSE stream (a response stream's resume, the standalone stream) got.
enum StreamOpen {
    /// An event stream to read.
    Open(Response),
    /// 405: the server offers no such stream.
    NotAllowed,
    /// Why there is no stream this time: the request failed, an error status (with its
    /// advice), or a body that is not `text/event-stream`.
    Failed(String),
}

/// Sorts the answer to a stream GET; `what` names the stream in the wrong-type message.
async fn stream_opened(
    shared: &Shared,
    resp: Result<Response, SendFailure>,
    what: &str,
) -> StreamOpen {
    let resp = match resp {
        Err(failure) => return StreamOpen::Failed(failure.message(&shared.target.url)),
        Ok(resp) => resp,
    };
    let status = resp.status();
    if status == StatusCode::METHOD_NOT_ALLOWED {
        StreamOpen::NotAllowed
    } else if !status.is_success() {
        let session = get(&shared.session_id);
        let excerpt = body_excerpt(resp).await;
        let url = &shared.target.url;
        StreamOpen::Failed(status_problem(status, &excerpt, url, session.as_deref()))
    } else if !matches!(body_kind(&resp), BodyKind::EventStream) {
        StreamOpen::Failed(format!("the {what} is not text/event-stream"))
    } else {
        StreamOpen::Open(resp)
    }
}

/// The standalone GET stream for server-initiated requests and notifications. Optional for
/// servers (405 means they have none); reconnects with `Last-Event-ID` when it drops.
async fn standalone_stream(shared: Arc<Shared>, mut ready: Option<oneshot::Sender<()>>) {
    let token = shared.out.cancel.clone();
    let mut parser = SseParser::with_limit(shared.target.max_message);
    let mut failures = 0;
    let peek = FramePeek::default();
    // Whether the stream was open before this attempt (so a refused reconnect means the
    // server went away, not that it never offered a stream).
    let mut was_open = false;
    loop {
        let last_id = parser.last_event_id().map(str::to_owned);
        let send = send_recorded(&shared.out, &shared.target, Purpose::Stream, None, || {
            let req = shared
                .request(Method::GET)
                .header(ACCEPT, "text/event-stream");
            match &last_id {
                Some(id) => req.header(LAST_EVENT_ID, id.as_str()),
                None => req,
            }
        });
        let (resp, exchange) = tokio::select! {
            _ = token.cancelled() => return,
            sent = send => sent,
        };
        // Answered (whatever the outcome): the first frames may go out now.
        if let Some(ready) = ready.take() {
            let _ = ready.send(());
        }
        let mut frames = 0;
        let resp = match resp {
            Err(failure) if failure.is_refused() && was_open => {
                let message = failure.message(&shared.target.url);
                return shared.out.server_gone(format!(
                    "the server closed its event stream and stopped accepting connections: \
                     {message}"
                ));
            }
            resp => resp,
        };
        let why = match stream_opened(&shared, resp, "standalone stream").await {
            StreamOpen::Failed(why) => why,
            StreamOpen::NotAllowed => {
                let message = "the server offers no standalone SSE stream (GET returned 405); \
                               server-initiated messages arrive only on POST responses";
                return shared.out.note(message.to_string()).await;
            }
            StreamOpen::Open(resp) => {
                was_open = true;
                match pump(
                    &shared,
                    (resp, exchange),
                    &mut parser,
                    &peek,
                    &token,
                    &mut frames,
                )
                .await
                {
                    PumpEnd::Answered | PumpEnd::Cancelled => return,
                    PumpEnd::Exceeded => {
                        return exceeded(&shared, &parser, &peek, "standalone SSE stream").await;
                    }
                    PumpEnd::Ended(why) => why,
                }
            }
        };
        failures = if frames > 0 { 1 } else { failures + 1 };
        if failures >= MAX_RECONNECT_FAILURES {
            let message = format!(
                "gave up on the standalone SSE stream after {failures} attempts ({why}); \
                 server-initiated messages now arrive only on POST responses"
            );
            return shared.out.note(message).await;
        }
        let delay = parser.retry().map_or(DEFAULT_RETRY, Duration::from_millis);
        shared
            .out
            .note(format!(
                "standalone SSE stream dropped ({why}); reconnecting in {} ms",
                delay.as_millis()
            ))
            .await;
        tokio::select! {
            _ = token.cancelled() => return,
            _ = tokio::time::sleep(delay) => {}
        }
    }
}

/// Reports a stream that went over the message limit: the request it was answering fails
/// (or, on the standalone stream, the id found in the event's start), and the stream is not
/// resumed (it would send the same again).
async fn exceeded(shared: &Shared, parser: &SseParser, peek: &FramePeek, what: &str) {
    let start = Bytes::copy_from_slice(parser.exceeded().unwrap_or_default());
    let why = format!(
        "the server sent an SSE line or event over the {} message limit on its {what}; the \
         stream was dropped (raise the limit with --limit message=SIZE)",
        Size(parser.limit())
    );
    let request = peek.id.clone().filter(|_| peek.is_request());
    shared.out.note(why.clone()).await;
    let event = WireEvent::Unusable {
        start: strip_data_prefix(start),
        why,
        request,
    };
    shared.out.emit(event).await;
}

/// The JSON of an SSE line's start (`data: {…` → `{…`), to find the id it answers.
fn strip_data_prefix(line: Bytes) -> Bytes {
    let text = &line[..];
    match text.strip_prefix(b"data:") {
        Some(rest) => {
            let skip = text.len() - rest.len() + usize::from(rest.first() == Some(&b' '));
            line.slice(skip..)
        }
        None => line,
    }
}

#[cfg(test)]
pub(crate) mod tests;

//! The streamable HTTP client wire of protocol 2026-07-28. Every outbound frame is its own
//! POST carrying the request metadata headers of [`super::headers`]; the answer is one JSON
//! object or an SSE stream scoped to that request (notifications, then the response). There is
//! no session, no standalone GET stream, no resumption and no DELETE: a broken stream fails its
//! request at once, and closing a response stream *is* the cancellation (so an outbound
//! `notifications/cancelled` is turned into closing the stream of the request it names).
//! A 4xx carrying a JSON-RPC error (unsupported version, header mismatch, missing capability)
//! goes up as the server's own frame so the layer above can act on it; any other failure
//! becomes a synthetic error whose code tells "not a 2026-07-28 endpoint" from "unreachable".
//! It moves bytes only, like every wire: recording happens above.

use std::collections::HashMap;
use std::sync::Arc;

use bytes::Bytes;
use parking_lot::Mutex;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use reqwest::{Method, Response, StatusCode};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::headers::{ToolHeaders, frame_headers};
use crate::http::body::{JsonBody, Seen, read_json_body};
use crate::http::exchange::{Purpose, send_recorded};
use crate::http::{BodyKind, HttpTarget, Outlet, body_kind, describe_error};
use crate::limits::Size;
use crate::sse::SseParser;
use crate::wire::{WireEnd, WireEvent};

/// Code of the synthetic error for an answer that is not a 2026-07-28 one (a 4xx without a
/// JSON-RPC error body, HTML, …): the server is probably a legacy one. (Distinct from
/// `wire::BAD_RESPONSE_CODE`, -32098, which fails a request at once without a fallback.)
pub const NOT_MODERN_CODE: i64 = -32097;
const ACCEPT_BOTH: &str = "application/json, text/event-stream";

/// What the modern wire shares with the connection above it.
#[derive(Clone)]
pub struct ModernHttp {
    /// Designated `Mcp-Param-*` headers per tool, learned from `tools/list`.
    pub tools: Arc<ToolHeaders>,
}

/// Starts the wire task; it runs until `cancel` fires or the outbound side closes.
pub fn spawn_modern_http(
    target: HttpTarget,
    client: reqwest::Client,
    end: WireEnd,
    cancel: CancellationToken,
    shared: ModernHttp,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(run(target, client, end, cancel, shared))
}

struct Ctx {
    target: HttpTarget,
    base: HeaderMap,
    client: reqwest::Client,
    out: Outlet,
    tools: Arc<ToolHeaders>,
    /// The version of the last request that named one (for frames that carry none).
    version: Mutex<Option<String>>,
    /// In-flight requests by id (JSON text), so a cancellation can close their stream.
    inflight: Mutex<HashMap<String, CancellationToken>>,
}

async fn run(
    target: HttpTarget,
    client: reqwest::Client,
    end: WireEnd,
    cancel: CancellationToken,
    shared: ModernHttp,
) {
    let WireEnd {
        inbound,
        mut outbound,
    } = end;
    let (base, problems) = target.base_headers();
    let ctx = Arc::new(Ctx {
        target,
        base,
        client,
        out: Outlet::new(inbound, &cancel),
        tools: shared.tools,
        version: Mutex::new(None),
        inflight: Mutex::new(HashMap::new()),
    });
    for problem in problems {
        ctx.out.note(problem).await;
    }
    ctx.target.send_auth_notes(&ctx.out.inbound);
    let reason = loop {
        let frame = tokio::select! {
            _ = cancel.cancelled() => break "disconnected",
            _ = ctx.out.inbound.closed() => break "the client went away",
            frame = outbound.recv() => match frame {
                Some(frame) => frame,
                None => break "the client closed the connection",
            },
        };
        let Ok(value) = serde_json::from_slice::<Value>(&frame) else {
            ctx.out
                .note("an outbound frame is not JSON; not sent".into())
                .await;
            continue;
        };
        if value.get("method").and_then(Value::as_str) == Some("notifications/cancelled") {
            close_cancelled(&ctx, &value).await;
            continue;
        }
        let token = ctx.out.cancel.child_token();
        if let (Some(id), Some(_)) = (value.get("id"), value.get("method")) {
            ctx.inflight.lock().insert(id.to_string(), token.clone());
        }
        ctx.out.tasks.spawn(post(ctx.clone(), frame, value, token));
    };
    ctx.out.stop_tasks().await;
    ctx.out.closed(reason).await;
}

/// On 2026-07-28 HTTP the cancellation of a request is closing its response stream.
async fn close_cancelled(ctx: &Ctx, value: &Value) {
    let Some(id) = value.pointer("/params/requestId") else {
        return;
    };
    let token = ctx.inflight.lock().remove(&id.to_string());
    let note = match token {
        Some(token) => {
            token.cancel();
            format!(
                "cancelled request {id} by closing its response stream (2026-07-28 streamable \
                 HTTP sends no notifications/cancelled)"
            )
        }
        None => format!("request {id} was no longer in flight; nothing to cancel"),
    };
    ctx.out.note(note).await;
}

async fn post(ctx: Arc<Ctx>, frame: Bytes, value: Value, token: CancellationToken) {
    let fallback = ctx.version.lock().clone();
    let headers = frame_headers(&value, fallback.as_deref(), &ctx.tools);
    if let Some((_, v)) = headers
        .iter()
        .find(|(k, _)| k == super::headers::VERSION_HEADER)
    {
        *ctx.version.lock() = Some(v.clone());
    }
    let mut extra = HeaderMap::new();
    for (name, v) in &headers {
        match (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(v),
        ) {
            (Ok(name), Ok(v)) => {
                extra.append(name, v);
            }
            _ => {
                ctx.out
                    .note(format!("header {name} could not be sent"))
                    .await
            }
        }
    }
    let send = send_recorded(&ctx.out, &ctx.target, Purpose::Post, Some(&frame), || {
        ctx.client
            .request(Method::POST, ctx.target.url.clone())
            .headers(ctx.base.clone())
            .headers(extra.clone())
            .header(ACCEPT, ACCEPT_BOTH)
            .header(CONTENT_TYPE, "application/json")
            .body(frame.clone())
    });
    let (resp, exchange) = tokio::select! {
        _ = token.cancelled() => return,
        sent = send => sent,
    };
    let is_request = value.get("id").is_some();
    match resp {
        Err(failure) => {
            fail(
                &ctx,
                &value,
                crate::wire::TRANSPORT_ERROR_CODE,
                failure.message(&ctx.target.url),
                None,
            )
            .await
        }
        Ok(resp) if resp.status() == StatusCode::ACCEPTED => {}
        Ok(resp) if !resp.status().is_success() => {
            error_status(&ctx, &value, (resp, exchange), &token).await
        }
        Ok(_) if !is_request => {}
        Ok(resp) => read_answer(&ctx, &value, (resp, exchange), &token).await,
    }
    if let Some(id) = value.get("id") {
        ctx.inflight.lock().remove(&id.to_string());
    }
}

/// Reads a 2xx answer to a request: one JSON object, or an SSE stream up to the response.
async fn read_answer(
    ctx: &Ctx,
    request: &Value,
    (resp, exchange): (Response, u64),
    token: &CancellationToken,
) {
    match body_kind(&resp) {
        // Read up to the message limit; a body that is not JSON fails the request at once.
        BodyKind::Json => match read_json(ctx, resp, token).await {
            Some(Ok(JsonBody::Empty)) => {
                let message = "the server answered the request with an empty body".to_owned();
                fail(ctx, request, NOT_MODERN_CODE, message, None).await;
            }
            Some(Ok(JsonBody::Frames(frames))) => {
                for frame in frames {
                    if !ctx.out.carried(frame, exchange).await {
                        return;
                    }
                }
            }
            Some(Ok(JsonBody::Unusable { start, why })) => {
                let request = request.get("id").cloned();
                let event = WireEvent::Unusable {
                    start,
                    why,
                    request,
                };
                ctx.out.emit(event).await;
            }
            None => {}
            Some(Err(why)) => {
                fail(ctx, request, crate::wire::TRANSPORT_ERROR_CODE, why, None).await
            }
        },
        BodyKind::EventStream => read_stream(ctx, request, (resp, exchange), token).await,
        BodyKind::Other(kind) => {
            let message = format!(
                "the server answered with content type `{kind}`; a streamable HTTP MCP server \
                 answers with application/json or text/event-stream (is this the right URL?)"
            );
            fail(ctx, request, NOT_MODERN_CODE, message, None).await;
        }
    }
}

/// A JSON body read up to the message limit; `None` when cancelled.
async fn read_json(
    ctx: &Ctx,
    resp: Response,
    token: &CancellationToken,
) -> Option<Result<JsonBody, String>> {
    let seen = Seen::of(&resp);
    tokio::select! {
        _ = token.cancelled() => None,
        body = read_json_body(resp, ctx.target.max_message, &seen) => Some(body),
    }
}

/// Delivers the events of a response stream until the response arrives. A stream that ends
/// first loses the request: 2026-07-28 streams are not resumable.
async fn read_stream(
    ctx: &Ctx,
    request: &Value,
    (mut resp, exchange): (Response, u64),
    token: &CancellationToken,
) {
    let id = request.get("id");
    // Lines and events are held up to the message limit only (also for `subscriptions/listen`).
    let mut parser = SseParser::with_limit(ctx.target.max_message);
    let why = loop {
        let chunk = tokio::select! {
            _ = token.cancelled() => return,
            chunk = resp.chunk() => chunk,
        };
        let chunk = match chunk {
            Ok(Some(chunk)) => chunk,
            Ok(None) => break "the server closed the stream".to_owned(),
            Err(err) => break describe_error(&err),
        };
        for event in parser.feed(&chunk) {
            if !event.is_message() || event.data.trim().is_empty() {
                continue;
            }
            let frame = Bytes::from(event.data);
            let answered = serde_json::from_slice::<Value>(&frame)
                .is_ok_and(|v| v.get("method").is_none() && id.is_some() && v.get("id") == id);
            if !ctx.out.carried(frame, exchange).await || answered {
                return;
            }
        }
        if let Some(start) = parser.exceeded() {
            let why = format!(
                "the server sent an SSE line or event over the {} message limit on the response \
                 stream of {}; the stream was dropped (raise the limit with --limit message=SIZE)",
                Size(parser.limit()),
                describe(request)
            );
            ctx.out.note(why.clone()).await;
            let event = WireEvent::Unusable {
                start: Bytes::copy_from_slice(start),
                why,
                request: id.cloned(),
            };
            ctx.out.emit(event).await;
            return;
        }
    };
    let message = format!(
        "the response stream ended before the answer ({why}); 2026-07-28 streams cannot be \
         resumed, so retry the request"
    );
    fail(
        ctx,
        request,
        crate::wire::TRANSPORT_ERROR_CODE,
        message,
        None,
    )
    .await;
}

/// A non-2xx answer. A JSON-RPC error body is the server's frame (with the request's id when
/// the server left it out); anything else is a synthetic error saying what came back.
async fn error_status(
    ctx: &Ctx,
    request: &Value,
    (resp, exchange): (Response, u64),
    token: &CancellationToken,
) {
    let status = resp.status();
    let body = match read_bounded(resp, ctx.target.max_message, token).await {
        Ok(Some(body)) => body,
        Ok(None) => return,
        Err(_) => Bytes::new(),
    };
    let parsed = serde_json::from_slice::<Value>(&body).ok();
    let rpc_error = parsed
        .as_ref()
        .filter(|v| v.get("error").and_then(|e| e.get("code")).is_some());
    ctx.out
        .note(format!("HTTP {status} for {}", describe(request)))
        .await;
    match rpc_error {
        Some(v) if v.get("id").is_some_and(|i| !i.is_null()) => {
            ctx.out.carried(trim(body), exchange).await;
        }
        Some(v) => {
            let error = v.get("error").cloned().unwrap_or(Value::Null);
            synthesize(ctx, request, error).await;
        }
        None => {
            let excerpt: String = String::from_utf8_lossy(&body)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .chars()
                .take(300)
                .collect();
            let mut message = format!(
                "HTTP {status} from {} without a JSON-RPC error: not a 2026-07-28 endpoint",
                ctx.target.url
            );
            if status.as_u16() == 401 || status.as_u16() == 403 {
                message = format!(
                    "HTTP {status} from {}: the server requires authorization",
                    ctx.target.url
                );
            }
            if !excerpt.is_empty() {
                message.push_str(&format!(" (server said: {excerpt})"));
            }
            let data = json!({ "httpStatus": status.as_u16() });
            fail(ctx, request, NOT_MODERN_CODE, message, Some(data)).await;
        }
    }
}

fn describe(request: &Value) -> String {
    let method = request
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or("a frame");
    match request.get("id") {
        Some(id) => format!("`{method}` (id {id})"),
        None => format!("`{method}`"),
    }
}

/// Reads a whole body, bounded by `max` (the message limit); `None` when cancelled.
async fn read_bounded(
    mut resp: Response,
    max: usize,
    token: &CancellationToken,
) -> Result<Option<Bytes>, String> {
    let mut body = Vec::new();
    loop {
        let chunk = tokio::select! {
            _ = token.cancelled() => return Ok(None),
            chunk = resp.chunk() => chunk,
        };
        match chunk {
            Ok(Some(chunk)) => {
                if body.len() + chunk.len() > max {
                    return Err(format!(
                        "the response body is over the {} message limit; refused (raise it \
                         with --limit message=SIZE)",
                        Size(max)
                    ));
                }
                body.extend_from_slice(&chunk);
            }
            Ok(None) => return Ok(Some(Bytes::from(body))),
            Err(err) => {
                return Err(format!(
                    "reading the response failed: {}",
                    describe_error(&err)
                ));
            }
        }
    }
}

fn trim(body: Bytes) -> Bytes {
    let start = body
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(0);
    let end = body
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(start, |e| e + 1);
    body.slice(start..end)
}

/// Answers `request` with a synthetic error so its caller fails at once.
async fn fail(ctx: &Ctx, request: &Value, code: i64, message: String, data: Option<Value>) {
    let mut error = json!({ "code": code, "message": message });
    if let Some(data) = data {
        error["data"] = data;
    }
    if request.get("id").is_some() {
        synthesize(ctx, request, error).await;
    } else {
        ctx.out.note(message).await;
    }
}

async fn synthesize(ctx: &Ctx, request: &Value, error: Value) {
    let Some(id) = request.get("id") else {
        return;
    };
    let reply = json!({ "jsonrpc": "2.0", "id": id, "error": error });
    if let Ok(bytes) = serde_json::to_vec(&reply) {
        ctx.out.emit(WireEvent::Synthetic(Bytes::from(bytes))).await;
    }
}

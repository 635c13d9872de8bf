//! The HTTP side of the scripted LLM: the axum router, the shared script and request log, and
//! the delivery of answers (streamed with optional delays and cut-offs, or complete). It owns
//! the mapping from a request to the next step; it must not shape wire payloads itself (the
//! encoders do) and must stop every stream when the handle is dropped.

use std::{
    collections::VecDeque,
    net::{Ipv4Addr, SocketAddr},
    sync::Arc,
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use axum::{
    Router,
    body::{Body, Bytes},
    extract::{DefaultBodyLimit, State},
    http::{HeaderMap, Method, StatusCode, Uri, header},
    response::Response,
    routing::{get, post},
};
use futures::StreamExt;
use parking_lot::Mutex;
use serde_json::{Value, json};
use tokio::sync::watch;

use super::{
    Api, RecordedRequest, Step, anthropic, openai,
    plan::{self, Plan},
};

/// Lets hyper flush the events already produced before the connection is aborted (hyper has
/// no flushed signal to wait for: the pause is the mechanism of a scripted cut-off).
const FLUSH_BEFORE_ABORT: Duration = Duration::from_millis(20);

/// The script and everything received.
pub(super) struct Log {
    pub script: VecDeque<Step>,
    /// Answers by content once the script is used up.
    pub rules: Option<super::Rules>,
    pub consumed: usize,
    pub requests: Vec<RecordedRequest>,
    pub model_requests: Vec<RecordedRequest>,
    /// Input tokens every answer reports as cached.
    pub cached_input: u32,
    /// Streamed answers whose body was dropped before its end: the client went away.
    pub abandoned: usize,
    /// Bumped whenever a request is recorded or an answer abandoned ([`Log::changed`]), so a
    /// test waits for that event instead of polling.
    pub changes: watch::Sender<u64>,
    /// While true, answers wait (after their request is recorded) until it turns false
    /// ([`super::ScriptedLlm::hold_answers`]): a test acts while the client waits on the model.
    pub holding: watch::Sender<bool>,
}

impl Log {
    pub(super) fn new(script: Vec<Step>) -> Log {
        Log {
            script: script.into(),
            rules: None,
            consumed: 0,
            cached_input: 0,
            requests: Vec::new(),
            model_requests: Vec::new(),
            abandoned: 0,
            changes: watch::Sender::new(0),
            holding: watch::Sender::new(false),
        }
    }

    /// Tells the waiters of [`super::ScriptedLlm::wait_until`] that something was logged.
    pub(super) fn changed(&self) {
        self.changes.send_modify(|n| *n += 1);
    }
}

#[derive(Clone)]
struct AppState {
    log: Arc<Mutex<Log>>,
    models: Arc<Vec<String>>,
    stopped: watch::Receiver<bool>,
}

/// Bind 127.0.0.1:0 and serve until `stopped` turns true (or its sender is dropped).
pub(super) async fn spawn(
    log: Arc<Mutex<Log>>,
    models: Vec<String>,
    stopped: watch::Receiver<bool>,
) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .expect("bind the scripted LLM server on 127.0.0.1:0");
    let addr = listener
        .local_addr()
        .expect("local address of a bound listener");
    let state = AppState {
        log,
        models: Arc::new(models),
        stopped: stopped.clone(),
    };
    let router = Router::new()
        .route(
            "/v1/chat/completions",
            post(|s, m, u, h, b| chat(Api::OpenAi, s, m, u, h, b)),
        )
        .route(
            "/v1/messages",
            post(|s, m, u, h, b| chat(Api::Anthropic, s, m, u, h, b)),
        )
        .route("/v1/models", get(list_models))
        .route("/__requests", get(recorded_bodies))
        .fallback(unknown)
        .layer(DefaultBodyLimit::max(64 << 20))
        .with_state(state);
    let mut until = stopped;
    tokio::spawn(async move {
        // Streamed chunks are small writes: TCP_NODELAY keeps Nagle from holding them back.
        let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
            let _ = tcp.set_nodelay(true);
        });
        let serve = axum::serve(listener, router).with_graceful_shutdown(async move {
            let _ = until.wait_for(|stop| *stop).await;
        });
        if let Err(error) = serve.await {
            tracing::warn!(%error, "scripted LLM server stopped with an error");
        }
    });
    addr
}

/// The bodies of the chat requests received so far, in order: lets a test in another process
/// (the browser tests) assert on what the provider layer sent.
async fn recorded_bodies(State(state): State<AppState>) -> axum::Json<Value> {
    let log = state.log.lock();
    axum::Json(Value::Array(
        log.requests.iter().map(|r| r.body.clone()).collect(),
    ))
}

fn record(
    api: Api,
    method: &Method,
    uri: &Uri,
    headers: &HeaderMap,
    body: Value,
    raw_body: &[u8],
) -> RecordedRequest {
    RecordedRequest {
        api,
        method: method.to_string(),
        path: uri.path().to_string(),
        headers: headers
            .iter()
            .map(|(name, value)| {
                let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
                (name.as_str().to_string(), value)
            })
            .collect(),
        body,
        raw_body: raw_body.to_vec(),
        usage: None,
    }
}

/// What a chat request is answered with, decided under the lock.
enum Answer {
    Error {
        status: u16,
        message: String,
        retry_after: Option<u64>,
        delay: Option<Duration>,
    },
    Content {
        plan: Plan,
        cut_after: Option<usize>,
        delay: Option<Duration>,
    },
}

async fn chat(
    api: Api,
    State(state): State<AppState>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    raw: Bytes,
) -> Response {
    let body: Value = serde_json::from_slice(&raw)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&raw).into_owned()));
    let mut recorded = record(api, &method, &uri, &headers, body.clone(), &raw);
    let (fault, max_tokens) = match api {
        Api::OpenAi => (openai::validate(&body), openai::max_tokens(&body)),
        Api::Anthropic => (anthropic::validate(&body), anthropic::max_tokens(&body)),
    };

    let mut held;
    let (answer, seq) = {
        let mut log = state.log.lock();
        let answer = if let Some(message) = fault {
            // A malformed request is the client's bug: answered like the provider would,
            // without consuming a step.
            Answer::Error {
                status: 400,
                message,
                retry_after: None,
                delay: None,
            }
        } else if let Some(step) = log
            .script
            .pop_front()
            .or_else(|| log.rules.as_ref().and_then(|r| r.answer(&body)))
        {
            log.consumed += 1;
            let resolved = plan::resolve(step);
            match resolved.base {
                Step::Fail {
                    status,
                    message,
                    retry_after,
                } => Answer::Error {
                    status,
                    message,
                    retry_after,
                    delay: resolved.delay,
                },
                step => {
                    let input_tokens = u32::try_from(raw.len().div_ceil(4)).unwrap_or(u32::MAX);
                    let mut plan = Plan::new(&step, input_tokens, max_tokens);
                    plan.usage.cached_input_tokens = log.cached_input.min(input_tokens);
                    recorded.usage = Some(plan.usage);
                    Answer::Content {
                        plan,
                        cut_after: resolved.cut_after,
                        delay: resolved.delay,
                    }
                }
            }
        } else {
            Answer::Error {
                status: 500,
                message: format!(
                    "mcplab-testkit scripted LLM: script exhausted after {} requests; \
                     this request has no step",
                    log.consumed
                ),
                retry_after: None,
                delay: None,
            }
        };
        log.requests.push(recorded);
        log.changed();
        held = log.holding.subscribe();
        (answer, log.requests.len())
    };

    let mut stopped = state.stopped.clone();
    tokio::select! {
        _ = held.wait_for(|h| !*h) => {}
        _ = stopped.wait_for(|s| *s) => {}
    }
    match answer {
        Answer::Error {
            status,
            message,
            retry_after,
            delay,
        } => {
            // A scripted slow model (`Step::slow`): the time is what the step simulates.
            if let Some(delay) = delay {
                tokio::time::sleep(delay).await;
            }
            error_response(api, status, &message, retry_after)
        }
        Answer::Content {
            plan,
            cut_after,
            delay,
        } => {
            let model = body["model"].as_str().unwrap_or_default().to_string();
            let stream = body["stream"].as_bool() == Some(true);
            let (frames, complete) = match api {
                Api::OpenAi => {
                    let envelope = openai::Envelope {
                        id: format!("chatcmpl-scripted{seq}"),
                        model,
                        created: SystemTime::now()
                            .duration_since(UNIX_EPOCH)
                            .map_or(0, |d| d.as_secs()),
                        include_usage: openai::include_usage(&body),
                    };
                    (
                        openai::stream_frames(&plan, &envelope),
                        openai::response(&plan, &envelope),
                    )
                }
                Api::Anthropic => {
                    let envelope = anthropic::Envelope {
                        id: format!("msg_scripted{seq}"),
                        model,
                    };
                    (
                        anthropic::stream_frames(&plan, &envelope),
                        anthropic::response(&plan, &envelope),
                    )
                }
            };
            if stream {
                let unfinished = Unfinished {
                    log: state.log.clone(),
                    ended: false,
                };
                let body =
                    event_stream(frames, cut_after, delay, state.stopped.clone(), unfinished);
                respond(
                    api,
                    StatusCode::OK,
                    "text/event-stream; charset=utf-8",
                    body,
                )
            } else {
                // A scripted slow model (`Step::slow`): the time is what the step simulates.
                if let Some(delay) = delay {
                    tokio::time::sleep(delay).await;
                }
                let body = match cut_after {
                    Some(_) => aborted_body(),
                    None => Body::from(complete.to_string()),
                };
                respond(api, StatusCode::OK, "application/json", body)
            }
        }
    }
}

/// Counts a streamed answer as abandoned when its body is dropped before it ended.
struct Unfinished {
    log: Arc<Mutex<Log>>,
    ended: bool,
}

impl Drop for Unfinished {
    fn drop(&mut self) {
        if !self.ended {
            let mut log = self.log.lock();
            log.abandoned += 1;
            log.changed();
        }
    }
}

/// The frames as a streaming body: `delay` before each, aborted after `cut_after` of them, and
/// ended early when the server stops.
fn event_stream(
    frames: Vec<String>,
    cut_after: Option<usize>,
    delay: Option<Duration>,
    mut stopped: watch::Receiver<bool>,
    unfinished: Unfinished,
) -> Body {
    let mut frames: VecDeque<String> = frames.into();
    let abort = cut_after.is_some();
    if let Some(keep) = cut_after {
        frames.truncate(keep);
    }
    let start = (frames, abort, unfinished);
    let events = futures::stream::unfold(
        start,
        move |(mut frames, abort, mut unfinished)| async move {
            if let Some(frame) = frames.pop_front() {
                // The pace of a scripted slow stream (`Step::slow`), not a synchronisation.
                if let Some(delay) = delay {
                    tokio::time::sleep(delay).await;
                }
                return Some((Ok(Bytes::from(frame)), (frames, abort, unfinished)));
            }
            unfinished.ended = true;
            if abort {
                tokio::time::sleep(FLUSH_BEFORE_ABORT).await;
                let cut =
                    std::io::Error::new(std::io::ErrorKind::ConnectionAborted, "scripted cut-off");
                return Some((Err(cut), (frames, false, unfinished)));
            }
            None
        },
    );
    let stop = async move {
        let _ = stopped.wait_for(|stop| *stop).await;
    };
    Body::from_stream(events.take_until(Box::pin(stop)))
}

/// A body that fails before its first byte, so the connection is aborted.
fn aborted_body() -> Body {
    let events = futures::stream::once(async {
        tokio::time::sleep(FLUSH_BEFORE_ABORT).await;
        Err::<Bytes, _>(std::io::Error::new(
            std::io::ErrorKind::ConnectionAborted,
            "scripted cut-off",
        ))
    });
    Body::from_stream(events)
}

fn respond(api: Api, status: StatusCode, content_type: &str, body: Body) -> Response {
    let request_id = match api {
        Api::OpenAi => "x-request-id",
        Api::Anthropic => "request-id",
    };
    Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, content_type)
        .header(header::CACHE_CONTROL, "no-cache")
        .header(request_id, "req_mcplab_scripted")
        .body(body)
        .unwrap_or_else(|_| Response::new(Body::empty()))
}

fn error_response(api: Api, status: u16, message: &str, retry_after: Option<u64>) -> Response {
    let (status, message) = match StatusCode::from_u16(status) {
        Ok(code) => (code, message.to_string()),
        Err(_) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("scripted status {status} is not an HTTP status: {message}"),
        ),
    };
    let body = match api {
        Api::OpenAi => openai::error(status.as_u16(), &message),
        Api::Anthropic => anthropic::error(status.as_u16(), &message),
    };
    let mut response = respond(
        api,
        status,
        "application/json",
        Body::from(body.to_string()),
    );
    if let Some(seconds) = retry_after {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, seconds.into());
    }
    response
}

/// Anthropic clients send `anthropic-version` (and `x-api-key`); anything else is OpenAI style.
fn api_of(headers: &HeaderMap) -> Api {
    if headers.contains_key("anthropic-version") || headers.contains_key("x-api-key") {
        Api::Anthropic
    } else {
        Api::OpenAi
    }
}

async fn list_models(
    State(state): State<AppState>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let api = api_of(&headers);
    state
        .log
        .lock()
        .model_requests
        .push(record(api, &method, &uri, &headers, Value::Null, &[]));
    // The OpenAI list shape, with the fields of Anthropic's model objects and page alongside, so
    // either client parses it.
    let data: Vec<Value> = state
        .models
        .iter()
        .map(|id| {
            json!({
                "id": id,
                "object": "model",
                "created": 1_700_000_000,
                "owned_by": "mcplab-testkit",
                "type": "model",
                "display_name": id,
                "created_at": "2023-11-14T22:13:20Z",
            })
        })
        .collect();
    let body = json!({
        "object": "list",
        "data": data,
        "has_more": false,
        "first_id": state.models.first(),
        "last_id": state.models.last(),
    });
    respond(
        api,
        StatusCode::OK,
        "application/json",
        Body::from(body.to_string()),
    )
}

async fn unknown(method: Method, uri: Uri, headers: HeaderMap) -> Response {
    let api = api_of(&headers);
    let body = match api {
        Api::OpenAi => json!({"error": {
            "message": format!("Unknown request URL: {method} {}. Please check the URL for typos.", uri.path()),
            "type": "invalid_request_error",
            "param": null,
            "code": "unknown_url",
        }}),
        Api::Anthropic => anthropic::error(404, "Not Found"),
    };
    respond(
        api,
        StatusCode::NOT_FOUND,
        "application/json",
        Body::from(body.to_string()),
    )
}

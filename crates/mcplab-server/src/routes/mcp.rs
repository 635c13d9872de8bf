//! The MCP operations of one connected server: listings (every page), tool calls with
//! progress and cancellation by `callId`, resources, prompts, completion, logging level and
//! ping. A failed MCP request is a `CallOutcome` with `error`, not an HTTP error.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::{MethodRouter, get};
use mcplab_mcp::{Connection, Listing, McpError, ProgressUpdate, RequestOptions};
use mcplab_protocol::ServerEvent;
use mcplab_protocol::api::{
    CallError, CallErrorKind, CallOutcome, CallProgressView, CompleteRequest, LogLevelRequest,
    PromptGetRequest, ToolCallRequest, ToolCallView, UriRequest,
};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::AppState;
use crate::error::{ApiFailure, mcp_failure};

pub(super) fn conn(state: &AppState, name: &str) -> Result<Arc<Connection>, ApiFailure> {
    Ok(state.manager.get(name)?)
}

/// Maps a request's result to what the UI shows: a `CallOutcome`, with the failure's kind
/// from the one table in `error::mcp_failure`. The caller's own mistakes (bad params, an
/// unusable config) are no MCP outcome: they are answered 400 like on every other route.
pub(super) fn outcome(
    result: Result<Value, McpError>,
    started: Instant,
) -> Result<CallOutcome, ApiFailure> {
    let duration_ms = started.elapsed().as_millis() as u64;
    let e = match result {
        Ok(v) => {
            return Ok(CallOutcome {
                result: Some(v),
                error: None,
                duration_ms,
                requests: Vec::new(),
            });
        }
        Err(e @ (McpError::InvalidParams(_) | McpError::InvalidConfig(_))) => {
            return Err(e.into());
        }
        Err(e) => e,
    };
    let (_, _, kind) = mcp_failure(&e);
    let (code, data) = match &e {
        McpError::Server { code, data, .. } => (Some(*code), data.clone()),
        _ => (None, None),
    };
    Ok(CallOutcome {
        result: None,
        error: Some(CallError {
            kind,
            message: e.to_string(),
            code,
            data,
        }),
        duration_ms,
        requests: Vec::new(),
    })
}

async fn simple(
    state: &AppState,
    name: &str,
    method: &str,
    params: Option<Value>,
) -> Result<Json<CallOutcome>, ApiFailure> {
    let c = conn(state, name)?;
    let started = Instant::now();
    let r = c.request(method, params, RequestOptions::default()).await;
    outcome(r, started).map(Json)
}

pub(super) async fn listing(
    state: &AppState,
    name: &str,
    listing: Listing,
) -> Result<Json<Arc<Value>>, ApiFailure> {
    listing_with(state, name, listing, ListQuery::default()).await
}

/// `?fresh=true`: bypass the 2026-07-28 cache (the fresh answer is kept).
#[derive(Debug, Default, serde::Deserialize)]
pub(super) struct ListQuery {
    #[serde(default)]
    fresh: bool,
}

async fn listing_with(
    state: &AppState,
    name: &str,
    listing: Listing,
    query: ListQuery,
) -> Result<Json<Arc<Value>>, ApiFailure> {
    let c = conn(state, name)?;
    // A capability the server did not declare is not asked for: an empty list that says why.
    if let Some(capability) = listing.capability()
        && !declares(&c, capability)
    {
        return Ok(Json(Arc::new(json!({
            listing.key(): [],
            "note": format!(
                "this server does not offer {capability} (its initialize result declares no \
                 `{capability}` capability)"
            ),
        }))));
    }
    let opts = RequestOptions {
        bypass_cache: query.fresh,
        ..Default::default()
    };
    c.list_all(listing, opts)
        .await
        .map(Json)
        .map_err(ApiFailure::from)
}

/// Whether the server's `initialize` result declares `capability`.
fn declares(c: &Connection, capability: &str) -> bool {
    c.initialize_result()
        .get("capabilities")
        .and_then(|caps| caps.get(capability))
        .is_some_and(|v| !v.is_null())
}

/// The `GET` route of one listing (`tools`, `resources`, `resource-templates`, `prompts`);
/// `?fresh=true` bypasses the 2026-07-28 cache.
pub(super) fn listing_route(listing: Listing) -> MethodRouter<Arc<AppState>> {
    get(
        move |State(s): State<Arc<AppState>>, Path(n): Path<String>, Query(q): Query<ListQuery>| async move {
            listing_with(&s, &n, listing, q).await
        },
    )
}

pub(super) async fn call_tool(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
    Json(req): Json<ToolCallRequest>,
) -> Result<Json<CallOutcome>, ApiFailure> {
    run_tool_call(&state, &name, req, Listed::Yes)
        .await
        .map(Json)
}

/// Whether `GET /api/calls` shows a call (the Tools page's) or not (an app's).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Listed {
    Yes,
    No,
}

/// `tools/call` on server `name`. With a `callId` the call is cancellable, its progress is
/// published under that id, and it runs in a task of its own kept in `state.calls`: it goes
/// on when this request goes away, and a page picks it up again (shared by the inspector's
/// and the apps' call routes).
pub(super) async fn run_tool_call(
    state: &Arc<AppState>,
    name: &str,
    req: ToolCallRequest,
    listed: Listed,
) -> Result<CallOutcome, ApiFailure> {
    let c = conn(state, name)?;
    let arguments = if req.arguments.is_null() {
        json!({})
    } else {
        req.arguments.clone()
    };
    let mut opts = RequestOptions {
        timeout: req.timeout_ms.map(Duration::from_millis),
        task: req.task.unwrap_or_default(),
        ..Default::default()
    };
    let Some(call_id) = req.call_id.clone() else {
        return send_tool_call(&c, &req, arguments, opts).await;
    };
    let begun = state
        .calls
        .begin(name, &call_id, &req.name, &arguments, listed == Listed::Yes)
        .ok_or_else(|| {
            ApiFailure::new(
                StatusCode::CONFLICT,
                "conflict",
                format!("a call with id `{call_id}` is already running"),
            )
        })?;
    opts.cancel = Some(begun.cancel);
    opts.progress = Some(progress_publisher(state, name, &call_id));
    let (tx, rx) = tokio::sync::oneshot::channel();
    let (state, name) = (state.clone(), name.to_owned());
    tokio::spawn(async move {
        let r = send_tool_call(&c, &req, arguments, opts).await;
        let kept = match &r {
            Ok(outcome) => outcome.clone(),
            Err(e) => invalid_outcome(e),
        };
        state.calls.end(&name, &call_id, &kept);
        // The request that started the call may be gone (a reload): the outcome stays kept.
        let _ = tx.send(r);
    });
    rx.await.map_err(|_| {
        ApiFailure::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "the tool call's task ended without an outcome",
        )
    })?
}

/// Sends `tools/call` and maps the answer, with the ids of the requests it sent.
async fn send_tool_call(
    c: &Connection,
    req: &ToolCallRequest,
    arguments: Value,
    mut opts: RequestOptions,
) -> Result<CallOutcome, ApiFailure> {
    let (sent_tx, mut sent_rx) = mpsc::unbounded_channel();
    opts.sent = Some(sent_tx);
    let started = Instant::now();
    let params = json!({ "name": req.name, "arguments": arguments });
    let r = c.request("tools/call", Some(params), opts).await;
    let mut outcome = outcome(r, started)?;
    while let Ok(sent) = sent_rx.try_recv() {
        outcome.requests.push(sent);
    }
    Ok(outcome)
}

/// Progress re-published under the caller's `callId` (so the UI can match it) and kept as the
/// call's last progress for a page that picks it up.
fn progress_publisher(
    state: &Arc<AppState>,
    name: &str,
    call_id: &str,
) -> mpsc::UnboundedSender<ProgressUpdate> {
    let (tx, mut rx) = mpsc::unbounded_channel::<ProgressUpdate>();
    let (state, server, call_id) = (state.clone(), name.to_owned(), call_id.to_owned());
    tokio::spawn(async move {
        while let Some(u) = rx.recv().await {
            let view = CallProgressView {
                progress: u.progress,
                total: u.total,
                message: u.message.clone(),
            };
            state.calls.progress(&server, &call_id, view);
            state.events.publish_server(ServerEvent::Progress {
                server: server.clone(),
                token: Value::String(call_id.clone()),
                progress: u.progress,
                total: u.total,
                message: u.message,
            });
        }
    });
    tx
}

/// What is kept of a call the route refused (bad params): an outcome saying so.
fn invalid_outcome(e: &ApiFailure) -> CallOutcome {
    CallOutcome {
        result: None,
        error: Some(CallError {
            kind: CallErrorKind::Invalid,
            message: e.message.clone(),
            code: None,
            data: None,
        }),
        duration_ms: 0,
        requests: Vec::new(),
    }
}

pub(super) async fn cancel_call(
    State(state): State<Arc<AppState>>,
    Path((name, call_id)): Path<(String, String)>,
) -> StatusCode {
    if state.calls.cancel(&name, &call_id) {
        StatusCode::NO_CONTENT
    } else {
        StatusCode::NOT_FOUND
    }
}

/// How long `GET /api/servers/{name}/calls/{callId}` waits for a running call to end.
const CALL_WAIT: Duration = Duration::from_secs(30);

/// `GET /api/calls`: the Tools page's calls, running and recently ended.
pub(super) async fn list_calls(State(state): State<Arc<AppState>>) -> Json<Vec<ToolCallView>> {
    Json(state.calls.list())
}

/// `GET /api/servers/{name}/calls/{callId}`: the call once it ended, or as it is after
/// [`CALL_WAIT`].
pub(super) async fn wait_call(
    State(state): State<Arc<AppState>>,
    Path((name, call_id)): Path<(String, String)>,
) -> Result<Json<ToolCallView>, ApiFailure> {
    state
        .calls
        .wait(&name, &call_id, CALL_WAIT)
        .await
        .map(Json)
        .ok_or_else(|| {
            ApiFailure::not_found(format!(
                "no call `{call_id}` on `{name}` is known (any more)"
            ))
        })
}

pub(super) async fn read_resource(
    State(s): State<Arc<AppState>>,
    Path(n): Path<String>,
    Json(req): Json<UriRequest>,
) -> Result<Json<CallOutcome>, ApiFailure> {
    uri_request(&s, &n, "resources/read", req).await
}

/// `resources/subscribe`, or in 2026-07-28 a `subscriptions/listen` for the uri.
pub(super) async fn subscribe(
    State(s): State<Arc<AppState>>,
    Path(n): Path<String>,
    Json(req): Json<UriRequest>,
) -> Result<Json<CallOutcome>, ApiFailure> {
    subscription(&s, &n, &req.uri, true).await
}

pub(super) async fn unsubscribe(
    State(s): State<Arc<AppState>>,
    Path(n): Path<String>,
    Json(req): Json<UriRequest>,
) -> Result<Json<CallOutcome>, ApiFailure> {
    subscription(&s, &n, &req.uri, false).await
}

/// Subscribes to (`on`) or unsubscribes from the resource `uri`.
async fn subscription(
    s: &AppState,
    n: &str,
    uri: &str,
    on: bool,
) -> Result<Json<CallOutcome>, ApiFailure> {
    let c = conn(s, n)?;
    let started = Instant::now();
    let r = if on {
        c.subscribe_resource(uri).await
    } else {
        c.unsubscribe_resource(uri).await
    };
    outcome(r, started).map(Json)
}

/// The resource requests whose only parameter is the URI.
async fn uri_request(
    s: &AppState,
    n: &str,
    method: &str,
    req: UriRequest,
) -> Result<Json<CallOutcome>, ApiFailure> {
    simple(s, n, method, Some(json!({ "uri": req.uri }))).await
}

pub(super) async fn get_prompt(
    State(s): State<Arc<AppState>>,
    Path(n): Path<String>,
    Json(req): Json<PromptGetRequest>,
) -> Result<Json<CallOutcome>, ApiFailure> {
    let params = json!({ "name": req.name, "arguments": req.arguments });
    simple(&s, &n, "prompts/get", Some(params)).await
}

pub(super) async fn complete(
    State(s): State<Arc<AppState>>,
    Path(n): Path<String>,
    Json(req): Json<CompleteRequest>,
) -> Result<Json<CallOutcome>, ApiFailure> {
    let mut params = json!({
        "ref": req.reference,
        "argument": { "name": req.argument.name, "value": req.argument.value },
    });
    if !req.context.is_empty() {
        params["context"] = json!({ "arguments": req.context });
    }
    simple(&s, &n, "completion/complete", Some(params)).await
}

pub(super) async fn log_level(
    State(s): State<Arc<AppState>>,
    Path(n): Path<String>,
    Json(req): Json<LogLevelRequest>,
) -> Result<Json<CallOutcome>, ApiFailure> {
    let c = conn(&s, &n)?;
    if c.is_modern() {
        // 2026-07-28 has no logging/setLevel: the level goes in every request's `_meta`.
        c.set_log_level(Some(req.level.clone()));
        let note = json!({ "io.modelcontextprotocol/logLevel": req.level });
        return outcome(Ok(note), Instant::now()).map(Json);
    }
    simple(
        &s,
        &n,
        "logging/setLevel",
        Some(json!({ "level": req.level })),
    )
    .await
}

pub(super) async fn ping(
    State(s): State<Arc<AppState>>,
    Path(n): Path<String>,
) -> Result<Json<CallOutcome>, ApiFailure> {
    let c = conn(&s, &n)?;
    if c.is_modern() {
        // 2026-07-28 removed `ping`: `server/discover`, never from the cache, answers instead.
        let started = Instant::now();
        let opts = RequestOptions {
            bypass_cache: true,
            ..Default::default()
        };
        let r = c.request("server/discover", None, opts).await;
        return outcome(r, started).map(Json);
    }
    simple(&s, &n, "ping", None).await
}

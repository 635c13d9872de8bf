//! The MCP operations of one connected server: listings (every page), tool calls with
//! progress and cancellation by `callId`, resources, prompts, completion, logging level and
//! ping. A failed MCP request is a `CallOutcome` with `error`, not an HTTP error.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use mcplab_mcp::{Connection, Listing, McpError, ProgressUpdate, RequestOptions};
use mcplab_protocol::ServerEvent;
use mcplab_protocol::api::{
    CallError, CallOutcome, CompleteRequest, LogLevelRequest, PromptGetRequest, ToolCallRequest,
    UriRequest,
};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::AppState;
use crate::error::{ApiFailure, mcp_failure};

pub(super) fn conn(state: &AppState, name: &str) -> Result<Arc<Connection>, ApiFailure> {
    Ok(state.manager.get(name)?)
}

/// Maps a request's result to what the UI shows: a `CallOutcome`, with the failure's kind
/// from the one table in `error::mcp_failure`. The caller's own mistakes (bad params, an
/// unusable config) are no MCP outcome: they are answered 400 like on every other route.
pub fn outcome(
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
) -> Result<Json<Value>, ApiFailure> {
    listing_with(state, name, listing, ListQuery::default()).await
}

/// `?fresh=true`: bypass the 2026-07-28 cache (the fresh answer is kept).
#[derive(Debug, Default, serde::Deserialize)]
pub struct ListQuery {
    #[serde(default)]
    fresh: bool,
}

async fn listing_with(
    state: &AppState,
    name: &str,
    listing: Listing,
    query: ListQuery,
) -> Result<Json<Value>, ApiFailure> {
    let c = conn(state, name)?;
    // A capability the server did not declare is not asked for: an empty list that says why.
    if let Some(capability) = listing.capability()
        && !declares(&c, capability)
    {
        return Ok(Json(json!({
            listing.key(): [],
            "note": format!(
                "this server does not offer {capability} (its initialize result declares no \
                 `{capability}` capability)"
            ),
        })));
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

pub async fn tools(
    State(s): State<Arc<AppState>>,
    Path(n): Path<String>,
    Query(q): Query<ListQuery>,
) -> Result<Json<Value>, ApiFailure> {
    listing_with(&s, &n, Listing::Tools, q).await
}

pub async fn resources(
    State(s): State<Arc<AppState>>,
    Path(n): Path<String>,
    Query(q): Query<ListQuery>,
) -> Result<Json<Value>, ApiFailure> {
    listing_with(&s, &n, Listing::Resources, q).await
}

pub async fn templates(
    State(s): State<Arc<AppState>>,
    Path(n): Path<String>,
    Query(q): Query<ListQuery>,
) -> Result<Json<Value>, ApiFailure> {
    listing_with(&s, &n, Listing::ResourceTemplates, q).await
}

pub async fn prompts(
    State(s): State<Arc<AppState>>,
    Path(n): Path<String>,
    Query(q): Query<ListQuery>,
) -> Result<Json<Value>, ApiFailure> {
    listing_with(&s, &n, Listing::Prompts, q).await
}

/// Removes the call's cancel handle when the call ends, however it ends.
struct CallGuard<'a> {
    state: &'a AppState,
    key: Option<(String, String)>,
}

impl Drop for CallGuard<'_> {
    fn drop(&mut self) {
        if let Some(key) = self.key.take() {
            self.state.calls.lock().remove(&key);
        }
    }
}

pub async fn call_tool(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
    Json(req): Json<ToolCallRequest>,
) -> Result<Json<CallOutcome>, ApiFailure> {
    run_tool_call(&state, &name, req).await.map(Json)
}

/// `tools/call` on server `name`, cancellable and with progress under the caller's `callId`
/// (shared by the inspector's and the apps' call routes).
pub(super) async fn run_tool_call(
    state: &AppState,
    name: &str,
    req: ToolCallRequest,
) -> Result<CallOutcome, ApiFailure> {
    let c = conn(state, name)?;
    let cancel = CancellationToken::new();
    let mut guard = CallGuard { state, key: None };
    let mut progress = None;
    if let Some(call_id) = &req.call_id {
        let key = (name.to_owned(), call_id.clone());
        let mut calls = state.calls.lock();
        if calls.contains_key(&key) {
            return Err(ApiFailure::new(
                StatusCode::CONFLICT,
                "conflict",
                format!("a call with id `{call_id}` is already running"),
            ));
        }
        calls.insert(key.clone(), cancel.clone());
        drop(calls);
        guard.key = Some(key);
        // Progress is re-published under the caller's callId so the UI can match it.
        let (tx, mut rx) = mpsc::unbounded_channel::<ProgressUpdate>();
        let events = state.events.clone();
        let (server, token) = (name.to_owned(), Value::String(call_id.clone()));
        tokio::spawn(async move {
            while let Some(u) = rx.recv().await {
                events.publish_server(ServerEvent::Progress {
                    server: server.clone(),
                    token: token.clone(),
                    progress: u.progress,
                    total: u.total,
                    message: u.message,
                });
            }
        });
        progress = Some(tx);
    }
    let arguments = if req.arguments.is_null() {
        json!({})
    } else {
        req.arguments
    };
    let started = Instant::now();
    let r = c
        .request(
            "tools/call",
            Some(json!({ "name": req.name, "arguments": arguments })),
            RequestOptions {
                timeout: req.timeout_ms.map(Duration::from_millis),
                cancel: Some(cancel),
                progress,
                task: req.task.unwrap_or_default(),
                ..Default::default()
            },
        )
        .await;
    drop(guard);
    outcome(r, started)
}

pub async fn cancel_call(
    State(state): State<Arc<AppState>>,
    Path((name, call_id)): Path<(String, String)>,
) -> StatusCode {
    let token = state.calls.lock().get(&(name, call_id)).cloned();
    match token {
        Some(t) => {
            t.cancel();
            StatusCode::NO_CONTENT
        }
        None => StatusCode::NOT_FOUND,
    }
}

pub async fn read_resource(
    State(s): State<Arc<AppState>>,
    Path(n): Path<String>,
    Json(req): Json<UriRequest>,
) -> Result<Json<CallOutcome>, ApiFailure> {
    uri_request(&s, &n, "resources/read", req).await
}

/// `resources/subscribe`, or in 2026-07-28 a `subscriptions/listen` for the uri.
pub async fn subscribe(
    State(s): State<Arc<AppState>>,
    Path(n): Path<String>,
    Json(req): Json<UriRequest>,
) -> Result<Json<CallOutcome>, ApiFailure> {
    let c = conn(&s, &n)?;
    let started = Instant::now();
    outcome(c.subscribe_resource(&req.uri).await, started).map(Json)
}

pub async fn unsubscribe(
    State(s): State<Arc<AppState>>,
    Path(n): Path<String>,
    Json(req): Json<UriRequest>,
) -> Result<Json<CallOutcome>, ApiFailure> {
    let c = conn(&s, &n)?;
    let started = Instant::now();
    outcome(c.unsubscribe_resource(&req.uri).await, started).map(Json)
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

pub async fn get_prompt(
    State(s): State<Arc<AppState>>,
    Path(n): Path<String>,
    Json(req): Json<PromptGetRequest>,
) -> Result<Json<CallOutcome>, ApiFailure> {
    let params = json!({ "name": req.name, "arguments": req.arguments });
    simple(&s, &n, "prompts/get", Some(params)).await
}

pub async fn complete(
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

pub async fn log_level(
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

pub async fn ping(
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

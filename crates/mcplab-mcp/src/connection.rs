//! One live MCP connection: the rmcp client service, its transport task (and child process),
//! and the request path with timeouts, progress and cancellation. Results are the server's
//! exact JSON; rmcp's typed values never leave this module.

use std::sync::Arc;
use std::time::Duration;

use mcplab_protocol::{EraView, RequestRef, ServerConfig, TaskMode};
use rmcp::Peer;
use rmcp::model::{ClientNotification, ClientRequest, GetExtensions};
use rmcp::service::{PeerRequestOptions, RoleClient, RunningService, ServiceError};
use serde_json::{Value, json};
use tokio::sync::{Mutex, mpsc};
use tokio_util::sync::CancellationToken;

use super::error::McpError;
use super::frame_transport::RawResults;
use super::handler::{ClientSide, ProgressListeners, ProgressTap, ProgressUpdate, progress_key};
use super::listing::Listing;
use super::modern::cache::ResponseCache;
use super::modern::headers::ToolHeaders;
use super::stdio::{ChildGuard, StderrTail};
use super::tasks::TaskRegistry;
use super::traffic::TrafficLog;
use super::wire::{BAD_RESPONSE_CODE, TRANSPORT_ERROR_CODE};

/// How long closing waits for the HTTP transport task to end its session.
const TRANSPORT_STOP_WAIT: Duration = Duration::from_secs(8);

/// Most pages a listing follows before concluding the server is looping.
const MAX_PAGES: usize = 1000;

/// Key added to a merged list when a page came from the 2026-07-28 cache:
/// `{ "ageMs": …, "ttlMs": … }` of the oldest such page.
pub const CACHE_MARKER: &str = "mcplab/cache";

/// Per-request knobs.
#[derive(Default, Clone)]
pub struct RequestOptions {
    /// Overrides the connection's timeout for this request.
    pub timeout: Option<Duration>,
    /// Cancelling this token sends `notifications/cancelled` and fails the call with
    /// [`McpError::Cancelled`].
    pub cancel: Option<CancellationToken>,
    /// Receives the request's progress notifications (and, while a `tools/call` runs as a
    /// task, its status changes).
    pub progress: Option<mpsc::UnboundedSender<ProgressUpdate>>,
    /// Serve nothing from the cache of 2026-07-28 cacheable results (the answer is kept).
    pub bypass_cache: bool,
    /// Whether a `tools/call` may become a task.
    pub task: TaskMode,
    /// Return a task's handle at once instead of waiting for the task to finish.
    pub no_wait: bool,
    /// Told the id of every JSON-RPC request sent for this one, as it is sent (several for
    /// input rounds and a task's polls), so a caller can point at exactly its frames.
    pub sent: Option<mpsc::UnboundedSender<RequestRef>>,
}

pub struct Connection {
    pub(crate) name: String,
    pub(crate) config: ServerConfig,
    pub(crate) service: Mutex<Option<RunningService<RoleClient, ClientSide>>>,
    pub(crate) peer: Peer<RoleClient>,
    pub(crate) raw: RawResults,
    pub(crate) progress: ProgressListeners,
    pub(crate) child: Option<ChildGuard>,
    pub(crate) stderr: Arc<StderrTail>,
    pub(crate) timeout: Duration,
    pub(crate) initialize: Value,
    /// Stops the transport task (HTTP wires).
    pub(crate) transport_cancel: CancellationToken,
    /// The era and revision in use and how they were chosen.
    pub(crate) era: EraView,
    /// Fresh 2026-07-28 results (ttlMs), shared with the handler that invalidates them.
    pub(crate) cache: Arc<ResponseCache>,
    /// `x-mcp-header` designations (2026-07-28 streamable HTTP only).
    pub(crate) tool_headers: Option<Arc<ToolHeaders>>,
    /// Answers the input requests of multi-round-trip results like server requests.
    pub(crate) answerer: ClientSide,
    /// Minimum log level sent in each 2026-07-28 request's `_meta`, once set.
    pub(crate) log_level: parking_lot::Mutex<Option<String>>,
    /// The tools `list_all` returned last (every page merged): what the Tools page's marks
    /// judge without asking the server again.
    pub(crate) listed_tools: parking_lot::Mutex<Option<Arc<Value>>>,
    /// `execution.taskSupport` per tool, learned from `tools/list` (2025-11-25 tasks).
    pub(crate) task_support: parking_lot::Mutex<std::collections::HashMap<String, String>>,
    pub(crate) tasks: Arc<TaskRegistry>,
    pub(crate) traffic: Arc<TrafficLog>,
    /// Open `subscriptions/listen` requests by key (2026-07-28).
    pub(crate) listens: parking_lot::Mutex<std::collections::HashMap<String, CancellationToken>>,
    /// The streamable HTTP task, awaited on close so its `DELETE` goes out before a CLI exits.
    pub(crate) transport_task: parking_lot::Mutex<Option<tokio::task::JoinHandle<()>>>,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("name", &self.name)
            .field("transport", &self.config.transport.kind())
            .field("pid", &self.pid())
            .finish_non_exhaustive()
    }
}

impl Connection {
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn config(&self) -> &ServerConfig {
        &self.config
    }

    /// The server's `initialize` result as it sent it (protocolVersion, capabilities,
    /// serverInfo, instructions); for 2026-07-28 the same summary built from
    /// `server/discover` (whose exact result is in [`Self::era`]).
    pub fn initialize_result(&self) -> &Value {
        &self.initialize
    }

    /// The traffic log this connection records into (shared with its manager's other
    /// connections: frames carry the server's name).
    pub fn traffic(&self) -> &Arc<TrafficLog> {
        &self.traffic
    }

    /// The era and revision in use and how they were chosen.
    pub fn era(&self) -> &EraView {
        &self.era
    }

    /// Whether requests carry the 2026-07-28 per-request `_meta` (no session).
    pub fn is_modern(&self) -> bool {
        self.era.era == mcplab_protocol::Era::Modern
    }

    /// Tools whose `x-mcp-header` annotations are invalid, with the reason: they must not be
    /// used (2026-07-28 streamable HTTP).
    pub fn rejected_tools(&self) -> Vec<(String, String)> {
        self.tool_headers
            .as_ref()
            .map(|t| t.rejected())
            .unwrap_or_default()
    }

    /// The tasks known for this server, newest first.
    pub fn tasks(&self) -> Vec<mcplab_protocol::TaskView> {
        self.tasks.list(&self.name)
    }

    /// The tools this connection listed last (`list_all`, every page merged: `{tools: […]}`),
    /// None before it first listed them.
    pub fn listed_tools(&self) -> Option<Arc<Value>> {
        self.listed_tools.lock().clone()
    }

    /// The negotiated protocol version.
    pub fn protocol_version(&self) -> Option<&str> {
        self.initialize
            .get("protocolVersion")
            .and_then(Value::as_str)
    }

    /// The last stderr lines of a stdio server.
    pub fn stderr_tail(&self) -> Vec<String> {
        self.stderr.lines()
    }

    /// The pid of a stdio server's process.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(ChildGuard::pid)
    }

    /// Why the connection closed, once it has.
    pub fn closed_reason(&self) -> Option<String> {
        self.raw.closed_reason()
    }

    /// Resolves with the close reason once the connection has closed.
    pub fn closed_watch(&self) -> tokio::sync::watch::Receiver<Option<String>> {
        self.raw.closed_watch()
    }

    /// Sends a request and returns the server's exact `result`. In 2026-07-28 a fresh cached
    /// result is returned without a round trip and `input_required` results are answered and
    /// retried; a `tools/call` that becomes a task is waited on (unless `no_wait`), and its
    /// final result returned.
    pub async fn request(
        &self,
        method: &str,
        params: Option<Value>,
        opts: RequestOptions,
    ) -> Result<Value, McpError> {
        Ok(self.request_detailed(method, params, opts).await?.result)
    }

    /// Sends one JSON-RPC request (no cache, no retries) and returns the exact `result`.
    pub(crate) async fn send_once(
        &self,
        method: &str,
        params: Option<Value>,
        opts: &RequestOptions,
    ) -> Result<Value, McpError> {
        let mut body = json!({ "method": method });
        if let Some(p) = params {
            body["params"] = p;
        }
        let mut request: ClientRequest = match self.exact_request(method, &body) {
            Some(exact) => exact,
            None => serde_json::from_value(body).map_err(|e| {
                McpError::InvalidParams(format!("invalid params for `{method}`: {e}"))
            })?,
        };
        if let Some(tx) = opts.progress.clone() {
            // Registered by the transport before the frame is written (see `ProgressTap`).
            request.extensions_mut().insert(ProgressTap(tx));
        }
        let timeout = opts.timeout.unwrap_or(self.timeout);
        let mut options = PeerRequestOptions::with_timeout(timeout).reset_timeout_on_progress();
        if let Some(meta) = self.request_meta(opts) {
            options = options.with_meta(meta);
        }
        if method == "subscriptions/listen" {
            // A subscription stays open until cancelled: no request timeout.
            options.timeout = None;
        }
        let handle = self
            .peer
            .send_request_with_option(request, options)
            .await
            .map_err(|e| self.map_error(method, e))?;
        let id = serde_json::to_value(&handle.id).unwrap_or(Value::Null);
        if let Some(sent) = &opts.sent {
            let at_ms = mcplab_protocol::clock::now_ms();
            let _ = sent.send(RequestRef {
                id: id.clone(),
                at_ms,
            });
        }
        let token = progress_key(&handle.progress_token);
        let cancel = opts.cancel.clone().unwrap_or_default();
        let outcome = tokio::select! {
            r = handle.await_response() => Some(r),
            _ = cancel.cancelled() => None,
        };
        self.progress.lock().remove(&token);
        match outcome {
            Some(Ok(typed)) => Ok(self
                .raw
                .take(&id)
                .unwrap_or_else(|| serde_json::to_value(&typed).unwrap_or(Value::Null))),
            Some(Err(e)) => {
                self.raw.take(&id);
                Err(self.map_error(method, e))
            }
            None => {
                self.send_cancelled(id, "cancelled by the user").await;
                Err(McpError::Cancelled)
            }
        }
    }

    /// Follows `nextCursor` through every page of a list method (`tools/list`,
    /// `resources/list`, …) and returns `{ key: [all items] }`. A server that repeats a cursor
    /// or never stops is cut off with an error instead of looping forever. The answer is
    /// shared: a tools list is the same value [`Self::listed_tools`] keeps, not a copy
    /// (`Arc::unwrap_or_clone` copies only then).
    pub async fn list_all(
        &self,
        listing: Listing,
        opts: RequestOptions,
    ) -> Result<Arc<Value>, McpError> {
        let (method, key) = (listing.method(), listing.key());
        let mut items = Vec::new();
        let mut cursor: Option<String> = None;
        let mut seen = std::collections::HashSet::new();
        let mut merged = serde_json::Map::new();
        for _ in 0..MAX_PAGES {
            let params = cursor.as_ref().map(|c| json!({ "cursor": c }));
            let reply = self.request_detailed(method, params, opts.clone()).await?;
            let page = reply.result;
            if merged.is_empty() {
                // The first page's cache hints (2026-07-28) describe the list as shown.
                for hint in ["ttlMs", "cacheScope"] {
                    if let Some(v) = page.get(hint) {
                        merged.insert(hint.to_owned(), v.clone());
                    }
                }
                merged.insert(key.to_owned(), Value::Null);
            }
            if let Some(hit) = reply.cache {
                merged.insert(CACHE_MARKER.to_owned(), hit);
            }
            match page.get(key) {
                Some(Value::Array(a)) => items.extend(a.iter().cloned()),
                _ => {
                    return Err(
                        self.misbehaved(format!("its `{method}` result has no `{key}` array"))
                    );
                }
            }
            match page.get("nextCursor").and_then(Value::as_str) {
                Some(next) if !next.is_empty() => {
                    if !seen.insert(next.to_owned()) {
                        return Err(self.misbehaved(format!(
                            "it repeated the cursor `{next}` for `{method}`; stopped"
                        )));
                    }
                    cursor = Some(next.to_owned());
                }
                _ => {
                    merged.insert(key.to_owned(), Value::Array(items));
                    let merged = Arc::new(Value::Object(merged));
                    if listing == Listing::Tools {
                        *self.listed_tools.lock() = Some(Arc::clone(&merged));
                    }
                    return Ok(merged);
                }
            }
        }
        Err(self.misbehaved(format!(
            "`{method}` returned more than {MAX_PAGES} pages; stopped"
        )))
    }

    /// Sends a notification (e.g. `notifications/roots/list_changed`).
    pub async fn notify(&self, method: &str, params: Option<Value>) -> Result<(), McpError> {
        let mut body = json!({ "method": method });
        if let Some(p) = params {
            body["params"] = p;
        }
        let n: ClientNotification = serde_json::from_value(body).map_err(|e| {
            McpError::InvalidParams(format!("invalid notification `{method}`: {e}"))
        })?;
        self.peer
            .send_notification(n)
            .await
            .map_err(|e| self.map_error(method, e))
    }

    async fn send_cancelled(&self, request_id: Value, reason: &str) {
        let params = json!({ "requestId": request_id, "reason": reason });
        // Best effort: the transport may already be gone.
        let _ = self.notify("notifications/cancelled", Some(params)).await;
    }

    /// The server broke the protocol: an error that names it.
    pub(crate) fn misbehaved(&self, message: impl Into<String>) -> McpError {
        McpError::Misbehaved {
            server: self.name.clone(),
            message: message.into(),
        }
    }

    fn map_error(&self, method: &str, e: ServiceError) -> McpError {
        match e {
            ServiceError::McpError(data) if i64::from(data.code.0) == TRANSPORT_ERROR_CODE => {
                McpError::Transport {
                    message: data.message.into_owned(),
                }
            }
            ServiceError::McpError(data) if i64::from(data.code.0) == BAD_RESPONSE_CODE => {
                McpError::BadResponse {
                    message: format!("`{method}` failed: {}", data.message),
                }
            }
            ServiceError::McpError(data) => McpError::Server {
                code: data.code.0.into(),
                message: data.message.into_owned(),
                data: data.data,
            },
            ServiceError::Timeout { timeout } => McpError::Timeout {
                method: method.to_owned(),
                after: timeout,
            },
            ServiceError::Cancelled { .. } => McpError::Cancelled,
            ServiceError::TransportClosed | ServiceError::TransportSend(_) => {
                let mut message = self
                    .raw
                    .closed_reason()
                    .unwrap_or_else(|| "the connection is closed".into());
                let tail = self.stderr.lines();
                let last = &tail[tail.len().saturating_sub(20)..];
                message.push_str(&crate::error::stderr_block(last));
                McpError::Transport { message }
            }
            ServiceError::UnexpectedResponse => self.misbehaved(format!(
                "it answered `{method}` with a result of another request"
            )),
            other => McpError::Other(format!("`{method}` failed: {other}")),
        }
    }

    /// Closes the session: stops the service, ends the transport, and stops the child's whole
    /// process group (gracefully first). Safe to call more than once.
    pub async fn close(&self) {
        self.stop_listening();
        if let Some(mut service) = self.service.lock().await.take() {
            let _ = service.close_with_timeout(Duration::from_secs(2)).await;
        }
        self.transport_cancel.cancel();
        let task = self.transport_task.lock().take();
        if let Some(task) = task {
            // Bounded: the task's own steps (stop requests, DELETE) each have deadlines.
            let _ = tokio::time::timeout(TRANSPORT_STOP_WAIT, task).await;
        }
        if let Some(child) = &self.child {
            child.shutdown().await;
        }
    }
}

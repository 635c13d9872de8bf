//! The request path above one JSON-RPC exchange: 2026-07-28 cacheable results, multi
//! round-trip requests (SEP-2322: an `input_required` result's elicitation, sampling and roots
//! requests are answered through the same broker and roots list as server requests, then the
//! request is retried with a new id, the `inputResponses` and the exact `requestState`), the
//! `resultType` check, `x-mcp-header` bookkeeping, and handing `tools/call` tasks to
//! `task_flow`. Each request's rounds are its own: nothing of one retry reaches another request.

use mcplab_protocol::TaskMode;
use rmcp::model::{ClientRequest, CustomRequest, RequestMetaObject};
use serde_json::{Map, Value, json};

use super::cache::{CacheHit, ResponseCache};
use super::{META_LOG_LEVEL, TASKS_EXTENSION};
use crate::connection::{Connection, RequestOptions};
use crate::error::McpError;
use crate::listing::Listing;

/// Most `input_required` rounds one request goes through.
pub const MAX_ROUNDS: usize = 10;

/// Codes of the errors 2026-07-28 defines, explained to the user.
const HEADER_MISMATCH: i64 = -32020;
const MISSING_CAPABILITY: i64 = -32021;
const UNSUPPORTED_VERSION: i64 = -32022;

/// A result and whether it came from the cache.
pub struct Reply {
    pub result: Value,
    /// `{ageMs, ttlMs}` when served from the cache.
    pub cache: Option<Value>,
}

/// Whether a `tools/call` result is a task handle: `resultType: "task"` (2026-07-28) or a
/// `CreateTaskResult` of 2025-11-25 (`{task: {taskId, …}}`).
pub fn is_task(result: &Value) -> bool {
    result_type(result) == "task"
        || (result.pointer("/task/taskId").is_some() && result.get("content").is_none())
}

/// The `resultType` of a result; results without one are complete (earlier revisions).
pub fn result_type(result: &Value) -> &str {
    result
        .get("resultType")
        .and_then(Value::as_str)
        .unwrap_or("complete")
}

impl Connection {
    /// [`Connection::request`] with where the result came from.
    pub async fn request_detailed(
        &self,
        method: &str,
        params: Option<Value>,
        opts: RequestOptions,
    ) -> Result<Reply, McpError> {
        let key = ResponseCache::key(method, params.as_ref());
        if let Some(hit) = key
            .as_ref()
            .filter(|_| !opts.bypass_cache)
            .and_then(|k| self.cache.get(k))
        {
            return Ok(self.served_from_cache(method, hit));
        }
        let params = self.prepare(method, params, &opts).await?;
        let result = match self.rounds(method, params.clone(), &opts).await {
            Err(McpError::Server { code, .. })
                if code == HEADER_MISMATCH
                    && method == "tools/call"
                    && self.tool_headers.is_some() =>
            {
                // The tool's designated headers may have changed: list again, retry once.
                self.refresh_tools().await?;
                self.rounds(method, params.clone(), &opts).await
            }
            other => other,
        }
        .map_err(explain)?;
        if let Some(key) = key {
            self.cache.put(key, &result);
        }
        self.learn(method, &result);
        if method == "tools/call" && is_task(&result) && !opts.no_wait {
            let name = params
                .as_ref()
                .and_then(|p| p.get("name"))
                .and_then(Value::as_str);
            let result = self.wait_for_task(name, &result, &opts).await?;
            return Ok(Reply {
                result,
                cache: None,
            });
        }
        Ok(Reply {
            result,
            cache: None,
        })
    }

    /// Sends the request and answers `input_required` results until a final one arrives.
    async fn rounds(
        &self,
        method: &str,
        mut params: Option<Value>,
        opts: &RequestOptions,
    ) -> Result<Value, McpError> {
        for _ in 0..MAX_ROUNDS {
            let result = self.send_once(method, params.clone(), opts).await?;
            match result_type(&result) {
                "complete" => return Ok(result),
                "task" if method == "tools/call" => return Ok(result),
                "input_required"
                    if matches!(method, "tools/call" | "prompts/get" | "resources/read") =>
                {
                    params = Some(self.retry_params(params, &result).await?);
                }
                other => {
                    return Err(self.misbehaved(format!(
                        "it answered `{method}` with resultType `{other}`, which is not \
                         valid for this request (2026-07-28 allows `complete`, `input_required` \
                         for tools/call, prompts/get and resources/read, and `task` for \
                         tools/call with the tasks extension)"
                    )));
                }
            }
        }
        Err(self.misbehaved(format!(
            "`{method}` still needed input after {MAX_ROUNDS} rounds; stopped (the server keeps \
             answering input_required)"
        )))
    }

    /// The retry of a request after `input_required`: the original parameters, the answers
    /// to its input requests, and the request state exactly as the server sent it.
    async fn retry_params(&self, params: Option<Value>, result: &Value) -> Result<Value, McpError> {
        let mut params = match params {
            Some(Value::Object(p)) => p,
            _ => Map::new(),
        };
        params.remove("inputResponses");
        params.remove("requestState");
        let requests = result.get("inputRequests").and_then(Value::as_object);
        let mut responses = Map::new();
        for (key, request) in requests.into_iter().flatten() {
            responses.insert(key.clone(), self.answer_input(key, request).await?);
        }
        if !responses.is_empty() {
            params.insert("inputResponses".into(), Value::Object(responses));
        }
        if let Some(state) = result.get("requestState") {
            params.insert("requestState".into(), state.clone());
        }
        Ok(Value::Object(params))
    }

    /// Answers one input request through the broker (elicitation, sampling) or the roots list.
    pub(crate) async fn answer_input(&self, key: &str, request: &Value) -> Result<Value, McpError> {
        let method = request.get("method").and_then(Value::as_str).unwrap_or("");
        let params = request.get("params").cloned().unwrap_or_else(|| json!({}));
        let answered = match method {
            "elicitation/create" => self.answerer.elicit(params).await,
            "sampling/createMessage" => self.answerer.sample(params).await,
            "roots/list" => self.answerer.list_roots(),
            other => {
                return Err(self.misbehaved(format!(
                    "its input request `{key}` asks for `{other}`; 2026-07-28 allows \
                     only elicitation/create, sampling/createMessage and roots/list"
                )));
            }
        };
        let answer = answered.map_err(|e| {
            McpError::Other(format!(
                "could not answer the server's `{method}` input request `{key}`: {}",
                e.message
            ))
        })?;
        serde_json::to_value(answer).map_err(|e| McpError::Other(e.to_string()))
    }

    fn served_from_cache(&self, method: &str, hit: CacheHit) -> Reply {
        let age = hit.age.as_millis() as u64;
        let ttl = hit.ttl.as_millis() as u64;
        let note = format!(
            "`{method}` served from the cache: received {age} ms ago, fresh for {ttl} ms \
             (ttlMs); nothing was sent"
        );
        self.traffic.record(
            &self.name,
            mcplab_protocol::Direction::Outbound,
            mcplab_protocol::FrameKind::Note,
            note.as_bytes(),
        );
        Reply {
            result: hit.result,
            cache: Some(json!({ "ageMs": age, "ttlMs": ttl })),
        }
    }

    /// Before sending: a `tools/call` over 2026-07-28 HTTP needs its tool's designated headers
    /// (listing the tools first when unknown) and must not use a rejected tool; a 2025-11-25
    /// `tools/call` may become a task.
    async fn prepare(
        &self,
        method: &str,
        params: Option<Value>,
        opts: &RequestOptions,
    ) -> Result<Option<Value>, McpError> {
        if method != "tools/call" {
            return Ok(params);
        }
        let name = params
            .as_ref()
            .and_then(|p| p.get("name"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        if let (Some(headers), Some(name)) = (&self.tool_headers, name.as_deref()) {
            if headers.get(name).is_none() {
                self.refresh_tools().await?;
            }
            if let Some(Err(why)) = headers.get(name) {
                return Err(self.misbehaved(format!(
                    "tool `{name}` was rejected: {why}. A client must not use a tool whose \
                     x-mcp-header annotations are invalid (2026-07-28); fix the tool's inputSchema"
                )));
            }
        }
        if !self.is_modern() {
            return Ok(self.augment_for_task(name.as_deref(), params, opts).await);
        }
        Ok(params)
    }

    /// Lists every tool again (bypassing the cache) to learn their designations.
    async fn refresh_tools(&self) -> Result<(), McpError> {
        let opts = RequestOptions {
            bypass_cache: true,
            ..Default::default()
        };
        // Boxed: listing goes through `request_detailed`, which may call this again.
        Box::pin(self.list_all(Listing::Tools, opts))
            .await
            .map(|_| ())
    }

    /// Remembers what a result teaches about tools: designated headers and task support.
    fn learn(&self, method: &str, result: &Value) {
        if method != Listing::Tools.method() {
            return;
        }
        let tools = result
            .get(Listing::Tools.key())
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        if let Some(headers) = &self.tool_headers {
            headers.learn(tools);
        }
        let mut support = self.task_support.lock();
        for tool in tools {
            let name = tool.get("name").and_then(Value::as_str);
            let level = tool
                .pointer("/execution/taskSupport")
                .and_then(Value::as_str);
            if let (Some(name), Some(level)) = (name, level) {
                support.insert(name.to_owned(), level.to_owned());
            }
        }
    }

    /// The request as rmcp should send it. Requests whose parameters rmcp does not model (the
    /// 2025-11-25 `task` of `tools/call`, `tasks/*` of either flavor) go as they are.
    pub(crate) fn exact_request(&self, method: &str, body: &Value) -> Option<ClientRequest> {
        let params = body.get("params");
        let exact = method.starts_with("tasks/")
            || (method == "tools/call" && params.and_then(|p| p.get("task")).is_some());
        exact.then(|| ClientRequest::CustomRequest(CustomRequest::new(method, params.cloned())))
    }

    /// Extra `_meta` of a 2026-07-28 request: the log level once set, and the client
    /// capabilities without the tasks extension when the call must not become a task.
    pub(crate) fn request_meta(&self, opts: &RequestOptions) -> Option<RequestMetaObject> {
        if !self.is_modern() {
            return None;
        }
        let mut meta = Map::new();
        if let Some(level) = self.log_level.lock().clone() {
            meta.insert(META_LOG_LEVEL.into(), Value::String(level));
        }
        if opts.task == TaskMode::Never {
            let mut caps = (*self.answerer.capabilities).clone();
            if let Some(ext) = caps.get_mut("extensions").and_then(Value::as_object_mut) {
                ext.remove(TASKS_EXTENSION);
            }
            meta.insert("io.modelcontextprotocol/clientCapabilities".into(), caps);
        }
        if meta.is_empty() {
            return None;
        }
        serde_json::from_value(Value::Object(meta)).ok()
    }

    /// Sets the minimum log level (2026-07-28: sent in every request's `_meta`).
    pub fn set_log_level(&self, level: Option<String>) {
        *self.log_level.lock() = level;
    }
}

/// Adds what 2026-07-28 errors mean and what to do about them.
fn explain(error: McpError) -> McpError {
    let McpError::Server {
        code,
        message,
        data,
    } = error
    else {
        return error;
    };
    let hint = match code {
        UNSUPPORTED_VERSION => {
            let supported = data
                .as_ref()
                .and_then(|d| d.get("supported"))
                .map(Value::to_string);
            format!(
                " (UnsupportedProtocolVersion: the server supports {}; choose one of them with \
                 the server's protocol setting or --protocol)",
                supported.unwrap_or_else(|| "other revisions".into())
            )
        }
        HEADER_MISMATCH => " (HeaderMismatch: the server found the Mcp-* HTTP headers and the \
             request body disagreeing, or a required header missing; the traffic view shows \
             the headers mcplab sent)"
            .into(),
        MISSING_CAPABILITY => {
            let needed = data
                .as_ref()
                .and_then(|d| d.get("requiredCapabilities"))
                .map(Value::to_string);
            format!(
                " (MissingRequiredClientCapability: the request needs {})",
                needed.unwrap_or_else(|| "a capability mcplab did not declare".into())
            )
        }
        _ => String::new(),
    };
    McpError::Server {
        code,
        message: format!("{message}{hint}"),
        data,
    }
}

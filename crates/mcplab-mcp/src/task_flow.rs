//! Driving a task: a `tools/call` that became a task is polled with `tasks/get` at the
//! server's `pollIntervalMs` until it finishes, its input requests are answered (2026-07-28:
//! `tasks/update`; 2025-11-25: the server asks through `tasks/result`, whose server requests
//! the handler answers), its status changes go to the caller as progress and to everyone as
//! `ServerEvent::Task`, and cancelling the call sends `tasks/cancel`. The wait is bounded by
//! the task's TTL (or [`MAX_TASK_WAIT`]); each poll by the request timeout.

use std::time::Duration;

use mcplab_protocol::{ServerEvent, TaskFlavor, TaskMode, TaskView};
use serde_json::{Value, json};

use super::connection::{Connection, RequestOptions};
use super::error::McpError;
use super::handler::ProgressUpdate;
use super::listing::Listing;
use super::tasks::task_object;

/// Longest wait for a task that states no TTL.
pub(crate) const MAX_TASK_WAIT: Duration = Duration::from_secs(3600);
/// Poll interval bounds (a server asking for less than the floor gets the floor).
const MIN_POLL: Duration = Duration::from_millis(100);
const MAX_POLL: Duration = Duration::from_secs(10);
const DEFAULT_POLL: Duration = Duration::from_millis(1000);
/// TTL asked for in a 2025-11-25 task-augmented call.
const LEGACY_TASK_TTL_MS: u64 = 3_600_000;

impl Connection {
    /// A 2025-11-25 `tools/call` with a `task` when the tool requires it (or the caller forces
    /// it and the server offers tasks for tool calls).
    pub(crate) async fn augment_for_task(
        &self,
        tool: Option<&str>,
        params: Option<Value>,
        opts: &RequestOptions,
    ) -> Option<Value> {
        let (Some(tool), Some(Value::Object(mut p))) = (tool, params.clone()) else {
            return params;
        };
        if p.contains_key("task") || opts.task == TaskMode::Never {
            return Some(Value::Object(p));
        }
        let offered = self
            .initialize
            .pointer("/capabilities/tasks/requests/tools/call")
            .is_some();
        let support = self.tool_task_support(tool).await;
        let augment = match opts.task {
            TaskMode::Force => offered || support.is_some_and(|s| s != "forbidden"),
            _ => support.as_deref() == Some("required"),
        };
        if augment {
            p.insert("task".into(), json!({ "ttl": LEGACY_TASK_TTL_MS }));
        }
        Some(Value::Object(p))
    }

    /// `execution.taskSupport` of `tool`, listing the tools once when unknown.
    async fn tool_task_support(&self, tool: &str) -> Option<String> {
        let known = |c: &Connection| c.task_support.lock().get(tool).cloned();
        if let Some(level) = known(self) {
            return Some(level);
        }
        // A server without the tasks capability has no task support to learn.
        self.initialize.pointer("/capabilities/tasks")?;
        let listing = self.list_all(Listing::Tools, RequestOptions::default());
        let _ = Box::pin(listing).await;
        known(self)
    }

    /// Records (and announces) the task a `tools/call` returned.
    pub(crate) fn task_created(&self, tool: Option<&str>, created: &Value) -> Option<TaskView> {
        let flavor = match created.get("task") {
            Some(_) => TaskFlavor::Experimental,
            None => TaskFlavor::Extension,
        };
        let view = self.tasks.created(&self.name, tool, flavor, created)?;
        self.publish(&view, &RequestOptions::default());
        Some(view)
    }

    /// Waits for the task a `tools/call` returned and gives back the call's final result.
    pub(crate) async fn wait_for_task(
        &self,
        tool: Option<&str>,
        created: &Value,
        opts: &RequestOptions,
    ) -> Result<Value, McpError> {
        let view = self
            .task_created(tool, created)
            .ok_or_else(|| self.misbehaved("its task result has no taskId"))?;
        self.publish(&view, opts);
        let deadline = tokio::time::Instant::now()
            + view
                .ttl_ms
                .map_or(MAX_TASK_WAIT, Duration::from_millis)
                .min(MAX_TASK_WAIT);
        let cancel = opts.cancel.clone().unwrap_or_default();
        let poll_opts = RequestOptions {
            timeout: opts.timeout,
            sent: opts.sent.clone(),
            ..Default::default()
        };
        let mut view = view;
        let mut answered: Vec<String> = Vec::new();
        loop {
            if view.is_terminal() {
                return self.finish(view, &poll_opts).await;
            }
            if view.status == "input_required" {
                view = self.provide_input(view, &mut answered, &poll_opts).await?;
                continue;
            }
            let pause = view
                .poll_interval_ms
                .map_or(DEFAULT_POLL, Duration::from_millis)
                .clamp(MIN_POLL, MAX_POLL);
            tokio::select! {
                _ = cancel.cancelled() => {
                    let _ = self.cancel_task(&view.task_id).await;
                    return Err(McpError::Cancelled);
                }
                _ = tokio::time::sleep_until(deadline) => {
                    return Err(self.misbehaved(format!(
                        "task {} did not finish within the time to live the server gave it; \
                         it may still run (poll the task again)", view.task_id
                    )));
                }
                _ = tokio::time::sleep(pause) => {}
            }
            view = self.poll_task(&view.task_id, &poll_opts).await?;
            self.publish(&view, opts);
        }
    }

    /// One `tasks/get`, recorded.
    pub async fn poll_task(
        &self,
        task_id: &str,
        opts: &RequestOptions,
    ) -> Result<TaskView, McpError> {
        let result = self
            .send_once("tasks/get", Some(json!({ "taskId": task_id })), opts)
            .await?;
        let mut view = self
            .tasks
            .observe(&self.name, &result, "poll")
            .ok_or_else(|| self.misbehaved("its tasks/get result names no task"))?;
        if view.task_id != task_id {
            // Some servers answer without the id; keep the one asked about.
            view.task_id = task_id.to_owned();
        }
        Ok(view)
    }

    /// Answers the input a task waits for: 2026-07-28 through `tasks/update` (each request key
    /// once), 2025-11-25 by calling `tasks/result`, on whose stream the server sends its
    /// requests (answered by the handler) and then the final result.
    async fn provide_input(
        &self,
        view: TaskView,
        answered: &mut Vec<String>,
        opts: &RequestOptions,
    ) -> Result<TaskView, McpError> {
        if view.flavor == TaskFlavor::Experimental {
            let result = self.legacy_task_result(&view.task_id, opts).await?;
            let mut done = self
                .tasks
                .observe(
                    &self.name,
                    &json!({"taskId": view.task_id, "status": "completed"}),
                    "poll",
                )
                .unwrap_or(view);
            done.result = Some(result);
            return Ok(done);
        }
        let requests = view.input_requests.clone().unwrap_or_default();
        let mut responses = serde_json::Map::new();
        for (key, request) in requests.as_object().into_iter().flatten() {
            if answered.contains(key) {
                continue;
            }
            responses.insert(key.clone(), self.answer_input(key, request).await?);
            answered.push(key.clone());
        }
        if !responses.is_empty() {
            let params = json!({ "taskId": view.task_id, "inputResponses": responses });
            self.send_once("tasks/update", Some(params), opts).await?;
        }
        tokio::time::sleep(
            view.poll_interval_ms
                .map_or(MIN_POLL, Duration::from_millis)
                .clamp(MIN_POLL, MAX_POLL),
        )
        .await;
        self.poll_task(&view.task_id, opts).await
    }

    /// The final result of a finished task, or its failure.
    async fn finish(&self, view: TaskView, opts: &RequestOptions) -> Result<Value, McpError> {
        match view.status.as_str() {
            "completed" => {
                match view.result {
                    Some(result) => Ok(result),
                    None if view.flavor == TaskFlavor::Experimental => {
                        self.legacy_task_result(&view.task_id, opts).await
                    }
                    None => Err(self
                        .misbehaved(format!("task {} completed without a result", view.task_id))),
                }
            }
            "failed" => {
                let error = view.error.unwrap_or_default();
                Err(McpError::Server {
                    code: error.get("code").and_then(Value::as_i64).unwrap_or(-32603),
                    message: format!(
                        "task {} failed: {}",
                        view.task_id,
                        error
                            .get("message")
                            .and_then(Value::as_str)
                            .or(view.status_message.as_deref())
                            .unwrap_or("no reason given")
                    ),
                    data: error.get("data").cloned(),
                })
            }
            _ => Err(McpError::Other(format!(
                "task {} was cancelled{}",
                view.task_id,
                view.status_message
                    .map(|m| format!(": {m}"))
                    .unwrap_or_default()
            ))),
        }
    }

    /// 2025-11-25 `tasks/result`: blocks until the task finishes, then the call's result.
    pub async fn legacy_task_result(
        &self,
        task_id: &str,
        opts: &RequestOptions,
    ) -> Result<Value, McpError> {
        let opts = RequestOptions {
            timeout: Some(MAX_TASK_WAIT),
            cancel: opts.cancel.clone(),
            sent: opts.sent.clone(),
            ..Default::default()
        };
        let result = self
            .send_once("tasks/result", Some(json!({ "taskId": task_id })), &opts)
            .await?;
        if let Some(view) = self.tasks.set_result(&self.name, task_id, result.clone()) {
            self.publish(&view, &RequestOptions::default());
        }
        Ok(result)
    }

    /// `tasks/cancel` (both flavors): the server acknowledges; stopping is up to it.
    pub async fn cancel_task(&self, task_id: &str) -> Result<Value, McpError> {
        if let Some(view) = self.tasks.cancel_requested(&self.name, task_id) {
            self.publish(&view, &RequestOptions::default());
        }
        let result = self
            .send_once(
                "tasks/cancel",
                Some(json!({ "taskId": task_id })),
                &RequestOptions::default(),
            )
            .await?;
        if let Some(view) = self.tasks.observe(&self.name, &result, "cancel") {
            self.publish(&view, &RequestOptions::default());
        }
        Ok(result)
    }

    /// Polls one task now (`tasks/get`) and tells everyone.
    pub async fn refresh_task(&self, task_id: &str) -> Result<TaskView, McpError> {
        let view = self.poll_task(task_id, &RequestOptions::default()).await?;
        self.publish(&view, &RequestOptions::default());
        Ok(view)
    }

    /// The result of a finished task: the one kept, or fetched (`tasks/result` for 2025-11-25,
    /// `tasks/get` for the extension).
    pub async fn task_result(
        &self,
        task_id: &str,
        opts: RequestOptions,
    ) -> Result<Value, McpError> {
        let known = self.tasks.get(&self.name, task_id);
        if let Some(result) = known.as_ref().and_then(|t| t.result.clone()) {
            return Ok(result);
        }
        let legacy = known
            .map(|t| t.flavor == TaskFlavor::Experimental)
            .unwrap_or(!self.is_modern());
        if legacy {
            return self.legacy_task_result(task_id, &opts).await;
        }
        let view = self.poll_task(task_id, &opts).await?;
        self.publish(&view, &opts);
        if !view.is_terminal() {
            return Err(McpError::InvalidParams(format!(
                "task {task_id} is still {}; its result is not there yet",
                view.status
            )));
        }
        self.finish(view, &opts).await
    }

    /// 2025-11-25 `tasks/list`, each entry recorded; the extension has no listing.
    pub async fn list_server_tasks(&self) -> Result<Vec<TaskView>, McpError> {
        if self.is_modern() {
            return Ok(self.tasks());
        }
        let listed = self
            .list_all(Listing::Tasks, RequestOptions::default())
            .await?;
        for task in listed
            .get("tasks")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let wrapped = json!({ "task": task_object(task) });
            self.tasks.observe(&self.name, &wrapped, "poll");
        }
        Ok(self.tasks())
    }

    fn publish(&self, view: &TaskView, opts: &RequestOptions) {
        if let Some(progress) = &opts.progress {
            let message = match &view.status_message {
                Some(m) => format!("task {}: {} ({m})", view.task_id, view.status),
                None => format!("task {}: {}", view.task_id, view.status),
            };
            let _ = progress.send(ProgressUpdate {
                progress: view.history.len() as f64,
                total: None,
                message: Some(message),
            });
        }
        self.answerer.events.send(ServerEvent::Task {
            task: Box::new(view.clone()),
        });
    }
}

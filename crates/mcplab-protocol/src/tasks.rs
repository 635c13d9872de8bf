//! Long-running tool calls as tasks: the Tasks extension of 2026-07-28
//! (`io.modelcontextprotocol/tasks`: `resultType: "task"`, `tasks/get`, `tasks/update`,
//! `tasks/cancel`, `notifications/tasks`) and the experimental tasks of 2025-11-25 (a `task`
//! parameter on `tools/call`, `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`).
//! What mcplab knows about one task, as the UI and the CLI show it. Plain data only.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// Which tasks protocol a task belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum TaskFlavor {
    /// The 2026-07-28 Tasks extension (SEP-2663).
    Extension,
    /// The experimental tasks of protocol 2025-11-25 (SEP-1686).
    Experimental,
}

/// Whether `tools/call` may become a task.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum TaskMode {
    /// Declare task support and let the server decide (2026-07-28); augment the call when the
    /// tool requires it (2025-11-25 `execution.taskSupport: "required"`).
    #[default]
    Auto,
    /// Ask for a task whenever the protocol allows it (2025-11-25: always send `task`).
    Force,
    /// Never: the request does not declare the tasks extension and carries no `task`.
    Never,
}

/// One change of a task's status, as mcplab observed it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaskStatusEntry {
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub message: Option<String>,
    /// Milliseconds since the Unix epoch when mcplab saw it.
    pub at_ms: u64,
    /// `create`, `poll`, `notification` or `cancel`: how mcplab learned it.
    pub source: String,
}

/// A task and everything mcplab learned about it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaskView {
    pub server: String,
    pub task_id: String,
    pub flavor: TaskFlavor,
    /// The tool whose call became this task, when mcplab started it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tool: Option<String>,
    /// `working`, `input_required`, `completed`, `failed` or `cancelled`.
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub status_message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub created_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub last_updated_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ttl_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub poll_interval_ms: Option<u64>,
    /// Every status mcplab saw, oldest first.
    pub history: Vec<TaskStatusEntry>,
    /// The final result (the original request's result) once `completed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "any")]
    pub result: Option<Value>,
    /// The JSON-RPC error once `failed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "any")]
    pub error: Option<Value>,
    /// Outstanding input requests while `input_required` (key → request).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "any")]
    pub input_requests: Option<Value>,
}

impl TaskView {
    /// `completed`, `failed` and `cancelled` never change again.
    pub fn is_terminal(&self) -> bool {
        matches!(self.status.as_str(), "completed" | "failed" | "cancelled")
    }
}

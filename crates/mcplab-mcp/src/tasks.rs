//! What the process knows about tasks, per server: the ones mcplab started (a `tools/call`
//! that became a task), and the ones it was told about (`notifications/tasks`, polls, the
//! 2025-11-25 `tasks/list`). Each keeps its status history, result or error. Bounded: at most
//! [`MAX_TASKS_PER_SERVER`] per server, oldest finished ones dropped first. Driving a task
//! (polling, input, cancel) lives in `task_flow`; this module only records.

use std::collections::HashMap;

use mcplab_protocol::clock::now_ms;
use mcplab_protocol::{TaskFlavor, TaskStatusEntry, TaskView};
use parking_lot::Mutex;
use serde_json::Value;

/// Most tasks remembered per server.
pub const MAX_TASKS_PER_SERVER: usize = 500;

#[derive(Default)]
pub struct TaskRegistry {
    by_server: Mutex<HashMap<String, Vec<TaskView>>>,
}

/// The task object inside a result or notification: the 2025-11-25 shapes nest it under
/// `task`, the 2026-07-28 ones put its fields at the top level.
pub fn task_object(value: &Value) -> &Value {
    match value.get("task") {
        Some(task) if task.get("taskId").is_some() => task,
        _ => value,
    }
}

impl TaskRegistry {
    /// Records a task mcplab just created by calling `tool`.
    pub fn created(
        &self,
        server: &str,
        tool: Option<&str>,
        flavor: TaskFlavor,
        result: &Value,
    ) -> Option<TaskView> {
        let view = self.observe_as(server, result, "create", Some(flavor))?;
        let mut map = self.by_server.lock();
        let task = map
            .get_mut(server)?
            .iter_mut()
            .find(|t| t.task_id == view.task_id)?;
        task.tool = tool.map(str::to_owned).or(task.tool.take());
        // A status notification may have introduced the task before this result did.
        task.flavor = flavor;
        Some(task.clone())
    }

    /// Merges what a poll, a notification or a creation says about a task; `None` when the
    /// value names no task.
    pub fn observe(&self, server: &str, value: &Value, source: &str) -> Option<TaskView> {
        self.observe_as(server, value, source, None)
    }

    fn observe_as(
        &self,
        server: &str,
        value: &Value,
        source: &str,
        flavor: Option<TaskFlavor>,
    ) -> Option<TaskView> {
        let task = task_object(value);
        let task_id = task.get("taskId")?.as_str()?.to_owned();
        let status = task
            .get("status")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let flavor = flavor.unwrap_or(if value.get("task").is_some() {
            TaskFlavor::Experimental
        } else {
            TaskFlavor::Extension
        });
        let mut map = self.by_server.lock();
        let tasks = map.entry(server.to_owned()).or_default();
        let index = match tasks.iter().position(|t| t.task_id == task_id) {
            Some(i) => i,
            None => {
                tasks.push(TaskView {
                    server: server.to_owned(),
                    task_id: task_id.clone(),
                    flavor,
                    tool: None,
                    status: "working".into(),
                    status_message: None,
                    created_at: None,
                    last_updated_at: None,
                    ttl_ms: None,
                    poll_interval_ms: None,
                    history: Vec::new(),
                    result: None,
                    error: None,
                    input_requests: None,
                });
                tasks.len() - 1
            }
        };
        let t = &mut tasks[index];
        let message = task
            .get("statusMessage")
            .and_then(Value::as_str)
            .map(str::to_owned);
        if let Some(status) = status {
            let changed = t
                .history
                .last()
                .is_none_or(|h| h.status != status || h.message != message);
            if changed {
                t.history.push(TaskStatusEntry {
                    status: status.clone(),
                    message: message.clone(),
                    at_ms: now_ms(),
                    source: source.to_owned(),
                });
            }
            t.status = status;
        }
        t.status_message = message.or(t.status_message.take());
        let text = |k: &str| task.get(k).and_then(Value::as_str).map(str::to_owned);
        t.created_at = text("createdAt").or(t.created_at.take());
        t.last_updated_at = text("lastUpdatedAt").or(t.last_updated_at.take());
        // 2025-11-25 says `ttl` and `pollInterval`, 2026-07-28 `ttlMs` and `pollIntervalMs`.
        let number = |a: &str, b: &str| task.get(a).or_else(|| task.get(b)).and_then(Value::as_u64);
        t.ttl_ms = number("ttlMs", "ttl").or(t.ttl_ms);
        t.poll_interval_ms = number("pollIntervalMs", "pollInterval").or(t.poll_interval_ms);
        if let Some(r) = task.get("result") {
            t.result = Some(r.clone());
        }
        if let Some(e) = task.get("error") {
            t.error = Some(e.clone());
        }
        t.input_requests = task.get("inputRequests").cloned();
        let view = t.clone();
        prune(tasks);
        Some(view)
    }

    /// Stores the final result fetched separately (2025-11-25 `tasks/result`).
    pub fn set_result(&self, server: &str, task_id: &str, result: Value) -> Option<TaskView> {
        let mut map = self.by_server.lock();
        let task = map
            .get_mut(server)?
            .iter_mut()
            .find(|t| t.task_id == task_id)?;
        task.result = Some(result);
        Some(task.clone())
    }

    /// Notes that mcplab asked the server to cancel the task.
    pub fn cancel_requested(&self, server: &str, task_id: &str) -> Option<TaskView> {
        let mut map = self.by_server.lock();
        let task = map
            .get_mut(server)?
            .iter_mut()
            .find(|t| t.task_id == task_id)?;
        task.history.push(TaskStatusEntry {
            status: task.status.clone(),
            message: Some("cancellation requested by mcplab".into()),
            at_ms: now_ms(),
            source: "cancel".into(),
        });
        Some(task.clone())
    }

    /// The tasks of `server`, newest first.
    pub fn list(&self, server: &str) -> Vec<TaskView> {
        let mut v = self
            .by_server
            .lock()
            .get(server)
            .cloned()
            .unwrap_or_default();
        v.reverse();
        v
    }

    pub fn get(&self, server: &str, task_id: &str) -> Option<TaskView> {
        self.by_server
            .lock()
            .get(server)?
            .iter()
            .find(|t| t.task_id == task_id)
            .cloned()
    }
}

/// Drops the oldest finished tasks (then the oldest at all) beyond the bound.
fn prune(tasks: &mut Vec<TaskView>) {
    while tasks.len() > MAX_TASKS_PER_SERVER {
        let i = tasks.iter().position(TaskView::is_terminal).unwrap_or(0);
        tasks.remove(i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn statuses_accumulate_into_a_history_for_both_flavors() {
        let r = TaskRegistry::default();
        let created = json!({"resultType": "task", "taskId": "t1", "status": "working",
            "ttlMs": 60000, "pollIntervalMs": 100, "createdAt": "2026-01-01T00:00:00Z"});
        let v = r
            .created("s", Some("slow"), TaskFlavor::Extension, &created)
            .unwrap();
        assert_eq!(
            (v.tool.as_deref(), v.poll_interval_ms),
            (Some("slow"), Some(100))
        );
        r.observe("s", &json!({"taskId": "t1", "status": "working"}), "poll");
        let done = json!({"taskId": "t1", "status": "completed", "result": {"content": []}});
        let v = r.observe("s", &done, "notification").unwrap();
        assert_eq!(v.history.len(), 2);
        assert!(v.is_terminal() && v.result.is_some());
        let legacy = json!({"task": {"taskId": "old", "status": "working", "pollInterval": 500}});
        let v = r.observe("s", &legacy, "create").unwrap();
        assert_eq!(
            (v.flavor, v.poll_interval_ms),
            (TaskFlavor::Experimental, Some(500))
        );
        assert_eq!(r.list("s")[0].task_id, "old");
    }
}

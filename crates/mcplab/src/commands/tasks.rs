//! `mcplab tasks list|get|result|cancel`: tasks of the 2026-07-28 tasks extension and the
//! experimental tasks of 2025-11-25. A task outlives the CLI call that started it, so the ids
//! of tasks mcplab started are kept in the store (setting `tasks/<target>`) and polled again
//! by `tasks list`; 2025-11-25 servers also list theirs (`tasks/list`).

use mcplab_core::mcp::RequestOptions;
use mcplab_protocol::TaskView;
use serde_json::{Value, json};

use crate::cli::TasksCmd;
use crate::failure::{EXIT_CALL, Failure};
use crate::output;
use crate::session::Session;
use crate::settings::{DataDir, Settings};

/// Most task ids kept per target.
const KEPT: usize = 100;

fn key(s: &Session) -> String {
    format!("tasks/{}", s.connection().config().transport.describe())
}

/// Stores the ids of the tasks this session saw, newest first.
pub fn remember(data: &DataDir, s: &Session) {
    let tasks = s.connection().tasks();
    if tasks.is_empty() {
        return;
    }
    let Ok(store) = data.store() else {
        return;
    };
    let mut kept: Vec<Value> = store
        .setting(&key(s))
        .ok()
        .flatten()
        .and_then(|v| v.as_array().cloned())
        .unwrap_or_default();
    for t in tasks.iter().rev() {
        kept.retain(|k| k["taskId"] != t.task_id.as_str());
        kept.insert(
            0,
            json!({"taskId": t.task_id, "tool": t.tool, "flavor": t.flavor}),
        );
    }
    kept.truncate(KEPT);
    let _ = store.set_setting(&key(s), &Value::Array(kept));
}

fn stored(data: &DataDir, s: &Session) -> Vec<String> {
    data.store()
        .ok()
        .and_then(|st| st.setting(&key(s)).ok().flatten())
        .and_then(|v| v.as_array().cloned())
        .unwrap_or_default()
        .iter()
        .filter_map(|v| v["taskId"].as_str().map(str::to_owned))
        .collect()
}

/// Prints a task handle returned by `tools call --no-wait`.
pub fn print_created(result: &Value, json: bool) -> Result<(), Failure> {
    if json {
        crate::output::outln!("{}", output::json(result));
    } else {
        let task = mcplab_core::mcp::tasks::task_object(result);
        crate::output::outln!(
            "task {} is {} (see `mcplab tasks get {}` / `tasks result`)",
            task["taskId"].as_str().unwrap_or("?"),
            task["status"].as_str().unwrap_or("?"),
            task["taskId"].as_str().unwrap_or("?"),
        );
    }
    Ok(())
}

fn print_task(t: &TaskView) -> Result<(), Failure> {
    let tool = t
        .tool
        .as_deref()
        .map(|x| format!(" ({x})"))
        .unwrap_or_default();
    let message = t
        .status_message
        .as_deref()
        .map(|m| format!(": {m}"))
        .unwrap_or_default();
    // The status message is the server's text: made harmless for the terminal.
    crate::output::outln!(
        "{}{tool}  {}{}",
        t.task_id,
        t.status,
        output::safe(&message)
    );
    Ok(())
}

pub async fn run(cmd: TasksCmd, settings: &Settings, s: &Session) -> Result<(), Failure> {
    let conn = s.connection();
    let (json, data) = (settings.json, &settings.data);
    let result = match cmd {
        TasksCmd::List => {
            let mut views = if conn.is_modern() {
                Vec::new()
            } else {
                conn.list_server_tasks().await.unwrap_or_default()
            };
            for id in stored(data, s) {
                if views.iter().any(|v| v.task_id == id) {
                    continue;
                }
                match conn.refresh_task(&id).await {
                    Ok(view) => views.push(view),
                    Err(e) => eprintln!("{id}: {e}"),
                }
            }
            if json {
                crate::output::outln!(
                    "{}",
                    output::json(&serde_json::to_value(&views).unwrap_or_default())
                );
            } else if views.is_empty() {
                crate::output::outln!("no tasks known for this server");
            } else {
                for view in &views {
                    print_task(view)?;
                }
            }
            Ok(())
        }
        TasksCmd::Get { id } => {
            let view = conn.refresh_task(&id).await?;
            if json {
                crate::output::outln!(
                    "{}",
                    output::json(&serde_json::to_value(&view).unwrap_or_default())
                );
            } else {
                print_task(&view)?;
            }
            Ok(())
        }
        TasksCmd::Result { id } => {
            let opts = RequestOptions {
                cancel: Some(s.interrupted.clone()),
                ..Default::default()
            };
            let mut view = conn.refresh_task(&id).await?;
            while !view.is_terminal() && view.flavor == mcplab_protocol::TaskFlavor::Extension {
                let pause = view.poll_interval_ms.unwrap_or(1000).clamp(100, 10_000);
                tokio::select! {
                    _ = s.interrupted.cancelled() => return Err(Failure::silent(crate::failure::EXIT_INTERRUPTED)),
                    _ = tokio::time::sleep(std::time::Duration::from_millis(pause)) => {}
                }
                view = conn.refresh_task(&id).await?;
                eprintln!("{}: {}", id, view.status);
            }
            let r = conn.task_result(&id, opts).await?;
            if json {
                crate::output::outln!("{}", output::json(&r));
            } else {
                crate::output::out!("{}", output::tool_result(&r));
            }
            if r.get("isError").and_then(Value::as_bool) == Some(true) {
                Err(Failure::silent(EXIT_CALL))
            } else {
                Ok(())
            }
        }
        TasksCmd::Cancel { id } => {
            let r = conn.cancel_task(&id).await?;
            if json {
                crate::output::outln!("{}", output::json(&r));
            } else {
                crate::output::outln!(
                    "asked the server to cancel task {id} (cancellation is cooperative)"
                );
            }
            Ok(())
        }
    };
    remember(data, s);
    result
}

//! `mcplab tasks list|get|result|cancel`: tasks of the 2026-07-28 tasks extension and the
//! experimental tasks of 2025-11-25. A task outlives the CLI call that started it, so the ids
//! of tasks mcplab started are kept in the store (setting `tasks/<target>`) and polled again
//! by `tasks list`; 2025-11-25 servers also list theirs (`tasks/list`).

use mcplab_mcp::RequestOptions;
use mcplab_protocol::{ServerTransport, TaskView};
use serde_json::{Value, json};

use crate::cli::TasksCmd;
use crate::failure::{EXIT_CALL, Failure};
use crate::output;
use crate::output::printer::Printer;
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

/// N13: `--no-wait` on a stdio server is refused before anything is sent: the server is this
/// process's child, so the task would die with it and no later `tasks get` could find it.
pub fn check_no_wait(s: &Session) -> Result<(), Failure> {
    match s.connection().config().transport {
        ServerTransport::Stdio { .. } => Err(Failure::usage(
            "--no-wait cannot leave a task running on a stdio server: the server is mcplab's \
             child process and ends (with its tasks) when this command does; drop --no-wait \
             to wait for the result, or run the server over HTTP",
        )),
        _ => Ok(()),
    }
}

/// Whether this connection's HTTP requests carry an MCP session, which ends (DELETE) when
/// mcplab exits: a server that keeps tasks per session forgets them then.
fn sessionful(s: &Session) -> bool {
    let name = s.connection().name();
    let frames = s.manager().traffic().snapshot(name).frames;
    frames
        .iter()
        .rev()
        .filter_map(|f| f.http.as_ref())
        .any(|x| {
            x.request_headers
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case("mcp-session-id"))
        })
}

/// Prints a task handle returned by `tools call --no-wait`.
pub fn print_created(result: &Value, p: &Printer, s: &Session) -> Result<(), Failure> {
    let session = sessionful(s);
    p.value(result, |r| {
        let task = mcplab_mcp::tasks::task_object(r);
        let id = task["taskId"].as_str().unwrap_or("?");
        let status = task["status"].as_str().unwrap_or("?");
        format!("task {id} is {status} (see `mcplab tasks get {id}` / `tasks result`)\n")
    })?;
    if session && !p.is_json() {
        eprintln!(
            "note: the task was created in an MCP session (Mcp-Session-Id), which ends when \
             mcplab exits; a server that keeps tasks per session (the TypeScript SDK 1.x \
             does) will not know it to a later `mcplab tasks get`"
        );
    }
    Ok(())
}

/// One line per task: id, tool, status and the server's status message.
fn task_line(t: &TaskView) -> String {
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
    format!("{}{tool}  {}{message}\n", t.task_id, t.status)
}

fn to_json(v: &impl serde::Serialize) -> Value {
    serde_json::to_value(v).unwrap_or_default()
}

pub async fn run(cmd: TasksCmd, settings: &Settings, s: &Session) -> Result<(), Failure> {
    let conn = s.connection();
    let (p, data) = (Printer::new(settings.json, settings.raw), &settings.data);
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
            p.value(&to_json(&views), |_| {
                if views.is_empty() {
                    "no tasks known for this server\n".to_owned()
                } else {
                    views.iter().map(task_line).collect()
                }
            })
        }
        TasksCmd::Get { id } => {
            let view = conn.refresh_task(&id).await?;
            p.value(&to_json(&view), |_| task_line(&view))
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
            p.value(&r, output::tool_result)?;
            if r.get("isError").and_then(Value::as_bool) == Some(true) {
                Err(Failure::silent(EXIT_CALL))
            } else {
                Ok(())
            }
        }
        TasksCmd::Cancel { id } => {
            let r = conn.cancel_task(&id).await?;
            p.value(&r, |_| {
                format!("asked the server to cancel task {id} (cancellation is cooperative)\n")
            })
        }
    };
    remember(data, s);
    result
}

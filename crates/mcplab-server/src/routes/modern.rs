//! Routes for what protocol 2026-07-28 and its extensions add: the tasks of a server (list,
//! poll, cancel, result), its skills (list, load with verification), and switching a server's
//! protocol revision (stored, then reconnected) to compare the eras.

use std::sync::Arc;
use std::time::Instant;

use axum::Json;
use axum::extract::{Path, State};
use mcplab_mcp::{Listing, RequestOptions};
use mcplab_protocol::api::{CallOutcome, ProtocolSwitch, ServerView, UriRequest};
use mcplab_protocol::{SkillLoadView, TaskView};
use serde_json::Value;

use super::mcp::{conn, outcome};
use crate::AppState;
use crate::error::ApiFailure;

/// The server's tasks: those the process knows (kept across reconnects) and, for a
/// 2025-11-25 server that offers `tasks/list`, the ones it lists.
pub(super) async fn tasks(
    State(s): State<Arc<AppState>>,
    Path(name): Path<String>,
) -> Result<Json<Vec<TaskView>>, ApiFailure> {
    let Ok(c) = conn(&s, &name) else {
        return Ok(Json(s.manager.tasks().list(&name)));
    };
    let lists = c
        .initialize_result()
        .pointer("/capabilities/tasks/list")
        .is_some();
    if lists && !c.is_modern() {
        return c
            .list_server_tasks()
            .await
            .map(Json)
            .map_err(ApiFailure::from);
    }
    Ok(Json(c.tasks()))
}

/// Polls a task now (`tasks/get`).
pub(super) async fn refresh_task(
    State(s): State<Arc<AppState>>,
    Path((name, id)): Path<(String, String)>,
) -> Result<Json<TaskView>, ApiFailure> {
    conn(&s, &name)?
        .refresh_task(&id)
        .await
        .map(Json)
        .map_err(ApiFailure::from)
}

pub(super) async fn cancel_task(
    State(s): State<Arc<AppState>>,
    Path((name, id)): Path<(String, String)>,
) -> Result<Json<CallOutcome>, ApiFailure> {
    let started = Instant::now();
    let r = conn(&s, &name)?.cancel_task(&id).await;
    outcome(r, started).map(Json)
}

/// The final result of a task (waits for a 2025-11-25 `tasks/result`).
pub(super) async fn task_result(
    State(s): State<Arc<AppState>>,
    Path((name, id)): Path<(String, String)>,
) -> Result<Json<CallOutcome>, ApiFailure> {
    let started = Instant::now();
    let r = conn(&s, &name)?
        .task_result(&id, RequestOptions::default())
        .await;
    outcome(r, started).map(Json)
}

/// `skills/list`, every page (reads no skill file).
pub(super) async fn skills(
    State(s): State<Arc<AppState>>,
    Path(name): Path<String>,
) -> Result<Json<Arc<Value>>, ApiFailure> {
    conn(&s, &name)?
        .list_all(Listing::Skills, RequestOptions::default())
        .await
        .map(Json)
        .map_err(ApiFailure::from)
}

/// Loads one skill (by uri or name): every file read and verified, stopping at a mismatch.
pub(super) async fn load_skill(
    State(s): State<Arc<AppState>>,
    Path(name): Path<String>,
    Json(req): Json<UriRequest>,
) -> Result<Json<SkillLoadView>, ApiFailure> {
    conn(&s, &name)?
        .load_skill(&req.uri)
        .await
        .map(Json)
        .map_err(ApiFailure::from)
}

/// Stores the server's protocol choice and reconnects with it.
pub(super) async fn switch_protocol(
    State(s): State<Arc<AppState>>,
    Path(name): Path<String>,
    Json(req): Json<ProtocolSwitch>,
) -> Result<Json<ServerView>, ApiFailure> {
    let mut config = s.store.server(&name)?;
    config.protocol = req.protocol;
    s.store.replace_server(&name, &config)?;
    // The outcome (connected with its era, or failed with the reason) is in the view.
    let _ = s.manager.connect(config.clone()).await;
    Ok(Json(super::servers::view(&s, config)))
}

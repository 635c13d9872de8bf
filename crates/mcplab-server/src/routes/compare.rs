//! `/api/compares`: compare groups — 2–4 chat sessions grouped as one compare, read back in
//! column order, and exported whole (JSON with every column's session, or Markdown). The
//! grouping is core's `SessionHub` (kept in the store); this is HTTP.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use mcplab_protocol::chat::{CompareGroup, NewCompare};

use super::chat::{ExportQuery, download};
use crate::AppState;
use crate::error::ApiFailure;

pub(super) async fn create(
    State(state): State<Arc<AppState>>,
    Json(req): Json<NewCompare>,
) -> Result<(StatusCode, Json<CompareGroup>), ApiFailure> {
    Ok((
        StatusCode::CREATED,
        Json(state.sessions.create_compare(req)?),
    ))
}

pub(super) async fn one(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<CompareGroup>, ApiFailure> {
    Ok(Json(state.sessions.compare_group(&id)?))
}

pub(super) async fn export(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(q): Query<ExportQuery>,
) -> Result<Response, ApiFailure> {
    Ok(download(
        state.sessions.export_compare(&id, q.format.as_deref())?,
    ))
}

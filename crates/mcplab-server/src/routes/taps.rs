//! `/api/taps`: running `mcplab tap` processes register and post their frames (with the
//! launch secret, like any script), recordings are opened from their text, and the tapped
//! sessions are listed for the traffic panel's labels. The frames go into the manager's own
//! traffic log, so they reach the panel live on `/api/events` like every other frame. The
//! bookkeeping is `mcplab_tap::ingest`'s.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use mcplab_protocol::TrafficFrame;
use mcplab_protocol::tap::{TapEnd, TapOpen, TapOpened, TapRegistered, TapSessionView, TapStart};

use crate::AppState;
use crate::error::ApiFailure;

/// The most a batch of frames or an opened recording may be (the traffic budget's default).
pub(super) const BODY_LIMIT: usize = 64 * 1024 * 1024;

pub(super) async fn register(
    State(state): State<Arc<AppState>>,
    Json(start): Json<TapStart>,
) -> Json<TapRegistered> {
    Json(TapRegistered {
        id: state.taps.register(start),
    })
}

pub(super) async fn frames(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Json(frames): Json<Vec<TrafficFrame>>,
) -> Result<StatusCode, ApiFailure> {
    let log = state.manager.traffic();
    state
        .taps
        .record(log, &id, frames)
        .map_err(|e| ApiFailure::not_found(e.to_string()))?;
    Ok(StatusCode::NO_CONTENT)
}

pub(super) async fn end(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Json(end): Json<TapEnd>,
) -> Result<StatusCode, ApiFailure> {
    state
        .taps
        .end(&id, end)
        .map_err(|e| ApiFailure::not_found(e.to_string()))?;
    Ok(StatusCode::NO_CONTENT)
}

pub(super) async fn list(State(state): State<Arc<AppState>>) -> Json<Vec<TapSessionView>> {
    Json(state.taps.sessions())
}

/// The recording's text: JSON Lines, or the traffic panel's JSON export.
pub(super) async fn open(
    State(state): State<Arc<AppState>>,
    Json(body): Json<TapOpen>,
) -> Result<Json<TapOpened>, ApiFailure> {
    let log = state.manager.traffic();
    state
        .taps
        .open(log, &body.text)
        .map(Json)
        .map_err(|e| ApiFailure::bad_request(e.to_string()))
}

//! App context of a chat session: what a rendered app asked the host to tell the model
//! (`ui/update-model-context`, OpenAI `setWidgetState`), kept per key in the session's
//! runtime and saved with the session (core's `SessionHub`), shown in the session view,
//! announced on the session stream, and given to the model from the next turn on.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use mcplab_protocol::chat::AppContextInput;

use crate::AppState;
use crate::error::ApiFailure;

pub(super) async fn put(
    State(state): State<Arc<AppState>>,
    Path((id, key)): Path<(String, String)>,
    Json(input): Json<AppContextInput>,
) -> Result<StatusCode, ApiFailure> {
    state.sessions.set_app_context(&id, &key, Some(input))?;
    Ok(StatusCode::NO_CONTENT)
}

pub(super) async fn remove(
    State(state): State<Arc<AppState>>,
    Path((id, key)): Path<(String, String)>,
) -> Result<StatusCode, ApiFailure> {
    state.sessions.set_app_context(&id, &key, None)?;
    Ok(StatusCode::NO_CONTENT)
}

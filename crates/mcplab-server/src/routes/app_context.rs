//! App context of a chat session: what a rendered app asked the host to tell the model
//! (`ui/update-model-context`, OpenAI `setWidgetState`), kept per key in the session's
//! runtime and saved with the session, shown in the session view, announced on the session stream, and given to the model
//! from the next turn on.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use mcplab_protocol::chat::{AppContextEntry, AppContextInput};
use serde_json::Value;

use crate::AppState;
use crate::chat::now_ms;
use crate::error::ApiFailure;

pub async fn put(
    State(state): State<Arc<AppState>>,
    Path((id, key)): Path<(String, String)>,
    Json(input): Json<AppContextInput>,
) -> Result<StatusCode, ApiFailure> {
    state.store.session(&id)?;
    if key.trim().is_empty() {
        return Err(ApiFailure::bad_request(
            "an app context needs a non-empty key (e.g. the tool call id)",
        ));
    }
    let content = match input.content {
        Value::Null => Value::Array(Vec::new()),
        v @ Value::Array(_) => v,
        _ => {
            return Err(ApiFailure::bad_request(
                "`content` must be an array of MCP content blocks, e.g. \
                 [{\"type\": \"text\", \"text\": \"…\"}]",
            ));
        }
    };
    let entry = AppContextEntry {
        key: key.clone(),
        server: input.server,
        tool: input.tool,
        call_id: input.call_id,
        source: input.source,
        content,
        structured_content: input.structured_content.filter(|v| !v.is_null()),
        updated_at_ms: now_ms(),
    };
    let rt = state.chats.runtime(&id);
    if rt.set_app_context(&key, Some(entry)) {
        state.store.set_app_context(&id, &rt.app_context())?;
    }
    Ok(StatusCode::NO_CONTENT)
}

pub async fn remove(
    State(state): State<Arc<AppState>>,
    Path((id, key)): Path<(String, String)>,
) -> Result<StatusCode, ApiFailure> {
    state.store.session(&id)?;
    let rt = state.chats.runtime(&id);
    if rt.set_app_context(&key, None) {
        state.store.set_app_context(&id, &rt.app_context())?;
    }
    Ok(StatusCode::NO_CONTENT)
}

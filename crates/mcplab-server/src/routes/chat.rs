//! Chat sessions (CRUD, export), turns (idempotent submit, cancel), the per-session event
//! stream, and the model providers the picker offers (keys stay on the server).

use std::convert::Infallible;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use futures::Stream;
use mcplab_core::llm::{ProviderConfig, ProviderKind};
use mcplab_protocol::chat::{
    ApprovalDecision, NewSession, ProviderInput, ProviderView, SessionPatch, SessionSummary,
    SessionView, TurnRequest,
};
use serde_json::Value;

use crate::AppState;
use crate::chat::{SubmitError, now_ms, provider_settings, submit_turn, to_markdown};
use crate::error::ApiFailure;

pub async fn list(
    State(state): State<Arc<AppState>>,
) -> Result<Json<Vec<SessionSummary>>, ApiFailure> {
    Ok(Json(state.store.sessions()?))
}

fn view(state: &AppState, id: &str) -> Result<SessionView, ApiFailure> {
    let summary = state.store.session(id)?;
    let runtime = state.chats.runtime(id);
    // Snapshot first: a turn that finishes in between is then in the store, and the view may
    // show it twice only as stored + live with the same id, which the UI dedupes by turn id.
    let snapshot = runtime.snapshot();
    let turns: Vec<_> = state.store.turns(id)?.into_iter().map(|(t, _)| t).collect();
    let live_turn = snapshot
        .live_turn
        .filter(|l| !turns.iter().any(|t| t.turn_id == l.turn_id));
    Ok(SessionView {
        summary,
        turns,
        running_turn: runtime.running_turn(),
        live_turn,
        last_event_id: snapshot.last_event_id,
        app_context: snapshot.app_context,
    })
}

pub async fn create(
    State(state): State<Arc<AppState>>,
    Json(req): Json<NewSession>,
) -> Result<(StatusCode, Json<SessionView>), ApiFailure> {
    let now = now_ms();
    let id = crate::security::generate_token()[..16].to_owned();
    let summary = SessionSummary {
        title: req
            .title
            .filter(|t| !t.trim().is_empty())
            .unwrap_or_else(|| crate::chat::DEFAULT_TITLE.into()),
        id: id.clone(),
        created_ms: now,
        updated_ms: now,
        settings: req.settings,
    };
    state.store.create_session(&summary)?;
    Ok((StatusCode::CREATED, Json(view(&state, &id)?)))
}

pub async fn one(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<SessionView>, ApiFailure> {
    Ok(Json(view(&state, &id)?))
}

pub async fn patch(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Json(req): Json<SessionPatch>,
) -> Result<Json<SessionSummary>, ApiFailure> {
    if req.title.as_deref().is_some_and(|t| t.trim().is_empty()) {
        return Err(ApiFailure::bad_request("a session title cannot be empty"));
    }
    Ok(Json(state.store.update_session(
        &id,
        req.title.as_deref(),
        req.settings.as_ref(),
        now_ms(),
    )?))
}

pub async fn remove(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiFailure> {
    state.store.delete_session(&id)?;
    state.chats.remove(&id);
    Ok(StatusCode::NO_CONTENT)
}

#[derive(serde::Deserialize)]
pub struct ExportQuery {
    format: Option<String>,
}

pub async fn export(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(q): Query<ExportQuery>,
) -> Result<Response, ApiFailure> {
    let v = view(&state, &id)?;
    let slug: String = v
        .summary
        .title
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let (body, mime, ext) = match q.format.as_deref() {
        Some("markdown") | Some("md") => (
            to_markdown(&v.summary, &v.turns),
            "text/markdown; charset=utf-8",
            "md",
        ),
        None | Some("json") => (
            serde_json::to_string_pretty(&v).unwrap_or_default(),
            "application/json",
            "json",
        ),
        Some(other) => {
            return Err(ApiFailure::bad_request(format!(
                "unknown export format `{other}`: use json or markdown"
            )));
        }
    };
    let disposition = format!("attachment; filename=\"{slug}.{ext}\"");
    Ok((
        [
            (header::CONTENT_TYPE, mime.to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        body,
    )
        .into_response())
}

pub async fn submit(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Json(req): Json<TurnRequest>,
) -> Result<StatusCode, ApiFailure> {
    if req.turn_id.trim().is_empty() || req.message.trim().is_empty() {
        return Err(ApiFailure::bad_request(
            "a turn needs a turnId and a message",
        ));
    }
    let session = state.store.session(&id)?;
    match submit_turn(&state, session, req.turn_id, req.message) {
        Ok(()) => Ok(StatusCode::ACCEPTED),
        Err(SubmitError::Busy(t)) => Err(ApiFailure::new(
            StatusCode::CONFLICT,
            "conflict",
            format!("turn {t} is still running; wait for it or cancel it"),
        )),
        Err(SubmitError::Model(m)) => Err(ApiFailure::new(
            StatusCode::BAD_REQUEST,
            "model_unavailable",
            m,
        )),
    }
}

pub async fn approve(
    State(state): State<Arc<AppState>>,
    Path((id, turn_id, call_id)): Path<(String, String, String)>,
    Json(decision): Json<ApprovalDecision>,
) -> Result<StatusCode, ApiFailure> {
    if state
        .chats
        .runtime(&id)
        .approvals
        .decide(&turn_id, &call_id, decision)
    {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiFailure::not_found(format!(
            "tool call {call_id} of turn {turn_id} is not waiting for approval"
        )))
    }
}

pub async fn cancel(
    State(state): State<Arc<AppState>>,
    Path((id, turn_id)): Path<(String, String)>,
) -> StatusCode {
    if state.chats.runtime(&id).cancel(&turn_id) {
        StatusCode::NO_CONTENT
    } else {
        StatusCode::NOT_FOUND
    }
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventsQuery {
    last_event_id: Option<u64>,
}

pub async fn events(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(q): Query<EventsQuery>,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiFailure> {
    state.store.session(&id)?;
    let runtime = state.chats.runtime(&id);
    Ok(crate::events::sse(
        &runtime.events,
        &headers,
        q.last_event_id,
    ))
}

fn stored_providers(state: &AppState) -> Result<Vec<ProviderConfig>, ApiFailure> {
    Ok(state.store.provider_configs()?)
}

pub async fn providers(State(state): State<Arc<AppState>>) -> Json<Vec<ProviderView>> {
    let settings = provider_settings(&state);
    // The list still renders when the stored entries cannot be read; they just aren't marked.
    let custom: Vec<String> = stored_providers(&state)
        .unwrap_or_default()
        .into_iter()
        .filter(|p| p.kind.builtin_id() != Some(p.id.as_str()))
        .map(|p| p.id)
        .collect();
    let views = settings
        .availability(&state.llm.http)
        .await
        .into_iter()
        .map(|a| ProviderView {
            custom: custom.contains(&a.id),
            kind: serde_json::to_value(a.kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
            id: a.id,
            display_name: a.display_name,
            usable: a.usable,
            reason: a.reason,
            base_url: a.base_url,
            key_hint: a.key_hint,
            models: a.models,
        })
        .collect();
    Json(views)
}

pub async fn put_provider(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Json(input): Json<ProviderInput>,
) -> Result<Json<Vec<ProviderView>>, ApiFailure> {
    let kind: ProviderKind = serde_json::from_value(Value::String(input.kind.clone()))
        .map_err(|_| ApiFailure::bad_request(format!("unknown provider kind `{}`", input.kind)))?;
    let mut stored = stored_providers(&state)?;
    let base_url = input.base_url.filter(|u| !u.trim().is_empty());
    // A stored key stays only while the requests go where they went when it was entered: a
    // new base URL without the key again must not send the old key to the new host.
    let normalized = |u: Option<&str>| u.map(|u| u.trim().trim_end_matches('/').to_owned());
    let previous_key = stored
        .iter()
        .find(|p| p.id == id)
        .filter(|p| normalized(p.base_url.as_deref()) == normalized(base_url.as_deref()))
        .and_then(|p| p.api_key.clone());
    let config = ProviderConfig {
        id: id.clone(),
        kind,
        base_url,
        api_key: input.api_key.filter(|k| !k.is_empty()).or(previous_key),
        models: input.models,
    };
    config
        .validate()
        .map_err(|e| ApiFailure::bad_request(e.to_string()))?;
    stored.retain(|p| p.id != id);
    stored.push(config);
    state.store.set_provider_configs(&stored)?;
    Ok(providers(State(state)).await)
}

pub async fn delete_provider(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiFailure> {
    let mut stored = stored_providers(&state)?;
    let before = stored.len();
    stored.retain(|p| p.id != id);
    if stored.len() == before {
        return Err(ApiFailure::not_found(format!(
            "no stored settings for provider `{id}`"
        )));
    }
    state.store.set_provider_configs(&stored)?;
    Ok(StatusCode::NO_CONTENT)
}

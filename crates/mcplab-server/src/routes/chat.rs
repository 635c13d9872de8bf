//! Chat sessions (CRUD — a session's view without x-ray bodies, one step's x-ray on demand —,
//! export), turns (idempotent submit, retry, cancel, approvals), the
//! per-session event stream, HostConfig files (parse/check), and the model providers the
//! picker offers (keys stay on the server), and a compared turn as an eval suite file. The work
//! is core's `SessionHub`; this is HTTP.

use std::convert::Infallible;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use futures::Stream;
use mcplab_core::session::{SessionError, host, without_xray_bodies};
use mcplab_llm::ProviderConfig;
use mcplab_protocol::chat::{
    ApprovalDecision, NewSession, ProviderInput, ProviderView, SessionPatch, SessionSummary,
    SessionView, TurnRequest,
};
use mcplab_protocol::host::{HostConfigText, HostConfigView};
use mcplab_protocol::xray::StepXray;

use crate::AppState;
use crate::error::ApiFailure;

impl From<SessionError> for ApiFailure {
    fn from(e: SessionError) -> Self {
        let message = e.to_string();
        match e {
            SessionError::NotFound(_) => Self::not_found(message),
            SessionError::Host(_) | SessionError::Invalid(_) => Self::bad_request(message),
            SessionError::Busy(_) | SessionError::Conflict(_) => {
                Self::new(StatusCode::CONFLICT, "conflict", message)
            }
            SessionError::Model(_) => {
                Self::new(StatusCode::BAD_REQUEST, "model_unavailable", message)
            }
            SessionError::Store(e) => e.into(),
        }
    }
}

pub(super) async fn list(
    State(state): State<Arc<AppState>>,
) -> Result<Json<Vec<SessionSummary>>, ApiFailure> {
    Ok(Json(state.sessions.list()?))
}

pub(super) async fn create(
    State(state): State<Arc<AppState>>,
    Json(req): Json<NewSession>,
) -> Result<(StatusCode, Json<SessionView>), ApiFailure> {
    Ok((StatusCode::CREATED, Json(state.sessions.create(req)?)))
}

/// The session without x-ray bodies (the panel fetches a step's with [`step_xray`]).
pub(super) async fn one(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<SessionView>, ApiFailure> {
    let mut view = state.sessions.view(&id)?;
    without_xray_bodies(&mut view);
    Ok(Json(view))
}

/// One step's x-ray with its request and response bodies, as recorded.
pub(super) async fn step_xray(
    State(state): State<Arc<AppState>>,
    Path((id, turn_id, step)): Path<(String, String, u32)>,
) -> Result<Json<StepXray>, ApiFailure> {
    Ok(Json(state.sessions.step_xray(&id, &turn_id, step)?))
}

pub(super) async fn patch(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Json(req): Json<SessionPatch>,
) -> Result<Json<SessionSummary>, ApiFailure> {
    Ok(Json(state.sessions.patch(&id, req)?))
}

pub(super) async fn remove(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiFailure> {
    state.sessions.delete(&id)?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(serde::Deserialize)]
pub(super) struct ExportQuery {
    pub(super) format: Option<String>,
}

pub(super) async fn export(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(q): Query<ExportQuery>,
) -> Result<Response, ApiFailure> {
    Ok(download(state.sessions.export(&id, q.format.as_deref())?))
}

/// An export as a download (its type and file name in the headers).
pub(super) fn download(export: mcplab_core::session::Export) -> Response {
    let disposition = format!("attachment; filename=\"{}\"", export.file_name);
    (
        [
            (header::CONTENT_TYPE, export.mime.to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        export.body,
    )
        .into_response()
}

#[derive(serde::Deserialize)]
pub(super) struct EvalSuiteQuery {
    /// The compared sessions (the columns), comma-separated, first column first.
    sessions: String,
    /// The compared turn, counted from 1: the first column's turns up to it become the case.
    turn: usize,
}

/// A compared turn as an eval suite (one case, run on every column's model), as a download.
pub(super) async fn compare_eval_suite(
    State(state): State<Arc<AppState>>,
    Query(q): Query<EvalSuiteQuery>,
) -> Result<Response, ApiFailure> {
    let ids: Vec<&str> = q.sessions.split(',').filter(|s| !s.is_empty()).collect();
    if !(1..=4).contains(&ids.len()) {
        return Err(ApiFailure::bad_request(
            "name 1 to 4 compared sessions: ?sessions=ID,ID&turn=N",
        ));
    }
    let views = ids
        .iter()
        .map(|id| state.sessions.view(id))
        .collect::<Result<Vec<_>, _>>()?;
    let first = &views[0];
    let turns = &first.turns[..q.turn.min(first.turns.len())];
    let models: Vec<String> = views
        .iter()
        .map(|v| v.summary.host_config.model.clone())
        .collect();
    let text = mcplab_evals::suite::compared_turn_suite(
        &first.summary.id,
        &first.summary.title,
        &first.summary.host_config,
        turns,
        &models,
    )
    .ok_or_else(|| {
        ApiFailure::bad_request("that turn is not stored yet: save it once it has ended")
    })?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/json".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"compare-eval.json\"".to_owned(),
            ),
        ],
        text,
    )
        .into_response())
}

pub(super) async fn submit(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Json(req): Json<TurnRequest>,
) -> Result<StatusCode, ApiFailure> {
    state.sessions.submit(&id, req, None)?;
    Ok(StatusCode::ACCEPTED)
}

pub(super) async fn approve(
    State(state): State<Arc<AppState>>,
    Path((id, turn_id, call_id)): Path<(String, String, String)>,
    Json(decision): Json<ApprovalDecision>,
) -> Result<StatusCode, ApiFailure> {
    if state.sessions.approve(&id, &turn_id, &call_id, decision) {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiFailure::not_found(format!(
            "tool call {call_id} of turn {turn_id} is not waiting for approval"
        )))
    }
}

pub(super) async fn cancel(
    State(state): State<Arc<AppState>>,
    Path((id, turn_id)): Path<(String, String)>,
) -> StatusCode {
    if state.sessions.cancel(&id, &turn_id) {
        StatusCode::NO_CONTENT
    } else {
        StatusCode::NOT_FOUND
    }
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct EventsQuery {
    last_event_id: Option<u64>,
}

pub(super) async fn events(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(q): Query<EventsQuery>,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiFailure> {
    state.sessions.summary(&id)?;
    let runtime = state.sessions.runtime(&id);
    Ok(crate::events::sse(
        &runtime.events,
        &headers,
        q.last_event_id,
    ))
}

/// `POST /api/host-config/parse`: a HostConfig file's text (JSON or YAML) checked, with its
/// canonical JSON and hash.
pub(super) async fn parse_host_config(
    Json(req): Json<HostConfigText>,
) -> Result<Json<HostConfigView>, ApiFailure> {
    let config = host::parse(&req.text).map_err(|e| ApiFailure::bad_request(e.to_string()))?;
    Ok(Json(host::view(&config)))
}

fn stored_providers(state: &AppState) -> Result<Vec<ProviderConfig>, ApiFailure> {
    Ok(state.store.provider_configs()?)
}

pub(super) async fn providers(State(state): State<Arc<AppState>>) -> Json<Vec<ProviderView>> {
    let (settings, _) = state.sessions.provider_settings();
    // The list still renders when the stored entries cannot be read; they just aren't marked.
    let custom: Vec<String> = stored_providers(&state)
        .unwrap_or_default()
        .into_iter()
        .filter(|p| p.kind.builtin_id() != Some(p.id.as_str()))
        .map(|p| p.id)
        .collect();
    let views = settings
        .availability(state.sessions.llm().http())
        .await
        .into_iter()
        .map(|a| ProviderView {
            custom: custom.contains(&a.id),
            kind: a.kind,
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

pub(super) async fn put_provider(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Json(input): Json<serde_json::Value>,
) -> Result<Json<Vec<ProviderView>>, ApiFailure> {
    // Read here rather than by the extractor, so an unknown kind is a 400 that lists the
    // kinds there are, not the extractor's bare 422.
    let input: ProviderInput = serde_json::from_value(input)
        .map_err(|e| ApiFailure::bad_request(format!("invalid provider: {e}")))?;
    let kind = input.kind;
    let mut stored = stored_providers(&state)?;
    let base_url = input.base_url.filter(|u| !u.trim().is_empty());
    // The list shows a password in a base URL as `****`; a form saved without retyping it
    // sends that back, and means the password it was shown for.
    let current = state
        .sessions
        .provider_settings()
        .0
        .get(&id)
        .and_then(|p| p.effective_base_url());
    let base_url = base_url
        .map(|u| mcplab_net::restore_password(&u, current.as_deref()))
        .transpose()
        .map_err(ApiFailure::bad_request)?;
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

pub(super) async fn delete_provider(
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

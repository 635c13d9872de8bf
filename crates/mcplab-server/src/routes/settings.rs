//! Human-in-the-loop answers, roots, the OTLP export address and UI preferences. Roots are stored as a setting and
//! pushed to the connection manager (which tells connected servers they changed).

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use mcplab_mcp::RootEntry;
use mcplab_protocol::api::{OtlpSettings, OtlpSettingsInput, RootView};
use mcplab_protocol::{HumanAnswer, HumanRequest};
use serde_json::Value;

use crate::AppState;
use crate::error::ApiFailure;

/// Settings key of the roots list.
pub(super) const ROOTS_KEY: &str = "roots";

pub(super) async fn pending_human(State(state): State<Arc<AppState>>) -> Json<Vec<HumanRequest>> {
    Json(state.manager.broker().pending())
}

pub(super) async fn answer_human(
    State(state): State<Arc<AppState>>,
    Path(id): Path<u64>,
    Json(answer): Json<HumanAnswer>,
) -> Result<StatusCode, ApiFailure> {
    if state.manager.broker().answer(id, answer) {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiFailure::not_found(format!(
            "request {id} is no longer pending (answered, timed out or withdrawn)"
        )))
    }
}

/// The stored roots.
pub(super) fn load_roots(state: &AppState) -> Result<Vec<RootView>, ApiFailure> {
    match state.store.setting(ROOTS_KEY)? {
        Some(v) => serde_json::from_value(v).map_err(|e| {
            ApiFailure::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string())
        }),
        None => Ok(Vec::new()),
    }
}

pub(super) async fn roots(
    State(state): State<Arc<AppState>>,
) -> Result<Json<Vec<RootView>>, ApiFailure> {
    Ok(Json(load_roots(&state)?))
}

pub(super) async fn set_roots(
    State(state): State<Arc<AppState>>,
    Json(roots): Json<Vec<RootView>>,
) -> Result<Json<Vec<RootView>>, ApiFailure> {
    if let Some(bad) = roots.iter().find(|r| !r.uri.contains("://")) {
        return Err(ApiFailure::bad_request(format!(
            "`{}` is not a URI; roots look like file:///path/to/project",
            bad.uri
        )));
    }
    let value = serde_json::to_value(&roots).unwrap_or(Value::Null);
    state.store.set_setting(ROOTS_KEY, &value)?;
    let entries = roots
        .iter()
        .map(|r| RootEntry {
            uri: r.uri.clone(),
            name: r.name.clone(),
        })
        .collect();
    state.manager.set_roots(entries).await;
    Ok(Json(roots))
}

pub(super) async fn prefs(
    State(state): State<Arc<AppState>>,
) -> Result<Json<BTreeMap<String, Value>>, ApiFailure> {
    Ok(Json(state.store.prefs()?))
}

pub(super) async fn set_pref(
    State(state): State<Arc<AppState>>,
    Path(key): Path<String>,
    Json(value): Json<Value>,
) -> Result<StatusCode, ApiFailure> {
    state.store.set_pref(&key, &value)?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /api/host`: the version and where apps render.
pub(super) async fn host(
    State(state): State<Arc<AppState>>,
) -> Json<mcplab_protocol::api::HostInfo> {
    let sandbox = state.sandbox.get();
    Json(mcplab_protocol::api::HostInfo {
        version: env!("CARGO_PKG_VERSION").to_owned(),
        sandbox_origin_template: sandbox.map(|s| s.template.clone()),
        sandbox_per_app: sandbox.is_some_and(|s| s.per_app()),
    })
}

/// Where spans go and how it went.
pub(super) async fn otlp(State(state): State<Arc<AppState>>) -> Json<OtlpSettings> {
    Json(state.otlp.view())
}

/// Starts (or stops) exporting to the page's address and remembers it for the next start.
pub(super) async fn set_otlp(
    State(state): State<Arc<AppState>>,
    Json(input): Json<OtlpSettingsInput>,
) -> Result<Json<OtlpSettings>, ApiFailure> {
    if state.otlp.from_flag() {
        return Err(ApiFailure::new(
            StatusCode::CONFLICT,
            "fixed_by_flag",
            "mcplab was started with --otlp: restart without it to set the address here",
        ));
    }
    let endpoint = input
        .endpoint
        .map(|e| e.trim().to_owned())
        .filter(|e| !e.is_empty());
    state
        .otlp
        .set(endpoint.as_deref(), false)
        .map_err(|e| ApiFailure::bad_request(e.to_string()))?;
    state
        .store
        .set_setting(crate::otlp::OTLP_KEY, &serde_json::json!(endpoint))?;
    Ok(Json(state.otlp.view()))
}

//! Saved app playground scenarios (`/api/app-scenarios`): list, create, replace, delete.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use mcplab_protocol::api::{AppScenario, AppScenarioInput};

use crate::AppState;
use crate::error::ApiFailure;
use mcplab_protocol::clock::now_ms;

fn checked(input: AppScenarioInput) -> Result<AppScenarioInput, ApiFailure> {
    if input.name.trim().is_empty() {
        return Err(ApiFailure::bad_request("a scenario needs a name"));
    }
    if input.server.is_empty() || input.tool.is_empty() {
        return Err(ApiFailure::bad_request(
            "a scenario needs a server and a tool",
        ));
    }
    Ok(AppScenarioInput {
        name: input.name.trim().to_owned(),
        ..input
    })
}

pub(super) async fn list(
    State(state): State<Arc<AppState>>,
) -> Result<Json<Vec<AppScenario>>, ApiFailure> {
    Ok(Json(state.store.scenarios()?))
}

pub(super) async fn create(
    State(state): State<Arc<AppState>>,
    Json(input): Json<AppScenarioInput>,
) -> Result<(StatusCode, Json<AppScenario>), ApiFailure> {
    let input = checked(input)?;
    let id = crate::security::generate_token()[..16].to_owned();
    Ok((
        StatusCode::CREATED,
        Json(state.store.put_scenario(&id, &input, now_ms())?),
    ))
}

pub(super) async fn replace(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Json(input): Json<AppScenarioInput>,
) -> Result<Json<AppScenario>, ApiFailure> {
    let input = checked(input)?;
    state.store.scenario(&id)?;
    Ok(Json(state.store.put_scenario(&id, &input, now_ms())?))
}

pub(super) async fn remove(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiFailure> {
    state.store.delete_scenario(&id)?;
    Ok(StatusCode::NO_CONTENT)
}

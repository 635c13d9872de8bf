//! `/api/hosts`: the host profiles (built in, and the data directory's `hosts/*.json`) and
//! one profile with its field-by-field difference from another, for the chat's host picker.
//! Read-only: profiles are files the person edits, never written here.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use mcplab_core::session::profiles::{self, HostProfiles};
use mcplab_protocol::host_profile::{HostProfile, HostProfileView};

use crate::AppState;
use crate::error::ApiFailure;

pub(crate) fn load(state: &AppState) -> Result<HostProfiles, ApiFailure> {
    let all = HostProfiles::load(state.hosts_dir.get().map(|p| p.as_path()))
        .map_err(|e| ApiFailure::bad_request(e.to_string()))?;
    for why in all.skipped() {
        tracing::warn!("host profile left out: {why}");
    }
    Ok(all)
}

pub(super) async fn list(
    State(state): State<Arc<AppState>>,
) -> Result<Json<Vec<HostProfile>>, ApiFailure> {
    Ok(Json(load(&state)?.list().to_vec()))
}

pub(super) async fn show(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<HostProfileView>, ApiFailure> {
    let all = load(&state)?;
    let profile = all.require(&name).map_err(ApiFailure::not_found)?;
    let against_name = q.get("against").map_or("mcplab", String::as_str);
    let against = all.require(against_name).map_err(ApiFailure::not_found)?;
    Ok(Json(HostProfileView {
        diff: profiles::diff(against, profile),
        against: against_name.to_owned(),
        profile: profile.clone(),
    }))
}

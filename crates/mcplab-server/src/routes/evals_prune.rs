//! `POST /api/evals/prune`: the Evals page's Prune, the same rule as `mcplab eval runs prune`
//! (`mcplab_evalrun::prune_rule`) and the same deleting and reclaiming (the store's); a dry
//! run lists what would go, for the page's confirm step.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use mcplab_protocol::clock::now_ms;
use mcplab_protocol::evals::{EvalPruneRequest, EvalPruneResult};

use crate::AppState;
use crate::error::ApiFailure;

pub(super) async fn prune(
    State(app): State<Arc<AppState>>,
    Json(req): Json<EvalPruneRequest>,
) -> Result<Json<EvalPruneResult>, ApiFailure> {
    let older_than = req
        .older_than
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(mcplab_evalrun::parse_age)
        .transpose()
        .map_err(ApiFailure::bad_request)?;
    let keep = req.keep.map(|k| k as usize);
    let rule = mcplab_evalrun::prune_rule(keep, older_than, req.dry_run, now_ms())
        .map_err(ApiFailure::bad_request)?;
    let report = app.store.prune_eval_runs(&rule)?;
    Ok(Json(EvalPruneResult {
        deleted: report.deleted,
        dry_run: req.dry_run,
        bytes_before: report.bytes_before,
        bytes_after: report.bytes_after,
    }))
}

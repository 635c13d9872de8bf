//! `POST /api/servers/{name}/check`: `mcplab check` on a connected server, in the era of its
//! live connection (its traffic so far included), with the rule sets and baseline asked for.
//! The other connected servers' tool names are handed to the security set (name collisions,
//! shadowing). The report is the same type the CLI renders.

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::{Path, State};
use mcplab_check::{CheckOptions, Peer, check_connection, report};
use mcplab_mcp::{Listing, RequestOptions};
use mcplab_protocol::ServerStatus;
use mcplab_protocol::check::{CheckReport, CheckRequest, RuleSet};
use serde_json::Value;

use super::mcp::conn;
use crate::AppState;
use crate::error::ApiFailure;

/// How long another server may take to list its tools for the shadowing rules.
const PEER_LIST_TIMEOUT: Duration = Duration::from_secs(5);

pub(super) async fn check(
    State(s): State<Arc<AppState>>,
    Path(n): Path<String>,
    Json(req): Json<CheckRequest>,
) -> Result<Json<CheckReport>, ApiFailure> {
    let c = conn(&s, &n)?;
    if req.rule_sets.contains(&RuleSet::Baseline) && req.baseline.is_none() {
        return Err(ApiFailure::bad_request(
            "the baseline rule set needs a `baseline` to compare with",
        ));
    }
    let mut opts = CheckOptions {
        calls: req
            .calls
            .into_iter()
            .map(|c| (c.name, c.arguments))
            .collect(),
        sets: req.rule_sets,
        baseline: req.baseline,
        peers: peers(&s, &n).await,
        ..Default::default()
    };
    if let Some(budget) = req.token_budget {
        opts.token_budget = usize::try_from(budget).unwrap_or(usize::MAX);
    }
    let era = check_connection(&c, s.manager.traffic(), &n, &opts).await;
    Ok(Json(report(&n, vec![era], Vec::new(), &opts)))
}

/// The tool names of every other connected server (those that do not answer in time are left
/// out).
async fn peers(s: &AppState, checked: &str) -> Vec<Peer> {
    let mut out = Vec::new();
    for (name, status) in s.manager.statuses() {
        if name == checked || !matches!(status, ServerStatus::Connected) {
            continue;
        }
        let Ok(c) = s.manager.get(&name) else {
            continue;
        };
        let opts = RequestOptions {
            timeout: Some(PEER_LIST_TIMEOUT),
            ..RequestOptions::default()
        };
        let Ok(listed) = c.list_all(Listing::Tools, opts).await else {
            continue;
        };
        let tools = listed
            .get("tools")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|t| t.get("name")?.as_str().map(str::to_owned))
            .collect();
        out.push(Peer {
            server: name,
            tools,
        });
    }
    out
}

//! `POST /api/servers/{name}/check`: `mcplab check` from the web, with the CLI's options —
//! rule sets and readiness directories, host profiles, fuzzing, a baseline. Without a
//! `protocol` the live connection is checked in its era (its traffic so far included); with
//! one, the configured server is connected afresh for each era (`auto`: every era it speaks)
//! on managers that record into the app's traffic log, so the findings' frames open in the
//! traffic view. `POST /api/check/export` renders a report as the CLI's JUnit, SARIF or
//! Markdown file. The other connected servers' tool names are handed to the security set
//! (name collisions, shadowing). With host profiles each app is also rendered live under each
//! (`headless::CheckRenderer`, with the Chromium `serve` found). The report is the same type the
//! CLI renders. `GET /api/servers/{name}/tools/findings` runs the rules about tool definitions
//! over the tools the live connection listed last (the Tools page's marks): no new connection,
//! nothing called, and no request at all once the tools were listed; other servers' tools come
//! from their own last listings, never asked for; a server connected as a host profile gets
//! that host's verdicts on each tool too.

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::{Path, State};
use mcplab_check::eras::check_server;
use mcplab_check::fresh::FreshManagers;
use mcplab_check::live::LiveRenderer;
use mcplab_check::options::FuzzOptions;
use mcplab_check::render::{self as render, SarifOptions};
use mcplab_check::{CheckOptions, Peer, check_connection, render_all, report};
use mcplab_mcp::{Listing, RequestOptions};
use mcplab_protocol::check::{
    CheckExport, CheckExportFormat, CheckExported, CheckReport, CheckRequest, RuleSet, ToolFindings,
};
use mcplab_protocol::host_profile::HostProfile;
use mcplab_protocol::{ServerConfig, ServerStatus};
use serde_json::Value;

use super::mcp::conn;
use crate::AppState;
use crate::error::ApiFailure;
use crate::headless::CheckRenderer;

/// How long another server may take to list its tools for the shadowing rules.
const PEER_LIST_TIMEOUT: Duration = Duration::from_secs(5);
/// Most fuzz inputs per tool the web asks for (the CLI has no limit).
const MAX_FUZZ_PER_TOOL: u32 = 500;

pub(super) async fn check(
    State(s): State<Arc<AppState>>,
    Path(n): Path<String>,
    Json(req): Json<CheckRequest>,
) -> Result<Json<CheckReport>, ApiFailure> {
    if req.rule_sets.contains(&RuleSet::Baseline) && req.baseline.is_none() {
        return Err(ApiFailure::bad_request(
            "the baseline rule set needs a `baseline` to compare with",
        ));
    }
    if let Some(f) = req.fuzz.as_ref().filter(|f| f.per_tool > MAX_FUZZ_PER_TOOL) {
        return Err(ApiFailure::bad_request(format!(
            "fuzz: {} inputs per tool is more than {MAX_FUZZ_PER_TOOL}; ask for fewer",
            f.per_tool
        )));
    }
    let mut opts = CheckOptions {
        calls: req
            .calls
            .into_iter()
            .map(|c| (c.name, c.arguments))
            .collect(),
        sets: req.rule_sets,
        baseline: req.baseline,
        hosts: host_profiles(&s, &req.hosts)?,
        fuzz: req.fuzz.map(|f| FuzzOptions {
            per_tool: f.per_tool as usize,
            seed: f.seed,
            tools: f.tools,
            timeout: None,
        }),
        peers: peers(&s, &n).await,
        ..Default::default()
    };
    if let Some(budget) = req.token_budget {
        opts.token_budget = usize::try_from(budget).unwrap_or(usize::MAX);
    }
    if !opts.hosts.is_empty() && !req.no_render {
        let chromium = s.render_host.get().and_then(|h| h.chromium.clone());
        let renderer = CheckRenderer::new(s.manager.options().clone(), chromium);
        opts.live = Some(LiveRenderer(Arc::new(renderer)));
    }
    let Some(protocol) = req.protocol else {
        let c = conn(&s, &n)?;
        let mut eras = vec![check_connection(&c, s.manager.traffic(), &n, &opts).await];
        render_all(&mut eras, &opts).await;
        return Ok(Json(report(&n, eras, Vec::new(), &opts)));
    };
    let config = ServerConfig {
        protocol,
        ..s.store.server(&n)?
    };
    let mut connector = FreshManagers::beside(s.manager.clone());
    match check_server(config, &n, &opts, &mut connector).await {
        Ok(checked) => Ok(Json(checked.report)),
        Err(never) => match never {},
    }
}

/// `GET /api/servers/{name}/tools/findings`: the tools the connection listed last (listed now
/// when it has not), judged off the runtime's threads.
pub(super) async fn tool_findings(
    State(s): State<Arc<AppState>>,
    Path(n): Path<String>,
) -> Result<Json<ToolFindings>, ApiFailure> {
    let c = conn(&s, &n)?;
    let declared = c
        .initialize_result()
        .pointer("/capabilities/tools")
        .is_some_and(|t| !t.is_null());
    let listed = match c.listed_tools() {
        Some(listed) => listed,
        None if declared => {
            c.list_all(Listing::Tools, RequestOptions::default())
                .await?
        }
        None => Arc::new(serde_json::json!({"tools": []})),
    };
    let opts = CheckOptions {
        peers: listed_peers(&s, &n),
        hosts: connected_as(&s, &n).into_iter().collect(),
        ..Default::default()
    };
    tokio::task::spawn_blocking(move || {
        mcplab_check::tool_findings::tool_findings(&c, &listed, &opts)
    })
    .await
    .map(Json)
    .map_err(|e| {
        ApiFailure::new(
            axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("judging the tools failed: {e}; the Check page runs the same rules"),
        )
    })
}

/// The host profile the server is connected as (None: mcplab's own declaration, or a profile
/// no longer there).
fn connected_as(s: &AppState, name: &str) -> Option<HostProfile> {
    let host = s.manager.declared_as(name)?.host;
    super::hosts::load(s).ok()?.require(&host).ok().cloned()
}

/// The other connected servers' tool names, from what each listed last (none asked).
fn listed_peers(s: &AppState, checked: &str) -> Vec<Peer> {
    s.manager
        .statuses()
        .into_iter()
        .filter(|(name, status)| name != checked && matches!(status, ServerStatus::Connected))
        .filter_map(|(name, _)| {
            let listed = s.manager.get(&name).ok()?.listed_tools()?;
            Some(Peer {
                tools: tool_names(&listed),
                server: name,
            })
        })
        .collect()
}

fn tool_names(listed: &Value) -> Vec<String> {
    listed
        .get("tools")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| t.get("name")?.as_str().map(str::to_owned))
        .collect()
}

/// `POST /api/check/export`: a report as the CLI's `--junit`, `--sarif` (its artifact: the
/// server's name) or `--markdown` file, rendered by the same code.
pub(super) async fn export(Json(req): Json<CheckExport>) -> Json<CheckExported> {
    let r = &req.report;
    let base = format!(
        "check-{}",
        r.server
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            })
            .collect::<String>()
    );
    let (ext, mime, text) = match req.format {
        CheckExportFormat::Junit => ("xml", "application/xml", render::junit(r)),
        CheckExportFormat::Sarif => {
            let sarif = render::sarif(
                r,
                &SarifOptions {
                    artifact: r.server.clone(),
                },
            );
            let text = serde_json::to_string_pretty(&sarif).unwrap_or_default();
            ("sarif", "application/sarif+json", text)
        }
        CheckExportFormat::Markdown => ("md", "text/markdown", render::markdown(r)),
    };
    Json(CheckExported {
        file_name: format!("{base}.{ext}"),
        mime_type: mime.to_owned(),
        text,
    })
}

/// The profiles named (`all`: every one), in the order named.
fn host_profiles(s: &AppState, names: &[String]) -> Result<Vec<HostProfile>, ApiFailure> {
    if names.is_empty() {
        return Ok(Vec::new());
    }
    let all = super::hosts::load(s)?;
    if names.iter().any(|n| n == "all") {
        return Ok(all.list().to_vec());
    }
    names
        .iter()
        .map(|n| all.require(n).cloned().map_err(ApiFailure::bad_request))
        .collect()
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
        out.push(Peer {
            tools: tool_names(&listed),
            server: name,
        });
    }
    out
}

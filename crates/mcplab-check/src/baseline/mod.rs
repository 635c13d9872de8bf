//! Baselines: a server's surface (capabilities, tools with their schemas, resources,
//! templates, prompts) per era, written by `--write-baseline FILE` and compared by
//! `--baseline FILE`. The format is [`mcplab_protocol::check::Baseline`], versioned by its
//! `format` field (`mcplab-check-baseline/1`):
//!
//! ```json
//! { "format": "mcplab-check-baseline/1", "server": "weather", "takenMs": 1765000000000,
//!   "surfaces": [ { "era": "legacy", "revision": "2025-11-25", "capabilities": {"tools": {}},
//!                   "tools": [ {"name": "forecast", "inputSchema": {…}} ],
//!                   "resources": [], "resourceTemplates": [], "prompts": [] } ] }
//! ```
//!
//! Surfaces are built from recorded frames ([`surface_from_frames`]), so any recording — a
//! check's, or a host session recorded by the tap — can become a baseline. The judge (`diff`)
//! classifies each difference as breaking (an error: a client of the baseline can fail) or
//! compatible (information).

mod diff;
mod rules;

use std::collections::BTreeMap;

use mcplab_mcp::Listing;
use mcplab_protocol::check::{BASELINE_FORMAT, Baseline, RuleSet, Surface};
use mcplab_protocol::{Era, TrafficFrame};
use serde_json::Value;

use crate::findings::{At, Findings};
use crate::options::CheckOptions;
use crate::recording::Recording;
use crate::sets::RuleSetDef;

pub use rules::RULES;

pub static SET: RuleSetDef = RuleSetDef {
    set: RuleSet::Baseline,
    title: "Baseline",
    rules: RULES,
    always: false,
    exercise: None,
    judge,
    conclude: Some(conclude),
};

/// Why a baseline file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    #[error("not a baseline: {0}")]
    Json(#[from] serde_json::Error),
    #[error(
        "baseline format `{0}` is not one this mcplab reads (it reads `{BASELINE_FORMAT}`): write a new one with --write-baseline"
    )]
    Format(String),
}

/// Reads a baseline, refusing formats this version does not know.
pub fn parse(text: &str) -> Result<Baseline, BaselineError> {
    let baseline: Baseline = serde_json::from_str(text)?;
    if baseline.format != BASELINE_FORMAT {
        return Err(BaselineError::Format(baseline.format));
    }
    Ok(baseline)
}

/// A baseline of `surfaces`, taken now (`taken_ms`: milliseconds since the epoch).
pub fn baseline(server: &str, taken_ms: u64, surfaces: Vec<Surface>) -> Baseline {
    Baseline {
        format: BASELINE_FORMAT.to_owned(),
        server: server.to_owned(),
        taken_ms,
        surfaces,
    }
}

/// The surface of one era's recording: what the frames show, with the listings the check ran
/// in place of theirs (whole: the traffic log keeps a large frame only in part).
pub fn surface_of(rec: &Recording) -> Surface {
    let mut surface = surface_from_frames(rec.era, &rec.revision, &rec.frames);
    if surface.capabilities.is_null() {
        surface.capabilities = rec.capabilities().clone();
    }
    let lists = [
        (Listing::Tools, &mut surface.tools),
        (Listing::Resources, &mut surface.resources),
        (Listing::ResourceTemplates, &mut surface.resource_templates),
        (Listing::Prompts, &mut surface.prompts),
    ];
    for (listing, items) in lists {
        if let Some(listed) = rec.listed(listing) {
            *items = listed.to_vec();
        }
    }
    surface
}

/// The surface the frames of one session show: the capabilities of its `initialize` (or
/// `server/discover`) result and every item its listings returned (all pages; an item listed
/// again replaces the earlier one).
pub fn surface_from_frames(era: Era, revision: &str, frames: &[TrafficFrame]) -> Surface {
    let rec = Recording::from_frames(era, revision, frames.to_vec());
    let mut capabilities = Value::Null;
    let mut lists: BTreeMap<&str, Vec<Value>> = BTreeMap::new();
    for answer in rec.results() {
        let (list, key) = match answer.method.as_str() {
            "initialize" | "server/discover" => {
                if let Some(c) = answer.result.get("capabilities") {
                    capabilities = c.clone();
                }
                continue;
            }
            "tools/list" => ("tools", "name"),
            "resources/list" => ("resources", "uri"),
            "resources/templates/list" => ("resourceTemplates", "uriTemplate"),
            "prompts/list" => ("prompts", "name"),
            _ => continue,
        };
        let items = answer.result.get(list).and_then(Value::as_array);
        let known = lists.entry(list).or_default();
        for item in items.into_iter().flatten() {
            known.retain(|k| k.get(key) != item.get(key));
            known.push(item.clone());
        }
    }
    let mut take = |k: &str| lists.remove(k).unwrap_or_default();
    Surface {
        era,
        revision: revision.to_owned(),
        capabilities,
        tools: take("tools"),
        resources: take("resources"),
        resource_templates: take("resourceTemplates"),
        prompts: take("prompts"),
    }
}

/// The baseline's surface for `era`, if it has one.
fn surface_for(baseline: &Baseline, era: Era) -> Option<&Surface> {
    baseline.surfaces.iter().find(|s| s.era == era)
}

fn judge(rec: &Recording, opts: &CheckOptions, f: &mut Findings) {
    let Some(baseline) = &opts.baseline else {
        return;
    };
    if rec.connect_error.is_some() {
        return;
    }
    match surface_for(baseline, rec.era) {
        Some(old) => diff::judge(old, &surface_of(rec), f),
        None => f.add(
            &rules::COMPATIBLE,
            format!(
                "the baseline has no surface of the {} era; this one is new",
                era_name(rec.era)
            ),
            At::default(),
        ),
    }
}

/// Eras the baseline has that the server no longer speaks.
fn conclude(recs: &[&Recording], opts: &CheckOptions, f: &mut Findings) {
    let Some(baseline) = &opts.baseline else {
        return;
    };
    for old in &baseline.surfaces {
        let spoken = recs
            .iter()
            .any(|r| r.era == old.era && r.connect_error.is_none());
        if !spoken {
            f.add(
                &rules::REMOVED,
                format!(
                    "the server no longer speaks the {} era (the baseline has {})",
                    era_name(old.era),
                    old.revision
                ),
                At::default(),
            );
        }
    }
}

fn era_name(era: Era) -> &'static str {
    match era {
        Era::Legacy => "2025 (initialize)",
        Era::Modern => "2026-07-28",
    }
}

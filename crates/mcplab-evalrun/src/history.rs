//! Stored runs read back: a run's header (plan, cases, settings) and its iterations as the
//! evals crate's `RunRecord`, run ids from what a person types (the id, a unique prefix, or
//! `last`), and the comparison of two stored runs. What the CLI's `eval runs/show/compare`,
//! the baseline of a run and the Evals page read.

use mcplab_evals::compare::{Comparison, compare};
use mcplab_evals::gates::DEFAULT_MIN_SAMPLES;
use mcplab_evals::run::{CaseInfo, IterationRecord, RunRecord, Shard, Unit};
use mcplab_evals::stats::{RunSummary, summarize};
use mcplab_store::{EvalRunRow, Store, StoreError};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a run row's `header` holds: written when the run starts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunHeader {
    pub suite_title: Option<String>,
    pub cases: Vec<CaseInfo>,
    pub planned: Vec<Unit>,
    pub models: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    pub concurrency: u32,
    pub record: bool,
    /// The run this one replays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay_of: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<String>,
    /// The HostConfig the turns ran under, canonical.
    pub host_config: Value,
    /// The suite as loaded (before the run's overrides).
    pub suite: Value,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// A stored run with its record.
#[derive(Debug, Clone)]
pub struct StoredRun {
    pub row: EvalRunRow,
    pub header: RunHeader,
    pub record: RunRecord,
}

#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error("no eval run `{0}`: list them with `mcplab eval runs`")]
    NotFound(String),
    #[error("`{0}` matches several runs ({1}): give more of the id")]
    Ambiguous(String, String),
    #[error("eval run {0} cannot be read: {1}")]
    Corrupt(String, String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The run id `text` names: an id, a unique prefix of one, or `last` (the newest run).
pub fn resolve_run_id(store: &Store, text: &str) -> Result<String, HistoryError> {
    let text = text.trim();
    if text == "last" || text == "latest" {
        return store
            .eval_runs(None, 1)?
            .into_iter()
            .next()
            .map(|r| r.id)
            .ok_or_else(|| HistoryError::NotFound(text.to_owned()));
    }
    if text.is_empty() {
        return Err(HistoryError::NotFound(text.to_owned()));
    }
    let ids = store.eval_run_ids(text, 6)?;
    if ids.iter().any(|id| id == text) {
        return Ok(text.to_owned());
    }
    match ids.as_slice() {
        [] => Err(HistoryError::NotFound(text.to_owned())),
        [one] => Ok(one.clone()),
        many => Err(HistoryError::Ambiguous(text.to_owned(), many.join(", "))),
    }
}

/// The run `id` with every finished iteration.
pub fn load_run(store: &Store, id: &str) -> Result<StoredRun, HistoryError> {
    let row = match store.eval_run(id) {
        Ok(r) => r,
        Err(StoreError::NotFound(_)) => return Err(HistoryError::NotFound(id.to_owned())),
        Err(e) => return Err(e.into()),
    };
    let corrupt = |e: serde_json::Error| HistoryError::Corrupt(id.to_owned(), e.to_string());
    let header: RunHeader = serde_json::from_value(row.header.clone()).map_err(corrupt)?;
    let mut iterations: Vec<IterationRecord> = store
        .eval_iterations(id, false)?
        .into_iter()
        .map(|i| serde_json::from_value(i.record))
        .collect::<Result<_, _>>()
        .map_err(corrupt)?;
    let position: std::collections::HashMap<&Unit, usize> = header
        .planned
        .iter()
        .enumerate()
        .map(|(k, u)| (u, k))
        .collect();
    iterations.sort_by_key(|i| position.get(&i.unit).copied().unwrap_or(usize::MAX));
    let record = RunRecord {
        suite_id: row.suite_id.clone(),
        suite_hash: row.suite_hash.clone(),
        shard: header.shard,
        cases: header.cases.clone(),
        planned: header.planned.clone(),
        iterations,
    };
    Ok(StoredRun {
        row,
        header,
        record,
    })
}

/// `run` against `base`, with `min_samples` per side (the default when `None`).
pub fn compare_runs(base: &RunRecord, run: &RunRecord, min_samples: Option<u32>) -> Comparison {
    let min = u64::from(min_samples.unwrap_or(DEFAULT_MIN_SAMPLES));
    compare(&summarize(base), &summarize(run), min)
}

/// A stored run's summary: the one written at its end, else computed from its iterations.
pub fn summary_of(run: &StoredRun) -> RunSummary {
    run.row
        .result
        .as_ref()
        .and_then(|r| serde_json::from_value(r["summary"].clone()).ok())
        .unwrap_or_else(|| summarize(&run.record))
}

/// How one iteration differs between two runs (e.g. a live run and its recording).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TraceDifference {
    #[serde(flatten)]
    pub unit: Unit,
    /// `passed`, `failed`, `errored`, or `None` when that run has no such iteration.
    pub base: Option<String>,
    pub run: Option<String>,
    pub differences: Vec<String>,
}

/// Per iteration present in either run, where the tool calls, the answers or the outcomes of
/// `base` and `run` differ (iterations that agree are left out).
pub fn trace_differences(
    store: &Store,
    base: &str,
    run: &str,
) -> Result<Vec<TraceDifference>, HistoryError> {
    let rows =
        |id: &str| -> Result<std::collections::BTreeMap<Unit, (String, Value)>, HistoryError> {
            Ok(store
                .eval_iterations(id, true)?
                .into_iter()
                .map(|r| {
                    let unit = Unit {
                        case_id: r.case_id,
                        model: r.model,
                        iteration: r.iteration,
                    };
                    (unit, (r.outcome, r.detail.unwrap_or(Value::Null)))
                })
                .collect())
        };
    let (a, b) = (rows(base)?, rows(run)?);
    let mut units: Vec<&Unit> = a.keys().chain(b.keys()).collect();
    units.sort();
    units.dedup();
    let mut out = Vec::new();
    for unit in units {
        let (left, right) = (a.get(unit), b.get(unit));
        let differences = match (left, right) {
            (Some((lo, ld)), Some((ro, rd))) => {
                let mut d = Vec::new();
                if lo != ro {
                    d.push(format!("outcome {lo} → {ro}"));
                }
                d.extend(call_differences(&ld["trace"], &rd["trace"]));
                if ld["trace"]["turns"]
                    .as_array()
                    .and_then(|t| t.last())
                    .map(|t| &t["answer"])
                    != rd["trace"]["turns"]
                        .as_array()
                        .and_then(|t| t.last())
                        .map(|t| &t["answer"])
                {
                    d.push("the final answer differs".into());
                }
                d
            }
            (Some(_), None) => vec!["only in the base run".into()],
            (None, Some(_)) => vec!["only in the compared run".into()],
            (None, None) => Vec::new(),
        };
        if !differences.is_empty() {
            out.push(TraceDifference {
                unit: unit.clone(),
                base: left.map(|l| l.0.clone()),
                run: right.map(|r| r.0.clone()),
                differences,
            });
        }
    }
    Ok(out)
}

/// `server/tool(arguments)` per call, per turn.
fn calls(trace: &Value) -> Vec<Vec<String>> {
    trace["turns"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|t| {
            t["toolCalls"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|c| {
                    format!(
                        "{}/{}({})",
                        c["server"].as_str().unwrap_or(""),
                        c["tool"].as_str().unwrap_or(""),
                        c["arguments"]
                    )
                })
                .collect()
        })
        .collect()
}

fn call_differences(a: &Value, b: &Value) -> Vec<String> {
    let (a, b) = (calls(a), calls(b));
    let mut out = Vec::new();
    for turn in 0..a.len().max(b.len()) {
        let empty = Vec::new();
        let (x, y) = (a.get(turn).unwrap_or(&empty), b.get(turn).unwrap_or(&empty));
        if x != y {
            out.push(format!(
                "turn {}: [{}] → [{}]",
                turn + 1,
                x.join(", "),
                y.join(", ")
            ));
        }
    }
    out
}

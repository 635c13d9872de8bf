//! Stored runs read back: a run's header (plan, cases, settings) and its iterations as the
//! evals crate's `RunRecord`, run ids from what a person types (the id, a unique prefix, or
//! `last`), and the comparison of two stored runs. The views `mcplab eval runs|show|compare
//! --json` print and `/api/evals` answers are built here, once; the baseline of a run reads
//! the same.

use std::collections::BTreeMap;

use mcplab_evals::compare::{Comparison, compare_with};
use mcplab_evals::gates::DEFAULT_MIN_SAMPLES;
use mcplab_evals::run::{IterationRecord, RunRecord, Unit};
use mcplab_evals::stats::{RunSummary, summarize};
use mcplab_evals::suite::Gates;
use mcplab_evals::trace::Trace;
use mcplab_protocol::evals::{EvalCompareView, EvalRunItem, EvalRunView, RunKind, RunResult};
pub use mcplab_protocol::evals::{RunHeader, TraceDifference};
use mcplab_store::{EvalRunRow, Store, StoreError};

use crate::detail;

/// A stored run with its record.
#[derive(Debug, Clone)]
pub struct StoredRun {
    pub row: EvalRunRow,
    pub header: RunHeader,
    pub record: RunRecord,
    /// Statistics, gates and comparison, once the run ended.
    pub result: Option<RunResult>,
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
    let result = result_of(&row).map_err(corrupt)?;
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
        result,
    })
}

/// The result a run row stored when it ended (`None` before).
pub(crate) fn result_of(row: &EvalRunRow) -> Result<Option<RunResult>, serde_json::Error> {
    row.result
        .as_ref()
        .map(|r| serde_json::from_value(r.clone()))
        .transpose()
}

/// A run row as lists show it (an unreadable result shows as no result).
pub fn run_item(row: &EvalRunRow) -> EvalRunItem {
    let result = result_of(row).ok().flatten();
    EvalRunItem {
        id: row.id.clone(),
        suite_id: row.suite_id.clone(),
        suite_hash: row.suite_hash.clone(),
        title: row.title.clone(),
        status: row.status.clone(),
        host_hash: row.host_hash.clone(),
        started_ms: row.started_ms,
        finished_ms: row.finished_ms,
        pass_rate: result.as_ref().and_then(|r| r.summary.pass_rate),
        exit_code: result.map(|r| r.gates.exit_code),
        kind: kind_of(row),
    }
}

/// A stored run's kind, from its header (full when the header does not read).
pub(crate) fn kind_of(row: &EvalRunRow) -> RunKind {
    serde_json::from_value::<RunHeader>(row.header.clone())
        .map(|h| h.run_kind())
        .unwrap_or(RunKind::Full)
}

/// A stored run whole, as `eval show --json` prints it and the Evals page shows it.
pub fn run_view(run: StoredRun) -> EvalRunView {
    let summary = summary_of(&run);
    let (gates, comparison) = match run.result {
        Some(r) => (Some(r.gates), r.comparison),
        None => (None, None),
    };
    EvalRunView {
        run: run_item(&run.row),
        header: run.header,
        record: run.record,
        summary,
        gates,
        comparison,
    }
}

/// Two stored runs (ids, unique prefixes or `last`) compared, with the per-iteration
/// differences when `traces`.
pub fn compare_view(
    store: &Store,
    base: &str,
    run: &str,
    min_samples: Option<u32>,
    traces: bool,
) -> Result<EvalCompareView, HistoryError> {
    let (base_id, run_id) = (resolve_run_id(store, base)?, resolve_run_id(store, run)?);
    let (b, r) = (load_run(store, &base_id)?, load_run(store, &run_id)?);
    let gates = Gates {
        min_samples,
        ..Gates::default()
    };
    let comparison = compare_runs(&b.record, &r.record, &gates);
    let traces = match traces {
        true => Some(trace_differences(store, &base_id, &run_id)?),
        false => None,
    };
    Ok(EvalCompareView {
        base: base_id,
        run: run_id,
        comparison,
        traces,
    })
}

/// `run` against `base`, with the gates' `minSamples` per side and their way of deciding a
/// regression (the defaults where they say nothing).
pub fn compare_runs(base: &RunRecord, run: &RunRecord, gates: &Gates) -> Comparison {
    let min = u64::from(gates.min_samples.unwrap_or(DEFAULT_MIN_SAMPLES));
    compare_with(
        &summarize(base),
        &summarize(run),
        min,
        gates.regression_method(),
    )
}

/// A stored run's summary: the one written at its end, else computed from its iterations.
pub fn summary_of(run: &StoredRun) -> RunSummary {
    match &run.result {
        Some(r) => r.summary.clone(),
        None => summarize(&run.record),
    }
}

/// Per iteration present in either run, where the tool calls, the answers or the outcomes of
/// `base` and `run` differ (iterations that agree are left out).
pub fn trace_differences(
    store: &Store,
    base: &str,
    run: &str,
) -> Result<Vec<TraceDifference>, HistoryError> {
    let rows = |id: &str| -> Result<BTreeMap<Unit, (String, Option<Trace>)>, HistoryError> {
        store
            .eval_iterations(id, true)?
            .into_iter()
            .map(|row| {
                let d = detail::of_row(row)?.detail;
                let outcome = d.record.outcome.as_str().to_owned();
                Ok((d.record.unit, (outcome, d.trace)))
            })
            .collect()
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
                d.extend(call_differences(ld.as_ref(), rd.as_ref()));
                let answer = |t: &Option<Trace>| t.as_ref().map(|t| t.answer().to_owned());
                if answer(ld) != answer(rd) {
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
fn calls(trace: Option<&Trace>) -> Vec<Vec<String>> {
    trace
        .map(|t| &t.turns[..])
        .unwrap_or_default()
        .iter()
        .map(|t| {
            t.tool_calls
                .iter()
                .map(|c| format!("{}/{}({})", c.server, c.tool, c.arguments))
                .collect()
        })
        .collect()
}

fn call_differences(a: Option<&Trace>, b: Option<&Trace>) -> Vec<String> {
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

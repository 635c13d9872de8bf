//! The `run.json` records of every shard of a run merged back into the one run (`eval merge`),
//! compared with a baseline and judged by the gates exactly as a live run is, and stored as a
//! run of kind `merged` so that sharded CI keeps history and a trend. Its iterations keep their
//! records; their traces stay with the shard runs (a shard's run.json does not carry them).

use mcplab_evals::compare::Comparison;
use mcplab_evals::gates::{self, GateReport};
use mcplab_evals::run::RunRecord;
use mcplab_evals::shard;
use mcplab_evals::stats::{RunSummary, summarize};
use mcplab_evals::suite::Gates;
use mcplab_protocol::clock::now_ms;
use mcplab_protocol::evals::{RunHeader, RunKind, RunResult};
use mcplab_store::{EvalIterationRow, EvalRunRow, Store};
use serde_json::Value;

use crate::history;
use crate::runner::new_run_id;

/// A merged run, stored.
pub struct Merged {
    pub run_id: String,
    pub record: RunRecord,
    pub summary: RunSummary,
    pub comparison: Option<Comparison>,
    pub gates: GateReport,
}

/// Merges `shards` (each shard's record, with the id it was stored under), compares with
/// `baseline` when given, evaluates `gates`, and stores the result as a finished run.
pub fn store_merged(
    store: &Store,
    shards: Vec<(String, RunRecord)>,
    gates: &Gates,
    baseline: Option<&str>,
) -> Result<Merged, String> {
    let ids: Vec<String> = shards.iter().map(|(id, _)| id.clone()).collect();
    let count = shards.len() as u32;
    let record =
        shard::merge(shards.into_iter().map(|(_, r)| r).collect()).map_err(|e| e.to_string())?;
    let summary = summarize(&record);
    let comparison = match baseline {
        Some(b) => {
            let base = history::resolve_run_id(store, b)
                .and_then(|id| history::load_run(store, &id))
                .map_err(|e| format!("the baseline: {e}"))?;
            Some(history::compare_runs(&base.record, &record, gates))
        }
        None => None,
    };
    let report = gates::evaluate(gates, &summary, comparison.as_ref(), &[]);
    let run_id = new_run_id();
    let store_err = |e: mcplab_store::StoreError| e.to_string();
    store
        .create_eval_run(&row(&run_id, &record, &ids, count, baseline))
        .map_err(store_err)?;
    for i in &record.iterations {
        store
            .save_eval_iteration(&EvalIterationRow {
                run_id: run_id.clone(),
                case_id: i.unit.case_id.clone(),
                model: i.unit.model.clone(),
                iteration: i.unit.iteration,
                outcome: i.outcome.as_str().into(),
                record: serde_json::to_value(i).map_err(|e| e.to_string())?,
                detail: None,
                finished_ms: now_ms(),
            })
            .map_err(store_err)?;
    }
    let result = RunResult {
        summary: summary.clone(),
        gates: report.clone(),
        comparison: comparison.clone(),
    };
    let result = serde_json::to_value(&result).map_err(|e| e.to_string())?;
    store
        .finish_eval_run(&run_id, "finished", now_ms(), &result)
        .map_err(store_err)?;
    Ok(Merged {
        run_id,
        record,
        summary,
        comparison,
        gates: report,
    })
}

fn row(
    run_id: &str,
    record: &RunRecord,
    ids: &[String],
    count: u32,
    baseline: Option<&str>,
) -> EvalRunRow {
    let mut models: Vec<String> = Vec::new();
    for u in &record.planned {
        if !models.contains(&u.model) {
            models.push(u.model.clone());
        }
    }
    let header = RunHeader {
        suite_title: None,
        cases: record.cases.clone(),
        planned: record.planned.clone(),
        models,
        shard: None,
        concurrency: 0,
        record: false,
        replay_of: None,
        baseline: baseline.map(str::to_owned),
        host_config: Value::Null,
        suite: Value::Null,
        notes: vec![format!("merged from the shard runs {}", ids.join(", "))],
        kind: Some(RunKind::Merged { shards: count }),
    };
    let now = now_ms();
    EvalRunRow {
        id: run_id.to_owned(),
        suite_id: record.suite_id.clone(),
        suite_hash: record.suite_hash.clone(),
        host_hash: String::new(),
        title: None,
        source: None,
        status: "running".into(),
        started_ms: now,
        finished_ms: None,
        header: serde_json::to_value(&header).unwrap_or(Value::Null),
        result: None,
        recording: None,
    }
}

//! A suite's pass rate over its stored runs, per model: for each run (oldest first) and each
//! model, the completed iterations of every case pooled (passes / n, errored iterations left
//! out as everywhere else) with the 95 % Wilson interval of that pooled rate. It reads the
//! summaries the runs stored when they ended (a run that never ended has none and is left
//! out); the evals crate does the statistics. The Evals page's chart reads this.

use std::collections::BTreeMap;

use mcplab_evals::stats::{CellSummary, Interval, Z95, wilson};
use mcplab_store::Store;
use serde::Serialize;

use crate::history::HistoryError;

/// One model in one run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelPoint {
    pub model: String,
    pub passes: u64,
    pub n: u64,
    pub errors: u64,
    pub pass_rate: Option<f64>,
    pub interval: Option<Interval>,
}

/// One run of the suite.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunPoint {
    pub run_id: String,
    pub started_ms: u64,
    pub status: String,
    pub models: Vec<ModelPoint>,
}

/// Pools a run's case × model cells per model.
pub fn per_model(cells: &[CellSummary]) -> Vec<ModelPoint> {
    let mut by: BTreeMap<&str, (u64, u64, u64)> = BTreeMap::new();
    for c in cells {
        let e = by.entry(c.model.as_str()).or_default();
        e.0 += c.passes;
        e.1 += c.n;
        e.2 += c.errors;
    }
    by.into_iter()
        .map(|(model, (passes, n, errors))| ModelPoint {
            model: model.to_owned(),
            passes,
            n,
            errors,
            pass_rate: (n > 0).then(|| passes as f64 / n as f64),
            interval: wilson(passes, n, Z95),
        })
        .collect()
}

/// The newest `limit` ended runs of `suite_id`, oldest first.
pub fn pass_rate_trend(
    store: &Store,
    suite_id: &str,
    limit: usize,
) -> Result<Vec<RunPoint>, HistoryError> {
    let mut points: Vec<RunPoint> = store
        .eval_runs(Some(suite_id), limit)?
        .into_iter()
        .filter_map(|row| {
            let cells: Vec<CellSummary> =
                serde_json::from_value(row.result.as_ref()?["summary"]["cells"].clone()).ok()?;
            Some(RunPoint {
                run_id: row.id,
                started_ms: row.started_ms,
                status: row.status,
                models: per_model(&cells),
            })
        })
        .collect();
    points.sort_by_key(|p| p.started_ms);
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_pool_per_model_with_the_wilson_interval() {
        let cell = |case: &str, model: &str, passes: u64, n: u64| -> CellSummary {
            serde_json::from_value(serde_json::json!({
                "caseId": case, "model": model, "n": n, "passes": passes, "errors": 1,
                "passRate": null, "interval": null, "passAtK": {}, "passHatK": {},
                "flaky": false, "passed": null, "passThreshold": 1.0, "meanTokens": null,
                "costUsd": null, "latency": {"p50": null, "p95": null},
                "llm": {"p50": null, "p95": null}, "mcp": {"p50": null, "p95": null},
                "dots": [],
            }))
            .unwrap()
        };
        let points = per_model(&[
            cell("a", "x::m", 1, 2),
            cell("b", "x::m", 1, 2),
            cell("a", "y::n", 0, 0),
        ]);
        assert_eq!(points.len(), 2);
        let m = &points[0];
        assert_eq!(
            (m.model.as_str(), m.passes, m.n, m.errors),
            ("x::m", 2, 4, 2)
        );
        // Wilson 95 % for 2/4: 0.15004–0.84996 (Newcombe 1998, method 3).
        let i = m.interval.unwrap();
        assert!(
            (i.low - 0.15004).abs() < 1e-4 && (i.high - 0.84996).abs() < 1e-4,
            "{i:?}"
        );
        assert_eq!((points[1].pass_rate, points[1].interval), (None, None));
    }
}

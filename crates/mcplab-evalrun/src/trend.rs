//! A suite's pass rate over its stored runs, per model: for each run (oldest first) and each
//! model, the completed iterations of every case pooled (passes / n, errored iterations left
//! out as everywhere else) with the 95 % Wilson interval of that pooled rate. It reads the
//! summaries the runs stored when they ended (a run that never ended has none and is left
//! out); the evals crate does the statistics. Only runs of the whole plan (full or merged)
//! are pooled: a shard, a subset or a replay is not comparable with them. The Evals page's
//! chart reads this.

use std::collections::BTreeMap;

use mcplab_evals::stats::{CellSummary, Z95, wilson};
pub use mcplab_protocol::evals::{ModelPoint, TrendPoint};
use mcplab_store::Store;

use crate::history::{HistoryError, kind_of, result_of};

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
) -> Result<Vec<TrendPoint>, HistoryError> {
    let mut points: Vec<TrendPoint> = store
        .eval_runs(Some(suite_id), limit)?
        .into_iter()
        .filter(|row| kind_of(row).is_whole())
        .filter_map(|row| {
            let result = result_of(&row).ok()??;
            Some(TrendPoint {
                models: per_model(&result.summary.cells),
                run_id: row.id,
                started_ms: row.started_ms,
                status: row.status,
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

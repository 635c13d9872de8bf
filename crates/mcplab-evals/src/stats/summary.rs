//! Summaries of a run: per case × model (pass rate with its Wilson interval, pass@k, pass^k,
//! flakiness, tokens, cost, latency p50/p95 split LLM/MCP) and for the whole run (pass rate,
//! error rate, tool-call precision/recall, totals, percentiles, and what the judge and
//! simulated users spent, apart; their cost is in every cost here). Errored iterations are counted
//! apart: they measured the provider or a server, not the model. Order-independent: the same
//! iterations give the same summary however they were gathered (shards, concurrency).

use std::collections::BTreeMap;

use super::interval::{Z95, wilson};
use super::passk::{pass_at_k, pass_hat_k};
use super::percentile::percentile;
use crate::run::{IterationRecord, RunRecord, SideUsage};
pub use mcplab_protocol::evals::{CellSummary, Latency, RunSummary};

/// p50 and p95 of `values`.
fn latency_of(values: &[f64]) -> Latency {
    Latency {
        p50: percentile(values, 50.0),
        p95: percentile(values, 95.0),
    }
}

const KS: [u64; 5] = [1, 2, 3, 5, 10];

/// The summed cost; unknown when a completed iteration has no price (errored iterations
/// without a cost add nothing: they may not have reached the model).
fn total_cost<'a>(its: impl Iterator<Item = &'a IterationRecord>) -> Option<f64> {
    let mut total = 0.0;
    for i in its {
        match i.metrics.cost_usd {
            Some(c) => total += c,
            None if i.outcome.is_error() => {}
            None => return None,
        }
    }
    Some(total)
}

fn ratio(a: u64, b: u64) -> Option<f64> {
    (b > 0).then(|| a as f64 / b as f64)
}

/// Summarize a run: cells in plan order (cases as listed, then models).
pub fn summarize(run: &RunRecord) -> RunSummary {
    let mut order: Vec<(String, String)> = Vec::new();
    for u in &run.planned {
        let key = (u.case_id.clone(), u.model.clone());
        if !order.contains(&key) {
            order.push(key);
        }
    }
    let mut by_cell: BTreeMap<(String, String), Vec<&IterationRecord>> = BTreeMap::new();
    for it in &run.iterations {
        let key = (it.unit.case_id.clone(), it.unit.model.clone());
        if !order.contains(&key) {
            order.push(key.clone());
        }
        by_cell.entry(key).or_default().push(it);
    }
    let cells: Vec<CellSummary> = order
        .iter()
        .map(|(case, model)| {
            let mut its = by_cell
                .remove(&(case.clone(), model.clone()))
                .unwrap_or_default();
            its.sort_by_key(|i| i.unit.iteration);
            let threshold = run
                .cases
                .iter()
                .find(|c| &c.id == case)
                .map_or(1.0, |c| c.pass_threshold);
            cell(case, model, &its, threshold)
        })
        .collect();
    whole(run, cells)
}

fn cell(case: &str, model: &str, its: &[&IterationRecord], threshold: f64) -> CellSummary {
    let completed: Vec<&&IterationRecord> = its.iter().filter(|i| !i.outcome.is_error()).collect();
    let (n, passes) = (
        completed.len() as u64,
        completed.iter().filter(|i| i.outcome.is_pass()).count() as u64,
    );
    let lat = |f: fn(&IterationRecord) -> u64| {
        completed.iter().map(|i| f(i) as f64).collect::<Vec<f64>>()
    };
    let pass_rate = ratio(passes, n);
    CellSummary {
        case_id: case.to_string(),
        model: model.to_string(),
        n,
        passes,
        errors: its.len() as u64 - n,
        pass_rate,
        interval: wilson(passes, n, Z95),
        pass_at_k: KS
            .iter()
            .filter_map(|&k| pass_at_k(n, passes, k).map(|v| (k, v)))
            .collect(),
        pass_hat_k: KS
            .iter()
            .filter_map(|&k| pass_hat_k(n, passes, k).map(|v| (k, v)))
            .collect(),
        flaky: passes > 0 && passes < n,
        passed: pass_rate.map(|r| r >= threshold),
        pass_threshold: threshold,
        mean_tokens: (n > 0).then(|| {
            completed
                .iter()
                .map(|i| (i.metrics.input_tokens + i.metrics.output_tokens) as f64)
                .sum::<f64>()
                / n as f64
        }),
        cost_usd: total_cost(its.iter().copied()),
        latency: latency_of(&lat(|i| i.metrics.latency_ms)),
        llm: latency_of(&lat(|i| i.metrics.llm_ms)),
        mcp: latency_of(&lat(|i| i.metrics.mcp_ms)),
        dots: its
            .iter()
            .map(|i| {
                if i.outcome.is_error() {
                    None
                } else {
                    Some(i.outcome.is_pass())
                }
            })
            .collect(),
    }
}

fn whole(run: &RunRecord, cells: Vec<CellSummary>) -> RunSummary {
    let its = &run.iterations;
    let completed: Vec<&IterationRecord> = its.iter().filter(|i| !i.outcome.is_error()).collect();
    let (n, passes) = (
        completed.len() as u64,
        completed.iter().filter(|i| i.outcome.is_pass()).count() as u64,
    );
    let sum = |f: fn(&IterationRecord) -> u64| its.iter().map(f).sum::<u64>();
    let matched = sum(|i| u64::from(i.metrics.calls_matched));
    let unexpected = sum(|i| u64::from(i.metrics.calls_unexpected));
    let missed = sum(|i| u64::from(i.metrics.calls_missed));
    let lat = |f: fn(&IterationRecord) -> u64| {
        completed.iter().map(|i| f(i) as f64).collect::<Vec<f64>>()
    };
    let flaky = cells
        .iter()
        .filter(|c| c.flaky)
        .map(|c| (c.case_id.clone(), c.model.clone()))
        .collect();
    RunSummary {
        planned: run.planned.len() as u64,
        finished: its.len() as u64,
        completed: n,
        passes,
        errors: its.len() as u64 - n,
        pass_rate: ratio(passes, n),
        interval: wilson(passes, n, Z95),
        error_rate: ratio(its.len() as u64 - n, its.len() as u64),
        precision: ratio(matched, matched + unexpected),
        recall: ratio(matched, matched + missed),
        input_tokens: sum(|i| i.metrics.input_tokens),
        output_tokens: sum(|i| i.metrics.output_tokens),
        cost_usd: total_cost(its.iter()),
        judge: its
            .iter()
            .fold(SideUsage::default(), |a, i| a.plus(i.metrics.judge)),
        simulated_user: its.iter().fold(SideUsage::default(), |a, i| {
            a.plus(i.metrics.simulated_user)
        }),
        unpriced: its
            .iter()
            .filter(|i| i.metrics.cost_usd.is_none() && !i.outcome.is_error())
            .count() as u64,
        latency: latency_of(&lat(|i| i.metrics.latency_ms)),
        llm: latency_of(&lat(|i| i.metrics.llm_ms)),
        mcp: latency_of(&lat(|i| i.metrics.mcp_ms)),
        flaky,
        cells,
    }
}

//! Gates: the suite's (or the command line's) conditions on a run — minimum pass rate (its
//! estimate, or the lower bound of its interval with cases as clusters), minimum pass^k per
//! case × model, maximum cost, maximum p95 latency, no regression against a baseline (per
//! cell, corrected across cells, with a minimum effect; or the whole run, cases as
//! clusters) — and, always, every case × model reaching its case's pass threshold; each
//! evaluated to pass, fail or insufficient data with its reason; plus the run's
//! validity (finished what it planned, errors within the allowed rate). The exit code: 0 every
//! gate holds, 1 a gate fails, 3 the run is invalid or a gate could not be decided.

use std::collections::BTreeMap;

use crate::compare::{Comparison, Significance};
use crate::stats::regression::{Clustered, clustered, clustered_interval};
use crate::stats::{Interval, RunSummary, Z95, pass_hat_k};
use crate::suite::Gates;
pub use mcplab_protocol::evals::{GateReport, GateResult, GateStatus};

/// Default `maxErrorRate`.
pub const DEFAULT_MAX_ERROR_RATE: f64 = 0.1;
/// Default `minSamples` for regression decisions.
pub const DEFAULT_MIN_SAMPLES: u32 = 10;

/// Evaluate `gates` on a run. `comparison` is the run against its baseline, if one was given;
/// `runner_problems` are the runner's own reasons the run is incomplete (servers unreachable…).
pub fn evaluate(
    gates: &Gates,
    summary: &RunSummary,
    comparison: Option<&Comparison>,
    runner_problems: &[String],
) -> GateReport {
    let mut results = Vec::new();
    if let Some(min) = gates.min_pass_rate {
        results.push(min_pass_rate(min, summary));
    }
    if let Some(g) = &gates.min_pass_hat_k {
        results.push(min_pass_hat_k(u64::from(g.k), g.min, summary));
    }
    if let Some(max) = gates.max_cost_usd {
        results.push(max_cost(max, summary));
    }
    if let Some(max) = gates.max_p95_latency_ms {
        results.push(max_p95(max, summary));
    }
    if let Some(min) = gates.min_pass_rate_lower_bound {
        results.push(min_pass_rate_lower_bound(min, summary));
    }
    if gates.no_regression == Some(true) {
        results.push(no_regression(comparison));
    }
    if gates.no_run_regression == Some(true) {
        results.push(no_run_regression(comparison));
    }
    // Always: each case's own pass threshold is a condition of the suite.
    if !summary.cells.is_empty() {
        results.push(case_thresholds(summary));
    }
    let invalid = validity(gates, summary, runner_problems);
    let exit_code = if !invalid.is_empty() {
        3
    } else if results.iter().any(|r| r.status == GateStatus::Fail) {
        1
    } else if results
        .iter()
        .any(|r| r.status == GateStatus::InsufficientData)
    {
        3
    } else {
        0
    };
    GateReport {
        gates: results,
        invalid,
        exit_code,
    }
}

fn result(gate: String, status: GateStatus, reason: String) -> GateResult {
    GateResult {
        gate,
        status,
        reason,
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

fn min_pass_rate(min: f64, s: &RunSummary) -> GateResult {
    let gate = format!("minPassRate {min}");
    match (s.pass_rate, s.interval) {
        (Some(rate), Some(i)) => {
            let status = if rate >= min {
                GateStatus::Pass
            } else {
                GateStatus::Fail
            };
            let reason = format!(
                "pass rate {} ({}/{}; 95% CI {}–{}) vs minimum {}",
                pct(rate),
                s.passes,
                s.completed,
                pct(i.low),
                pct(i.high),
                pct(min)
            );
            result(gate, status, reason)
        }
        _ => result(
            gate,
            GateStatus::InsufficientData,
            "no iteration completed".into(),
        ),
    }
}

/// The whole run's pass rate with each case's iterations as one cluster.
fn clustered_pass_rate(s: &RunSummary) -> Option<(Clustered, Interval)> {
    let mut by_case: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for c in &s.cells {
        let e = by_case.entry(c.case_id.as_str()).or_default();
        *e = (e.0 + c.passes, e.1 + c.n);
    }
    let clusters: Vec<(u64, u64)> = by_case.into_values().collect();
    let pooled = clustered(&clusters)?;
    Some((pooled, clustered_interval(&pooled, Z95)?))
}

fn min_pass_rate_lower_bound(min: f64, s: &RunSummary) -> GateResult {
    let gate = format!("minPassRateLowerBound {min}");
    let Some((pooled, i)) = clustered_pass_rate(s) else {
        return result(
            gate,
            GateStatus::InsufficientData,
            "no iteration completed".into(),
        );
    };
    let status = if i.low >= min {
        GateStatus::Pass
    } else {
        GateStatus::Fail
    };
    let reason = format!(
        "pass rate {} over {} iterations of {} case(s); 95% CI {}–{} with cases as clusters; \
         lower bound vs minimum {}",
        pct(pooled.rate),
        pooled.n,
        pooled.clusters,
        pct(i.low),
        pct(i.high),
        pct(min)
    );
    result(gate, status, reason)
}

fn min_pass_hat_k(k: u64, min: f64, s: &RunSummary) -> GateResult {
    let gate = format!("minPassHatK k={k} min={min}");
    let mut failing = Vec::new();
    let mut short = Vec::new();
    for c in &s.cells {
        match pass_hat_k(c.n, c.passes, k) {
            Some(v) if v < min => failing.push(format!(
                "{} on {}: pass^{k} {v:.3} ({}/{})",
                c.case_id, c.model, c.passes, c.n
            )),
            Some(_) => {}
            None => short.push(format!(
                "{} on {}: {} completed, need {k}",
                c.case_id, c.model, c.n
            )),
        }
    }
    if !failing.is_empty() {
        result(
            gate,
            GateStatus::Fail,
            format!("below {min}: {}", failing.join("; ")),
        )
    } else if !short.is_empty() || s.cells.is_empty() {
        result(
            gate,
            GateStatus::InsufficientData,
            format!("too few iterations: {}", short.join("; ")),
        )
    } else {
        result(
            gate,
            GateStatus::Pass,
            format!("every case × model has pass^{k} ≥ {min}"),
        )
    }
}

/// The run's whole cost against `max`: the judge's and simulated users' included.
fn max_cost(max: f64, s: &RunSummary) -> GateResult {
    let gate = format!("maxCostUsd {max}");
    let side: Vec<String> = [("judge", &s.judge), ("simulated user", &s.simulated_user)]
        .into_iter()
        .filter_map(|(who, u)| Some(format!("{who} ${:.4}", u.cost_usd?)).filter(|_| u.calls > 0))
        .collect();
    let of_which = if side.is_empty() {
        String::new()
    } else {
        format!(" (of which {})", side.join(", "))
    };
    match s.cost_usd {
        Some(cost) if cost <= max => result(
            gate,
            GateStatus::Pass,
            format!("cost ${cost:.4}{of_which} ≤ ${max}"),
        ),
        Some(cost) => result(
            gate,
            GateStatus::Fail,
            format!("cost ${cost:.4}{of_which} > ${max}"),
        ),
        None => result(
            gate,
            GateStatus::InsufficientData,
            format!(
                "{} iteration(s) used a model (under test, judge or simulated user) with no \
                 price: add it to the price table",
                s.unpriced
            ),
        ),
    }
}

fn max_p95(max: u64, s: &RunSummary) -> GateResult {
    let gate = format!("maxP95LatencyMs {max}");
    match s.latency.p95 {
        Some(p95) if p95 <= max as f64 => result(
            gate,
            GateStatus::Pass,
            format!("p95 latency {p95:.0} ms ≤ {max} ms"),
        ),
        Some(p95) => result(
            gate,
            GateStatus::Fail,
            format!("p95 latency {p95:.0} ms > {max} ms"),
        ),
        None => result(
            gate,
            GateStatus::InsufficientData,
            "no iteration completed".into(),
        ),
    }
}

/// Every case × model with completed iterations reaches its case's pass threshold (cells
/// without any are the validity check's business).
fn case_thresholds(s: &RunSummary) -> GateResult {
    let gate = "passThreshold".to_string();
    let failing: Vec<String> = s
        .cells
        .iter()
        .filter(|c| c.passed == Some(false))
        .map(|c| {
            format!(
                "{} on {}: {}/{} < {}",
                c.case_id,
                c.model,
                c.passes,
                c.n,
                pct(c.pass_threshold)
            )
        })
        .collect();
    if failing.is_empty() {
        result(
            gate,
            GateStatus::Pass,
            "every case × model reached its pass threshold".into(),
        )
    } else {
        result(
            gate,
            GateStatus::Fail,
            format!("under the case's pass threshold: {}", failing.join("; ")),
        )
    }
}

fn no_regression(comparison: Option<&Comparison>) -> GateResult {
    let gate = "noRegression".to_string();
    let Some(c) = comparison else {
        return result(
            gate,
            GateStatus::InsufficientData,
            "no baseline run to compare with: name one (e.g. --baseline RUN)".into(),
        );
    };
    let regressions = c.regressions();
    if !regressions.is_empty() {
        let list: Vec<String> = regressions
            .iter()
            .map(|r| {
                let i = r
                    .interval
                    .map(|i| {
                        format!(
                            " (95% CI {:+.1}–{:+.1} points)",
                            i.low * 100.0,
                            i.high * 100.0
                        )
                    })
                    .unwrap_or_default();
                let p = r
                    .adjusted_p
                    .map(|p| format!(", adjusted p = {p:.4}"))
                    .unwrap_or_default();
                format!(
                    "{} on {}: {:?} → {:?}{i}{p}",
                    r.case_id,
                    r.model,
                    r.base.unwrap_or_default(),
                    r.run.unwrap_or_default()
                )
            })
            .collect();
        return result(
            gate,
            GateStatus::Fail,
            format!(
                "significant regressions ({}): {}",
                method_of(c),
                list.join("; ")
            ),
        );
    }
    let undecided = c.undecided();
    if !undecided.is_empty() {
        let list: Vec<String> = undecided
            .iter()
            .map(|u| {
                format!(
                    "{} on {} (n = {} vs {})",
                    u.case_id,
                    u.model,
                    u.base.map_or(0, |b| b.1),
                    u.run.map_or(0, |r| r.1)
                )
            })
            .collect();
        return result(
            gate,
            GateStatus::InsufficientData,
            format!(
                "fewer than {} completed iterations on a side, so a regression cannot be ruled out: {}",
                c.min_samples,
                list.join("; ")
            ),
        );
    }
    result(
        gate,
        GateStatus::Pass,
        format!("no case × model got significantly worse ({})", method_of(c)),
    )
}

fn method_of(c: &Comparison) -> String {
    let tested = c.cells.iter().filter(|x| x.p_value.is_some()).count();
    format!("{}; {tested} cell(s) tested", c.method.describe())
}

fn no_run_regression(comparison: Option<&Comparison>) -> GateResult {
    let gate = "noRunRegression".to_string();
    let Some(c) = comparison else {
        return result(
            gate,
            GateStatus::InsufficientData,
            "no baseline run to compare with: name one (e.g. --baseline RUN)".into(),
        );
    };
    let Some(d) = c.whole_run else {
        return result(
            gate,
            GateStatus::InsufficientData,
            "no case completed on both sides".into(),
        );
    };
    let reason = format!(
        "pass rate {} → {} ({:+.1} points, 95% CI {:+.1}–{:+.1}, one-sided p = {:.4}; {} case(s) \
         as clusters; minimum drop {:.0} points)",
        pct(d.base_rate),
        pct(d.run_rate),
        d.difference * 100.0,
        d.interval.low * 100.0,
        d.interval.high * 100.0,
        d.p_value,
        d.clusters,
        c.method.min_effect * 100.0
    );
    let status = match d.significance {
        Significance::Worse => GateStatus::Fail,
        Significance::InsufficientData => GateStatus::InsufficientData,
        _ => GateStatus::Pass,
    };
    result(gate, status, reason)
}

fn validity(gates: &Gates, s: &RunSummary, runner_problems: &[String]) -> Vec<String> {
    let mut invalid: Vec<String> = runner_problems.to_vec();
    if s.finished < s.planned {
        invalid.push(format!(
            "{} of {} planned iterations finished",
            s.finished, s.planned
        ));
    }
    let max = gates.max_error_rate.unwrap_or(DEFAULT_MAX_ERROR_RATE);
    if let Some(rate) = s.error_rate.filter(|r| *r > max) {
        invalid.push(format!(
            "{} of {} iterations ended in an error ({}, over the allowed {})",
            s.errors,
            s.finished,
            pct(rate),
            pct(max)
        ));
    }
    if s.finished > 0 && s.completed == 0 {
        invalid.push("no iteration completed".into());
    }
    invalid
}

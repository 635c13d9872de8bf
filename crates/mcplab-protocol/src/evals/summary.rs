//! A run's statistics as the evals crate computes them: per case × model and for the whole
//! run (pass rates with their Wilson intervals, pass@k, pass^k, tokens, cost, latencies).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::record::SideUsage;

/// A confidence interval (of a pass rate, or of a difference of two).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
}

impl Interval {
    pub fn contains(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }
}

/// p50 and p95 of a latency, in milliseconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, TS)]
pub struct Latency {
    pub p50: Option<f64>,
    pub p95: Option<f64>,
}

/// One case on one model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CellSummary {
    pub case_id: String,
    pub model: String,
    /// Iterations that completed (passed or failed).
    pub n: u64,
    pub passes: u64,
    pub errors: u64,
    pub pass_rate: Option<f64>,
    /// 95 % Wilson score interval of the pass rate.
    pub interval: Option<Interval>,
    /// pass@k and pass^k for k = 1, 2, 3, 5, 10 (those ≤ n).
    pub pass_at_k: BTreeMap<u64, f64>,
    pub pass_hat_k: BTreeMap<u64, f64>,
    /// Passed and failed within this run.
    pub flaky: bool,
    /// Pass rate ≥ the case's threshold (`None` with no completed iteration).
    pub passed: Option<bool>,
    pub pass_threshold: f64,
    pub mean_tokens: Option<f64>,
    /// Total cost; `None` when any iteration's cost is unknown.
    pub cost_usd: Option<f64>,
    pub latency: Latency,
    pub llm: Latency,
    pub mcp: Latency,
    /// Per iteration in order: `true` pass, `false` fail, `None` error (the matrix's dots).
    pub dots: Vec<Option<bool>>,
}

/// The whole run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RunSummary {
    pub cells: Vec<CellSummary>,
    pub planned: u64,
    pub finished: u64,
    pub completed: u64,
    pub passes: u64,
    pub errors: u64,
    pub pass_rate: Option<f64>,
    pub interval: Option<Interval>,
    /// Errored iterations over finished ones.
    pub error_rate: Option<f64>,
    /// Tool calls: matched / (matched + unexpected).
    pub precision: Option<f64>,
    /// Tool calls: matched / (matched + missed).
    pub recall: Option<f64>,
    /// Tokens of the models under test (the judge's and simulated users' are apart).
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Total cost, the judge's and simulated users' included; `None` when some iteration's cost is unknown (see `unpriced`).
    pub cost_usd: Option<f64>,
    /// Iterations whose cost is unknown.
    pub unpriced: u64,
    /// What the judge spent over the run (tokens, cost; part of `cost_usd`).
    pub judge: SideUsage,
    /// What simulated users spent over the run (part of `cost_usd`).
    pub simulated_user: SideUsage,
    pub latency: Latency,
    pub llm: Latency,
    pub mcp: Latency,
    /// Cells that passed and failed within the run.
    pub flaky: Vec<(String, String)>,
}

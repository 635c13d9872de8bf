//! Judgements over whole runs: a run against a baseline per case × model, the gates' report
//! with the exit code, and how one iteration differs between two runs.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::record::Unit;
use super::summary::Interval;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum Change {
    Fixed,
    Regressed,
    StillFailing,
    StillPassing,
    New,
    Removed,
}

impl Change {
    pub fn label(self) -> &'static str {
        match self {
            Change::Fixed => "Fixed",
            Change::Regressed => "Regressed",
            Change::StillFailing => "Still failing",
            Change::StillPassing => "Still passing",
            Change::New => "New",
            Change::Removed => "Removed",
        }
    }
}

/// Whether the difference in pass rates is real.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum Significance {
    /// The interval excludes zero: the pass rate went up.
    Better,
    /// The interval excludes zero: the pass rate went down (a regression).
    Worse,
    /// Enough samples, and the interval contains zero.
    NoChange,
    /// Too few completed iterations on one side to decide.
    InsufficientData,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CellComparison {
    pub case_id: String,
    pub model: String,
    pub change: Change,
    /// `(passes, completed)` on each side.
    pub base: Option<(u64, u64)>,
    pub run: Option<(u64, u64)>,
    /// Run pass rate minus base pass rate.
    pub difference: Option<f64>,
    pub interval: Option<Interval>,
    /// `None` for New and Removed cells.
    pub significance: Option<Significance>,
    /// One-sided p-value of a drop (Fisher's exact test), before the correction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub p_value: Option<f64>,
    /// The p-value after the correction across the compared cells.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub adjusted_p: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    pub min_samples: u64,
    /// How a cell's drop was decided (runs stored before it existed read the defaults).
    #[serde(default)]
    pub method: RegressionMethod,
    pub cells: Vec<CellComparison>,
    /// The whole run against the base, the iterations of a case treated as one cluster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub whole_run: Option<RunDifference>,
}

/// How a regression is decided: a cell regressed when its drop is at least `minEffect` and
/// its one-sided p-value, corrected across the cells compared, is under `alpha`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RegressionMethod {
    pub correction: Correction,
    pub alpha: f64,
    pub min_effect: f64,
}

impl Default for RegressionMethod {
    fn default() -> Self {
        RegressionMethod {
            correction: Correction::Holm,
            alpha: 0.05,
            min_effect: 0.1,
        }
    }
}

impl RegressionMethod {
    /// The method in words, for gate reasons and reports.
    pub fn describe(&self) -> String {
        let corrected = match self.correction {
            Correction::Holm => "Holm-corrected across cells",
            Correction::BenjaminiHochberg => "Benjamini–Hochberg-corrected across cells",
            Correction::None => "not corrected for testing many cells",
        };
        format!(
            "Fisher's exact test, {corrected}, α = {}, minimum drop {:.0} points",
            self.alpha,
            self.min_effect * 100.0
        )
    }
}

/// The correction for testing many case × model cells at once.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Correction {
    /// Holm: the chance of any false alarm stays under α.
    #[default]
    Holm,
    /// Benjamini–Hochberg: the expected share of false alarms among flagged cells stays under α.
    BenjaminiHochberg,
    /// Each cell tested alone (with many cells, false alarms become likely).
    None,
}

/// The whole run's pass rate against the base's, cases as clusters (cluster-robust errors).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RunDifference {
    pub base_rate: f64,
    pub run_rate: f64,
    /// Run minus base.
    pub difference: f64,
    /// 95 % interval of the difference.
    pub interval: Interval,
    /// One-sided p-value of a drop.
    pub p_value: f64,
    /// Cases on both sides (the clusters).
    pub clusters: u64,
    pub significance: Significance,
}

impl Comparison {
    /// Cells whose pass rate dropped significantly.
    pub fn regressions(&self) -> Vec<&CellComparison> {
        self.cells
            .iter()
            .filter(|c| c.significance == Some(Significance::Worse))
            .collect()
    }
    /// Cells present on both sides that lack the samples to decide.
    pub fn undecided(&self) -> Vec<&CellComparison> {
        self.cells
            .iter()
            .filter(|c| c.significance == Some(Significance::InsufficientData))
            .collect()
    }
    pub fn count(&self, change: Change) -> usize {
        self.cells.iter().filter(|c| c.change == change).count()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum GateStatus {
    Pass,
    Fail,
    InsufficientData,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GateResult {
    /// The gate as written, e.g. `minPassRate 0.9`.
    pub gate: String,
    pub status: GateStatus,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GateReport {
    pub gates: Vec<GateResult>,
    /// Why the run cannot be judged (empty: it can).
    pub invalid: Vec<String>,
    /// 0 every gate holds, 1 a gate fails, 3 the run is invalid or a gate undecided.
    pub exit_code: i32,
}

/// How one iteration differs between two runs (e.g. a live run and its recording).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TraceDifference {
    #[serde(flatten)]
    pub unit: Unit,
    /// `passed`, `failed`, `errored`, or `None` when that run has no such iteration.
    pub base: Option<String>,
    pub run: Option<String>,
    pub differences: Vec<String>,
}

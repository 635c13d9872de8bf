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
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    pub min_samples: u64,
    pub cells: Vec<CellComparison>,
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

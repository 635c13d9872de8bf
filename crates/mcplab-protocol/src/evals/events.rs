//! The progress events of a run, one JSON object per line (`mcplab eval run --json`): started,
//! each iteration started and finished (with the running tally), warnings, finished (summary
//! and gates). The Evals page reads the same events, wrapped in [`EvalStreamEvent`].

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::compare::GateReport;
use super::record::{IterationRecord, Outcome, Shard, Unit};
use super::summary::RunSummary;
use super::verdict::Verdict;

/// The running tally after an iteration.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Progress {
    pub finished: u64,
    pub planned: u64,
    pub passed: u64,
    pub failed: u64,
    pub errored: u64,
}

impl Progress {
    /// Count one more finished iteration.
    pub fn record(&mut self, it: &IterationRecord) {
        self.finished += 1;
        match &it.outcome {
            Outcome::Passed => self.passed += 1,
            Outcome::Failed => self.failed += 1,
            Outcome::Errored { .. } => self.errored += 1,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum RunEvent {
    RunStarted {
        run_id: String,
        suite_id: String,
        suite_hash: String,
        planned: u64,
        models: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        shard: Option<Shard>,
    },
    IterationStarted {
        #[serde(flatten)]
        unit: Unit,
    },
    IterationFinished {
        #[serde(flatten)]
        record: IterationRecord,
        /// The expected-vs-actual detail (tool-call diffs, checks, judge), for live views.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        verdict: Option<Box<Verdict>>,
        progress: Progress,
    },
    /// Something the user should know that does not stop the run (a server reconnected…).
    Warning { message: String },
    RunFinished {
        run_id: String,
        summary: Box<RunSummary>,
        gates: GateReport,
    },
}

impl RunEvent {
    /// The event as one line of JSON (no newline inside; add your own at the end).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| {
            serde_json::json!({ "type": "warning", "message": format!("unserializable event: {e}") })
                .to_string()
        })
    }
}

/// One item of `GET /api/evals/runs/{id}/events` (`id:` = sequence; `resync` when the page
/// came back too late to replay what it missed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum EvalStreamEvent {
    Run {
        event: Box<RunEvent>,
    },
    /// The run ended (`finished` or `cancelled`) with the CLI's exit code for it.
    Ended {
        status: String,
        exit_code: i32,
    },
    /// The run could not start or stopped on an error.
    Failed {
        message: String,
    },
    Resync,
}

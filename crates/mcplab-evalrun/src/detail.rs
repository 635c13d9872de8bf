//! What the store keeps of one finished iteration besides its record: per turn the user's
//! message, its events and clocks; the trace and verdict the evals crate judged; the requests
//! each model step sent (provider-neutral, tool schemas left out); and, when recording, what a
//! replay plays back. Typed both ways: the runner writes this struct, `trace_view`, `history`
//! and `replay` read it back. Rows written before a field existed read with it empty.

use mcplab_evals::run::{IterationRecord, Unit};
use mcplab_evals::trace::Trace;
use mcplab_evals::verdict::Verdict;
use mcplab_protocol::chat::TurnEvent;
use mcplab_store::{EvalIterationRow, Store, StoreError};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::history::HistoryError;
use crate::replay::IterationRecording;

/// One turn as it ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StoredTurn {
    pub user: String,
    #[serde(default)]
    pub events: Vec<TurnEvent>,
    #[serde(default)]
    pub latency_ms: u64,
    #[serde(default)]
    pub llm_ms: u64,
    #[serde(default)]
    pub timed_out: bool,
}

/// An iteration's stored detail (an errored iteration that never ran keeps only its record).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct IterationDetail {
    pub record: IterationRecord,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turns: Vec<StoredTurn>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<Trace>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// Per model step, the request as sent (or only its size, past the budget).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requests: Vec<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recording: Option<IterationRecording>,
}

impl IterationDetail {
    /// The detail of an iteration that has nothing but its record.
    pub(crate) fn of_record(record: IterationRecord) -> IterationDetail {
        IterationDetail {
            record,
            turns: Vec::new(),
            trace: None,
            verdict: None,
            requests: Vec::new(),
            recording: None,
        }
    }
}

/// A stored iteration: its row's time and its detail.
pub(crate) struct StoredIteration {
    pub finished_ms: u64,
    pub detail: IterationDetail,
}

fn corrupt(run_id: &str, e: serde_json::Error) -> HistoryError {
    HistoryError::Corrupt(run_id.to_owned(), format!("an iteration: {e}"))
}

/// The row's detail typed (its record from the row when the detail has none).
pub(crate) fn of_row(row: EvalIterationRow) -> Result<StoredIteration, HistoryError> {
    let detail = match row.detail {
        Some(d) if !d.is_null() => {
            serde_json::from_value(d).map_err(|e| corrupt(&row.run_id, e))?
        }
        _ => IterationDetail::of_record(
            serde_json::from_value(row.record).map_err(|e| corrupt(&row.run_id, e))?,
        ),
    };
    Ok(StoredIteration {
        finished_ms: row.finished_ms,
        detail,
    })
}

/// The iteration `unit` of run `run_id`.
pub(crate) fn load(
    store: &Store,
    run_id: &str,
    unit: &Unit,
) -> Result<StoredIteration, HistoryError> {
    match store.eval_iteration(run_id, &unit.case_id, &unit.model, unit.iteration) {
        Ok(row) => of_row(row),
        Err(StoreError::NotFound(what)) => Err(HistoryError::NotFound(what)),
        Err(e) => Err(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn record() -> Value {
        json!({"caseId": "c", "model": "openai::m", "iteration": 0,
               "outcome": {"status": "errored", "reason": "down"},
               "failures": ["down"], "metrics": {"inputTokens": 0, "outputTokens": 0,
               "costUsd": null, "latencyMs": 0, "llmMs": 0, "mcpMs": 0, "steps": 0,
               "callsMatched": 0, "callsUnexpected": 0, "callsMissed": 0}})
    }

    fn row(detail: Option<Value>) -> EvalIterationRow {
        EvalIterationRow {
            run_id: "r".into(),
            case_id: "c".into(),
            model: "openai::m".into(),
            iteration: 0,
            outcome: "errored".into(),
            record: record(),
            detail,
            finished_ms: 7,
        }
    }

    /// Rows written before the detail was typed (with the `xray: null` placeholder, the old
    /// turn fields) read the same, and a row with no detail reads its record.
    #[test]
    fn details_written_before_the_types_still_read() {
        let old = json!({
            "record": record(),
            "turns": [{"user": "hi", "events": [], "latencyMs": 5, "llmMs": 4, "timedOut": false}],
            "trace": {"turns": [], "costUsd": null, "appRenders": []},
            "verdict": null,
            "requests": [{"omitted": true, "bytes": 9}],
            "recording": null,
            "xray": null,
        });
        let d = of_row(row(Some(old))).unwrap().detail;
        assert_eq!(d.turns[0].latency_ms, 5);
        assert_eq!(d.requests.len(), 1);
        assert!(d.verdict.is_none() && d.recording.is_none() && d.trace.is_some());
        let bare = of_row(row(None)).unwrap();
        assert_eq!(bare.finished_ms, 7);
        assert!(bare.detail.record.outcome.is_error() && bare.detail.turns.is_empty());
        let broken = of_row(row(Some(json!({"record": {"caseId": 3}}))));
        assert!(matches!(broken, Err(HistoryError::Corrupt(..))));
    }
}

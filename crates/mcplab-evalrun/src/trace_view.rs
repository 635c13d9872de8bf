//! One stored iteration as a person reads it: per turn the user's message, the turn's events
//! (what the chat's turn view folds: text, tool calls with arguments and results), the answer,
//! how it ended, tokens and clocks; then the verdict — every check with its reason, the tool
//! call matching with its differences, the judge — and the error of an errored iteration. It
//! reads the store only; the Evals page (`GET /api/evals/runs/{id}/iteration`) and `mcplab eval
//! show RUN --iteration N` show the same value. The exact model requests and the recording
//! stay out (they can be large and are not what a reader opens an iteration for).

use mcplab_evals::run::Unit;
use mcplab_store::{Store, StoreError};
use serde_json::{Value, json};

use crate::history::HistoryError;

/// The iteration `unit` of run `run_id`, as JSON (camelCase, see the module doc).
pub fn iteration_trace(store: &Store, run_id: &str, unit: &Unit) -> Result<Value, HistoryError> {
    let row = match store.eval_iteration(run_id, &unit.case_id, &unit.model, unit.iteration) {
        Ok(r) => r,
        Err(StoreError::NotFound(what)) => return Err(HistoryError::NotFound(what)),
        Err(e) => return Err(e.into()),
    };
    let detail = row.detail.unwrap_or(Value::Null);
    let traced = detail["trace"]["turns"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let ran = detail["turns"].as_array().cloned().unwrap_or_default();
    let turns: Vec<Value> = traced
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let run = ran.get(i).cloned().unwrap_or(Value::Null);
            let mut turn = t.clone();
            turn["events"] = run["events"].clone();
            turn["timedOut"] = run["timedOut"].clone();
            turn
        })
        .collect();
    let verdict = &detail["verdict"];
    Ok(json!({
        "runId": row.run_id,
        "caseId": row.case_id,
        "model": row.model,
        "iteration": row.iteration,
        "outcome": row.record["outcome"],
        "failures": row.record["failures"],
        "finishedMs": row.finished_ms,
        "turns": turns,
        "checks": verdict["checks"],
        "toolCalls": verdict["toolCalls"],
        "judge": verdict["judge"],
        "costUsd": detail["trace"]["costUsd"],
        "appRenders": detail["trace"]["appRenders"],
    }))
}

/// The unit a person names with `--iteration N` (1-based) and optionally the case and model,
/// among the run's planned units: exactly one must match.
pub fn pick_unit(
    planned: &[Unit],
    case: Option<&str>,
    model: Option<&str>,
    iteration: u32,
) -> Result<Unit, String> {
    if iteration == 0 {
        return Err("iterations are numbered from 1".into());
    }
    let matching: Vec<&Unit> = planned
        .iter()
        .filter(|u| u.iteration + 1 == iteration)
        .filter(|u| case.is_none_or(|c| u.case_id == c))
        .filter(|u| model.is_none_or(|m| u.model == m))
        .collect();
    match matching.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(format!(
            "the run has no iteration {iteration}{}{}: see `mcplab eval show RUN` for its cases \
             and models",
            case.map(|c| format!(" of case `{c}`")).unwrap_or_default(),
            model.map(|m| format!(" on `{m}`")).unwrap_or_default(),
        )),
        many => Err(format!(
            "iteration {iteration} is in several cells ({}): name one with --case and --model",
            many.iter()
                .map(|u| format!("{} on {}", u.case_id, u.model))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(c: &str, m: &str, i: u32) -> Unit {
        Unit {
            case_id: c.into(),
            model: m.into(),
            iteration: i,
        }
    }

    #[test]
    fn a_unit_is_named_by_its_number_and_as_much_of_its_cell_as_needed() {
        let planned = [
            unit("a", "x::1", 0),
            unit("a", "x::1", 1),
            unit("b", "x::1", 0),
        ];
        assert_eq!(pick_unit(&planned, None, None, 2), Ok(planned[1].clone()));
        assert!(
            pick_unit(&planned, None, None, 1)
                .unwrap_err()
                .contains("--case")
        );
        assert_eq!(
            pick_unit(&planned, Some("b"), None, 1),
            Ok(planned[2].clone())
        );
        assert!(
            pick_unit(&planned, Some("b"), None, 2)
                .unwrap_err()
                .contains("no iteration 2")
        );
        assert!(pick_unit(&planned, None, None, 0).is_err());
    }
}

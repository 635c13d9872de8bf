//! The comparison of turns that ran the same message under different HostConfigs (models,
//! prompts, tool filters): each turn folded from its events into a [`TurnSummary`], and which
//! calls differ from the first column's (another tool at that place, or other arguments). A
//! compared turn as an eval suite is `mcplab_evals::suite::compared_turn_suite`. Pure: the CLI
//! and the export read these figures; the web folds the same events its own way, and
//! `tests/vectors/compare_figures.json` pins both to the same answers.

use mcplab_protocol::chat::{StopReason, TurnEvent};
use mcplab_protocol::xray::{SummaryCall, TurnSummary};
use serde_json::Value;

/// One turn's figures, from its events in order (live deltas or stored merged ones alike).
pub fn summarize(model: &str, events: &[TurnEvent]) -> TurnSummary {
    let mut s = TurnSummary {
        model: model.to_owned(),
        calls: Vec::new(),
        steps: 0,
        input_tokens: 0,
        output_tokens: 0,
        tokens_estimated: false,
        cost_usd: None,
        ttft_ms: None,
        duration_ms: None,
        ended: "running".into(),
        failure: None,
        answer: String::new(),
    };
    let mut costs = Vec::new();
    let mut call_ids = Vec::new();
    let mut xray_steps = Vec::new();
    for event in events {
        // An event seen twice around a reload counts once; the first end is the turn's end.
        if s.ended != "running" && event.is_terminal() {
            continue;
        }
        match event {
            TurnEvent::TextDelta { text, .. } => s.answer.push_str(text),
            TurnEvent::ToolCall {
                call_id,
                server,
                tool,
                arguments,
                ..
            } if !call_ids.contains(call_id) => {
                call_ids.push(call_id.clone());
                s.calls.push(SummaryCall {
                    server: server.clone(),
                    tool: tool.clone(),
                    arguments: arguments.clone(),
                    is_error: None,
                });
            }
            TurnEvent::ToolResult {
                call_id, is_error, ..
            } => {
                if let Some(i) = call_ids.iter().position(|c| c == call_id) {
                    s.calls[i].is_error.get_or_insert(*is_error);
                }
            }
            TurnEvent::StepXray { xray, .. } if !xray_steps.contains(&xray.step) => {
                xray_steps.push(xray.step);
                s.steps = s.steps.max(xray.step);
                s.input_tokens += xray.tokens.input_tokens;
                s.output_tokens += xray.tokens.output_tokens;
                s.tokens_estimated |= xray.tokens.estimated;
                costs.push(xray.cost.as_ref().map(|c| c.usd));
            }
            TurnEvent::TurnTiming {
                duration_ms,
                ttft_ms,
                ..
            } => {
                s.duration_ms = Some(*duration_ms);
                s.ttft_ms = *ttft_ms;
            }
            TurnEvent::TurnFinished { reason, .. } => {
                s.ended = match reason {
                    StopReason::Completed => "completed",
                    StopReason::StepLimit => "stepLimit",
                    StopReason::MaxTokens => "maxTokens",
                }
                .into();
            }
            TurnEvent::TurnFailed { kind, message, .. } => {
                s.ended = "failed".into();
                s.failure = Some(format!("{kind}: {message}"));
            }
            TurnEvent::TurnCancelled { .. } => s.ended = "cancelled".into(),
            _ => {}
        }
    }
    // Priced only when every step was: a sum that leaves a step out would be a guess.
    s.cost_usd = costs
        .iter()
        .try_fold(0.0, |sum, c| c.map(|usd| sum + usd))
        .filter(|_| !costs.is_empty());
    s
}

/// For each column, for each of its calls: whether it differs from the first column's call
/// at the same place (another tool, other arguments, or no call there). The first column is
/// the reference: its own call is marked where any other column's call at that place differs
/// or is missing.
pub fn differing_calls(columns: &[TurnSummary]) -> Vec<Vec<bool>> {
    let Some(first) = columns.first() else {
        return Vec::new();
    };
    let same = |a: &SummaryCall, b: Option<&SummaryCall>| {
        b.is_some_and(|b| {
            a.server == b.server && a.tool == b.tool && same_json(&a.arguments, &b.arguments)
        })
    };
    let mut out: Vec<Vec<bool>> = columns
        .iter()
        .map(|c| {
            c.calls
                .iter()
                .enumerate()
                .map(|(i, call)| !same(call, first.calls.get(i)))
                .collect()
        })
        .collect();
    out[0] = first
        .calls
        .iter()
        .enumerate()
        .map(|(i, call)| columns[1..].iter().any(|c| !same(call, c.calls.get(i))))
        .collect();
    out
}

/// JSON equality as a reader sees it: object keys in any order, numbers by value (`1` is `1.0`).
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_json(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(id: &str, tool: &str, args: serde_json::Value) -> TurnEvent {
        TurnEvent::ToolCall {
            turn_id: "t".into(),
            call_id: id.into(),
            name: format!("demo__{tool}"),
            server: "demo".into(),
            tool: tool.into(),
            arguments: args,
        }
    }

    #[test]
    fn calls_that_differ_from_the_first_column_are_marked() {
        let a = summarize("a", &[call("1", "add", json!({"a": 2, "b": 3}))]);
        let b = summarize("b", &[call("1", "add", json!({"a": 2, "b": 4}))]);
        let c = summarize("c", &[call("1", "add", json!({"b": 3, "a": 2}))]);
        let d = summarize("d", &[]);
        assert_eq!(
            differing_calls(&[a.clone(), c.clone()]),
            vec![vec![false], vec![false]],
            "the same arguments in another key order are the same"
        );
        assert_eq!(
            differing_calls(&[a, b, c, d]),
            vec![vec![true], vec![true], vec![false], vec![]]
        );
    }

    /// `tests/vectors/compare_figures.json`, which the web's `xray.test.ts` reads too.
    #[test]
    fn figures_follow_the_shared_vectors() {
        let vectors: Value =
            serde_json::from_str(include_str!("../../tests/vectors/compare_figures.json")).unwrap();
        for case in vectors["summaries"].as_array().unwrap() {
            let events: Vec<TurnEvent> = serde_json::from_value(case["events"].clone()).unwrap();
            let model = case["summary"]["model"].as_str().unwrap();
            let got = serde_json::to_value(summarize(model, &events)).unwrap();
            assert_eq!(got, case["summary"], "{}", case["name"]);
        }
        for case in vectors["differing"].as_array().unwrap() {
            let columns: Vec<TurnSummary> = case["columns"]
                .as_array()
                .unwrap()
                .iter()
                .map(|calls| {
                    let events: Vec<TurnEvent> = calls
                        .as_array()
                        .unwrap()
                        .iter()
                        .enumerate()
                        .map(|(i, c)| TurnEvent::ToolCall {
                            turn_id: "t".into(),
                            call_id: format!("c{i}"),
                            name: String::new(),
                            server: c["server"].as_str().unwrap().into(),
                            tool: c["tool"].as_str().unwrap().into(),
                            arguments: c["arguments"].clone(),
                        })
                        .collect();
                    summarize("m", &events)
                })
                .collect();
            let want: Vec<Vec<bool>> = serde_json::from_value(case["differing"].clone()).unwrap();
            assert_eq!(differing_calls(&columns), want, "{}", case["name"]);
        }
    }

    #[test]
    fn a_turn_without_a_price_or_an_end_says_so() {
        let s = summarize(
            "m",
            &[call("1", "add", json!({})), call("1", "add", json!({}))],
        );
        assert_eq!(s.calls.len(), 1, "a repeated call is counted once");
        assert_eq!((s.ended.as_str(), s.cost_usd), ("running", None));
    }
}

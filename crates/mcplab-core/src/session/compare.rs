//! The comparison of turns that ran the same message under different HostConfigs (models,
//! prompts, tool filters): each turn folded from its events into a [`TurnSummary`], and which
//! calls differ from the first column's (another tool at that place, or other arguments); and a
//! compared turn as an eval suite (the first column's turns up to it as one case, run on every
//! compared model). Pure: the CLI, the web and the export read the same figures from the same
//! events.

use mcplab_evals::suite::case_from_turns;
use mcplab_protocol::chat::{StopReason, StoredTurn, TurnEvent};
use mcplab_protocol::host::HostConfig;
use mcplab_protocol::xray::{SummaryCall, TurnSummary};

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
    for event in events {
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
                    s.calls[i].is_error = Some(*is_error);
                }
            }
            TurnEvent::StepXray { xray, .. } => {
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
/// the reference: its own calls differ only where another column has none.
pub fn differing_calls(columns: &[TurnSummary]) -> Vec<Vec<bool>> {
    let Some(first) = columns.first() else {
        return Vec::new();
    };
    let same = |a: &SummaryCall, b: Option<&SummaryCall>| {
        b.is_some_and(|b| a.server == b.server && a.tool == b.tool && a.arguments == b.arguments)
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

/// A suite file (JSON, which the suite loader reads like YAML) with `turns` (the first
/// column's, up to the compared one) as one case run on every compared model, under the first
/// column's HostConfig; `None` without turns. `name` becomes the suite id (sanitised).
pub fn eval_suite(
    name: &str,
    title: &str,
    host: &HostConfig,
    turns: &[StoredTurn],
    models: &[String],
) -> Option<String> {
    if turns.is_empty() {
        return None;
    }
    let id: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_.-".contains(c) {
                c
            } else {
                '-'
            }
        })
        .take(120)
        .collect();
    let case = case_from_turns("compared-turn", Some(title), turns);
    let suite = serde_json::json!({
        "version": 1,
        "id": format!("compare-{id}"),
        "title": title,
        "servers": host.servers.keys().collect::<Vec<_>>(),
        "host": host,
        "models": models,
        "cases": [case],
    });
    serde_json::to_string_pretty(&suite).ok()
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

    #[test]
    fn a_turn_without_a_price_or_an_end_says_so() {
        let s = summarize(
            "m",
            &[call("1", "add", json!({})), call("1", "add", json!({}))],
        );
        assert_eq!(s.calls.len(), 1, "a repeated call is counted once");
        assert_eq!((s.ended.as_str(), s.cost_usd), ("running", None));
    }

    #[test]
    fn a_compared_turn_becomes_a_suite_the_loader_accepts() {
        let host = HostConfig {
            servers: [("demo".to_owned(), Default::default())].into(),
            ..HostConfig::default()
        };
        let turn = StoredTurn {
            turn_id: "t1".into(),
            user: "add 2 and 40".into(),
            events: vec![call("1", "add", json!({"a": 2, "b": 40}))],
        };
        let models = [
            "openai::gpt-4o-mini".to_owned(),
            "anthropic::claude-haiku-4-5".to_owned(),
        ];
        let text = eval_suite("s/1", "Add", &host, &[turn], &models).unwrap();
        let suite =
            mcplab_evals::suite::parse_suite(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
        assert_eq!(suite.models, models);
        assert_eq!(suite.id, "compare-s-1");
        assert_eq!(suite.cases.len(), 1);
        assert!(
            text.contains("add 2 and 40") && text.contains("\"b\": 40"),
            "{text}"
        );
        assert_eq!(eval_suite("s", "t", &host, &[], &models), None);
    }
}

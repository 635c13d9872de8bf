//! Model-free steps (`steps: - call: add  args: {…}  expect: […]`): the turn events one step's
//! call makes — a turn's shape (a tool call, its result, a finish with no tokens), so the
//! store keeps it and the run view shows it like a model's turn — and the answer its checks
//! read: the text of the result (or the error), so `answerContains` works on a step as on a
//! turn. The runner makes the call; judging is the verdict's, as for turns.

use mcplab_protocol::chat::{StopReason, TokenUsage, TurnEvent};
use serde_json::Value;

use crate::trace::{Trace, TurnTrace};

/// One step's call as it ran.
#[derive(Debug, Clone, PartialEq)]
pub struct StepCall {
    pub turn_id: String,
    pub call_id: String,
    pub server: String,
    pub tool: String,
    pub arguments: Value,
    /// The `CallToolResult`, or why there is none (an MCP error, a timeout).
    pub outcome: Result<Value, String>,
    pub duration_ms: u64,
}

/// The turn events of a step: started (no model), the call, its result, finished (no tokens).
pub fn step_events(call: StepCall) -> Vec<TurnEvent> {
    let (result, error) = match call.outcome {
        Ok(result) => (Some(result), None),
        Err(message) => (None, Some(message)),
    };
    let is_error = error.is_some()
        || result
            .as_ref()
            .is_some_and(|r| r["isError"].as_bool() == Some(true));
    vec![
        TurnEvent::TurnStarted {
            turn_id: call.turn_id.clone(),
            model: String::new(),
        },
        TurnEvent::ToolCall {
            turn_id: call.turn_id.clone(),
            call_id: call.call_id.clone(),
            name: format!("{}__{}", call.server, call.tool),
            server: call.server.clone(),
            tool: call.tool.clone(),
            arguments: call.arguments,
        },
        TurnEvent::ToolResult {
            turn_id: call.turn_id.clone(),
            call_id: call.call_id,
            server: call.server,
            tool: call.tool,
            duration_ms: call.duration_ms,
            is_error,
            result,
            error,
            requests: Vec::new(),
        },
        TurnEvent::TurnFinished {
            turn_id: call.turn_id,
            reason: StopReason::Completed,
            usage: TokenUsage::default(),
        },
    ]
}

/// Gives each step turn of `trace` its answer (its result's text) and the cost of no model:
/// zero, so a cost gate decides.
pub fn settle(trace: &mut Trace) {
    for turn in &mut trace.turns {
        turn.answer = answer(turn);
    }
    trace.cost_usd = Some(0.0);
}

/// The text a step's checks read: the result's text content joined by newlines (its
/// `structuredContent` as JSON when it has no text), or the error.
fn answer(turn: &TurnTrace) -> String {
    let Some(call) = turn.tool_calls.last() else {
        return String::new();
    };
    let Some(result) = &call.result else {
        return call.error.clone().unwrap_or_default();
    };
    let texts: Vec<&str> = result["content"]
        .as_array()
        .map(|parts| {
            parts
                .iter()
                .filter(|p| p["type"] == "text")
                .filter_map(|p| p["text"].as_str())
                .collect()
        })
        .unwrap_or_default();
    match (texts.is_empty(), result.get("structuredContent")) {
        (true, Some(s)) => s.to_string(),
        _ => texts.join("\n"),
    }
}

//! What one iteration did, as matching and checks need it: per turn the tool calls (server,
//! tool, arguments, result, error, duration), the final answer, how the turn ended, steps,
//! tokens, LLM vs MCP time; per iteration the cost and the app render reports. The runner
//! builds it from the turn events it recorded (`turn_from_events`) and its own clocks.

use mcplab_protocol::chat::{TokenUsage, TurnEvent};
pub use mcplab_protocol::evals::{AppRender, ToolCallTrace, Trace, TurnEnd, TurnTrace};

/// The runner's clocks for a turn (events carry no times).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TurnTiming {
    pub latency_ms: u64,
    pub llm_ms: u64,
}

/// Build a turn from its recorded events (text deltas joined; each call paired with its
/// result by call id; the terminal event decides the end and the usage).
pub fn turn_from_events(user: &str, events: &[TurnEvent], timing: TurnTiming) -> TurnTrace {
    let mut turn = TurnTrace {
        user: user.to_string(),
        tool_calls: Vec::new(),
        answer: String::new(),
        end: TurnEnd::Unfinished,
        steps: 0,
        usage: TokenUsage::default(),
        latency_ms: timing.latency_ms,
        llm_ms: timing.llm_ms,
        mcp_ms: 0,
    };
    let mut step_usage = TokenUsage::default();
    // The answer is the text after the last tool call: earlier text is narration.
    let mut text_since_call = String::new();
    for event in events {
        match event {
            TurnEvent::TextDelta { text, .. } => text_since_call.push_str(text),
            TurnEvent::ToolCall {
                call_id,
                server,
                tool,
                arguments,
                ..
            } => {
                text_since_call.clear();
                turn.tool_calls.push(ToolCallTrace {
                    call_id: call_id.clone(),
                    server: server.clone(),
                    tool: tool.clone(),
                    arguments: arguments.clone(),
                    result: None,
                    is_error: false,
                    error: None,
                    duration_ms: 0,
                });
            }
            TurnEvent::ToolResult {
                call_id,
                duration_ms,
                is_error,
                result,
                error,
                ..
            } => {
                turn.mcp_ms += duration_ms;
                if let Some(call) = turn
                    .tool_calls
                    .iter_mut()
                    .rev()
                    .find(|c| &c.call_id == call_id)
                {
                    call.result = result.clone();
                    call.is_error = *is_error || error.is_some();
                    call.error = error.clone();
                    call.duration_ms = *duration_ms;
                }
            }
            TurnEvent::TraceStep { step, usage, .. } => {
                turn.steps = turn.steps.max(*step);
                step_usage.add(usage);
            }
            TurnEvent::TurnFinished { reason, usage, .. } => {
                turn.end = TurnEnd::Finished { reason: *reason };
                turn.usage = usage.clone();
            }
            TurnEvent::TurnFailed {
                kind,
                message,
                usage,
                ..
            } => {
                turn.end = TurnEnd::Failed {
                    error_kind: *kind,
                    message: message.clone(),
                };
                turn.usage = usage.clone();
            }
            TurnEvent::TurnCancelled { usage, .. } => {
                turn.end = TurnEnd::Cancelled;
                turn.usage = usage.clone();
            }
            _ => {}
        }
    }
    if turn.end == TurnEnd::Unfinished {
        turn.usage = step_usage;
    }
    turn.answer = text_since_call;
    turn
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcplab_protocol::chat::StopReason;
    use serde_json::json;

    fn usage(i: u64, o: u64) -> TokenUsage {
        TokenUsage {
            input_tokens: i,
            output_tokens: o,
            reasoning_tokens: 0,
        }
    }

    #[test]
    fn events_become_a_turn() {
        let t = |s: &str| s.to_string();
        let events = vec![
            TurnEvent::TurnStarted {
                turn_id: t("1"),
                model: t("m"),
            },
            TurnEvent::TextDelta {
                turn_id: t("1"),
                text: t("Let me add. "),
            },
            TurnEvent::ToolCall {
                turn_id: t("1"),
                call_id: t("c1"),
                name: t("demo__add"),
                server: t("demo"),
                tool: t("add"),
                arguments: json!({"a": 2, "b": 40}),
            },
            TurnEvent::ToolResult {
                turn_id: t("1"),
                call_id: t("c1"),
                server: t("demo"),
                tool: t("add"),
                duration_ms: 7,
                is_error: false,
                result: Some(json!({"content": []})),
                error: None,
                requests: Vec::new(),
            },
            TurnEvent::TraceStep {
                turn_id: t("1"),
                step: 1,
                model: t("m"),
                finish_reason: t("tool_calls"),
                usage: usage(10, 5),
            },
            TurnEvent::TextDelta {
                turn_id: t("1"),
                text: t("The sum "),
            },
            TurnEvent::TextDelta {
                turn_id: t("1"),
                text: t("is 42."),
            },
            TurnEvent::TraceStep {
                turn_id: t("1"),
                step: 2,
                model: t("m"),
                finish_reason: t("stop"),
                usage: usage(20, 6),
            },
            TurnEvent::TurnFinished {
                turn_id: t("1"),
                reason: StopReason::Completed,
                usage: usage(30, 11),
            },
        ];
        let turn = turn_from_events(
            "add",
            &events,
            TurnTiming {
                latency_ms: 100,
                llm_ms: 90,
            },
        );
        assert_eq!(turn.answer, "The sum is 42.");
        assert_eq!(turn.steps, 2);
        assert_eq!(turn.usage, usage(30, 11));
        assert_eq!(turn.mcp_ms, 7);
        assert_eq!(turn.tool_calls.len(), 1);
        assert_eq!(turn.tool_calls[0].result, Some(json!({"content": []})));
        assert_eq!(
            turn.end,
            TurnEnd::Finished {
                reason: StopReason::Completed
            }
        );
    }

    #[test]
    fn a_cut_recording_is_unfinished_with_step_usage() {
        let events = vec![TurnEvent::TraceStep {
            turn_id: "1".into(),
            step: 1,
            model: "m".into(),
            finish_reason: "stop".into(),
            usage: usage(3, 4),
        }];
        let turn = turn_from_events("x", &events, TurnTiming::default());
        assert_eq!(turn.end, TurnEnd::Unfinished);
        assert_eq!(turn.usage, usage(3, 4));
    }
}

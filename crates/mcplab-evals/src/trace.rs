//! What one iteration did, as matching and checks need it: per turn the tool calls (server,
//! tool, arguments, result, error, duration), the final answer, how the turn ended, steps,
//! tokens, LLM vs MCP time; per iteration the cost and the app render reports. The runner
//! builds it from the turn events it recorded (`TurnTrace::from_events`) and its own clocks.

use mcplab_protocol::chat::{StopReason, TokenUsage, TurnEvent, TurnFailureKind};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One iteration of one case on one model.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Trace {
    pub turns: Vec<TurnTrace>,
    /// Cost in US dollars, when the model has a price (`prices::PriceTable::cost`).
    pub cost_usd: Option<f64>,
    /// What the headless renderer saw for tool calls with a UI.
    #[serde(default)]
    pub app_renders: Vec<AppRender>,
}

/// One user turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnTrace {
    pub user: String,
    pub tool_calls: Vec<ToolCallTrace>,
    /// The model's final text for the turn.
    pub answer: String,
    pub end: TurnEnd,
    /// Model steps taken.
    pub steps: u32,
    pub usage: TokenUsage,
    /// Wall time of the turn.
    pub latency_ms: u64,
    /// Time spent waiting on the model.
    pub llm_ms: u64,
    /// Time spent in tool calls (summed; calls may overlap).
    pub mcp_ms: u64,
}

/// One tool call and its result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallTrace {
    pub call_id: String,
    pub server: String,
    pub tool: String,
    pub arguments: Value,
    /// The server's `CallToolResult`, when there is one.
    pub result: Option<Value>,
    pub is_error: bool,
    /// Why there is no result (MCP error, timeout, cancelled, unknown tool).
    pub error: Option<String>,
    pub duration_ms: u64,
}

/// How a turn ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum TurnEnd {
    Finished {
        reason: StopReason,
    },
    Failed {
        error_kind: TurnFailureKind,
        message: String,
    },
    Cancelled,
    /// The per-iteration deadline passed.
    TimedOut,
    /// No terminal event was recorded (the recording is cut short).
    Unfinished,
}

/// The headless renderer's report for one tool call's app.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AppRender {
    pub call_id: String,
    pub server: String,
    pub tool: String,
    pub initialized: bool,
    #[serde(default)]
    pub csp_violations: Vec<String>,
    #[serde(default)]
    pub errors: Vec<String>,
}

/// The runner's clocks for a turn (events carry no times).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TurnTiming {
    pub latency_ms: u64,
    pub llm_ms: u64,
}

impl TurnTrace {
    /// Build a turn from its recorded events (text deltas joined; each call paired with its
    /// result by call id; the terminal event decides the end and the usage).
    pub fn from_events(user: &str, events: &[TurnEvent], timing: TurnTiming) -> TurnTrace {
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
}

impl Trace {
    /// Every tool call of every turn, in order.
    pub fn tool_calls(&self) -> impl Iterator<Item = &ToolCallTrace> {
        self.turns.iter().flat_map(|t| t.tool_calls.iter())
    }
    /// The last turn's answer.
    pub fn answer(&self) -> &str {
        self.turns.last().map_or("", |t| t.answer.as_str())
    }
    pub fn usage(&self) -> TokenUsage {
        let mut total = TokenUsage::default();
        for t in &self.turns {
            total.add(&t.usage);
        }
        total
    }
    pub fn latency_ms(&self) -> u64 {
        self.turns.iter().map(|t| t.latency_ms).sum()
    }
    pub fn llm_ms(&self) -> u64 {
        self.turns.iter().map(|t| t.llm_ms).sum()
    }
    pub fn mcp_ms(&self) -> u64 {
        self.turns.iter().map(|t| t.mcp_ms).sum()
    }
    pub fn steps(&self) -> u32 {
        self.turns.iter().map(|t| t.steps).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        let turn = TurnTrace::from_events(
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
        let turn = TurnTrace::from_events("x", &events, TurnTiming::default());
        assert_eq!(turn.end, TurnEnd::Unfinished);
        assert_eq!(turn.usage, usage(3, 4));
    }
}

//! The chat turn event vocabulary. The agent loop emits these into an `EventSink`; the
//! terminal printer, `--json` (JSON Lines), the browser's event stream and test recorders all
//! consume the same type, so they cannot disagree about what happened.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// Token counts of a step or a turn.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct TokenUsage {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub reasoning_tokens: u64,
}

impl TokenUsage {
    pub fn add(&mut self, other: &TokenUsage) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
        self.reasoning_tokens += other.reasoning_tokens;
    }
}

/// Why a finished turn stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub enum StopReason {
    /// The model answered without calling more tools.
    Completed,
    /// The step limit was reached while the model still wanted to call tools.
    StepLimit,
    /// The model hit its output token limit.
    MaxTokens,
}

/// One event of a chat turn. Every turn ends in exactly one of `turnFinished`, `turnFailed`,
/// `turnCancelled`; every `toolCall` is followed by exactly one `toolResult` with its id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum TurnEvent {
    TurnStarted {
        turn_id: String,
        model: String,
    },
    TextDelta {
        turn_id: String,
        text: String,
    },
    ReasoningDelta {
        turn_id: String,
        text: String,
    },
    /// The model called a tool; `name` is the model-facing name, `server`/`tool` the MCP ones.
    ToolCall {
        turn_id: String,
        call_id: String,
        name: String,
        server: String,
        tool: String,
        #[ts(type = "any")]
        arguments: Value,
    },
    /// A tool call ended: `result` is the server's exact `CallToolResult`, or `error` says why
    /// there is none (MCP error, timeout, cancelled, unknown tool).
    ToolResult {
        turn_id: String,
        call_id: String,
        server: String,
        tool: String,
        duration_ms: u64,
        is_error: bool,
        #[ts(type = "any")]
        result: Option<Value>,
        error: Option<String>,
    },
    /// One model step finished.
    TraceStep {
        turn_id: String,
        step: u32,
        model: String,
        finish_reason: String,
        usage: TokenUsage,
    },
    TurnFinished {
        turn_id: String,
        reason: StopReason,
        usage: TokenUsage,
    },
    TurnFailed {
        turn_id: String,
        /// `auth`, `rate_limit`, `context_length`, `network`, `server`, `bad_response`,
        /// `truncated`, `not_configured`, `internal`.
        kind: String,
        message: String,
        usage: TokenUsage,
    },
    TurnCancelled {
        turn_id: String,
        usage: TokenUsage,
    },
}

impl TurnEvent {
    /// Whether this event ends its turn.
    pub fn is_terminal(&self) -> bool {
        matches!(
            self,
            TurnEvent::TurnFinished { .. }
                | TurnEvent::TurnFailed { .. }
                | TurnEvent::TurnCancelled { .. }
        )
    }
}

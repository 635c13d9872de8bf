//! What one iteration did, as matching and checks need it: per turn the tool calls (server,
//! tool, arguments, result, error, duration), the final answer, how the turn ended, steps,
//! tokens, LLM vs MCP time; per iteration the cost and the app render reports.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::chat::{StopReason, TokenUsage, TurnFailureKind};

/// One iteration of one case on one model.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Trace {
    pub turns: Vec<TurnTrace>,
    /// Cost in US dollars, when the model has a price.
    pub cost_usd: Option<f64>,
    /// What the headless renderer saw for tool calls with a UI.
    #[serde(default)]
    pub app_renders: Vec<AppRender>,
}

/// One user turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AppRender {
    pub call_id: String,
    pub server: String,
    pub tool: String,
    pub initialized: bool,
    /// Milliseconds from the render page's start until the app sent
    /// `ui/notifications/initialized`; `None` when it never did (or the run predates it).
    #[serde(default)]
    pub ready_ms: Option<u64>,
    #[serde(default)]
    pub csp_violations: Vec<String>,
    /// What broke the render: the app's uncaught exceptions and unhandled rejections, the
    /// render page's own errors, a failed tool call or render.
    #[serde(default)]
    pub errors: Vec<String>,
    /// What the app logged with `console.error` (first line of each); not in `errors`.
    #[serde(default)]
    pub console_errors: Vec<String>,
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

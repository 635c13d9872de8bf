//! The x-ray of a model step: every HTTP exchange with the provider exactly as it went over
//! the wire (captured between the provider library and the network, never rebuilt from our
//! own request), secrets masked, each side cut at a byte cap and marked when cut; plus the
//! step's timing and token accounting (the provider's figures, or an estimate said to be one,
//! and how much of the prompt the tool definitions take).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// One HTTP request to the model provider and its response (a step has more than one when a
/// failed attempt was retried).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HttpExchange {
    /// 1 for the first attempt of the step, 2 for its first retry, …
    pub attempt: u32,
    pub method: String,
    /// The provider URL (secret query parameters masked).
    pub url: String,
    /// As sent, in order; `Authorization`, API-key and cookie values masked.
    pub request_headers: Vec<(String, String)>,
    /// The body exactly as sent (UTF-8; a cut body ends where the cap fell).
    pub request_body: String,
    /// The whole body's size in bytes, also when `requestBody` was cut.
    pub request_bytes: u64,
    pub request_truncated: bool,
    /// The size of the body's `tools` value (the tool definitions as the provider got them),
    /// measured on the whole body; 0 without tools.
    pub tool_definition_bytes: u64,
    /// `None` when no response arrived (see `error`).
    pub status: Option<u16>,
    pub response_headers: Vec<(String, String)>,
    /// The body as received (a streamed response: every event, in order), decompressed.
    pub response_body: String,
    /// Bytes received so far (the whole body once the step ended).
    pub response_bytes: u64,
    pub response_truncated: bool,
    /// Why the exchange broke off (connection refused, reset, …).
    pub error: Option<String>,
    /// From sending the request to the end of the response (or the break).
    pub duration_ms: u64,
    /// The two bodies were left out of this copy (a session's view carries none, to stay
    /// small): fetch the step's x-ray (`GET /api/sessions/{id}/turns/{turnId}/xray/{step}`)
    /// for them. Absent (false) when the bodies are here.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub bodies_omitted: bool,
}

/// The token accounting of one step.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StepTokens {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub reasoning_tokens: u64,
    /// Of `inputTokens`, those the provider read from its prompt cache (priced at the table's
    /// `cachedInput`).
    #[serde(default)]
    #[ts(as = "Option<u64>", optional)]
    pub cached_input_tokens: u64,
    /// Of `inputTokens`, those the provider wrote to its prompt cache (Anthropic; priced at the
    /// table's `cacheWrite`, no price without one).
    #[serde(default)]
    #[ts(as = "Option<u64>", optional)]
    pub cache_write_tokens: u64,
    /// The provider reported no usage: these are estimates (about 4 bytes a token, from the
    /// captured request and the streamed answer).
    pub estimated: bool,
    /// How many tools were offered.
    pub tool_count: u32,
    /// The size of the tool definitions in the request body as sent (the `tools` array).
    pub tool_definition_bytes: u64,
    /// The request body's size.
    pub request_bytes: u64,
    /// The tool definitions' share of the input tokens (an estimate by their share of the
    /// request body's bytes).
    pub tool_definition_tokens: u64,
}

/// What one step cost, in US dollars, by the price table entry named by `source` and `date`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StepCost {
    pub usd: f64,
    /// The tokens it was computed from were estimates (the provider reported no usage).
    pub estimated: bool,
    /// Where the price comes from (the provider's pricing page).
    pub source: String,
    /// When the price was read there (YYYY-MM-DD).
    pub date: String,
}

/// One model step seen from outside: what was sent, what came back, when, and what it cost in
/// tokens.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StepXray {
    pub step: u32,
    /// `provider::model`.
    pub model: String,
    /// When the step's request started, in ms after the turn started.
    pub started_ms: u64,
    /// From the request to the first streamed token (text, reasoning or tool call); `None`
    /// when nothing streamed.
    pub ttft_ms: Option<u64>,
    pub duration_ms: u64,
    pub tokens: StepTokens,
    /// What the step cost by the price table; `None` when the model has no price there ("no
    /// price": never a guess).
    pub cost: Option<StepCost>,
    /// Empty when the request never reached the network (e.g. cancelled before it left).
    pub exchanges: Vec<HttpExchange>,
}

/// One tool call as a turn summary shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SummaryCall {
    pub server: String,
    pub tool: String,
    #[ts(type = "unknown")]
    pub arguments: serde_json::Value,
    /// `None` while (or when) no result came.
    pub is_error: Option<bool>,
}

/// One turn of one model (a column of a comparison) in a few figures: what it called, in
/// which order and with what, how many steps and tokens, what it cost, how long it took and how
/// it ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TurnSummary {
    /// `provider::model`.
    pub model: String,
    pub calls: Vec<SummaryCall>,
    pub steps: u32,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Some step's tokens are estimates (its provider reported no usage).
    pub tokens_estimated: bool,
    /// The sum of the steps' costs; `None` ("no price") when a step's model has none.
    pub cost_usd: Option<f64>,
    pub ttft_ms: Option<u64>,
    pub duration_ms: Option<u64>,
    /// `completed`, `stepLimit`, `maxTokens`, `failed` (see `failure`), `cancelled`, or
    /// `running` when the turn has not ended.
    pub ended: String,
    pub failure: Option<String>,
    /// The answer text.
    pub answer: String,
}

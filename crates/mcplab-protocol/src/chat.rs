//! The chat turn event vocabulary. The agent loop emits these into an `EventSink`; the
//! terminal printer, `--json` (JSON Lines), the browser's event stream and test recorders all
//! consume the same type, so they cannot disagree about what happened.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::provider::ProviderKind;

/// Token counts of a step or a turn.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum StopReason {
    /// The model answered without calling more tools.
    Completed,
    /// The step limit was reached while the model still wanted to call tools.
    StepLimit,
    /// The model hit its output token limit.
    MaxTokens,
}

/// Why a turn failed (`turnFailed.kind`); the wire strings are snake_case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum TurnFailureKind {
    /// The provider refused the key.
    Auth,
    RateLimit,
    /// The conversation no longer fits the model's context window.
    ContextLength,
    Network,
    /// The provider answered with a server error.
    Server,
    /// The provider's answer could not be read.
    BadResponse,
    /// The stream ended before the model finished.
    Truncated,
    Cancelled,
    /// No usable provider or model for the request.
    NotConfigured,
    Internal,
}

impl TurnFailureKind {
    /// The wire string (`rate_limit`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Auth => "auth",
            Self::RateLimit => "rate_limit",
            Self::ContextLength => "context_length",
            Self::Network => "network",
            Self::Server => "server",
            Self::BadResponse => "bad_response",
            Self::Truncated => "truncated",
            Self::Cancelled => "cancelled",
            Self::NotConfigured => "not_configured",
            Self::Internal => "internal",
        }
    }
}

impl std::fmt::Display for TurnFailureKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One event of a chat turn. Every turn ends in exactly one of `turnFinished`, `turnFailed`,
/// `turnCancelled`; every `toolCall` is followed by exactly one `toolResult` with its id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
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
    /// The model is still streaming a tool call's arguments: `argumentsText` is the JSON text
    /// so far (possibly incomplete). Live only: never stored with the turn; at most one per
    /// call per distinct text, always before the call's `toolCall`.
    ToolInputPartial {
        turn_id: String,
        call_id: String,
        name: String,
        /// Empty when the name is not one of the offered tools.
        server: String,
        tool: String,
        arguments_text: String,
    },
    /// Approval is on: the call waits for the user to allow (possibly with edited arguments)
    /// or deny it. A `toolCall` with the final arguments follows either way.
    ApprovalRequested {
        turn_id: String,
        call_id: String,
        name: String,
        server: String,
        tool: String,
        #[ts(type = "any")]
        arguments: Value,
        timeout_ms: u64,
    },
    /// The user (or the timeout) decided.
    ApprovalResolved {
        turn_id: String,
        call_id: String,
        approved: bool,
    },
    /// The server asked a person something (elicitation or sampling) while the call ran; the
    /// request is answered through the host's human-request API.
    HumanRequested {
        turn_id: String,
        call_id: String,
        request: crate::HumanRequest,
    },
    /// That request was answered (or timed out).
    HumanResolved {
        turn_id: String,
        call_id: String,
        id: u64,
        outcome: crate::HumanOutcome,
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
        /// The JSON-RPC requests the call sent (empty when none was: denied, unknown tool;
        /// and in turns stored before they were recorded).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[ts(as = "Option<Vec<crate::RequestRef>>", optional)]
        requests: Vec<crate::RequestRef>,
    },
    /// A running tool call reported progress (`notifications/progress`, or the status of the
    /// task the call became: the turn waits on the task instead of a request timeout). Live only: never
    /// stored with the turn (its `toolResult` follows).
    ToolProgress {
        turn_id: String,
        call_id: String,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    },
    /// The host's tool limit (`toolCatalog.maxTools`) left these tools out of what the model
    /// gets this turn (model-facing names, in order). Right after `turnStarted`.
    ToolsLeftOut {
        turn_id: String,
        limit: u32,
        left_out: Vec<String>,
    },
    /// One model step finished.
    TraceStep {
        turn_id: String,
        step: u32,
        model: String,
        finish_reason: String,
        usage: TokenUsage,
    },
    /// What one model step sent and received at the HTTP layer (secrets masked), its timing
    /// and token accounting. One per step that reached the provider, after its `traceStep`
    /// (a step that failed has no `traceStep`: its x-ray comes before `turnFailed`).
    StepXray {
        turn_id: String,
        xray: crate::xray::StepXray,
    },
    /// How long the turn took (`durationMs`, from its start to its end) and when its first
    /// token arrived (`ttftMs`, `None` if none did). Right before the terminal event.
    TurnTiming {
        turn_id: String,
        duration_ms: u64,
        ttft_ms: Option<u64>,
    },
    TurnFinished {
        turn_id: String,
        reason: StopReason,
        usage: TokenUsage,
    },
    TurnFailed {
        turn_id: String,
        kind: TurnFailureKind,
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

/// How a chat session talks to the model: the older, smaller form of
/// [`crate::host::HostConfig`], still accepted when creating or changing a session (and still
/// reported in [`SessionSummary::settings`], derived from the HostConfig) so older clients keep
/// working.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChatSettings {
    /// `provider::model`.
    pub model: String,
    /// Servers whose tools the model gets.
    #[serde(default)]
    pub servers: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub system_prompt: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub temperature: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub max_tokens: Option<u32>,
    /// Most model steps per turn (default 10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub step_limit: Option<u32>,
    /// Every tool call waits for the user's approval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub require_approval: Option<bool>,
}

/// `POST /api/sessions/{id}/turns/{turnId}/approvals/{callId}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "decision",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum ApprovalDecision {
    /// Run the call, with `arguments` instead of the model's when given.
    Allow {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional, type = "any")]
        arguments: Option<Value>,
    },
    /// Do not run it; the model is told (with the reason, if any).
    Deny {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        reason: Option<String>,
    },
}

/// A session in the list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SessionSummary {
    pub id: String,
    pub title: String,
    pub created_ms: u64,
    pub updated_ms: u64,
    /// How the session's turns run.
    pub host_config: crate::host::HostConfig,
    /// SHA-256 (hex) of the HostConfig's canonical JSON.
    pub host_hash: String,
    /// The HostConfig in the older `ChatSettings` form (derived; kept for older clients).
    pub settings: ChatSettings,
    /// The compare this session is a column of (absent for a plain chat).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub compare: Option<CompareMember>,
}

/// A session's place in a compare: 2–4 sessions that got the same messages side by side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CompareMember {
    /// The compare group's id.
    pub group: String,
    /// The session's column, counted from 1.
    pub column: u32,
}

/// `POST /api/compares`: group existing sessions (none in a compare yet) as one compare.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct NewCompare {
    /// 2–4 session ids, first column first.
    pub sessions: Vec<String>,
}

/// A compare group: its sessions in column order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CompareGroup {
    pub id: String,
    pub sessions: Vec<String>,
}

/// A whole compare as one JSON export: every column's session, first column first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CompareExport {
    pub id: String,
    pub columns: Vec<SessionView>,
}

/// One user turn as stored: the user's text and every event of the turn (consecutive text and
/// reasoning deltas merged), in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StoredTurn {
    pub turn_id: String,
    pub user: String,
    pub events: Vec<TurnEvent>,
}

/// A whole session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SessionView {
    pub summary: SessionSummary,
    pub turns: Vec<StoredTurn>,
    /// The turn running now, if any.
    pub running_turn: Option<String>,
    /// What the running turn has produced so far (events merged).
    pub live_turn: Option<StoredTurn>,
    /// The session stream's sequence number this view includes: open the stream with
    /// `?lastEventId=` this value to continue exactly after it.
    pub last_event_id: u64,
    /// What apps gave the model (sorted by key); sent with every following turn. Always
    /// present on the wire; optional in TypeScript so older fixtures still type-check.
    #[serde(default)]
    #[ts(as = "Option<Vec<AppContextEntry>>", optional)]
    pub app_context: Vec<AppContextEntry>,
}

/// Where an app's context came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum AppContextSource {
    /// MCP Apps `ui/update-model-context`.
    ModelContext,
    /// OpenAI Apps SDK `setWidgetState`.
    WidgetState,
}

/// `PUT /api/sessions/{id}/app-context/{key}`: what one app wants the model to know.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AppContextInput {
    pub server: String,
    pub tool: String,
    /// The tool call whose result the app renders.
    pub call_id: String,
    pub source: AppContextSource,
    /// MCP content blocks (only text blocks reach the model).
    #[serde(default = "empty_array")]
    #[ts(type = "any[]")]
    pub content: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "any")]
    pub structured_content: Option<Value>,
}

/// One app's context in a session (the latest write for its key).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AppContextEntry {
    pub key: String,
    pub server: String,
    pub tool: String,
    pub call_id: String,
    pub source: AppContextSource,
    #[serde(default = "empty_array")]
    #[ts(type = "any[]")]
    pub content: Value,
    #[ts(type = "any")]
    pub structured_content: Option<Value>,
    pub updated_at_ms: u64,
}

fn empty_array() -> Value {
    Value::Array(Vec::new())
}

/// `POST /api/sessions`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct NewSession {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub title: Option<String>,
    /// Any keys left out take their defaults.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Partial<HostConfig>")]
    pub host_config: Option<crate::host::HostConfig>,
    /// The older form; used only when `hostConfig` is absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub settings: Option<ChatSettings>,
}

/// `PATCH /api/sessions/{id}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SessionPatch {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub title: Option<String>,
    /// Replaces the whole HostConfig (keys left out take their defaults).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub host_config: Option<crate::host::HostConfig>,
    /// The older form: changes the keys it has in the current HostConfig.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub settings: Option<ChatSettings>,
}

/// `POST /api/sessions/{id}/turns`: idempotent on `turnId` (client-generated).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TurnRequest {
    pub turn_id: String,
    pub message: String,
    /// Retry: this turn replaces the session's last turn (which failed or was stopped). The
    /// model does not see the replaced turn, and the new one takes its place when stored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub replaces: Option<String>,
}

/// One event on `GET /api/sessions/{id}/events` (SSE, `id:` = sequence, `Last-Event-ID`
/// replays; `resync` means reload the session).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum SessionEvent {
    /// A turn was accepted (its user message); `replaces` names the turn it retries, which
    /// leaves the conversation.
    UserMessage {
        turn_id: String,
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        replaces: Option<String>,
    },
    Turn {
        event: TurnEvent,
    },
    /// The session's app context changed; `entries` is all of it now (sorted by key).
    AppContext {
        entries: Vec<AppContextEntry>,
    },
    Resync,
}

/// A provider as the model picker sees it (keys never leave the server in full).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProviderView {
    pub id: String,
    pub kind: ProviderKind,
    pub display_name: String,
    pub usable: bool,
    /// Why it is not usable, and what to do.
    pub reason: Option<String>,
    pub base_url: Option<String>,
    /// e.g. `…abcd`.
    pub key_hint: Option<String>,
    pub models: Vec<String>,
    /// Added by the user (custom endpoint), as opposed to built in.
    pub custom: bool,
}

/// `PUT /api/llm/providers/{id}`: add or change a provider (a key of `null` keeps the stored one,
/// unless the base URL changed: then the key must be entered again).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProviderInput {
    pub kind: ProviderKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub base_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub api_key: Option<String>,
    #[serde(default)]
    pub models: Vec<String>,
}

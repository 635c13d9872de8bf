//! Bodies of the local HTTP API (`/api/...`), shared by the server and the web UI. Routes:
//!
//! | method | path | body → reply |
//! |---|---|---|
//! | GET | `/api/servers` | → `ServerView[]` |
//! | POST | `/api/servers` | `ServerConfig` → `ServerView` (add; 409 if the name exists) |
//! | PUT | `/api/servers/{name}` | `ServerConfig` → `ServerView` (replace; rename by a new `name`) |
//! | DELETE | `/api/servers/{name}` | → 204 (disconnects first) |
//! | GET | `/api/servers/{name}` | → `ServerView` |
//! | POST | `/api/servers/import` | `ImportRequest` → `ImportResult` |
//! | GET | `/api/servers/export` | → `mcpServers` JSON document |
//! | POST | `/api/servers/{name}/connect`, `/disconnect`, `/reconnect` | → `ServerView` |
//! | GET | `/api/servers/{name}/tools`, `/resources`, `/resource-templates`, `/prompts` | → the protocol result with every page merged (`{tools: [...]}` …) |
//! | POST | `/api/servers/{name}/tools/call` | `ToolCallRequest` → `CallOutcome` |
//! | POST | `/api/servers/{name}/calls/{callId}/cancel` | → 204 (sends `notifications/cancelled`) |
//! | POST | `/api/servers/{name}/resources/read` | `UriRequest` → `CallOutcome` |
//! | POST | `/api/servers/{name}/resources/subscribe`, `/unsubscribe` | `UriRequest` → `CallOutcome` |
//! | POST | `/api/servers/{name}/prompts/get` | `PromptGetRequest` → `CallOutcome` |
//! | POST | `/api/servers/{name}/complete` | `CompleteRequest` → `CallOutcome` |
//! | POST | `/api/servers/{name}/log-level` | `LogLevelRequest` → `CallOutcome` |
//! | POST | `/api/servers/{name}/ping` | → `CallOutcome` |
//! | GET | `/api/servers/{name}/traffic` | → `TrafficSnapshotView` |
//! | DELETE | `/api/servers/{name}/traffic` | → 204 |
//! | GET | `/api/human` | → `HumanRequest[]` (pending) |
//! | POST | `/api/human/{id}` | `HumanAnswer` → 204 (404 if no longer pending) |
//! | GET/PUT | `/api/settings/roots` | `RootView[]` |
//! | GET | `/api/prefs` | → `{ [key]: JSON }` |
//! | PUT | `/api/prefs/{key}` | JSON → 204 |
//! | GET | `/api/events` | SSE of `HostEvent`, `id:` = sequence; `Last-Event-ID` replays |
//! | GET | `/api/llm/providers` | → `ProviderView[]` (usable or why not, models) |
//! | PUT | `/api/llm/providers/{id}` | `ProviderInput` → `ProviderView[]` (all, updated; key stored server-side, 0600) |
//! | DELETE | `/api/llm/providers/{id}` | → 204 (custom providers; for built-ins: forget the stored key/URL) |
//! | GET | `/api/sessions` | → `SessionSummary[]` (newest first) |
//! | POST | `/api/sessions` | `NewSession` → `SessionView` |
//! | GET | `/api/sessions/{id}` | → `SessionView` (full history) |
//! | PATCH | `/api/sessions/{id}` | `SessionPatch` → `SessionSummary` (rename, settings) |
//! | DELETE | `/api/sessions/{id}` | → 204 |
//! | GET | `/api/sessions/{id}/export?format=json\|markdown` | → the session as a download |
//! | POST | `/api/sessions/{id}/turns` | `TurnRequest` → 202 (idempotent on `turnId`; 409 if another turn runs) |
//! | POST | `/api/sessions/{id}/turns/{turnId}/cancel` | → 204 |
//! | POST | `/api/sessions/{id}/turns/{turnId}/approvals/{callId}` | `ApprovalDecision` → 204 (404 if not waiting) |
//! | GET | `/api/sessions/{id}/events?lastEventId=N` | SSE of `SessionEvent`, `id:` = sequence; `Last-Event-ID` (or the query) replays |
//!
//! Errors are `ApiError` with a stable `code`. A failed MCP call is not an HTTP error: it is a
//! `CallOutcome` with `error` set, so the UI can show it beside the frames it caused.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::{HumanRequest, ServerConfig, ServerEvent, ServerStatus, TrafficFrame};

/// A configured server with what is known about it right now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct ServerView {
    pub config: ServerConfig,
    pub status: ServerStatus,
    /// The server's `initialize` result (protocolVersion, capabilities, serverInfo,
    /// instructions) while connected.
    #[ts(type = "any")]
    pub info: Option<Value>,
    /// The last lines the server wrote to stderr (stdio servers).
    pub stderr: Vec<String>,
}

/// Import servers from an `mcpServers` document (Claude Desktop, Cursor, VS Code shapes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct ImportRequest {
    /// The file's text.
    pub json: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct ImportResult {
    pub added: Vec<String>,
    pub replaced: Vec<String>,
}

/// `tools/call`. `callId` (client-chosen, unique per server) lets the UI cancel the call and
/// match its progress events.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallRequest {
    pub name: String,
    #[serde(default)]
    #[ts(type = "Record<string, any>")]
    pub arguments: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub call_id: Option<String>,
    /// Overrides the server's request timeout for this call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub timeout_ms: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct UriRequest {
    pub uri: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct PromptGetRequest {
    pub name: String,
    #[serde(default)]
    pub arguments: BTreeMap<String, String>,
}

/// `completion/complete`: `ref` is `{type: "ref/prompt", name}` or
/// `{type: "ref/resource", uri}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct CompleteRequest {
    #[serde(rename = "ref")]
    #[ts(
        rename = "ref",
        type = "{ type: \"ref/prompt\"; name: string } | { type: \"ref/resource\"; uri: string }"
    )]
    pub reference: Value,
    pub argument: CompleteArgument,
    /// Values of the other arguments already chosen.
    #[serde(default)]
    pub context: BTreeMap<String, String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct CompleteArgument {
    pub name: String,
    pub value: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct LogLevelRequest {
    /// debug, info, notice, warning, error, critical, alert or emergency.
    pub level: String,
}

/// The outcome of one MCP request made through the API.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct CallOutcome {
    /// The server's exact `result`, when it answered with one.
    #[ts(type = "any")]
    pub result: Option<Value>,
    pub error: Option<CallError>,
    pub duration_ms: u64,
}

/// Why an MCP request failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct CallError {
    /// `server` (JSON-RPC error), `timeout`, `cancelled`, `transport`, `not_connected`,
    /// `invalid`.
    pub kind: String,
    pub message: String,
    /// JSON-RPC error code for `server` errors.
    pub code: Option<i64>,
    #[ts(type = "any")]
    pub data: Option<Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct TrafficSnapshotView {
    pub frames: Vec<TrafficFrame>,
    /// Older frames evicted from the ring buffer.
    pub dropped: u64,
}

/// A root offered to servers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct RootView {
    pub uri: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub name: Option<String>,
}

/// One event on `/api/events`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum HostEvent {
    /// Something happened on a server (status, stderr, notifications, human requests).
    Server { event: ServerEvent },
    /// A JSON-RPC frame was recorded.
    Traffic { frame: TrafficFrame },
    /// The client reconnected too late to replay what it missed: reload state from the API.
    Resync,
}

/// Every API error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct ApiError {
    /// Stable machine code: `bad_request`, `not_found`, `conflict`, `unauthorized`,
    /// `forbidden`, `invalid_config`, `connect_failed`, `internal`.
    pub code: String,
    /// What happened and what to do, for people.
    pub message: String,
}

/// Pending human requests, for a page that loads after they were announced.
pub type PendingHuman = Vec<HumanRequest>;

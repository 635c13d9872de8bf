//! Bodies of the local HTTP API (`/api/...`), shared by the server and the web UI. Routes:
//!
//! | method | path | body → reply |
//! |---|---|---|
//! | GET | `/api/health` | → `ok` (plain text; behind the bearer like the other routes) |
//! | POST | `/api/session` | `SessionRequest` → `SessionGranted` (no bearer needed: the one-time login code is the credential; 401 `login_code_invalid` when it was used or expired) |
//! | POST | `/api/login-codes` | → `LoginCode` (a fresh one-time login code and its URL, for `mcplab open` and scripts) |
//! | GET | `/api/render-specs/{id}` | → `AppRenderSpec` (the spec a render registered; single use, 404 `not_found` afterwards or after 2 minutes) |
//! | GET | `/api/servers` | → `ServerView[]` |
//! | POST | `/api/servers` | `ServerConfig` → `ServerView` (add; 409 if the name exists; an `added` event) |
//! | PUT | `/api/servers/{name}` | `ServerConfig` → `ServerView` (replace: an `updated` event; rename by a new `name`: `removed` and `added`) |
//! | DELETE | `/api/servers/{name}` | → 204 (disconnects first, forgets its sign-ins; a `removed` event) |
//! | GET | `/api/servers/{name}` | → `ServerView` |
//! | POST | `/api/servers/import` | `ImportRequest` → `ImportResult` (JSONC accepted; entries that cannot be used are skipped with a warning; 400 only when nothing can be read; an `added` or `updated` event each) |
//! | PUT | `/api/server-order` | `ServerOrder` → 204 (the servers' order, every list's; the names must be exactly the configured servers, else 409 `order_mismatch` naming what differs and nothing changes; a `reordered` event. Not under `/api/servers/`, where `PUT order` would replace a server named `order`) |
//! | GET | `/api/servers/export` | → `mcpServers` JSON document (a server named `export` is read in the list; one named `import` or `export` is still replaced and deleted at its name) |
//! | POST | `/api/servers/{name}/connect` | optional `ConnectRequest` (connect declaring a host profile's revision and capabilities; `connectedAs` in the view names it; 404 for an unknown profile) → `ServerView` |
//! | POST | `/api/servers/{name}/disconnect`, `/reconnect` (keeps the declaration) | → `ServerView` |
//! | GET | `/api/servers/{name}/tools`, `/resources`, `/resource-templates`, `/prompts` | → the protocol result with every page merged (`{tools: [...]}` …); for a capability the server does not declare, an empty list and a `note` saying so |
//! | POST | `/api/servers/{name}/check` | `CheckRequest` → `CheckReport` (`mcplab check` on the connected server: its traffic so far is judged too; findings point at frames by `seq`) |
//! | GET | `/api/servers/{name}/tools/findings` | → `ToolFindings` (the spec and security rules about tool definitions — and the hosts set's per-tool verdicts when the server is connected as a host profile — over the tools the connection listed last — listed now if never; nothing called — grouped by tool, only tools with findings; the Tools page's marks) |
//! | POST | `/api/check/export` | `CheckExport` → `CheckExported` (a report as the CLI's `--junit`, `--sarif` or `--markdown` file) |
//! | POST | `/api/servers/{name}/tools/call` | `ToolCallRequest` → `CallOutcome` |
//! | POST | `/api/servers/{name}/calls/{callId}/cancel` | → 204 (sends `notifications/cancelled`) |
//! | GET | `/api/calls` | → `ToolCallView[]` (the Tools page's calls that run now, with their last progress, and those that ended in the last minutes, with their outcome: a reloaded page or another tab picks them up; a call goes on when the request that started it goes away) |
//! | GET | `/api/servers/{name}/calls/{callId}` | → `ToolCallView` once the call ended, or still running after 30 s (ask again); 404 `not_found` for a call not known (any more) |
//! | POST | `/api/servers/{name}/resources/read` | `UriRequest` → `CallOutcome` |
//! | POST | `/api/servers/{name}/resources/subscribe`, `/unsubscribe` | `UriRequest` → `CallOutcome` |
//! | POST | `/api/servers/{name}/prompts/get` | `PromptGetRequest` → `CallOutcome` |
//! | POST | `/api/servers/{name}/complete` | `CompleteRequest` → `CallOutcome` |
//! | POST | `/api/servers/{name}/log-level` | `LogLevelRequest` → `CallOutcome` |
//! | POST | `/api/servers/{name}/ping` | → `CallOutcome` |
//! | GET | `/api/servers/{name}/tasks` | → `TaskView[]` (tasks the process knows for the server, newest first; a 2025-11-25 server's `tasks/list` merged in) |
//! | POST | `/api/servers/{name}/tasks/{taskId}/refresh` | → `TaskView` (`tasks/get` now) |
//! | POST | `/api/servers/{name}/tasks/{taskId}/cancel` | → `CallOutcome` (`tasks/cancel`) |
//! | POST | `/api/servers/{name}/tasks/{taskId}/result` | → `CallOutcome` (the final result; 2025-11-25: `tasks/result`) |
//! | GET | `/api/servers/{name}/skills` | → the `skills/list` result with every page merged (reads no skill file) |
//! | POST | `/api/servers/{name}/skills/load` | `UriRequest` (a skill's `SKILL.md` uri or name) → `SkillLoadView` (every file read and checked against the manifest; `problem` says why it must not be used) |
//! | POST | `/api/servers/{name}/protocol` | `ProtocolSwitch` → `ServerView` (the config's protocol changed and the server reconnected) |
//!
//! The list routes take `?fresh=true` to bypass the 2026-07-28 cache (`ttlMs`); a merged list
//! carries the first page's `ttlMs`/`cacheScope` and, when a page came from the cache,
//! `"mcplab/cache": {ageMs, ttlMs}`. On a 2026-07-28 server `resources/subscribe` opens a
//! `subscriptions/listen` request for the uri and `unsubscribe` closes it; `log-level` sets the
//! level sent in every request's `_meta`.
//! | POST | `/api/servers/{name}/apps/resource` | `AppResourceRequest` → `AppResourceView` (a `ui://` resource read, decoded, with its sandbox CSP; 400 `not_a_ui_resource`, 502 `bad_ui_resource`) |
//! | POST | `/api/servers/{name}/apps/tools/call` | `AppToolCallRequest` → `CallOutcome` (a UI calls a tool of its own server; 404 `unknown_tool`, 403 `tool_not_visible_to_app` / `tool_not_widget_accessible`) |
//! | POST | `/api/apps/render` | `AppRenderSpec` → `AppRenderResult` (the app rendered in headless Chromium against this server: PNG of the app frame and the render page's report; one render at a time; 503 `renderer_unavailable` / `chromium_not_found` / `render_busy`, 504 `render_timeout`, 502 `render_failed`) |
//! | GET | `/api/servers/{name}/traffic` | → `TrafficSnapshotView` (frames over the preview size truncated, `fullBytes` set) |
//! | GET | `/api/servers/{name}/traffic/{seq}` | → `TrafficFrame`, whole (404 `frame_gone` once it left the ring) |
//! | DELETE | `/api/servers/{name}/traffic` | → 204 |
//! | GET | `/api/servers/{name}/oauth` | → `OAuthStatusView` (what is stored for an http/sse server, tokens masked; `pendingAuthorizationUrl` while a connection waits for the browser; the latest flow's steps) |
//! | DELETE | `/api/servers/{name}/oauth` | → 204 (sign out: tokens and client registration forgotten, the server disconnected) |
//! | POST | `/api/servers/{name}/oauth/authorize` | `OAuthAuthorizeRequest` (optional body; `force` forgets the tokens first) → `OAuthAuthorizeResult`: `authorizationUrl` (open it; the connection goes on after the redirect, status on `/api/events`), `connected` or `failed`; 400 `bad_request` for servers that do not use OAuth |
//! | POST | `/api/oauth/debug` | `OAuthDebugRequest` → 202 `OAuthDebugStarted` (a step-by-step flow for a URL; 400 `bad_request` for a non-http(s) URL) |
//! | GET | `/api/oauth/debug/{runId}` | → `OAuthDebugRun` (the run so far or finished; 404 `not_found`: the newest 20 runs are kept) |
//! | GET | `/api/oauth/debug/{runId}/events?lastEventId=N` | SSE of `OAuthDebugEvent`: every `step` in order, then one `finished` with the whole run; `id:` = sequence, `Last-Event-ID` (or the query) replays, `resync` when too late |
//! | POST | `/api/oauth/debug/{runId}/cancel` | → 204 (the run ends `cancelled`) |
//! | GET | `/api/taps` | → `TapSessionView[]` (every host session a running `mcplab tap` sent or an opened recording held; its frames are recorded under `key`, e.g. `tap:3`) |
//! | POST | `/api/taps` | `TapStart` → `TapRegistered` (a tap announces itself; scripts only, with the launch secret) |
//! | POST | `/api/taps/{id}/frames` | `TrafficFrame[]` (the tap's numbering; `server` = the host session) → 204, into the traffic log (404: register again) |
//! | POST | `/api/taps/{id}/end` | `TapEnd` → 204 |
//! | POST | `/api/taps/open` | `TapOpen`: a recording's text (JSON Lines, or the traffic panel's export; 64 MiB at most) → `TapOpened` (400 names the bad line) |
//! | GET | `/api/human` | → `HumanRequest[]` (pending) |
//! | POST | `/api/human/{id}` | `HumanAnswer` → 204 (404 if no longer pending) |
//! | GET/PUT | `/api/settings/roots` | `RootView[]` |
//! | GET/PUT | `/api/settings/otlp` | `OtlpSettingsInput` → `OtlpSettings` (export chat turns and eval iterations as OpenTelemetry spans to an OTLP/HTTP collector, or `null` to stop; 400 for a URL that is not http(s); 409 `fixed_by_flag` while `serve --otlp` set it) |
//! | GET | `/api/app-scenarios` | → `AppScenario[]` (newest first) |
//! | POST | `/api/app-scenarios` | `AppScenarioInput` → `AppScenario` (400 `bad_request` without a name, server or tool) |
//! | PUT | `/api/app-scenarios/{id}` | `AppScenarioInput` → `AppScenario` (404 if unknown) |
//! | DELETE | `/api/app-scenarios/{id}` | → 204 (404 if unknown) |
//! | GET | `/api/host` | → `HostInfo` (version, the app origin template `http://{label}.localhost:<port>`) |
//! | GET | `/api/prefs` | → `{ [key]: JSON }` |
//! | PUT | `/api/prefs/{key}` | JSON → 204 |
//! | GET | `/api/events` | SSE of `HostEvent`, `id:` = sequence; `Last-Event-ID` replays |
//! | GET | `/api/llm/providers` | → `ProviderView[]` (usable or why not, models) |
//! | PUT | `/api/llm/providers/{id}` | `ProviderInput` → `ProviderView[]` (all, updated; key stored server-side, 0600) |
//! | DELETE | `/api/llm/providers/{id}` | → 204 (custom providers; for built-ins: forget the stored key/URL) |
//! | GET | `/api/sessions` | → `SessionSummary[]` (newest first) |
//! | POST | `/api/sessions` | `NewSession` → `SessionView` |
//! | GET | `/api/sessions/{id}` | → `SessionView` (full history; x-ray exchanges without their bodies, marked `bodiesOmitted`) |
//! | GET | `/api/sessions/{id}/turns/{turnId}/xray/{step}` | → `StepXray` with its request and response bodies, as recorded (stored or running turn) |
//! | PATCH | `/api/sessions/{id}` | `SessionPatch` → `SessionSummary` (rename, HostConfig) |
//! | DELETE | `/api/sessions/{id}` | → 204 |
//! | GET | `/api/sessions/{id}/export?format=json\|markdown` | → the session as a download |
//! | POST | `/api/compares` | `NewCompare` → `CompareGroup` (2–4 sessions not yet in a compare, first column first; each summary's `compare` names it) |
//! | GET | `/api/compares/{id}` | → `CompareGroup` |
//! | GET | `/api/compares/{id}/export?format=json\|markdown` | → the whole compare as a download (JSON: `CompareExport`, every column's session) |
//! | GET | `/api/compare/eval-suite?sessions=ID,ID&turn=N` | → an eval suite file (JSON): the first column's turns up to N as one case, run on every column's model |
//! | POST | `/api/sessions/{id}/turns` | `TurnRequest` → 202 (idempotent on `turnId`; 409 if another turn runs; `replaces` retries the last turn) |
//! | POST | `/api/sessions/{id}/turns/{turnId}/cancel` | → 204 |
//! | POST | `/api/sessions/{id}/turns/{turnId}/approvals/{callId}` | `ApprovalDecision` → 204 (404 if not waiting) |
//! | GET | `/api/hosts` | → `HostProfile[]` (built-in host profiles, then the data directory's `hosts/*.json`; 400 names a malformed file and line) |
//! | GET | `/api/hosts/{name}?against=OTHER` | → `HostProfileView` (the profile and its field-by-field diff from `OTHER`, default `mcplab`; 404 for an unknown name) |
//! | POST | `/api/host-config/parse` | `HostConfigText` → `HostConfigView` (JSON or YAML, checked; canonical JSON and hash; 400 says what to fix) |
//! | PUT | `/api/sessions/{id}/app-context/{key}` | `AppContextInput` → 204 (an app's model context or widget state, given to the model from the next turn; last write wins) |
//! | DELETE | `/api/sessions/{id}/app-context/{key}` | → 204 (idempotent; 404 only if the session does not exist) |
//! | GET | `/api/sessions/{id}/events?lastEventId=N` | SSE of `SessionEvent`, `id:` = sequence; `Last-Event-ID` (or the query) replays |
//! | GET | `/api/evals/folder` | → `EvalFolder` (the suites folder, a server-side directory kept in prefs; `null` until chosen) |
//! | PUT | `/api/evals/folder` | `EvalFolderInput` → `EvalFolder` (an absolute path to an existing directory; 400 otherwise) |
//! | GET | `/api/evals/dirs?path=` | → `DirListing`: the directories directly inside `path` (absolute, or relative to the home; the home when absent) and its suite-file count, for the folder picker; 400 for anything outside the person's home (resolved: `..` and symlinks cannot leave it) |
//! | GET | `/api/evals/suites` | → `SuiteEntry[]`: the suite files directly in the folder, each with its id and title or why it does not load (400 until a folder is chosen) |
//! | GET | `/api/evals/suites/{name}` | → `SuiteFile` (`name`: a plain file name ending in .yaml, .yml or .json; no symlinks) |
//! | PUT | `/api/evals/suites/{name}` | `SuiteInput` → `SuiteSaved`; saved only if it loads (400 lists every problem; 1 MiB at most) |
//! | POST | `/api/evals/suites/{name}/cases` | `CaseInput` → `CaseAdded` (a saved chat session appended to the suite as a case: its user turns, its tool calls as expected calls; the rest of the file is kept) |
//! | POST | `/api/evals/suites/{name}/drafts` | `DraftCasesRequest` `{model, count?, servers?}` → `DraftedCases` `{name, caseIds}` (cases a model drafts from the connected servers' tools — all of them, or `servers` — appended to the suite, as `mcplab eval init --generate` writes them; 400 names a model, server or reply problem) |
//! | GET | `/api/evals/suites/{name}/launch` | → `LaunchCheck`: what a run of the suite would start and drive (approvals off), and whether the person agreed to that list before |
//! | POST | `/api/evals/runs` | `EvalRunRequest` → 202 `EvalRunStarted` (the suite's problems answer 400; a launch list not agreed to answers 409 `launch_unconfirmed` until `confirm` carries its hash, which is then remembered) |
//! | GET | `/api/evals/runs` | → `EvalRunItem[]`: stored runs, newest first |
//! | GET | `/api/evals/runs/{id}` | → `EvalRunView`: a stored run (`last` or a unique prefix too) with its iterations' records and statistics |
//! | GET | `/api/evals/runs/{id}/iteration?caseId=&model=&iteration=` | → `IterationView`: one iteration's trace (turns' events, tool calls, checks with reasons, tokens, clocks, error) |
//! | GET | `/api/evals/runs/{id}/events?lastEventId=N` | SSE of `EvalStreamEvent`: the run's events (runs started by this process), `id:` = sequence |
//! | POST | `/api/evals/prune` | `EvalPruneRequest` → `EvalPruneResult` (`mcplab eval runs prune`: the runs beyond the newest `keep` of each suite and/or started before `olderThan` (`30d`) are deleted and the space reclaimed; `dryRun` only lists them; 400 without a rule or with an age that does not read) |
//! | POST | `/api/evals/runs/{id}/cancel` | → 204 (no new iterations start; finished ones are kept) |
//! | GET | `/api/evals/compare?base=A&run=B` | → `EvalCompareView`: per case × model: fixed, regressed, still failing, still passing, new, removed, with the difference's interval |
//! | GET | `/api/evals/trend?suiteId=ID` | → `TrendPoint[]`: the suite's newest ended runs, oldest first, with each model's pass rate and 95 % Wilson interval |
//!
//! Every `/api` request but `POST /api/session` needs `Authorization: Bearer <secret>`: the
//! launch secret (scripts, from the data directory's `launch.json`) or a session secret from
//! `POST /api/session`. Cookies are never a credential. `GET /auth?code=…&next=…` serves the
//! page that exchanges a live login code (a refusal page when the code was used or expired).
//!
//! Outside `/api`, without the launch token: `GET /oauth/callback?code=…&state=…` (or
//! `error=…`) is mcplab's loopback redirect URI for OAuth sign-ins started by the web UI. It
//! accepts only the `state` of a pending sign-in (400 otherwise, used once) and redirects the
//! browser to `/#/servers/{name}` (a server's sign-in) or `/#/oauth/{runId}` (a debugger run).
//! An interactive debugger run records a `browser` step whose `data.authorizationUrl` the page
//! opens (a popup or a new tab); a server's connection that needs a sign-in publishes
//! `ServerEvent::AuthorizationRequired {server, url}` on `/api/events`.
//!
//! Errors are `ApiError` with a stable `code` (every code, and how MCP failures map to them, is
//! listed on `ApiError`). A failed MCP call is not an HTTP error: it is a `CallOutcome` with
//! `error` set, so the UI can show it beside the frames it caused; a call whose params are the
//! caller's mistake is (400 `invalid_params`: it caused no frame).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::host_conditions::HostConditions;
use crate::{HumanRequest, ServerConfig, ServerEvent, ServerStatus, TrafficFrame};

/// A configured server with what is known about it right now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
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
    /// The protocol era and revision in use while connected, and how they were chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub era: Option<crate::era::EraView>,
    /// The host profile whose declaration (revision and client capabilities) the server was
    /// connected with; absent: mcplab's own declaration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub connected_as: Option<String>,
}

/// `POST /api/servers/{name}/connect` (the body is optional: without it the server keeps the
/// declaration it had).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConnectRequest {
    /// Connect declaring this host profile's revision and client capabilities; `null`:
    /// mcplab's own declaration.
    pub host: Option<String>,
}

/// `POST /api/servers/{name}/protocol`: speak another revision (or `auto`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProtocolSwitch {
    pub protocol: crate::era::ProtocolChoice,
}

/// The order the user put the servers in: every configured server's name, each once.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ServerOrder {
    pub names: Vec<String>,
}

/// Import servers from an `mcpServers` document (Claude Desktop, Cursor, VS Code shapes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ImportRequest {
    /// The file's text.
    pub json: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ImportResult {
    pub added: Vec<String>,
    pub replaced: Vec<String>,
    /// What was skipped, renamed or cannot be honoured (`envFile`, `${…}`), one line each.
    #[serde(default)]
    pub warnings: Vec<String>,
}

/// `tools/call`. `callId` (client-chosen, unique per server) lets the UI cancel the call and
/// match its progress events.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
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
    /// Whether the call may become a task (default `auto`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub task: Option<crate::tasks::TaskMode>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UriRequest {
    pub uri: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PromptGetRequest {
    pub name: String,
    #[serde(default)]
    pub arguments: BTreeMap<String, String>,
}

/// `completion/complete`: `ref` is `{type: "ref/prompt", name}` or
/// `{type: "ref/resource", uri}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CompleteArgument {
    pub name: String,
    pub value: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LogLevelRequest {
    /// debug, info, notice, warning, error, critical, alert or emergency.
    pub level: String,
}

/// The outcome of one MCP request made through the API.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CallOutcome {
    /// The server's exact `result`, when it answered with one.
    #[ts(type = "any")]
    pub result: Option<Value>,
    pub error: Option<CallError>,
    pub duration_ms: u64,
    /// The JSON-RPC requests the call sent (tool calls only; empty otherwise), so its frames
    /// are found by id, never by arguments.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<crate::RequestRef>>", optional)]
    pub requests: Vec<crate::RequestRef>,
}

/// A tool call the Tools page started (`POST /api/servers/{name}/tools/call` with a `callId`),
/// as the server keeps it: while it runs and for a few minutes after it ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallView {
    pub server: String,
    pub call_id: String,
    pub tool: String,
    #[ts(type = "Record<string, any>")]
    pub arguments: Value,
    /// Milliseconds since the Unix epoch.
    pub started_at_ms: u64,
    /// The last progress the server reported.
    pub progress: Option<CallProgressView>,
    /// Set once the call ended.
    pub outcome: Option<CallOutcome>,
    /// The call ended, but its outcome was larger than what is kept for a page to pick up
    /// (its frames are in the traffic while they are recorded).
    pub outcome_dropped: bool,
    pub ended_at_ms: Option<u64>,
}

/// A `notifications/progress` of a running call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CallProgressView {
    pub progress: f64,
    pub total: Option<f64>,
    pub message: Option<String>,
}

/// The kind of a [`CallError`]; the wire strings are snake_case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum CallErrorKind {
    /// The server answered with a JSON-RPC error.
    Server,
    Timeout,
    Cancelled,
    Transport,
    NotConnected,
    /// The request (or the server's configuration) was invalid. Call routes answer these with
    /// HTTP 400 instead; the kind remains for outcomes built elsewhere.
    Invalid,
    /// The server's response was unparsable or over a byte limit.
    BadResponse,
    /// The server broke the protocol (a result of the wrong shape, a repeated cursor…).
    ServerMisbehaved,
    /// A failure mcplab has no category for.
    Other,
}

/// Why an MCP request failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CallError {
    pub kind: CallErrorKind,
    pub message: String,
    /// JSON-RPC error code for `server` errors.
    pub code: Option<i64>,
    #[ts(type = "any")]
    pub data: Option<Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TrafficSnapshotView {
    pub frames: Vec<TrafficFrame>,
    /// Older frames evicted from the ring buffer.
    pub dropped: u64,
}

/// A root offered to servers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RootView {
    pub uri: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub name: Option<String>,
}

/// `GET/PUT /api/settings/otlp`: where chat turns and eval iterations go as OpenTelemetry
/// spans (OTLP/HTTP), and how the export went since this process started.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OtlpSettings {
    /// The collector's OTLP/HTTP address (`/v1/traces` added); `None`: nothing is exported.
    pub endpoint: Option<String>,
    /// Given by `serve --otlp`: the page cannot change it.
    pub from_flag: bool,
    pub sent_spans: u64,
    /// Left out because the export queue was full.
    pub dropped_spans: u64,
    pub failed_batches: u64,
    /// Why the first failed batch failed.
    pub first_error: Option<String>,
}

/// `PUT /api/settings/otlp`: an http(s) address, or `null` to stop exporting.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OtlpSettingsInput {
    pub endpoint: Option<String>,
}

/// One event on `/api/events`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum HostEvent {
    /// Something happened on a server (status, stderr, notifications, human requests).
    Server { event: ServerEvent },
    /// A JSON-RPC frame was recorded.
    Traffic { frame: TrafficFrame },
    /// The client reconnected too late to replay what it missed: reload state from the API.
    Resync,
}

/// `POST /api/servers/{name}/apps/resource`: fetch a `ui://` resource to render.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AppResourceRequest {
    pub uri: String,
}

/// Which protocol a UI resource speaks, from its MIME type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub enum AppResourceKind {
    /// `text/html;profile=mcp-app` (or plain `text/html`).
    #[serde(rename = "mcpApp")]
    McpApp,
    /// `text/html+skybridge`.
    #[serde(rename = "openaiWidget")]
    OpenAiWidget,
    #[serde(rename = "unknown")]
    Unknown,
}

/// `GET /api/host`: about this mcplab process.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HostInfo {
    pub version: String,
    /// Where app HTML runs: `http://{label}.localhost:<port>`, where the UI puts a fresh random
    /// label (16–32 of `[a-z0-9]`) for every rendered app, so each app has an origin of its own
    /// on another site than the UI. Without `{label}` every app shares that one origin (mcplab
    /// bound to a non-loopback `--host`). `null` when no sandbox runs: no app can be shown.
    pub sandbox_origin_template: Option<String>,
    /// Whether each app gets its own origin (false: shared, weaker isolation).
    pub sandbox_per_app: bool,
}

/// `POST /api/session`: a one-time login code (from the URL mcplab printed or opened) and
/// where the page wants to go after signing in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SessionRequest {
    pub code: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub next: Option<String>,
}

/// The session secret for `Authorization: Bearer` (keep it in `sessionStorage`), and the path
/// on this origin to go to (`next` when it was a plain same-origin path, else `/`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SessionGranted {
    pub secret: String,
    pub next: String,
}

/// `POST /api/login-codes`: a fresh one-time login code and the URL that uses it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LoginCode {
    pub code: String,
    pub url: String,
    pub expires_in_secs: u64,
}

/// What to render headless (`mcplab apps render`, the playground's screenshot): call `tool`
/// on `server` with `arguments` and show its app under the emulated host `conditions` in a
/// `width`×`height` viewport. The server registers it under a single-use render id; the web
/// page `#/render/<id>` fetches it (`GET /api/render-specs/{id}`), does the work and publishes
/// `window.__mcplabRenderReport`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AppRenderSpec {
    pub server: String,
    pub tool: String,
    #[serde(default)]
    #[ts(type = "Record<string, unknown>")]
    pub arguments: Value,
    /// The emulated host the app renders in (keys left out take mcplab's own defaults).
    #[serde(default)]
    pub conditions: HostConditions,
    pub width: u32,
    pub height: u32,
    /// How long the app may take to initialize and get its result (default 20 s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub timeout_ms: Option<u64>,
    /// Render the app from its `ui://` resource without calling the tool (the app gets its
    /// input, no result; the render ends once it is ready): what `mcplab check --host` does
    /// unless `--call` names the tool.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub without_call: bool,
}

impl AppRenderSpec {
    /// A render of `tool`'s app in the viewport `conditions` set (its `width` × `maxHeight`,
    /// a desktop's where it leaves them open), with the default timeout.
    pub fn new(server: &str, tool: &str, arguments: Value, conditions: HostConditions) -> Self {
        let desktop = crate::host::DeviceKind::Desktop.preset();
        Self {
            server: server.to_owned(),
            tool: tool.to_owned(),
            arguments,
            width: conditions.width.unwrap_or(desktop.width),
            height: conditions.max_height.unwrap_or(desktop.height),
            conditions,
            timeout_ms: None,
            without_call: false,
        }
    }
}

/// `POST /api/apps/render`: the app frame as a PNG and the render page's report
/// (`initialized`, `error`, `appErrors`, `cspViolations`, `bridgeMessages`, `hostContext`,
/// `toolResult`, `toolError`, `durationMs`, plus `pageErrors` of the page around the app).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AppRenderResult {
    pub png_base64: String,
    #[ts(type = "any")]
    pub report: Value,
}

/// A saved app playground scenario: a tool input plus emulated host conditions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AppScenario {
    pub id: String,
    pub name: String,
    pub server: String,
    pub tool: String,
    #[ts(type = "Record<string, unknown>")]
    pub arguments: Value,
    /// The web's `HostConditions` (device, theme, locale…), kept as given.
    #[ts(type = "Record<string, unknown>")]
    pub conditions: Value,
    pub created_ms: u64,
    pub updated_ms: u64,
}

/// `POST /api/app-scenarios`, `PUT /api/app-scenarios/{id}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AppScenarioInput {
    pub name: String,
    pub server: String,
    pub tool: String,
    #[serde(default)]
    #[ts(type = "Record<string, unknown>")]
    pub arguments: Value,
    #[serde(default)]
    #[ts(type = "Record<string, unknown>")]
    pub conditions: Value,
}

/// A UI resource ready for the sandbox.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AppResourceView {
    pub uri: String,
    pub mime_type: Option<String>,
    pub kind: AppResourceKind,
    /// The HTML document (`text`, or the base64 `blob` decoded).
    pub html: String,
    /// `_meta.ui` of the content item merged over the `resources/list` entry's.
    #[ts(type = "any")]
    pub ui_meta: Value,
    /// The Content-Security-Policy the sandbox applies (for display).
    pub csp: String,
    /// The declared domains after sanitizing, or null when nothing was declared (restrictive
    /// default). Pass this object to the sandbox page, which rebuilds the CSP from it.
    #[ts(
        type = "{ connectDomains: string[]; resourceDomains: string[]; frameDomains: string[]; baseUriDomains: string[] } | null"
    )]
    pub declared_csp: Option<Value>,
    /// The inner iframe's `allow` attribute, possibly empty.
    pub allow: String,
    /// Declared CSP entries that were refused, with why.
    pub rejected: Vec<String>,
    pub prefers_border: Option<bool>,
    /// The content item's full `_meta`, or null.
    #[ts(type = "any")]
    pub content_meta: Value,
}

/// The kind of UI calling a tool through `/apps/tools/call`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub enum AppUiKind {
    #[serde(rename = "mcpApp")]
    McpApp,
    #[serde(rename = "openaiWidget")]
    OpenAiWidget,
    #[serde(rename = "mcpUi")]
    McpUi,
}

/// `POST /api/servers/{name}/apps/tools/call`: a rendered UI calls a tool of its own server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AppToolCallRequest {
    pub name: String,
    #[serde(default)]
    #[ts(type = "Record<string, any>")]
    pub arguments: Value,
    pub ui: AppUiKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub call_id: Option<String>,
}

/// Every API error.
///
/// An MCP failure gets the same status and code on every route (listings, tasks, skills, the
/// apps' resource read; `mcplab-server`'s `error::mcp_failure` is the one mapping). Call
/// routes answer a server-side failure with a `CallOutcome` whose `error.kind` is the third
/// column, and the caller's own mistakes with the HTTP error:
///
/// | status | code | what happened | `CallErrorKind` |
/// |---|---|---|---|
/// | 400 | `invalid_params` | the caller's params cannot form the request, or name what the server does not have (a skill, a subscription); nothing was sent | (HTTP 400) |
/// | 400 | `invalid_config` | the server config cannot work as written | (HTTP 400) |
/// | 409 | `not_connected` | the server is not connected | `not_connected` |
/// | 409 | `cancelled` | another request cancelled this one (a cancel route, a disconnect); 409, not nginx's 499, which no client reads | `cancelled` |
/// | 502 | `connect_failed` | the server could not be started or connected | `transport` |
/// | 502 | `connection_lost` | the connection broke while the request was in flight | `transport` |
/// | 502 | `server_error` | the server answered with a JSON-RPC error | `server` (with `code`, `data`) |
/// | 502 | `bad_response` | the server's response was unparsable or over a byte limit | `bad_response` |
/// | 502 | `server_misbehaved` | the server broke the protocol (a result of the wrong shape, a repeated cursor, over 1000 pages…); the message names it | `server_misbehaved` |
/// | 504 | `timeout` | no response within the request timeout (progress resets it) | `timeout` |
/// | 502 | `mcp_failed` | a failure mcplab has no category for | `other` |
///
/// The other codes: `bad_request`, `not_found`, `conflict`, `unauthorized`, `forbidden`,
/// `login_code_invalid`, `frame_gone`, `model_unavailable`, `internal`; for apps
/// `not_a_ui_resource`, `bad_ui_resource`, `unknown_tool`, `tool_not_visible_to_app`,
/// `tool_not_widget_accessible`; for renders `renderer_unavailable`, `chromium_not_found`,
/// `chromium_failed`, `render_busy`, `render_timeout`, `render_failed`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ApiError {
    /// Stable machine code (see the table above).
    pub code: String,
    /// What happened and what to do, for people.
    pub message: String,
}

/// Pending human requests, for a page that loads after they were announced.
pub type PendingHuman = Vec<HumanRequest>;

/// `POST /api/evals/suites/{name}/drafts`: which model drafts how many cases from which
/// connected servers' tools (all connected servers when `servers` is left out).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DraftCasesRequest {
    /// `provider::model`.
    pub model: String,
    /// How many cases to ask for: 1 to 20; 5 when left out.
    #[serde(default)]
    #[ts(optional)]
    pub count: Option<u32>,
    #[serde(default)]
    #[ts(optional)]
    pub servers: Option<Vec<String>>,
}

/// The cases drafted and appended to the suite `name`, by their ids in the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DraftedCases {
    pub name: String,
    pub case_ids: Vec<String>,
}

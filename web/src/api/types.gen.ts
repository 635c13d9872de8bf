// Generated from crates/mcplab-protocol by its `typescript` test. Do not edit:
// change the Rust types and run `UPDATE_TS=1 cargo test -p mcplab-protocol`.

export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null;

export type ServerConfig = { name: string, 
/**
 * Per-request timeout in milliseconds; progress notifications reset it.
 */
timeoutMs?: number | null, } & ({ "type": "stdio", command: string, args?: Array<string>, env?: { [key in string]: string }, cwd?: string | null, } | { "type": "http", url: string, headers?: { [key in string]: string }, } | { "type": "sse", url: string, headers?: { [key in string]: string }, });

export type ServerTransport = { "type": "stdio", command: string, args?: Array<string>, env?: { [key in string]: string }, cwd?: string | null, } | { "type": "http", url: string, headers?: { [key in string]: string }, } | { "type": "sse", url: string, headers?: { [key in string]: string }, };

export type ServerStatus = { "state": "connecting" } | { "state": "connected" } | { "state": "failed", message: string, } | { "state": "disconnected" };

export type HumanRequestKind = "elicitation" | "sampling";

export type HumanRequest = { 
/**
 * Broker key, unique within this mcplab process.
 */
id: number, server: string, kind: HumanRequestKind, 
/**
 * The request's params exactly as the server sent them.
 */
params: JsonValue, 
/**
 * When the request is answered with `cancel` automatically.
 */
timeoutMs: number, };

export type HumanAnswer = { "action": "accept", content: JsonValue, } | { "action": "decline", reason?: string | null, } | { "action": "cancel" };

export type ServerEvent = { "type": "status", server: string, status: ServerStatus, } | { "type": "stderr", server: string, line: string, } | { "type": "log", server: string, level: string, logger?: string | null, data: JsonValue, } | { "type": "progress", server: string, token: JsonValue, progress: number, total?: number | null, message?: string | null, } | { "type": "listChanged", server: string, list: string, } | { "type": "resourceUpdated", server: string, uri: string, } | { "type": "cancelled", server: string, requestId: JsonValue, reason?: string | null, } | { "type": "humanRequested", request: HumanRequest, } | { "type": "humanResolved", server: string, id: number, outcome: string, } | { "type": "rootsListed", server: string, count: number, };

export type Direction = "outbound" | "inbound";

export type FrameKind = { "kind": "message" } | { "kind": "unparsable", error: string, } | { "kind": "synthetic" } | { "kind": "note" };

export type TrafficFrame = { 
/**
 * Monotonic across all servers of one mcplab process.
 */
seq: number, server: string, 
/**
 * Milliseconds since the Unix epoch.
 */
tsMs: number, direction: Direction, 
/**
 * The exact text (invalid UTF-8 is replaced, and noted in `kind`).
 */
text: string, } & ({ "kind": "message" } | { "kind": "unparsable", error: string, } | { "kind": "synthetic" } | { "kind": "note" });

export type ServerView = { config: ServerConfig, status: ServerStatus, 
/**
 * The server's `initialize` result (protocolVersion, capabilities, serverInfo,
 * instructions) while connected.
 */
info: any, 
/**
 * The last lines the server wrote to stderr (stdio servers).
 */
stderr: Array<string>, };

export type ImportRequest = { 
/**
 * The file's text.
 */
json: string, };

export type ImportResult = { added: Array<string>, replaced: Array<string>, };

export type ToolCallRequest = { name: string, arguments: Record<string, any>, callId?: string, 
/**
 * Overrides the server's request timeout for this call.
 */
timeoutMs?: number, };

export type UriRequest = { uri: string, };

export type PromptGetRequest = { name: string, arguments: { [key in string]: string }, };

export type CompleteRequest = { ref: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string }, argument: CompleteArgument, 
/**
 * Values of the other arguments already chosen.
 */
context: { [key in string]: string }, };

export type CompleteArgument = { name: string, value: string, };

export type LogLevelRequest = { 
/**
 * debug, info, notice, warning, error, critical, alert or emergency.
 */
level: string, };

export type CallOutcome = { 
/**
 * The server's exact `result`, when it answered with one.
 */
result: any, error: CallError | null, durationMs: number, };

export type CallError = { 
/**
 * `server` (JSON-RPC error), `timeout`, `cancelled`, `transport`, `not_connected`,
 * `invalid`.
 */
kind: string, message: string, 
/**
 * JSON-RPC error code for `server` errors.
 */
code: number | null, data: any, };

export type TrafficSnapshotView = { frames: Array<TrafficFrame>, 
/**
 * Older frames evicted from the ring buffer.
 */
dropped: number, };

export type RootView = { uri: string, name?: string, };

export type HostEvent = { "kind": "server", event: ServerEvent, } | { "kind": "traffic", frame: TrafficFrame, } | { "kind": "resync" };

export type AppResourceRequest = { uri: string, };

export type AppResourceKind = "mcpApp" | "openaiWidget" | "unknown";

export type HostInfo = { version: string, 
/**
 * The sandbox origin app HTML runs in (`http://127.0.0.1:<port>`); `null` when no sandbox
 * listener runs, and then no app can be shown.
 */
sandboxOrigin: string | null, };

export type AppScenario = { id: string, name: string, server: string, tool: string, arguments: Record<string, unknown>, 
/**
 * The web's `HostConditions` (device, theme, locale…), kept as given.
 */
conditions: Record<string, unknown>, createdMs: number, updatedMs: number, };

export type AppScenarioInput = { name: string, server: string, tool: string, arguments: Record<string, unknown>, conditions: Record<string, unknown>, };

export type AppRenderSpec = { server: string, tool: string, arguments: Record<string, unknown>, 
/**
 * Emulated host conditions (the web's `HostConditions`; missing keys take defaults).
 */
conditions: Record<string, unknown>, width: number, height: number, 
/**
 * How long the app may take to initialize and get its result (default 20 s).
 */
timeoutMs?: number, };

export type AppResourceView = { uri: string, mimeType: string | null, kind: AppResourceKind, 
/**
 * The HTML document (`text`, or the base64 `blob` decoded).
 */
html: string, 
/**
 * `_meta.ui` of the content item merged over the `resources/list` entry's.
 */
uiMeta: any, 
/**
 * The Content-Security-Policy the sandbox applies (for display).
 */
csp: string, 
/**
 * The declared domains after sanitizing, or null when nothing was declared (restrictive
 * default). Pass this object to the sandbox page, which rebuilds the CSP from it.
 */
declaredCsp: { connectDomains: string[]; resourceDomains: string[]; frameDomains: string[]; baseUriDomains: string[] } | null, 
/**
 * The inner iframe's `allow` attribute, possibly empty.
 */
allow: string, 
/**
 * Declared CSP entries that were refused, with why.
 */
rejected: Array<string>, prefersBorder: boolean | null, 
/**
 * The content item's full `_meta`, or null.
 */
contentMeta: any, };

export type AppUiKind = "mcpApp" | "openaiWidget" | "mcpUi";

export type AppToolCallRequest = { name: string, arguments: Record<string, any>, ui: AppUiKind, callId?: string, };

export type ApiError = { 
/**
 * Stable machine code: `bad_request`, `not_found`, `conflict`, `unauthorized`,
 * `forbidden`, `invalid_config`, `connect_failed`, `not_connected`, `mcp_error`,
 * `model_unavailable`, `internal`; for apps `not_a_ui_resource`, `bad_ui_resource`,
 * `unknown_tool`, `tool_not_visible_to_app`, `tool_not_widget_accessible`.
 */
code: string, 
/**
 * What happened and what to do, for people.
 */
message: string, };

export type TokenUsage = { inputTokens: number, outputTokens: number, reasoningTokens: number, };

export type StopReason = "completed" | "stepLimit" | "maxTokens";

export type TurnEvent = { "type": "turnStarted", turnId: string, model: string, } | { "type": "textDelta", turnId: string, text: string, } | { "type": "reasoningDelta", turnId: string, text: string, } | { "type": "toolCall", turnId: string, callId: string, name: string, server: string, tool: string, arguments: any, } | { "type": "toolInputPartial", turnId: string, callId: string, name: string, 
/**
 * Empty when the name is not one of the offered tools.
 */
server: string, tool: string, argumentsText: string, } | { "type": "approvalRequested", turnId: string, callId: string, name: string, server: string, tool: string, arguments: any, timeoutMs: number, } | { "type": "approvalResolved", turnId: string, callId: string, approved: boolean, } | { "type": "humanRequested", turnId: string, callId: string, request: HumanRequest, } | { "type": "humanResolved", turnId: string, callId: string, id: number, outcome: string, } | { "type": "toolResult", turnId: string, callId: string, server: string, tool: string, durationMs: number, isError: boolean, result: any, error: string | null, } | { "type": "traceStep", turnId: string, step: number, model: string, finishReason: string, usage: TokenUsage, } | { "type": "turnFinished", turnId: string, reason: StopReason, usage: TokenUsage, } | { "type": "turnFailed", turnId: string, 
/**
 * `auth`, `rate_limit`, `context_length`, `network`, `server`, `bad_response`,
 * `truncated`, `not_configured`, `internal`.
 */
kind: string, message: string, usage: TokenUsage, } | { "type": "turnCancelled", turnId: string, usage: TokenUsage, };

export type ChatSettings = { 
/**
 * `provider::model`.
 */
model: string, 
/**
 * Servers whose tools the model gets.
 */
servers: Array<string>, systemPrompt?: string, temperature?: number, maxTokens?: number, 
/**
 * Most model steps per turn (default 10).
 */
stepLimit?: number, 
/**
 * Every tool call waits for the user's approval.
 */
requireApproval?: boolean, };

export type ApprovalDecision = { "decision": "allow", arguments?: any, } | { "decision": "deny", reason?: string, };

export type SessionSummary = { id: string, title: string, createdMs: number, updatedMs: number, settings: ChatSettings, };

export type StoredTurn = { turnId: string, user: string, events: Array<TurnEvent>, };

export type AppContextSource = "modelContext" | "widgetState";

export type AppContextInput = { server: string, tool: string, 
/**
 * The tool call whose result the app renders.
 */
callId: string, source: AppContextSource, 
/**
 * MCP content blocks (only text blocks reach the model).
 */
content: any[], structuredContent?: any, };

export type AppContextEntry = { key: string, server: string, tool: string, callId: string, source: AppContextSource, content: any[], structuredContent: any, updatedAtMs: number, };

export type SessionView = { summary: SessionSummary, turns: Array<StoredTurn>, 
/**
 * The turn running now, if any.
 */
runningTurn: string | null, 
/**
 * What the running turn has produced so far (events merged).
 */
liveTurn: StoredTurn | null, 
/**
 * The session stream's sequence number this view includes: open the stream with
 * `?lastEventId=` this value to continue exactly after it.
 */
lastEventId: number, 
/**
 * What apps gave the model (sorted by key); sent with every following turn. Always
 * present on the wire; optional in TypeScript so older fixtures still type-check.
 */
appContext?: Array<AppContextEntry>, };

export type NewSession = { title?: string, settings: ChatSettings, };

export type SessionPatch = { title?: string, settings?: ChatSettings, };

export type TurnRequest = { turnId: string, message: string, };

export type SessionEvent = { "kind": "userMessage", turnId: string, text: string, } | { "kind": "turn", event: TurnEvent, } | { "kind": "appContext", entries: Array<AppContextEntry>, } | { "kind": "resync" };

export type ProviderView = { id: string, kind: string, displayName: string, usable: boolean, 
/**
 * Why it is not usable, and what to do.
 */
reason: string | null, baseUrl: string | null, 
/**
 * e.g. `…abcd`.
 */
keyHint: string | null, models: Array<string>, 
/**
 * Added by the user (custom endpoint), as opposed to built in.
 */
custom: boolean, };

export type ProviderInput = { 
/**
 * openai, anthropic, gemini, deepseek, xai, mistral, openrouter, ollama,
 * openai_compatible, anthropic_compatible.
 */
kind: string, baseUrl?: string, apiKey?: string, models: Array<string>, };

// Generated from crates/mcplab-protocol by its `typescript` test. Do not edit:
// change the Rust types and run `UPDATE_TS=1 cargo test -p mcplab-protocol`.

export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null;

export type ServerConfig = { name: string, 
/**
 * Per-request timeout in milliseconds; progress notifications reset it.
 */
timeoutMs?: number | null, 
/**
 * stdio servers: start with mcplab's whole environment instead of the allow-list (PATH,
 * HOME, locale…). `MCPLAB_*` and `*_API_KEY` variables are withheld either way unless
 * `env` names them.
 */
inheritEnv?: boolean, 
/**
 * The protocol revision to speak; `auto` (the default) tries 2026-07-28 through
 * `server/discover` and falls back to the `initialize` handshake.
 */
protocol?: ProtocolChoice, } & ({ "type": "stdio", command: string, args?: Array<string>, env?: { [key in string]: string }, cwd?: string | null, } | { "type": "http", url: string, headers?: { [key in string]: string }, 
/**
 * OAuth settings; absent: discover and register when the server answers 401.
 */
oauth?: OAuthConfig | null, } | { "type": "sse", url: string, headers?: { [key in string]: string }, oauth?: OAuthConfig | null, });

export type ProtocolChoice = "auto" | "2026-07-28" | "2025-11-25" | "2025-06-18" | "2025-03-26";

export type Era = "modern" | "legacy";

export type EraView = { era: Era, 
/**
 * The revision every request uses (modern) or the handshake agreed on (legacy).
 */
revision: string, 
/**
 * What the config asked for.
 */
choice: ProtocolChoice, 
/**
 * One sentence on how the revision was chosen, e.g. "auto: server/discover answered" or
 * "auto: server/discover failed (-32601 Method not found); fell back to initialize".
 */
how: string, 
/**
 * The `server/discover` result exactly as the server sent it, when it answered.
 */
discovery?: any, 
/**
 * Revisions the server says it supports (`supportedVersions` of `server/discover`).
 */
supported?: Array<string>, 
/**
 * The other era's newest revision when the server is known to speak both, so the user
 * can switch and compare.
 */
alternative?: ProtocolChoice, };

export type ProtocolSwitch = { protocol: ProtocolChoice, };

export type ConnectRequest = { 
/**
 * Connect declaring this host profile's revision and client capabilities; `null`:
 * mcplab's own declaration.
 */
host: string | null, };

export type DraftCasesRequest = { 
/**
 * `provider::model`.
 */
model: string, 
/**
 * How many cases to ask for: 1 to 20; 5 when left out.
 */
count?: number, servers?: Array<string>, };

export type DraftedCases = { name: string, caseIds: Array<string>, };

export type TaskFlavor = "extension" | "experimental";

export type TaskMode = "auto" | "force" | "never";

export type TaskStatusEntry = { status: string, message?: string, 
/**
 * Milliseconds since the Unix epoch when mcplab saw it.
 */
atMs: number, 
/**
 * `create`, `poll`, `notification` or `cancel`: how mcplab learned it.
 */
source: string, };

export type TaskView = { server: string, taskId: string, flavor: TaskFlavor, 
/**
 * The tool whose call became this task, when mcplab started it.
 */
tool?: string, 
/**
 * `working`, `input_required`, `completed`, `failed` or `cancelled`.
 */
status: string, statusMessage?: string, createdAt?: string, lastUpdatedAt?: string, ttlMs?: number, pollIntervalMs?: number, 
/**
 * Every status mcplab saw, oldest first.
 */
history: Array<TaskStatusEntry>, 
/**
 * The final result (the original request's result) once `completed`.
 */
result?: any, 
/**
 * The JSON-RPC error once `failed`.
 */
error?: any, 
/**
 * Outstanding input requests while `input_required` (key → request).
 */
inputRequests?: any, };

export type SkillFileView = { uri: string, mimeType?: string, 
/**
 * Bytes received.
 */
size: number, 
/**
 * `sha256:…` of the bytes received.
 */
digest: string, 
/**
 * The bytes match the manifest's size and digest (false for `dynamic` skills, which
 * have no manifest to check against).
 */
verified: boolean, 
/**
 * The content when it is text.
 */
text?: string, };

export type SkillLoadView = { 
/**
 * The `skills/list` entry (uri, frontmatter, resources) exactly as the server sent it.
 */
entry: any, 
/**
 * The YAML frontmatter of `SKILL.md`, as JSON, once read.
 */
frontmatter?: any, files: Array<SkillFileView>, 
/**
 * Why the skill must not be used (digest, size or frontmatter mismatch); absent when
 * every file checked out.
 */
problem?: string, };

export type ServerTransport = { "type": "stdio", command: string, args?: Array<string>, env?: { [key in string]: string }, cwd?: string | null, } | { "type": "http", url: string, headers?: { [key in string]: string }, 
/**
 * OAuth settings; absent: discover and register when the server answers 401.
 */
oauth?: OAuthConfig | null, } | { "type": "sse", url: string, headers?: { [key in string]: string }, oauth?: OAuthConfig | null, };

export type OAuthConfig = { 
/**
 * A pre-registered client id (used instead of registering).
 */
clientId?: string, 
/**
 * The pre-registered client's secret, if it has one.
 */
clientSecret?: string, 
/**
 * An HTTPS URL serving this client's Client ID Metadata Document; used as the client id
 * when the authorization server supports it.
 */
clientMetadataUrl?: string, 
/**
 * Space-separated scopes to request instead of the ones the server asks for.
 */
scope?: string, 
/**
 * How to get a client id (default `auto`: pre-registered, else CIMD, else DCR).
 */
registration?: RegistrationMethod, 
/**
 * The protocol revision whose rules to follow (default: the latest, with the older
 * revisions' fallbacks).
 */
revision?: OAuthRevision, 
/**
 * The grant (default `authorizationCode`; `clientCredentials` is the SEP-1046 extension
 * for machine-to-machine clients).
 */
grant?: OAuthGrant, 
/**
 * A PKCS#8 PEM EC P-256 key for `private_key_jwt` client authentication (ES256).
 */
privateKeyPem?: string, 
/**
 * The enterprise identity provider of the `crossAppAccess` grant (SEP-990 extension).
 */
enterprise?: EnterpriseIdp, 
/**
 * The workload's JWT for the `workloadIdentity` grant (RFC 7523 assertion).
 */
assertion?: string, 
/**
 * Set to true to never run OAuth for this server (a 401 is then just an error).
 */
disabled?: boolean, };

export type EnterpriseIdp = { 
/**
 * The identity provider's token endpoint (RFC 8693 token exchange).
 */
tokenEndpoint: string, 
/**
 * This client's id at the identity provider.
 */
clientId?: string, clientSecret?: string, 
/**
 * The user's ID token from the identity provider (the subject of the exchange).
 */
idToken: string, };

export type OAuthRevision = "2025-03-26" | "2025-06-18" | "2025-11-25";

export type RegistrationMethod = "auto" | "cimd" | "dcr" | "pre";

export type OAuthGrant = "authorizationCode" | "clientCredentials" | "crossAppAccess" | "workloadIdentity";

export type OAuthParty = "client" | "mcpServer" | "authorizationServer" | "identityProvider" | "browser";

export type OAuthStepKind = "http" | "discovered" | "chose" | "browser" | "warning" | "failed" | "done";

export type OAuthPhase = "probe" | "resourceMetadata" | "authServerMetadata" | "registration" | "authorization" | "token" | "refresh" | "stepUp" | "verify";

export type OAuthHttpExchange = { method: string, url: string, requestHeaders: Array<[string, string]>, requestBody: string | null, 
/**
 * None when no response arrived (see `error`).
 */
status: number | null, responseHeaders: Array<[string, string]>, 
/**
 * The response body (text, at most 64 KiB).
 */
responseBody: string | null, 
/**
 * Why no response arrived (connection refused, timeout…).
 */
error: string | null, durationMs: number, };

export type OAuthStep = { 
/**
 * 1, 2, 3… within the flow.
 */
seq: number, 
/**
 * Unix time in milliseconds.
 */
atMs: number, kind: OAuthStepKind, phase: OAuthPhase, 
/**
 * One line: what happened.
 */
title: string, 
/**
 * More words: why, what it means.
 */
detail: string | null, 
/**
 * The arrow of the sequence diagram (`client` → `client` for the client's own notes).
 */
from: OAuthParty, to: OAuthParty, http: OAuthHttpExchange | null, 
/**
 * What was discovered or chosen, as JSON (secrets masked).
 */
data: any, 
/**
 * For failures and warnings: what to change, in plain words.
 */
fix: string | null, };

export type OAuthProbeTransport = "http" | "sse";

export type OAuthDebugRequest = { url: string, transport?: OAuthProbeTransport, 
/**
 * Rules to follow; absent: the latest revision with the older ones' fallbacks.
 */
revision?: OAuthRevision, registration?: RegistrationMethod, clientId?: string, clientSecret?: string, clientMetadataUrl?: string, 
/**
 * Space-separated scopes to request instead of the ones the server asks for.
 */
scope?: string, 
/**
 * True (default): the authorization URL is opened in this browser and the redirect comes
 * back to mcplab's `/oauth/callback`. False: mcplab fetches the authorization URL itself
 * and follows the redirect (for authorization servers that approve without a person).
 */
interactive: boolean, };

export type OAuthDebugStarted = { runId: string, };

export type OAuthRunState = "running" | "succeeded" | "failed" | "cancelled" | "notRequired";

export type OAuthTokenSummary = { tokenType: string, 
/**
 * Masked.
 */
accessToken: string, scope: string | null, expiresInSecs: number | null, hasRefreshToken: boolean, clientId: string, registration: RegistrationMethod, 
/**
 * The `resource` parameter sent (RFC 8707), if any.
 */
resource: string | null, issuer: string | null, };

export type OAuthFailure = { message: string, 
/**
 * What to change, in plain words.
 */
fix: string | null, };

export type OAuthDebugRun = { id: string, 
/**
 * The request, client secret masked.
 */
request: OAuthDebugRequest, state: OAuthRunState, steps: Array<OAuthStep>, result: OAuthTokenSummary | null, failure: OAuthFailure | null, startedMs: number, finishedMs: number | null, };

export type OAuthDebugEvent = { "kind": "step", step: OAuthStep, } | { "kind": "finished", run: OAuthDebugRun, } | { "kind": "resync" };

export type OAuthStatusView = { server: string, 
/**
 * False for stdio servers, servers with their own `Authorization` header, and servers
 * whose OAuth is disabled.
 */
applicable: boolean, url: string | null, 
/**
 * An access token is stored.
 */
signedIn: boolean, 
/**
 * Masked.
 */
accessToken: string | null, expiresAtMs: number | null, hasRefreshToken: boolean, scope: string | null, clientId: string | null, registration: RegistrationMethod | null, issuer: string | null, 
/**
 * A sign-in waiting for the browser: open this URL to continue it.
 */
pendingAuthorizationUrl: string | null, 
/**
 * The steps of the latest flow for this server since mcplab started (empty if none).
 */
lastSteps: Array<OAuthStep>, };

export type OAuthAuthorizeRequest = { 
/**
 * Forget the stored tokens first (the client registration is kept), so the user signs in
 * again.
 */
force?: boolean, };

export type OAuthAuthorizeResult = { "outcome": "authorizationUrl", url: string, } | { "outcome": "connected" } | { "outcome": "failed", message: string, };

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

export type HumanOutcome = "accept" | "decline" | "cancel" | "timeout";

export type ServerEvent = { "type": "status", server: string, status: ServerStatus, } | { "type": "added", server: string, } | { "type": "updated", server: string, } | { "type": "removed", server: string, } | { "type": "reordered", servers: Array<string>, } | { "type": "stderr", server: string, line: string, } | { "type": "log", server: string, level: string, logger?: string | null, data: JsonValue, } | { "type": "progress", server: string, token: JsonValue, progress: number, total?: number | null, message?: string | null, } | { "type": "listChanged", server: string, list: string, } | { "type": "resourceUpdated", server: string, uri: string, } | { "type": "cancelled", server: string, requestId: JsonValue, reason?: string | null, } | { "type": "humanRequested", request: HumanRequest, } | { "type": "humanResolved", server: string, id: number, outcome: HumanOutcome, } | { "type": "rootsListed", server: string, count: number, } | { "type": "authorizationRequired", server: string, url: string, } | { "type": "task", task: TaskView, } | { "type": "subscriptionAcknowledged", server: string, subscriptionId: JsonValue, notifications: JsonValue, };

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
 * The exact text (invalid UTF-8 is replaced, and noted in `kind`); only its start when
 * `fullBytes` is set.
 */
text: string, 
/**
 * Set when `text` is only the frame's start: the whole frame's length in bytes. The whole
 * frame is served by `GET /api/servers/{name}/traffic/{seq}` while it is still recorded.
 */
fullBytes?: number, 
/**
 * HTTP headers that carried protocol meaning for this frame (2026-07-28 streamable HTTP:
 * `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`), as sent.
 */
headers?: Array<[string, string]>, 
/**
 * Set on the record of an HTTP exchange (kind `note`, `text` a one-line summary): the
 * request and response it was, recorded when the response's headers arrived (or the
 * request failed).
 */
http?: TrafficHttpExchange, 
/**
 * The `seq` of the HTTP exchange record whose response carried this frame (HTTP wires).
 */
exchange?: number, } & ({ "kind": "message" } | { "kind": "unparsable", error: string, } | { "kind": "synthetic" } | { "kind": "note" });

export type TrafficHttpExchange = { 
/**
 * `POST`, `GET` or `DELETE`.
 */
method: string, url: string, 
/**
 * Why the wire made it: `post` (a frame), `stream` (the standalone GET or the legacy SSE
 * stream), `resume` (a `Last-Event-ID` GET), `end` (the session's `DELETE`).
 */
purpose: string, 
/**
 * `None` when no response came (the words are in `error`).
 */
status?: number, requestHeaders: Array<[string, string]>, responseHeaders: Array<[string, string]>, 
/**
 * When the request was sent, milliseconds since the Unix epoch.
 */
startedMs: number, 
/**
 * Milliseconds until the response's headers (or the failure).
 */
elapsedMs: number, 
/**
 * The `seq` of the frame this request sent (its body), when it sent one.
 */
requestSeq?: number, error?: string, };

export type RequestRef = { id: string | number, 
/**
 * Milliseconds since the Unix epoch.
 */
atMs: number, };

export type RuleSet = "spec" | "security" | "baseline" | "hosts" | "readiness-claude" | "readiness-openai" | "fuzz";

export type Severity = "error" | "warning" | "info";

export type Finding = { ruleSet: RuleSet, 
/**
 * A stable rule id, e.g. `schema`, `tool-name`, `hidden-unicode`.
 */
rule: string, severity: Severity, 
/**
 * The revision of the era it was found in (e.g. `2026-07-28`); none for findings about
 * the server as a whole.
 */
era?: string, message: string, 
/**
 * Where the rule comes from: the spec section of that revision, or a public page.
 */
source: string, 
/**
 * When `source` is a page that may change: the date (YYYY-MM-DD) it was read.
 */
sourceRead?: string, 
/**
 * What the server's author should change.
 */
fix: string, 
/**
 * The traffic frames (their `seq` in the era's `traffic` log) that show it.
 */
frames: Array<number>, 
/**
 * The offending part of the frame (or the text), cut to a readable length, with
 * invisible characters made visible (`<U+200B>`).
 */
excerpt?: string, 
/**
 * Where in the message (a JSON pointer), when it is one place.
 */
path?: string, 
/**
 * The exact call that shows it (a fuzz input), to make again.
 */
call?: CheckCall, 
/**
 * The tool whose definition it is about, when it is about one tool (the Tools page marks
 * that tool with it).
 */
tool?: string, };

export type RuleRef = { ruleSet: RuleSet, rule: string, };

export type EraCheck = { era: Era, 
/**
 * The revision negotiated, or for a connection that failed, the one what it sent was
 * judged against. Findings of this era carry it as their `era`.
 */
revision: string, connected: boolean, 
/**
 * The traffic log (server name) the findings' frame numbers refer to.
 */
traffic: string, 
/**
 * What was exercised, in order (e.g. `tools/list: 14 in 2 page(s)`).
 */
exercised: Array<string>, 
/**
 * Every rule that was applied in this era (JUnit test cases), passed or not.
 */
rules: Array<RuleRef>, };

export type Verdict = "works" | "degraded" | "blocked" | "unknown";

export type HostReason = { verdict: Verdict, message: string, 
/**
 * The profile field, e.g. `client.sampling`, `toolCatalog.maxTools`.
 */
field: string, 
/**
 * Where the field's value comes from: a public page with the day it was read, or
 * `"unknown"`; none when the profile names no source (mcplab's defaults, a user profile).
 */
source?: FieldSource, };

export type HostItemKind = "tool" | "app";

export type HostItem = { kind: HostItemKind, 
/**
 * The tool's name or the app's resource URI.
 */
name: string, verdict: Verdict, reasons: Array<HostReason>, };

export type HostVerdict = { 
/**
 * The profile's name (`claude`, `chatgpt`, …).
 */
host: string, title: string, profileVersion: number, 
/**
 * The revision the verdict was judged in (the era this host would speak).
 */
revision?: string, verdict: Verdict, reasons: Array<HostReason>, items: Array<HostItem>, };

export type CheckReport = { server: string, 
/**
 * The eras checked, newest revision first.
 */
eras: Array<EraCheck>, 
/**
 * Facts about the check itself (e.g. "2026-07-28: not spoken (…)").
 */
notes: Array<string>, 
/**
 * Every finding, worst first.
 */
findings: Array<Finding>, 
/**
 * One verdict per host profile asked for (`--host`), in the order asked.
 */
hosts?: Array<HostVerdict>, };

export type ToolMarks = { tool: string, findings: Array<Finding>, };

export type ToolFindings = { server: string, 
/**
 * The revision the definitions were judged against.
 */
revision: string, 
/**
 * The rule sets that ran.
 */
ruleSets: Array<RuleSet>, 
/**
 * How many tool definitions were judged.
 */
judged: number, 
/**
 * Each tool with at least one finding, in the order listed; tools without are left out.
 */
tools: Array<ToolMarks>, };

export type Baseline = { 
/**
 * Always [`BASELINE_FORMAT`] for this version.
 */
format: string, 
/**
 * Who the surface is of (a label for people; not compared).
 */
server: string, 
/**
 * When it was taken, milliseconds since the Unix epoch.
 */
takenMs: number, 
/**
 * One surface per era the server spoke.
 */
surfaces: Array<Surface>, };

export type Surface = { era: Era, 
/**
 * The revision negotiated.
 */
revision: string, 
/**
 * The server's capabilities as it declared them.
 */
capabilities: unknown, 
/**
 * Tool definitions as listed (name, title, description, inputSchema, outputSchema,
 * annotations, …).
 */
tools: unknown[], resources: unknown[], resourceTemplates: unknown[], prompts: unknown[], };

export type CheckCall = { name: string, arguments: unknown, };

export type CheckRequest = { 
/**
 * Tools to call (none by default: tools may have side effects).
 */
calls: Array<CheckCall>, 
/**
 * Estimated tokens of the tool list per turn above which it warns (default 10000).
 */
tokenBudget?: number, 
/**
 * Optional rule sets to run as well (those that need no other input).
 */
ruleSets?: Array<RuleSet>, 
/**
 * A baseline to compare the server's surface with (runs the `baseline` set).
 */
baseline?: Baseline, 
/**
 * Check on fresh connections in this protocol choice (`--protocol`; `auto`: every era
 * the server speaks) instead of the live connection.
 */
protocol?: ProtocolChoice, 
/**
 * Host profiles to give a verdict for, by name (`--host`; `all`: every profile).
 */
hosts?: Array<string>, 
/**
 * With hosts: judge apps from a static scan of their HTML only, rendering none live
 * (`--no-render`).
 */
noRender?: boolean, 
/**
 * Schema-driven inputs to the tools safe to call (`--fuzz N --seed S --fuzz-tool`).
 */
fuzz?: CheckFuzz, };

export type CheckFuzz = { perTool: number, seed: number, tools?: Array<string>, };

export type CheckExport = { report: CheckReport, format: CheckExportFormat, };

export type CheckExportFormat = "junit" | "sarif" | "markdown";

export type CheckExported = { fileName: string, mimeType: string, text: string, };

export type ServerView = { config: ServerConfig, status: ServerStatus, 
/**
 * The server's `initialize` result (protocolVersion, capabilities, serverInfo,
 * instructions) while connected.
 */
info: any, 
/**
 * The last lines the server wrote to stderr (stdio servers).
 */
stderr: Array<string>, 
/**
 * The protocol era and revision in use while connected, and how they were chosen.
 */
era?: EraView, 
/**
 * The host profile whose declaration (revision and client capabilities) the server was
 * connected with; absent: mcplab's own declaration.
 */
connectedAs?: string, };

export type ImportRequest = { 
/**
 * The file's text.
 */
json: string, };

export type ServerOrder = { names: Array<string>, };

export type ImportResult = { added: Array<string>, replaced: Array<string>, 
/**
 * What was skipped, renamed or cannot be honoured (`envFile`, `${…}`), one line each.
 */
warnings: Array<string>, };

export type ToolCallRequest = { name: string, arguments: Record<string, any>, callId?: string, 
/**
 * Overrides the server's request timeout for this call.
 */
timeoutMs?: number, 
/**
 * Whether the call may become a task (default `auto`).
 */
task?: TaskMode, };

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
result: any, error: CallError | null, durationMs: number, 
/**
 * The JSON-RPC requests the call sent (tool calls only; empty otherwise), so its frames
 * are found by id, never by arguments.
 */
requests?: Array<RequestRef>, };

export type ToolCallView = { server: string, callId: string, tool: string, arguments: Record<string, any>, 
/**
 * Milliseconds since the Unix epoch.
 */
startedAtMs: number, 
/**
 * The last progress the server reported.
 */
progress: CallProgressView | null, 
/**
 * Set once the call ended.
 */
outcome: CallOutcome | null, 
/**
 * The call ended, but its outcome was larger than what is kept for a page to pick up
 * (its frames are in the traffic while they are recorded).
 */
outcomeDropped: boolean, endedAtMs: number | null, };

export type CallProgressView = { progress: number, total: number | null, message: string | null, };

export type CallErrorKind = "server" | "timeout" | "cancelled" | "transport" | "not_connected" | "invalid" | "bad_response" | "server_misbehaved" | "other";

export type CallError = { kind: CallErrorKind, message: string, 
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

export type OtlpSettings = { 
/**
 * The collector's OTLP/HTTP address (`/v1/traces` added); `None`: nothing is exported.
 */
endpoint: string | null, 
/**
 * Given by `serve --otlp`: the page cannot change it.
 */
fromFlag: boolean, sentSpans: number, 
/**
 * Left out because the export queue was full.
 */
droppedSpans: number, failedBatches: number, 
/**
 * Why the first failed batch failed.
 */
firstError: string | null, };

export type OtlpSettingsInput = { endpoint: string | null, };

export type HostEvent = { "kind": "server", event: ServerEvent, } | { "kind": "traffic", frame: TrafficFrame, } | { "kind": "resync" };

export type AppResourceRequest = { uri: string, };

export type AppResourceKind = "mcpApp" | "openaiWidget" | "unknown";

export type HostInfo = { version: string, 
/**
 * Where app HTML runs: `http://{label}.localhost:<port>`, where the UI puts a fresh random
 * label (16–32 of `[a-z0-9]`) for every rendered app, so each app has an origin of its own
 * on another site than the UI. Without `{label}` every app shares that one origin (mcplab
 * bound to a non-loopback `--host`). `null` when no sandbox runs: no app can be shown.
 */
sandboxOriginTemplate: string | null, 
/**
 * Whether each app gets its own origin (false: shared, weaker isolation).
 */
sandboxPerApp: boolean, };

export type AppScenario = { id: string, name: string, server: string, tool: string, arguments: Record<string, unknown>, 
/**
 * The web's `HostConditions` (device, theme, locale…), kept as given.
 */
conditions: Record<string, unknown>, createdMs: number, updatedMs: number, };

export type AppScenarioInput = { name: string, server: string, tool: string, arguments: Record<string, unknown>, conditions: Record<string, unknown>, };

export type Theme = "light" | "dark";

export type Platform = "web" | "desktop" | "mobile";

export type SafeArea = { top: number, right: number, bottom: number, left: number, };

export type HostConditions = { theme: Theme, 
/**
 * BCP 47, e.g. `de-DE`.
 */
locale: string, 
/**
 * IANA, e.g. `Europe/Berlin`.
 */
timeZone: string, platform: Platform, deviceType: DeviceKind, hover: boolean, touch: boolean, safeArea: SafeArea, 
/**
 * Inline frame height limit in px; absent: unbounded.
 */
maxHeight?: number, 
/**
 * Fixed frame width in px (an emulated device); absent: the available width.
 */
width?: number, 
/**
 * The modes the host offers.
 */
availableDisplayModes: Array<DisplayMode>, 
/**
 * The mode the host puts the app in (the app may ask for another); absent: inline.
 */
displayMode?: DisplayMode, cspMode: CspMode, 
/**
 * Give MCP Apps the `window.openai` shim too.
 */
openaiShim: boolean, 
/**
 * Host style variables sent instead of mcplab's own (`--color-background-primary`…).
 */
styleOverrides?: { [key in string]: string }, 
/**
 * What the host advertises in `ui/initialize`; absent: mcplab's own.
 */
hostCapabilities?: AppHostCapabilities, };

export type DevicePreset = { kind: DeviceKind, platform: Platform, width: number, height: number, hover: boolean, touch: boolean, };

export type Viewer = { theme: Theme, locale: string, timeZone: string, };

export type AppRenderSpec = { server: string, tool: string, arguments: Record<string, unknown>, 
/**
 * The emulated host the app renders in (keys left out take mcplab's own defaults).
 */
conditions: HostConditions, width: number, height: number, 
/**
 * How long the app may take to initialize and get its result (default 20 s).
 */
timeoutMs?: number, 
/**
 * Render the app from its `ui://` resource without calling the tool (the app gets its
 * input, no result; the render ends once it is ready): what `mcplab check --host` does
 * unless `--call` names the tool.
 */
withoutCall?: boolean, };

export type AppRenderResult = { pngBase64: string, report: any, };

export type SessionRequest = { code: string, next?: string, };

export type SessionGranted = { secret: string, next: string, };

export type LoginCode = { code: string, url: string, expiresInSecs: number, };

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
 * Stable machine code (see the table above).
 */
code: string, 
/**
 * What happened and what to do, for people.
 */
message: string, };

export type TokenUsage = { inputTokens: number, outputTokens: number, reasoningTokens: number, };

export type StopReason = "completed" | "stepLimit" | "maxTokens";

export type HttpExchange = { 
/**
 * 1 for the first attempt of the step, 2 for its first retry, …
 */
attempt: number, method: string, 
/**
 * The provider URL (secret query parameters masked).
 */
url: string, 
/**
 * As sent, in order; `Authorization`, API-key and cookie values masked.
 */
requestHeaders: Array<[string, string]>, 
/**
 * The body exactly as sent (UTF-8; a cut body ends where the cap fell).
 */
requestBody: string, 
/**
 * The whole body's size in bytes, also when `requestBody` was cut.
 */
requestBytes: number, requestTruncated: boolean, 
/**
 * The size of the body's `tools` value (the tool definitions as the provider got them),
 * measured on the whole body; 0 without tools.
 */
toolDefinitionBytes: number, 
/**
 * `None` when no response arrived (see `error`).
 */
status: number | null, responseHeaders: Array<[string, string]>, 
/**
 * The body as received (a streamed response: every event, in order), decompressed.
 */
responseBody: string, 
/**
 * Bytes received so far (the whole body once the step ended).
 */
responseBytes: number, responseTruncated: boolean, 
/**
 * Why the exchange broke off (connection refused, reset, …).
 */
error: string | null, 
/**
 * From sending the request to the end of the response (or the break).
 */
durationMs: number, 
/**
 * The two bodies were left out of this copy (a session's view carries none, to stay
 * small): fetch the step's x-ray (`GET /api/sessions/{id}/turns/{turnId}/xray/{step}`)
 * for them. Absent (false) when the bodies are here.
 */
bodiesOmitted?: boolean, };

export type StepTokens = { inputTokens: number, outputTokens: number, reasoningTokens: number, 
/**
 * Of `inputTokens`, those the provider read from its prompt cache (priced at the table's
 * `cachedInput`).
 */
cachedInputTokens?: number, 
/**
 * Of `inputTokens`, those the provider wrote to its prompt cache (Anthropic; priced at the
 * table's `cacheWrite`, no price without one).
 */
cacheWriteTokens?: number, 
/**
 * The provider reported no usage: these are estimates (about 4 bytes a token, from the
 * captured request and the streamed answer).
 */
estimated: boolean, 
/**
 * How many tools were offered.
 */
toolCount: number, 
/**
 * The size of the tool definitions in the request body as sent (the `tools` array).
 */
toolDefinitionBytes: number, 
/**
 * The request body's size.
 */
requestBytes: number, 
/**
 * The tool definitions' share of the input tokens (an estimate by their share of the
 * request body's bytes).
 */
toolDefinitionTokens: number, };

export type StepCost = { usd: number, 
/**
 * The tokens it was computed from were estimates (the provider reported no usage).
 */
estimated: boolean, 
/**
 * Where the price comes from (the provider's pricing page).
 */
source: string, 
/**
 * When the price was read there (YYYY-MM-DD).
 */
date: string, };

export type SummaryCall = { server: string, tool: string, arguments: unknown, 
/**
 * `None` while (or when) no result came.
 */
isError: boolean | null, };

export type TurnSummary = { 
/**
 * `provider::model`.
 */
model: string, calls: Array<SummaryCall>, steps: number, inputTokens: number, outputTokens: number, 
/**
 * Some step's tokens are estimates (its provider reported no usage).
 */
tokensEstimated: boolean, 
/**
 * The sum of the steps' costs; `None` ("no price") when a step's model has none.
 */
costUsd: number | null, ttftMs: number | null, durationMs: number | null, 
/**
 * `completed`, `stepLimit`, `maxTokens`, `failed` (see `failure`), `cancelled`, or
 * `running` when the turn has not ended.
 */
ended: string, failure: string | null, 
/**
 * The answer text.
 */
answer: string, };

export type StepXray = { step: number, 
/**
 * `provider::model`.
 */
model: string, 
/**
 * When the step's request started, in ms after the turn started.
 */
startedMs: number, 
/**
 * From the request to the first streamed token (text, reasoning or tool call); `None`
 * when nothing streamed.
 */
ttftMs: number | null, durationMs: number, tokens: StepTokens, 
/**
 * What the step cost by the price table; `None` when the model has no price there ("no
 * price": never a guess).
 */
cost: StepCost | null, 
/**
 * Empty when the request never reached the network (e.g. cancelled before it left).
 */
exchanges: Array<HttpExchange>, };

export type TurnFailureKind = "auth" | "rate_limit" | "context_length" | "network" | "server" | "bad_response" | "truncated" | "cancelled" | "not_configured" | "internal";

export type TurnEvent = { "type": "turnStarted", turnId: string, model: string, } | { "type": "textDelta", turnId: string, text: string, } | { "type": "reasoningDelta", turnId: string, text: string, } | { "type": "toolCall", turnId: string, callId: string, name: string, server: string, tool: string, arguments: any, } | { "type": "toolInputPartial", turnId: string, callId: string, name: string, 
/**
 * Empty when the name is not one of the offered tools.
 */
server: string, tool: string, argumentsText: string, } | { "type": "approvalRequested", turnId: string, callId: string, name: string, server: string, tool: string, arguments: any, timeoutMs: number, } | { "type": "approvalResolved", turnId: string, callId: string, approved: boolean, } | { "type": "humanRequested", turnId: string, callId: string, request: HumanRequest, } | { "type": "humanResolved", turnId: string, callId: string, id: number, outcome: HumanOutcome, } | { "type": "toolResult", turnId: string, callId: string, server: string, tool: string, durationMs: number, isError: boolean, result: any, error: string | null, 
/**
 * The JSON-RPC requests the call sent (empty when none was: denied, unknown tool;
 * and in turns stored before they were recorded).
 */
requests?: Array<RequestRef>, } | { "type": "toolProgress", turnId: string, callId: string, progress: number, total: number | null, message: string | null, } | { "type": "toolsLeftOut", turnId: string, limit: number, leftOut: Array<string>, } | { "type": "traceStep", turnId: string, step: number, model: string, finishReason: string, usage: TokenUsage, } | { "type": "stepXray", turnId: string, xray: StepXray, } | { "type": "turnTiming", turnId: string, durationMs: number, ttftMs: number | null, } | { "type": "turnFinished", turnId: string, reason: StopReason, usage: TokenUsage, } | { "type": "turnFailed", turnId: string, kind: TurnFailureKind, message: string, usage: TokenUsage, } | { "type": "turnCancelled", turnId: string, usage: TokenUsage, };

export type HostConfig = { 
/**
 * The shape's version ([`HOST_CONFIG_VERSION`]).
 */
version: number, 
/**
 * `provider::model`, e.g. `openai::gpt-4.1-mini`; empty until one is chosen.
 */
model: string, systemPrompt: string, 
/**
 * Sampling temperature; `null` leaves it to the provider.
 */
temperature: number | null, 
/**
 * Output token limit per step; `null` leaves it to the provider.
 */
maxTokens: number | null, 
/**
 * Most model steps per turn (each step may call tools).
 */
stepLimit: number, 
/**
 * The servers whose tools (and instructions) the model gets, by configured name, each
 * with the tools it offers.
 */
servers: { [key in string]: ServerTools }, approval: ApprovalPolicy, elicitation: ElicitationPolicy, appHost: AppHostProfile, 
/**
 * What the host declares to servers (left out while at its default).
 */
client?: ClientDeclaration, 
/**
 * How the servers' tools are offered to the model (left out while at its default).
 */
toolCatalog?: ToolCatalogPolicy, 
/**
 * What of a tool result reaches the model (left out while at its default).
 */
toolResults?: ToolResultPolicy, };

export type ServerTools = { allow: Array<string> | null, deny: Array<string>, };

export type ApprovalMode = "never" | "always";

export type ApprovalPolicy = { mode: ApprovalMode, 
/**
 * How long a call waits before it is denied.
 */
timeoutSecs: number, };

export type ElicitationMode = "ask" | "acceptDefaults" | "decline" | "cancel";

export type ElicitationPolicy = { mode: ElicitationMode, };

export type DeviceKind = "desktop" | "tablet" | "mobile";

export type ThemeChoice = "system" | "light" | "dark";

export type DisplayMode = "inline" | "fullscreen" | "pip";

export type CspMode = "declared" | "permissive";

export type AppHostProfile = { device: DeviceKind, theme: ThemeChoice, 
/**
 * BCP 47, e.g. `de-DE`; `null` is the viewer's own.
 */
locale: string | null, 
/**
 * IANA, e.g. `Europe/Berlin`; `null` is the viewer's own.
 */
timeZone: string | null, 
/**
 * The modes offered to apps (at least one).
 */
displayModes: Array<DisplayMode>, cspMode: CspMode, 
/**
 * Give MCP Apps `window.openai` too (OpenAI widgets always get it).
 */
windowOpenai: boolean, 
/**
 * What the host advertises to MCP Apps in `ui/initialize` (`hostCapabilities`) and
 * serves; left out of the written form while at its default, so configs written before
 * it keep their hashes.
 */
hostCapabilities?: AppHostCapabilities, };

export type AppHostCapabilities = { 
/**
 * `ui/open-link`.
 */
openLinks: boolean, 
/**
 * `ui/download-file`.
 */
downloadFile: boolean, 
/**
 * `tools/call` and `tools/list` from the app.
 */
serverTools: ServerProxy, 
/**
 * `resources/read`, `resources/list`, `resources/templates/list` from the app.
 */
serverResources: ServerProxy, 
/**
 * `notifications/message` from the app reaches the host's log.
 */
logging: boolean, 
/**
 * `ui/message` with these content kinds; `null`: not advertised (`[]`: advertised with
 * no kind named).
 */
message: Array<ContentModality> | null, 
/**
 * `ui/update-model-context` with these content kinds; `null`: not advertised.
 */
updateModelContext: Array<ContentModality> | null, };

export type ServerProxy = "off" | "on" | "listChanged";

export type ContentModality = "text" | "image" | "audio" | "resource" | "resourceLink" | "structuredContent";

export type HostConfigText = { text: string, };

export type HostConfigView = { hostConfig: HostConfig, canonical: string, hash: string, };

export type ClientDeclaration = { 
/**
 * The revision asked for; `auto` is mcplab's own choice per transport.
 */
protocol: ProtocolChoice, 
/**
 * `roots` (with `listChanged`).
 */
roots: boolean, 
/**
 * `sampling`.
 */
sampling: boolean, 
/**
 * `elicitation.form`.
 */
elicitationForm: boolean, 
/**
 * `elicitation.url`.
 */
elicitationUrl: boolean, 
/**
 * The tasks extension.
 */
tasks: boolean, 
/**
 * The MCP Apps extension (`io.modelcontextprotocol/ui`, HTML views).
 */
mcpApps: boolean, 
/**
 * The skills extension.
 */
skills: boolean, };

export type ToolNaming = "serverPrefixed" | "bare";

export type ToolCatalogPolicy = { naming: ToolNaming, 
/**
 * Most tools offered to the model in one request; the rest (in server order, then the
 * server's order) are left out and the turn says so. `null`: no limit.
 */
maxTools: number | null, };

export type StructuredContentMode = "whenNoText" | "always" | "never";

export type ToolResultPolicy = { 
/**
 * Text content blocks.
 */
text: boolean, structuredContent: StructuredContentMode, 
/**
 * Image blocks passed to the model as images (else only a `[image …]` line).
 */
images: boolean, 
/**
 * Embedded resources' text (else only a `[resource …]` line).
 */
resources: boolean, };

export type FieldSource = SourceRef | UnknownSource;

export type UnknownSource = "unknown";

export type SourceRef = { url: string, 
/**
 * `YYYY-MM-DD`.
 */
read: string, 
/**
 * What the page says, and how sure that makes the value.
 */
note?: string, };

export type HostProfile = { 
/**
 * What `--host` takes, e.g. `claude`.
 */
name: string, title: string, description: string, 
/**
 * Raised whenever the profile's values change.
 */
profileVersion: number, 
/**
 * Shipped with mcplab (else a file of the person's own).
 */
builtin: boolean, 
/**
 * The file it was read from (user profiles only).
 */
origin: string | null, hostConfig: HostConfig, 
/**
 * By field path (e.g. `client.sampling`, `toolCatalog.maxTools`).
 */
sources: { [key in string]: FieldSource }, 
/**
 * The HostConfig's canonical hash.
 */
hash: string, };

export type HostFieldDiff = { 
/**
 * Field path, e.g. `client.sampling`.
 */
field: string, a: unknown, b: unknown, sourceA: FieldSource | null, sourceB: FieldSource | null, };

export type HostProfileView = { profile: HostProfile, against: string, 
/**
 * `a` is `against`, `b` this profile.
 */
diff: Array<HostFieldDiff>, };

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

export type SessionSummary = { id: string, title: string, createdMs: number, updatedMs: number, 
/**
 * How the session's turns run.
 */
hostConfig: HostConfig, 
/**
 * SHA-256 (hex) of the HostConfig's canonical JSON.
 */
hostHash: string, 
/**
 * The HostConfig in the older `ChatSettings` form (derived; kept for older clients).
 */
settings: ChatSettings, 
/**
 * The compare this session is a column of (absent for a plain chat).
 */
compare?: CompareMember, };

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

export type CompareMember = { 
/**
 * The compare group's id.
 */
group: string, 
/**
 * The session's column, counted from 1.
 */
column: number, };

export type NewCompare = { 
/**
 * 2–4 session ids, first column first.
 */
sessions: Array<string>, };

export type CompareGroup = { id: string, sessions: Array<string>, };

export type CompareExport = { id: string, columns: Array<SessionView>, };

export type NewSession = { title?: string, 
/**
 * Any keys left out take their defaults.
 */
hostConfig?: Partial<HostConfig>, 
/**
 * The older form; used only when `hostConfig` is absent.
 */
settings?: ChatSettings, };

export type SessionPatch = { title?: string, 
/**
 * Replaces the whole HostConfig (keys left out take their defaults).
 */
hostConfig?: HostConfig, 
/**
 * The older form: changes the keys it has in the current HostConfig.
 */
settings?: ChatSettings, };

export type TurnRequest = { turnId: string, message: string, 
/**
 * Retry: this turn replaces the session's last turn (which failed or was stopped). The
 * model does not see the replaced turn, and the new one takes its place when stored.
 */
replaces?: string, };

export type SessionEvent = { "kind": "userMessage", turnId: string, text: string, replaces?: string, } | { "kind": "turn", event: TurnEvent, } | { "kind": "appContext", entries: Array<AppContextEntry>, } | { "kind": "resync" };

export type ProviderKind = "openai" | "anthropic" | "gemini" | "deepseek" | "xai" | "mistral" | "openrouter" | "ollama" | "openai_compatible" | "anthropic_compatible";

export type ProviderView = { id: string, kind: ProviderKind, displayName: string, usable: boolean, 
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

export type ProviderInput = { kind: ProviderKind, baseUrl?: string, apiKey?: string, models: Array<string>, };

export type Unit = { caseId: string, model: string, iteration: number, };

export type CaseInfo = { id: string, title?: string, passThreshold: number, };

export type Metrics = { inputTokens: number, outputTokens: number, costUsd: number | null, latencyMs: number, llmMs: number, mcpMs: number, steps: number, 
/**
 * Tool calls: expected calls paired (true positives) …
 */
callsMatched: number, 
/**
 * … actual calls nobody expected (false positives) …
 */
callsUnexpected: number, 
/**
 * … and required calls that did not happen (false negatives).
 */
callsMissed: number, 
/**
 * What the judge spent grading this iteration (its cost is part of `cost_usd`).
 */
judge: SideUsage, 
/**
 * What a simulated user spent playing its part (its cost is part of `cost_usd`).
 */
simulatedUser: SideUsage, };

export type SideUsage = { 
/**
 * Model calls made (0: nothing was spent).
 */
calls: number, inputTokens: number, outputTokens: number, 
/**
 * `None` when the model has no price (and calls were made).
 */
costUsd: number | null, };

export type Outcome = { "status": "passed" } | { "status": "failed" } | { "status": "errored", reason: string, };

export type IterationRecord = { outcome: Outcome, 
/**
 * Why it did not pass, one line each.
 */
failures?: Array<string>, metrics: Metrics, caseId: string, model: string, iteration: number, };

export type Shard = { index: number, count: number, };

export type RunRecord = { suiteId: string, 
/**
 * Hash of the suite file's canonical content (shards of one run must agree on it).
 */
suiteHash: string, shard?: Shard, cases: Array<CaseInfo>, 
/**
 * Every unit this run (or shard) was asked to run.
 */
planned: Array<Unit>, iterations: Array<IterationRecord>, };

export type RunHeader = { suiteTitle: string | null, cases: Array<CaseInfo>, planned: Array<Unit>, models: Array<string>, shard?: Shard, concurrency: number, record: boolean, 
/**
 * The run this one replays.
 */
replayOf?: string, baseline?: string, 
/**
 * The HostConfig the turns ran under, canonical (kept as written: a later HostConfig
 * must still read an old run).
 */
hostConfig: JsonValue, 
/**
 * The suite as loaded (before the run's overrides).
 */
suite: JsonValue, notes?: Array<string>, 
/**
 * What part of the suite's plan the run covers (runs stored before it was written read
 * it from `shard` and `replayOf`).
 */
kind?: RunKind, };

export type RunKind = { "kind": "full" } | { "kind": "shard", index: number, count: number, } | { "kind": "merged", shards: number, } | { "kind": "replay", of: string, } | { "kind": "subset", cases: number, of: number, };

export type Trace = { turns: Array<TurnTrace>, 
/**
 * Cost in US dollars, when the model has a price.
 */
costUsd: number | null, 
/**
 * What the headless renderer saw for tool calls with a UI.
 */
appRenders: Array<AppRender>, };

export type TurnTrace = { user: string, toolCalls: Array<ToolCallTrace>, 
/**
 * The model's final text for the turn.
 */
answer: string, end: TurnEnd, 
/**
 * Model steps taken.
 */
steps: number, usage: TokenUsage, 
/**
 * Wall time of the turn.
 */
latencyMs: number, 
/**
 * Time spent waiting on the model.
 */
llmMs: number, 
/**
 * Time spent in tool calls (summed; calls may overlap).
 */
mcpMs: number, };

export type ToolCallTrace = { callId: string, server: string, tool: string, arguments: JsonValue, 
/**
 * The server's `CallToolResult`, when there is one.
 */
result: JsonValue | null, isError: boolean, 
/**
 * Why there is no result (MCP error, timeout, cancelled, unknown tool).
 */
error: string | null, durationMs: number, };

export type TurnEnd = { "kind": "finished", reason: StopReason, } | { "kind": "failed", errorKind: TurnFailureKind, message: string, } | { "kind": "cancelled" } | { "kind": "timedOut" } | { "kind": "unfinished" };

export type AppRender = { callId: string, server: string, tool: string, initialized: boolean, 
/**
 * Milliseconds from the render page's start until the app sent
 * `ui/notifications/initialized`; `None` when it never did (or the run predates it).
 */
readyMs: number | null, cspViolations: Array<string>, 
/**
 * What broke the render: the app's uncaught exceptions and unhandled rejections, the
 * render page's own errors, a failed tool call or render.
 */
errors: Array<string>, 
/**
 * What the app logged with `console.error` (first line of each); not in `errors`.
 */
consoleErrors: Array<string>, };

export type CallView = { 
/**
 * Position in the expected list, or among the actual calls (0-based).
 */
index: number, tool: string, server?: string, arguments?: JsonValue, };

export type Mismatch = { 
/**
 * JSONPath of the spot, e.g. `$.customer.email`.
 */
path: string, 
/**
 * What was expected there, as written (a matcher).
 */
expected: JsonValue, 
/**
 * What was there (`None`: nothing).
 */
actual: JsonValue | null, 
/**
 * Why it does not match, in words.
 */
reason: string, };

export type CallDiff = { "kind": "missing", expected: CallView, } | { "kind": "extra", actual: CallView, tolerated: boolean, } | { "kind": "outOfOrder", expected: CallView, actual: CallView, } | { "kind": "argumentMismatch", expected: CallView, actual: CallView, mismatches: Array<Mismatch>, } | { "kind": "forbidden", actual: CallView, };

export type CallMatch = { passed: boolean, diffs: Array<CallDiff>, 
/**
 * Expected calls paired with an actual one (true positives).
 */
matched: number, 
/**
 * Actual calls not paired (false positives).
 */
unmatchedActual: number, 
/**
 * Required expected calls not paired (false negatives).
 */
missedExpected: number, };

export type CheckResult = { 
/**
 * The check as written, e.g. `{"answerContains":"42"}`.
 */
check: JsonValue, passed: boolean, reason: string, };

export type Scoped = { "scope": "case" } | { "scope": "turn", turn: number, };

export type ScopedMatch = ({ "scope": "case" } | { "scope": "turn", turn: number, }) & { passed: boolean, diffs: Array<CallDiff>, 
/**
 * Expected calls paired with an actual one (true positives).
 */
matched: number, 
/**
 * Actual calls not paired (false positives).
 */
unmatchedActual: number, 
/**
 * Required expected calls not paired (false negatives).
 */
missedExpected: number, };

export type ScopedCheck = ({ "scope": "case" } | { "scope": "turn", turn: number, }) & { 
/**
 * The check as written, e.g. `{"answerContains":"42"}`.
 */
check: JsonValue, passed: boolean, reason: string, };

export type JudgeVerdict = { "status": "scored", score: number, reason: string, model: string, } | { "status": "error", message: string, };

export type JudgeOutcome = { verdict: JudgeVerdict, threshold: number, gating: boolean, 
/**
 * Whether the score reached the threshold (`None`: not graded).
 */
passed: boolean | null, };

export type EvalVerdict = { outcome: Outcome, toolCalls: Array<ScopedMatch>, checks: Array<ScopedCheck>, judge: JudgeOutcome | null, };

export type Interval = { low: number, high: number, };

export type Latency = { p50: number | null, p95: number | null, };

export type CellSummary = { caseId: string, model: string, 
/**
 * Iterations that completed (passed or failed).
 */
n: number, passes: number, errors: number, passRate: number | null, 
/**
 * 95 % Wilson score interval of the pass rate.
 */
interval: Interval | null, 
/**
 * pass@k and pass^k for k = 1, 2, 3, 5, 10 (those ≤ n).
 */
passAtK: { [key in number]: number }, passHatK: { [key in number]: number }, 
/**
 * Passed and failed within this run.
 */
flaky: boolean, 
/**
 * Pass rate ≥ the case's threshold (`None` with no completed iteration).
 */
passed: boolean | null, passThreshold: number, meanTokens: number | null, 
/**
 * Total cost; `None` when any iteration's cost is unknown.
 */
costUsd: number | null, latency: Latency, llm: Latency, mcp: Latency, 
/**
 * Per iteration in order: `true` pass, `false` fail, `None` error (the matrix's dots).
 */
dots: Array<boolean | null>, };

export type RunSummary = { cells: Array<CellSummary>, planned: number, finished: number, completed: number, passes: number, errors: number, passRate: number | null, interval: Interval | null, 
/**
 * Errored iterations over finished ones.
 */
errorRate: number | null, 
/**
 * Tool calls: matched / (matched + unexpected).
 */
precision: number | null, 
/**
 * Tool calls: matched / (matched + missed).
 */
recall: number | null, 
/**
 * Tokens of the models under test (the judge's and simulated users' are apart).
 */
inputTokens: number, outputTokens: number, 
/**
 * Total cost, the judge's and simulated users' included; `None` when some iteration's cost is unknown (see `unpriced`).
 */
costUsd: number | null, 
/**
 * Iterations whose cost is unknown.
 */
unpriced: number, 
/**
 * What the judge spent over the run (tokens, cost; part of `cost_usd`).
 */
judge: SideUsage, 
/**
 * What simulated users spent over the run (part of `cost_usd`).
 */
simulatedUser: SideUsage, latency: Latency, llm: Latency, mcp: Latency, 
/**
 * Cells that passed and failed within the run.
 */
flaky: Array<[string, string]>, };

export type Change = "fixed" | "regressed" | "stillFailing" | "stillPassing" | "new" | "removed";

export type Significance = "better" | "worse" | "noChange" | "insufficientData";

export type CellComparison = { caseId: string, model: string, change: Change, 
/**
 * `(passes, completed)` on each side.
 */
base: [number, number] | null, run: [number, number] | null, 
/**
 * Run pass rate minus base pass rate.
 */
difference: number | null, interval: Interval | null, 
/**
 * `None` for New and Removed cells.
 */
significance: Significance | null, 
/**
 * One-sided p-value of a drop (Fisher's exact test), before the correction.
 */
pValue?: number, 
/**
 * The p-value after the correction across the compared cells.
 */
adjustedP?: number, };

export type Comparison = { minSamples: number, 
/**
 * How a cell's drop was decided (runs stored before it existed read the defaults).
 */
method: RegressionMethod, cells: Array<CellComparison>, 
/**
 * The whole run against the base, the iterations of a case treated as one cluster.
 */
wholeRun?: RunDifference, };

export type RegressionMethod = { correction: Correction, alpha: number, minEffect: number, };

export type Correction = "holm" | "benjamini-hochberg" | "none";

export type RunDifference = { baseRate: number, runRate: number, 
/**
 * Run minus base.
 */
difference: number, 
/**
 * 95 % interval of the difference.
 */
interval: Interval, 
/**
 * One-sided p-value of a drop.
 */
pValue: number, 
/**
 * Cases on both sides (the clusters).
 */
clusters: number, significance: Significance, };

export type GateStatus = "pass" | "fail" | "insufficientData";

export type GateResult = { 
/**
 * The gate as written, e.g. `minPassRate 0.9`.
 */
gate: string, status: GateStatus, reason: string, };

export type GateReport = { gates: Array<GateResult>, 
/**
 * Why the run cannot be judged (empty: it can).
 */
invalid: Array<string>, 
/**
 * 0 every gate holds, 1 a gate fails, 3 the run is invalid or a gate undecided.
 */
exitCode: number, };

export type TraceDifference = { 
/**
 * `passed`, `failed`, `errored`, or `None` when that run has no such iteration.
 */
base: string | null, run: string | null, differences: Array<string>, caseId: string, model: string, iteration: number, };

export type Progress = { finished: number, planned: number, passed: number, failed: number, errored: number, };

export type RunEvent = { "type": "runStarted", runId: string, suiteId: string, suiteHash: string, planned: number, models: Array<string>, shard?: Shard, } | { "type": "iterationStarted", caseId: string, model: string, iteration: number, } | { "type": "iterationFinished", 
/**
 * The expected-vs-actual detail (tool-call diffs, checks, judge), for live views.
 */
verdict?: EvalVerdict, progress: Progress, outcome: Outcome, 
/**
 * Why it did not pass, one line each.
 */
failures?: Array<string>, metrics: Metrics, caseId: string, model: string, iteration: number, } | { "type": "warning", message: string, } | { "type": "runFinished", runId: string, summary: RunSummary, gates: GateReport, };

export type EvalStreamEvent = { "kind": "run", event: RunEvent, } | { "kind": "ended", status: string, exitCode: number, } | { "kind": "failed", message: string, } | { "kind": "resync" };

export type EvalFolder = { folder: string | null, };

export type EvalFolderInput = { folder: string, };

export type EvalPruneRequest = { 
/**
 * Keep the newest N runs of each suite.
 */
keep?: number, 
/**
 * Only runs started longer ago than this: a number with s, m, h, d or w (`30d`).
 */
olderThan?: string, 
/**
 * Only list what would go.
 */
dryRun: boolean, };

export type EvalPruneResult = { 
/**
 * The runs deleted (or that would be).
 */
deleted: Array<string>, dryRun: boolean, 
/**
 * The database's size before and after, in bytes (equal on a dry run).
 */
bytesBefore: number, bytesAfter: number, };

export type DirListing = { 
/**
 * The home directory (the picker's root), resolved.
 */
home: string, 
/**
 * The directory listed, resolved and absolute.
 */
path: string, 
/**
 * Its parent; `None` at the home (nothing above it is listed).
 */
parent: string | null, 
/**
 * The directories directly inside, by name, sorted; dot directories and symlinks left out.
 */
dirs: Array<string>, 
/**
 * How many suite files (.yaml, .yml, .json) it holds directly.
 */
suites: number, 
/**
 * It holds more directories than are listed.
 */
truncated: boolean, };

export type SuiteEntry = { name: string, id?: string, title?: string, error?: string, };

export type SuiteFile = { name: string, text: string, };

export type SuiteInput = { text: string, };

export type SuiteSaved = { name: string, id: string, };

export type CaseInput = { sessionId: string, };

export type CaseAdded = { name: string, caseId: string, };

export type EvalRunRequest = { 
/**
 * A suite file name in the folder.
 */
suite: string, 
/**
 * Models over the suite's (none: the suite's).
 */
models: Array<string>, repeat?: number, concurrency?: number, 
/**
 * The [`LaunchList::hash`] the person agreed to. A run that would start commands or drive
 * servers is refused (409, with the list) until it matches.
 */
confirm?: string, };

export type LaunchList = { items: Array<LaunchItem>, 
/**
 * SHA-256 of the items: a confirmation is remembered by it, so a change to what would
 * start asks again.
 */
hash: string, };

export type LaunchCheck = { list: LaunchList, 
/**
 * The person agreed to this very list before (the CLI or the page): no need to ask.
 */
trusted: boolean, };

export type LaunchItem = { 
/**
 * The server's name, or the check's place in the suite for a command check.
 */
name: string, kind: LaunchKind, 
/**
 * The command line (with its working directory and the names of the variables it sets),
 * or the URL.
 */
detail: string, };

export type LaunchKind = "suiteCommand" | "suiteUrl" | "configured" | "checkCommand";

export type EvalRunStarted = { runId: string, };

export type EvalRunItem = { id: string, suiteId: string, suiteHash: string, title: string | null, 
/**
 * `running`, `finished` or `cancelled`.
 */
status: string, hostHash: string, startedMs: number, finishedMs: number | null, 
/**
 * The whole run's pass rate (`None` before it ended, or with nothing completed).
 */
passRate: number | null, 
/**
 * The gates' exit code (`None` before it ended).
 */
exitCode: number | null, 
/**
 * What part of the plan it covers: full, a shard, merged shards, a replay, a subset.
 */
kind: RunKind, };

export type EvalRunView = { run: EvalRunItem, header: RunHeader, record: RunRecord, summary: RunSummary, gates: GateReport | null, comparison: Comparison | null, };

export type IterationTurn = { 
/**
 * What the chat's turn view folds (text, tool calls with arguments and results).
 */
events: Array<TurnEvent>, timedOut: boolean, user: string, toolCalls: Array<ToolCallTrace>, 
/**
 * The model's final text for the turn.
 */
answer: string, end: TurnEnd, 
/**
 * Model steps taken.
 */
steps: number, usage: TokenUsage, 
/**
 * Wall time of the turn.
 */
latencyMs: number, 
/**
 * Time spent waiting on the model.
 */
llmMs: number, 
/**
 * Time spent in tool calls (summed; calls may overlap).
 */
mcpMs: number, };

export type IterationView = { runId: string, caseId: string, model: string, iteration: number, outcome: Outcome, failures: Array<string>, finishedMs: number, turns: Array<IterationTurn>, checks: Array<ScopedCheck>, toolCalls: Array<ScopedMatch>, judge: JudgeOutcome | null, costUsd: number | null, appRenders: Array<AppRender>, };

export type EvalCompareView = { base: string, run: string, comparison: Comparison, 
/**
 * Per iteration, where the two runs differ (`mcplab eval compare --traces`).
 */
traces?: Array<TraceDifference>, };

export type ModelPoint = { model: string, passes: number, n: number, errors: number, passRate: number | null, interval: Interval | null, };

export type TrendPoint = { runId: string, startedMs: number, status: string, models: Array<ModelPoint>, };

export type RunResult = { summary: RunSummary, gates: GateReport, comparison: Comparison | null, };

export type TapTransport = "stdio" | "http";

export type TapStart = { 
/**
 * [`TAP_FORMAT`].
 */
format: number, transport: TapTransport, 
/**
 * The server: its command line (stdio) or its URL (HTTP), secrets in the URL masked.
 */
target: string, 
/**
 * The tap's process id.
 */
pid: number, startedMs: number, };

export type TapEnd = { endedMs: number, 
/**
 * In words: `exit code 0`, `killed by SIGTERM`, `stopped`.
 */
how: string, 
/**
 * Frames the tap could not record (its queue was full or over its byte bound); the
 * traffic itself passed.
 */
dropped: number, };

export type TapLine = { "type": "start" } & TapStart | { "type": "frame" } & TrafficFrame | { "type": "end" } & TapEnd;

export type TapRegistered = { id: string, };

export type TapHost = { name: string, version?: string, title?: string, };

export type TapSessionView = { 
/**
 * Where its frames are recorded (`tap:N`, `tap:N.2` for a tap's second HTTP session).
 */
key: string, 
/**
 * The tap (`tap:N`).
 */
tap: string, transport: TapTransport, target: string, 
/**
 * `None` until the host introduced itself.
 */
host?: TapHost, 
/**
 * The revision the host asked for.
 */
protocolVersion?: string, 
/**
 * The HTTP session (`Mcp-Session-Id`, or the legacy SSE `sessionId`).
 */
sessionId?: string, startedMs: number, 
/**
 * Set once the tap ended.
 */
ended?: TapEnd, 
/**
 * `live` (a running tap) or `file` (a recording opened in the inspector).
 */
source: string, };

export type TapOpen = { text: string, };

export type TapOpened = { sessions: Array<TapSessionView>, frames: number, };

export const DEVICE_PRESETS: DevicePreset[] = [{"kind":"mobile","platform":"mobile","width":430,"height":932,"hover":false,"touch":true},{"kind":"tablet","platform":"mobile","width":820,"height":1180,"hover":false,"touch":true},{"kind":"desktop","platform":"web","width":1280,"height":800,"hover":true,"touch":false}];

export const DEFAULT_APP_HOST: AppHostProfile = {"device":"desktop","theme":"system","locale":null,"timeZone":null,"displayModes":["inline","fullscreen","pip"],"cspMode":"declared","windowOpenai":false};

export const MCPLAB_HOST_CAPABILITIES: AppHostCapabilities = {"openLinks":true,"downloadFile":true,"serverTools":"listChanged","serverResources":"listChanged","logging":true,"message":["text"],"updateModelContext":["text","structuredContent"]};

//! The MCP connection layer: the only place rmcp is named. Raw wires (stdio, streamable HTTP,
//! legacy SSE) move exact bytes; `frame_transport` records and parses them; `handler` turns
//! server-initiated traffic into domain events; `manager` owns connections and statuses.
//!
//! # Where things are
//!
//! - `crates/mcplab-mcp/src/`: The connection layer (crate `mcplab-mcp`), the only crate besides
//!   the testkit that names rmcp (feature `client` only); its integration tests (`tests/it/`, one
//!   binary: hostile, hostile_modern, in_process, modern, fixture_uis, oauth_ssrf) run against the
//!   testkit's servers.
//! - `limits.rs`: `Limits`, the byte budget: every limit on what a server can make mcplab hold,
//!   with defaults and the `--limit NAME=VALUE` names; passed down in `ManagerOptions` (see "Threat
//!   model → Byte budget").
//! - `wire.rs`: The raw-frame boundary (`Wire`/`WireEnd`, `WireEvent::{Frame, Synthetic, Unusable,
//!   Exchange, Carried, Note, Closed}`: `Exchange` is one HTTP request with its status and headers,
//!   `Carried` a frame that came in an exchange's response) between byte transports and JSON-RPC;
//!   `bad_response` (the synthetic error that fails a request whose response cannot be used),
//!   `excerpt`.
//! - `stdio.rs`: Child process in its own process group; stdin/stdout frames; stderr tail; graceful
//!   stop (stdin EOF → SIGTERM → SIGKILL of the group, then the descendants that left it);
//!   `stdio/family.rs`: `isolate` and `Family`, the same start and tree cleanup for a server the
//!   tap starts;
//!   `spawn_line_io` also serves in-process servers. `stdio/env.rs`: the clean environment
//!   (allow-list + configured `env`, `inheritEnv`, never `MCPLAB_*`/`*_API_KEY`); `stdio/lines.rs`:
//!   lines bounded as they are read (an over-long frame is refused as it crosses the limit), stderr
//!   lines cut, the tail bounded in bytes.
//! - `process_tree.rs`: Each stdio server's descendants by pid + start time from `/proc` (refreshed
//!   every 2 s, just before stdin is closed, and at stop; the server is its descendants' subreaper, so a double-forked daemon
//!   stays under it; also found by the stdio pipes it holds), killed and reaped on disconnect;
//!   `reap_orphans` reaps what a subreaper mcplab adopts. Linux only.
//! - `http.rs`, `sse.rs`: Streamable HTTP client wire (session id, protocol-version header, SSE
//!   responses, `Last-Event-ID` resume honouring `retry:`, standalone GET stream, DELETE on close;
//!   a server that stops accepting connections ends the wire with the reason); the SSE parser
//!   (lines and events bounded by the message limit). `http/body.rs` (a JSON body read in chunks up
//!   to the limit; not JSON, or not the POST's answer → the request fails at once with status,
//!   content type and first bytes), `http/outlet.rs` (`Outlet`: where a wire's tasks send frames,
//!   carried frames, exchange records and notes; task shutdown; the "server gone" signal),
//!   `http/target.rs` (what every request carries, sending through the OAuth session),
//!   `http/exchange.rs` (`send_recorded`: every request of the three HTTP wires — POSTs,
//!   standalone/legacy stream GETs, `Last-Event-ID` resumes, the session's DELETE — reported as an
//!   exchange: method, masked URL, purpose, status, request/response headers with `Authorization`,
//!   cookies and key/token headers masked, start and time to headers) and `http/response.rs` (body
//!   kind, error excerpts, status advice) are shared with the legacy SSE wire and `modern/http.rs`.
//! - `legacy_sse.rs`: Legacy HTTP+SSE client wire (GET stream, `endpoint` event, POSTs).
//! - `frame_transport.rs`: rmcp `Transport` over a `Wire`: records every frame exactly once
//!   (unparsable lines included), and each HTTP exchange as a note carrying `http`, linked to the
//!   frame it posted (`exchange_links.rs`: outbound records found by the address of the very
//!   `Bytes` the wire got back, wire exchange numbers → record `seq`, both bounded) with the frames
//!   its response carried tagged `exchange`; keeps raw `result` JSON per request id (only for
//!   requests it sent) so callers get the server's exact JSON; an unusable response fails its
//!   request at once (`peek.rs` finds the id of a frame serde cannot parse, at any depth).
//! - `traffic.rs`: `TrafficLog`: per-server rings bounded in frames and, all servers together, in
//!   bytes (the recording server evicts first) + a live channel of `(server, seq)` only (sent under
//!   the lock, so subscribers see sequence order): a `TrafficFeed` reads each announced frame's
//!   preview from the ring, and a frame gone before it was read counts as missed (`Lagged`) —
//!   nothing is held outside the byte budget (core's `EventRing` does not fit: one budget across
//!   per-server rings); frames over the preview size are published and listed truncated
//!   (`fullBytes`), whole by `frame(server, seq)` while in the ring; drops counted.
//! - `event_gate.rs`: Per server: notifications and stderr lines forwarded as events are
//!   rate-limited (token bucket, a counted `mcplab` warning when dropping) and size-capped.
//! - `event_hub.rs`: The manager's channel of server events, bounded in events (1,024) and in
//!   bytes waiting for the slowest subscriber (8 MiB); notifications over the bytes are refused.
//! - `handler.rs`: Our rmcp client `Service`: the capabilities we declare
//!   (`modern::declared_capabilities(ManagerOptions.client)`, by default `client_capabilities`:
//!   elicitation form+url, sampling, roots, the ui, tasks and skills extensions; a host profile
//!   turns some off; the legacy revision asked for in `initialize`; `SUPPORTED_PROTOCOL_VERSIONS`,
//!   anything else is refused after `initialize`), server requests and notifications →
//!   `ServerEvent`s (2026-07-28 and task notifications via `modern`), cache invalidation on change
//!   notifications. Requests rmcp cannot type (an elicitation schema with `anyOf [T, null]`, nested
//!   objects) arrive as custom requests and are still answered from their raw params.
//! - `modern/`: Protocol 2026-07-28 beside the handshake revisions. `era.rs` (the `Plan` per
//!   `protocol` and transport: initialize, `server/discover`, or rmcp's auto probe; "not a modern
//!   server" classification; the `EraView` and the initialize-shaped summary of a discovery),
//!   `headers.rs` (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `x-mcp-header` → `Mcp-Param-*`
//!   with the `=?base64?…?=` encoding; validation that rejects tools with invalid annotations;
//!   `ToolHeaders` per connection), `http.rs` (the 2026-07-28 streamable HTTP wire: one POST per
//!   frame with those headers, JSON or SSE answers, no session/GET/resume/DELETE, cancellation by
//!   closing the stream, 4xx JSON-RPC errors passed up, other failures as synthetic errors whose
//!   code tells "not modern" from "unreachable", bodies bounded), `mrtr.rs` (the request path above
//!   one exchange: cache, `input_required` rounds answered through the broker/roots with the exact
//!   `requestState`, `resultType` checks, error explanations, handing tasks to `task_flow`),
//!   `cache.rs` (`ttlMs`/`cacheScope` results by method and cursor/uri, bypass, invalidation,
//!   bounded), `listen.rs` (`subscriptions/listen` per resource and for list changes; legacy
//!   `resources/subscribe`), `probe.rs` (what `auto`'s stdio probe may cost: an ignored probe
//!   given up once the server read it and did not answer, then a fresh start with `initialize`;
//!   a lax `{}` answer made a refusal; the stderr held during the handshake).
//! - `tasks.rs`, `task_flow.rs`: `TaskRegistry` (per manager, bounded: every task seen, its status
//!   history, result/error) and driving a task: polling `tasks/get` at `pollIntervalMs` bounded by
//!   the TTL, input through `tasks/update` (extension) or `tasks/result` (2025-11-25),
//!   `tasks/cancel`, 2025-11-25 augmentation of `tools/call` when a tool requires it or the caller
//!   forces it.
//! - `skills.rs`: Loading a SEP-2640 skill: entry from `skills/list`, `SKILL.md` read first and
//!   checked (size, sha256 digest, YAML frontmatter field by field), then the other manifest files;
//!   the first mismatch stops loading. Nothing is read by listing.
//! - `listing.rs`: `Listing`: the paginated list methods (tools, resources, resource templates,
//!   prompts, tasks, skills) with their method, result key and, for the base four, the `initialize`
//!   capability that gates them; the inspector CLI, the API's list routes, `check` and the turn
//!   loop name a listing by it.
//! - `pending.rs`: `Pending<K, R, A>`: answers waited for by key — what was asked beside a oneshot,
//!   `try_add` (a limit checked under the lock), `answer` once, `withdraw`; a waiter removes its
//!   own entry however it ends, never a later registration under the same key; a `Waiter` ends
//!   answered, timed out, cancelled (optional token) or withdrawn, and forgets its key however it
//!   ends (dropped included). The broker, core's tool-call approvals and the web server's pending
//!   OAuth sign-ins are built on it.
//! - `tool_server/`: Feature `server`: mcplab's own MCP server side. A `ToolHost` (tools written
//!   without rmcp: specs with output schemas, a `ToolReply` of summary + `structuredContent` +
//!   images) served by rmcp over stdio or streamable HTTP on loopback (`http.rs`: loopback
//!   listener, loopback `Host`, any `Origin` refused), both eras; `client_link.rs`: progress on the
//!   caller's token, elicitation/sampling forwarded to the caller when it declared them (not to
//!   2026-07-28 clients). Used by `mcplab mcp`.
//! - `broker.rs`: Pending human requests (elicitation, sampling) on a `Pending`, with timeouts and
//!   accept/decline/cancel answers; at most `pending-human` per server (more are refused with an
//!   error naming the limit).
//! - `connection.rs`: One connection: `request` (→ `modern::mrtr`; one exchange in `send_once`:
//!   timeout reset by progress, progress listener, cancellation → `notifications/cancelled`, the
//!   2026-07-28 `_meta` additions such as `logLevel`), `list_all` (every page of a `Listing`; the
//!   first page's cache hints and a `mcplab/cache` marker), the era, rejected tools, tasks,
//!   `notify`, `close`.
//! - `manager/`: `mod.rs`: `ConnectionManager`; `declared.rs`: `DeclaredAs` (a server connected
//!   "as" a host profile: that profile's revision and capabilities, kept across reconnects —
//!   `connect_as`, `declared_as`); `in_process.rs`: `connect_io`/`connect_io_with`; `handshake.rs`:
//!   the initialize handshake with its deadline and the helpers the wires share (`bounded`, HTTP
//!   targets, stderr tails, init errors in plain words). `ConnectionManager`: connections by name,
//!   statuses (`connecting/connected/failed{message}/disconnected`),
//!   connect/reconnect/disconnect/shutdown (the era plan per config, or the revision the server's
//!   declaration — its `DeclaredAs`, else `ManagerOptions.client` — names when not `auto`; `auto`
//!   on HTTP falls back from the 2026-07-28 wire to the legacy one), `sibling(client)` (same
//!   options and traffic log, another declaration: evals' per-host connections), status watcher,
//!   the task registry, optional listen-for-changes on connect (the web server).

mod broker;
mod connection;
mod error;
mod event_gate;
pub mod event_hub;
mod exchange_links;
mod frame_transport;
mod handler;
pub mod http;
mod legacy_sse;
pub mod limits;
mod listing;
mod manager;
pub mod modern;
mod peek;
pub mod pending;
mod process_tree;
mod skills;
pub mod sse;
pub mod stdio;
mod task_flow;
pub mod tasks;
#[cfg(feature = "server")]
pub mod tool_server;
pub mod traffic;
pub mod wire;

pub use broker::Broker;
pub use connection::{CACHE_MARKER, Connection, RequestOptions};
pub use error::McpError;
pub use event_hub::EventReceiver;
pub use handler::{
    ClientIdentity, PROTOCOL_VERSION, ProgressUpdate, RootEntry, SUPPORTED_PROTOCOL_VERSIONS,
};
pub use limits::{LimitError, Limits};
pub use listing::Listing;
pub use manager::{BuiltinServer, ConnectionManager, DeclaredAs, ManagerOptions};
pub use process_tree::reap_orphans;
pub use traffic::TrafficLog;

//! mcplab's domain above the connection layer: the turn loop (`agent`), the chat session
//! runtime and its HostConfig (`session`), `mcpServers` configuration files (`config`) and the
//! replayable event ring (`ring`). It drives the crates below through their own APIs —
//! connections (`mcplab-mcp`), providers (`mcplab-llm`), the apps rules (`mcplab-apps`), the
//! store (`mcplab-store`) — and re-exports none of them: a caller depends on the crate it uses.
//! No HTTP edge, no CLI parsing, no reads of the environment or the home directory, no globals:
//! callers hand in every dependency.
//!
//! # Where things are
//!
//! - `crates/mcplab-core/src/agent/`: `catalog.rs` (the one place the rules of what a model sees
//!   live: model-facing tool names `<server>__<tool>` — or `bare` per the host's
//!   `toolCatalog.naming` — — and, for a host without MCP Apps (`client.mcpApps: false`), no
//!   `_meta.ui` visibility: such a host offers app-only tools too —, sanitising, collisions,
//!   app-only and `openai/visibility: private` tools hidden, the HostConfig's per-server
//!   allow/deny, `toolCatalog.maxTools` with the rest listed in a `toolsLeftOut` turn event;
//!   `tests/vectors/model_rules.json` pins them for core and the web), `turn.rs` (`run_turn` and
//!   `TurnConfig::from_host`: stream a step, run tools concurrently, feed back, step limit; one
//!   terminal event), `tools.rs` (one tool call: approval, `tools/call` with progress →
//!   `toolProgress` events — the status of the task a call became too, the task waited on instead
//!   of a request timeout —, elicitation/sampling raised during the call → turn events, answered by
//!   the elicitation policy unless it is `ask`; one result per call; error text reaches the model
//!   once, unprefixed; `tool_result_part` gives the model what the host's `toolResults` allows:
//!   text, `structuredContent` whenNoText/always/never, images, embedded resources, never `_meta`),
//!   `elicitation.rs` (policy answers), `approval.rs` (tool calls waiting for allow/deny with
//!   timeout and cancel, on `mcp::pending::Pending`), `sink.rs` (`EventSink`), `timing.rs` (turn
//!   and step clocks: `stepXray` per step, `turnTiming` before the terminal event), `cost.rs`
//!   (`load_prices`: the shipped table with `<data dir>/prices.json` over it, errors with
//!   file:line; a step's cost from `mcplab_evals::prices`: cache reads at `cachedInput`, cache
//!   writes at `cacheWrite` — none in the table: no price —, `None` = no price; totals only when
//!   every step is priced).
//! - `crates/mcplab-core/src/session/`: The session runtime shared by the web server and `mcplab
//!   chat` and by eval runs. `host.rs` (the HostConfig contract: strict JSON/YAML parse with
//!   a size limit, `check`, canonical JSON, SHA-256 hash, the bridge from the older
//!   `ChatSettings`), `profiles.rs` (host profiles: the built-in ones are JSON data files in
//!   `crates/mcplab-core/hosts/` embedded with `include_str!`, each changed field with a documented
//!   source, "unknown" only for defaults; user profiles from `<data dir>/hosts/*.json` with
//!   file:line errors; `fields`/`diff` field by field; `export`; `apply_profile` = a profile's host
//!   sections over a config, for eval `hosts:`), `hub.rs` (`SessionHub`:
//!   create/list/view/patch/delete sessions with their HostConfig, the live runtime per session,
//!   app context, provider settings = given ones merged with those stored in Settings), `turns.rs`
//!   (submit: idempotent on the turn id, one running turn, retry via `replaces`, the turn run under
//!   the session's HostConfig with the stored history, stored when it ends; title naming),
//!   `runtime.rs` (`SessionRuntime`: running turn, accepted ids, the running turn's record,
//!   approvals, app context; publishing and recording under one lock), `compare.rs` (a turn's
//!   events → `TurnSummary`: calls, steps, tokens, cost, first token, total time, end;
//!   `differing_calls` against the first column), `compare_group.rs` (compare groups: 2–4 sessions
//!   grouped as one compare — stored as `compare_group`/`compare_column` on their rows, migration
//!   8, in `store/compare.rs` —, read back in column order, exported whole: JSON `CompareExport`
//!   with every column's session view, Markdown with a section per column), `runtime.rs` keeps the
//!   session's events in core's `ring::EventRing` (5,000 events / 4 MiB), `xray_bodies.rs` (a
//!   session's view for the web without x-ray bodies, `bodiesOmitted`; `step_xray` reads one step's
//!   whole x-ray by session/turn/step, stored or running), `export.rs` (JSON — every event, x-rays
//!   with their bodies included — and Markdown, each turn ending with its steps, tokens, cost,
//!   first token and total time).
//! - `crates/mcplab-core/src/ring.rs`: `EventRing`: a numbered, replayable event log bounded in
//!   events and in bytes (the newest event always kept), whose live channel carries sequence
//!   numbers only; a `Follower` reads what follows from the ring, so the bound is all a stream
//!   holds and a subscriber that missed wake-ups but not events loses nothing; `Gone` when a resume
//!   point left the ring. One type for the host stream, chat sessions, OAuth debug runs and eval
//!   runs; no transport (the server's `events::sse` serves it).
//! - `crates/mcplab-core/src/config/`: `mcpServers` documents: `format.rs` (strict parse — Claude
//!   Desktop, Cursor, VS Code `servers` and settings.json `mcp.servers` shapes, a `/sse` URL
//!   without a type is legacy SSE; errors name line and field — and render), `jsonc.rs` (comments
//!   and trailing commas blanked, positions kept), `import.rs` (lenient import: unusable entries
//!   skipped, names renamed, `disabled` left out, `envFile`/`${…}` reported — each a warning).

pub mod agent;
pub mod config;
pub mod ring;
pub mod session;

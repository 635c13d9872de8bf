//! `mcplab tap`: sits between a real host and an MCP server and records what they say. The
//! stdio tap (`stdio`) and the HTTP reverse proxy (`http`) forward bytes unchanged and in
//! order and hand copies to the `recorder`, which writes a JSON Lines file or sends them to a
//! running inspector; the inspector's side of a live tap is `ingest`; `recording` reads a
//! recording back, `replay` plays one against a server and compares the answers, `export` turns
//! one into an eval case or a `mcplab check` baseline, and `hosts` rewrites a host's config to go through the tap. The
//! binary only parses flags and picks where things go.
//!
//! # Where things are
//!
//! - `crates/mcplab-tap`: `mcplab tap` (issue 26): `stdio.rs` (the server in its own process group,
//!   bytes moved on two threads, each read cut into frames and queued (never waiting) just before
//!   it is written on, so a request is numbered before its answer; signals forwarded, its exit
//!   returned), `splitter.rs` (the copy cut into bounded line frames), `recorder/` (a non-blocking
//!   queue bounded in frames and bytes → batches to `file.rs`, JSON Lines rotated, and/or
//!   `live.rs`, a running `mcplab serve` via `launch.json`'s secret; a failing sink is dropped, the
//!   traffic flows), `http/` (`--url URL --listen ADDR`: an axum reverse proxy on loopback, request
//!   path and query onto the server's origin, hop-by-hop headers and `Accept-Encoding` dropped,
//!   answers streamed chunk by chunk; `record.rs` records as mcplab's own wires do — the posted
//!   frame with its `Mcp-*` headers, the exchange note with `mcplab-mcp`'s header masking, SSE
//!   messages or the JSON body linked to it; non-JSON-RPC bodies such as OAuth's are never recorded
//!   — in the session of `Mcp-Session-Id` or the legacy `sessionId`), `replay/` (a session's host
//!   frames sent again exactly, one request at a time, over a raw `mcplab-mcp` wire; server
//!   requests answered from the recording by method; answers compared by `normalize.rs` — ids, RFC
//!   3339 timestamps, UUIDs, per-run keys and `--ignore`d keys aside — each difference a JSON
//!   pointer; `mcplab tap replay` exits 1 on one), `label.rs` (the host from `clientInfo`, either
//!   era), `export/` (a session's requests paired with their answers and its era → `eval.rs`, a
//!   suite with one case expecting the model's tool calls and checking their results, and
//!   `baseline.rs`, mcplab-check's baseline surface per era via its `surface_from_frames`),
//!   `hosts.rs` (`servers tap|untap --for HOST`: each host's documented config path and key, the
//!   stdio entry rewritten through the tap and back; the binary's `commands/tap/hosts.rs` keeps the
//!   backup and restores its very text), `recording.rs` (a recording read back, sessions grouped),
//!   `ingest.rs` (`Taps`, the inspector's side: each host session recorded into the manager's
//!   `TrafficLog` under `tap:N[.k]`, the tap's frame numbers mapped; `mcplab-server`'s
//!   `routes/taps.rs` serves it, and `web/src/traffic/taps.ts` labels those keys). Recording lines
//!   are `mcplab_protocol::tap::TapLine`.

pub mod export;
pub mod hosts;
pub mod http;
pub mod ingest;
mod label;
pub mod recorder;
pub mod recording;
pub mod replay;
mod splitter;
pub mod stdio;

/// What can stop a tap.
#[derive(Debug, thiserror::Error)]
pub enum TapError {
    /// The server's command could not be started.
    #[error("cannot start `{command}`: {source}")]
    Spawn {
        command: String,
        #[source]
        source: std::io::Error,
    },
    /// The HTTP tap could not listen.
    #[error("cannot listen on {addr}: {source} (pick another --listen address)")]
    Listen {
        addr: String,
        #[source]
        source: std::io::Error,
    },
    /// A thread of the tap went away without saying how the server ended.
    #[error("lost track of the server process")]
    Lost,
}

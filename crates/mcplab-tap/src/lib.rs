//! `mcplab tap`: sits between a real host and an MCP server and records what they say. The
//! stdio tap (`stdio`) and the HTTP reverse proxy (`http`) forward bytes unchanged and in
//! order and hand copies to the `recorder`, which writes a JSON Lines file or sends them to a
//! running inspector; the inspector's side of a live tap is `ingest`; `recording` reads a
//! recording back, `replay` plays one against a server and compares the answers, `export` turns
//! one into an eval case or a `mcplab check` baseline, and `hosts` rewrites a host's config to go through the tap. The
//! binary only parses flags and picks where things go.

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

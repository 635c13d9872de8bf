//! mcplab's domain above the connection layer: the turn loop (`agent`), the chat session
//! runtime and its HostConfig (`session`), `mcpServers` configuration files (`config`) and the
//! replayable event ring (`ring`). It drives the crates below through their own APIs —
//! connections (`mcplab-mcp`), providers (`mcplab-llm`), the apps rules (`mcplab-apps`), the
//! store (`mcplab-store`) — and re-exports none of them: a caller depends on the crate it uses.
//! No HTTP edge, no CLI parsing, no reads of the environment or the home directory, no globals:
//! callers hand in every dependency.

pub mod agent;
pub mod config;
pub mod ring;
pub mod session;

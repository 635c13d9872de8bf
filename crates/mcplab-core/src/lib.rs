//! mcplab's domain: connections to MCP servers (`mcp`, with traffic recording and the broker for
//! server-initiated requests), OAuth (`oauth`), LLM providers (`llm`), the turn loop (`agent`),
//! the chat session runtime and its HostConfig (`session`), the MCP Apps host rules (`apps`),
//! `mcpServers` configuration files (`config`), the server checker (`check`), the SQLite store (`store`) and the headless app
//! renderer (`render`). No HTTP edge, no
//! CLI parsing, no reads of the environment or the home directory, no globals: callers hand in
//! every dependency.

pub mod agent;
pub mod apps;
pub mod check;
pub mod config;
pub mod render;
pub mod ring;
pub mod session;
pub mod store;

// The layers split into crates of their own keep their old paths here, so callers name
// `mcplab_core::oauth::…` as before; the crate edges enforce the layering rules.
pub use mcplab_llm as llm;
pub use mcplab_mcp as mcp;
pub use mcplab_oauth as oauth;

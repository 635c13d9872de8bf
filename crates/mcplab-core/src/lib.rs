//! mcplab's domain above the connection layer: the turn loop (`agent`), the chat session
//! runtime and its HostConfig (`session`), `mcpServers` configuration files (`config`) and the
//! replayable event ring (`ring`). The layers below are crates of their own, re-exported here
//! under their old module names: connections to MCP servers (`mcp`), OAuth (`oauth`), LLM
//! providers (`llm`), the MCP Apps host rules (`apps`), the headless app renderer (`render`)
//! and the SQLite store (`store`); the server checker is the crate `mcplab-check`. No HTTP
//! edge, no CLI parsing, no reads of the environment or the home directory, no globals:
//! callers hand in every dependency.

pub mod agent;
pub mod config;
pub mod ring;
pub mod session;

// The layers split into crates of their own keep their old paths here, so callers name
// `mcplab_core::oauth::…` as before; the crate edges enforce the layering rules.
pub use mcplab_apps as apps;
pub use mcplab_llm as llm;
pub use mcplab_mcp as mcp;
pub use mcplab_oauth as oauth;
pub use mcplab_render as render;
pub use mcplab_store as store;

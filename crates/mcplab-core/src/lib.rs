//! mcplab's domain: connections to MCP servers, traffic recording, server-initiated request
//! brokering, `mcpServers` configuration files, the server checker and the headless app renderer. No HTTP edge, no
//! CLI parsing, no reads of the environment or the home directory, no globals: callers hand in
//! every dependency.

pub mod agent;
pub mod apps;
pub mod check;
pub mod config;
pub mod llm;
pub mod mcp;
pub mod oauth;
pub mod render;
pub mod store;

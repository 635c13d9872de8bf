//! mcplab's domain: connections to MCP servers, traffic recording, server-initiated request
//! brokering and `mcpServers` configuration files. No HTTP edge, no CLI parsing, no reads of
//! the environment or the home directory, no globals: callers hand in every dependency.

pub mod agent;
pub mod apps;
pub mod config;
pub mod llm;
pub mod mcp;
pub mod store;

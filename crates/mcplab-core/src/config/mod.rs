//! Server configuration documents in the `mcpServers` JSON format used by Claude Desktop,
//! Cursor and VS Code: parsing (with errors that name the line and the field) and rendering,
//! for import and export. The configs themselves live in the store.

mod format;

pub use format::{parse_mcp_servers, render_mcp_servers, valid_server_name};

/// What is wrong with a config document.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The text is not valid, or an entry is not a server config.
    #[error("{source_name}:{line}: {message}")]
    Invalid {
        source_name: String,
        line: usize,
        message: String,
    },
}

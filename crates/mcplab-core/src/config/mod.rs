//! Server configuration documents in the `mcpServers` JSON format used by Claude Desktop,
//! Cursor and VS Code (JSONC included): strict parsing (errors name the line and the field),
//! lenient importing (warnings instead of failing the file) and rendering, for import and
//! export. The configs themselves live in the store.

mod format;
mod import;
mod jsonc;

pub use format::{is_legacy_sse_url, parse_mcp_servers, render_mcp_servers, valid_server_name};
pub use import::{Imported, import_mcp_servers};

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

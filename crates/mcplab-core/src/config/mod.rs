//! Server configuration files in the `mcpServers` JSON format used by Claude Desktop, Cursor
//! and VS Code: parsing (with errors that name the line and the field), rendering, and the
//! config file kept in the data directory. Paths come from the caller; nothing here looks
//! at the environment or the home directory.

mod file;
mod format;

pub use file::ConfigFile;
pub use format::{parse_mcp_servers, render_mcp_servers};

/// What went wrong with a config file.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The text is not valid, or an entry is not a server config.
    #[error("{source_name}:{line}: {message}")]
    Invalid {
        source_name: String,
        line: usize,
        message: String,
    },
    #[error("could not read {path}: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("could not write {path}: {source}")]
    Write {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// A server name that cannot be used.
    #[error("invalid server name `{0}`: use letters, digits, `-`, `_` or `.`")]
    BadName(String),
    #[error("no server named `{0}` in the config")]
    UnknownServer(String),
}

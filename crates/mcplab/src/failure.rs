//! What a command failed with, and the exit code that goes with it:
//! 1 the call returned an MCP error or `isError`, 2 usage or config, 3 connection, 130 Ctrl-C.

use mcplab_core::config::ConfigError;
use mcplab_core::mcp::McpError;

#[derive(Debug)]
pub struct Failure {
    pub code: u8,
    pub message: String,
}

pub const EXIT_CALL: u8 = 1;
pub const EXIT_USAGE: u8 = 2;
pub const EXIT_CONNECT: u8 = 3;
pub const EXIT_INTERRUPTED: u8 = 130;

impl Failure {
    pub fn usage(message: impl Into<String>) -> Self {
        Self {
            code: EXIT_USAGE,
            message: message.into(),
        }
    }

    pub fn call(message: impl Into<String>) -> Self {
        Self {
            code: EXIT_CALL,
            message: message.into(),
        }
    }

    pub fn config(e: ConfigError) -> Self {
        Self::usage(e.to_string())
    }

    /// A failure that was already reported (e.g. an `isError` result that was printed).
    pub fn silent(code: u8) -> Self {
        Self {
            code,
            message: String::new(),
        }
    }
}

impl From<McpError> for Failure {
    fn from(e: McpError) -> Self {
        let code = match &e {
            McpError::InvalidConfig(_) | McpError::InvalidRequest(_) => EXIT_USAGE,
            McpError::Spawn { .. }
            | McpError::Connect { .. }
            | McpError::Transport { .. }
            | McpError::NotConnected(_) => EXIT_CONNECT,
            McpError::Cancelled => EXIT_INTERRUPTED,
            McpError::Server { .. } | McpError::Timeout { .. } | McpError::BadResponse { .. } => {
                EXIT_CALL
            }
        };
        let mut message = e.to_string();
        if let McpError::Server {
            data: Some(data), ..
        } = &e
        {
            message.push_str(&format!("\ndetails: {data}"));
        }
        Self { code, message }
    }
}

//! What a command failed with, and the exit code that goes with it:
//! 0 stdout was closed by its reader (`| head`), 1 the call returned an MCP error or `isError`,
//! 2 usage or config, 3 connection, 130 Ctrl-C. With `--json` a failure is printed on stderr
//! as `{"error": {"kind", "code", "message", "data"}}` so scripts can read it.

use mcplab_core::config::ConfigError;
use mcplab_mcp::McpError;
use serde_json::{Value, json};

#[derive(Debug)]
pub struct Failure {
    pub code: u8,
    pub message: String,
    /// What failed, for `--json`: usage, connect, server, server-misbehaved, timeout,
    /// bad-response, transport, mcp, interrupted, call.
    pub kind: &'static str,
    /// The JSON-RPC error code and data when the server answered with an error.
    /// (Boxed: most failures have none, and results carrying a `Failure` stay small.)
    pub rpc: Option<Box<(i64, Option<Value>)>>,
}

pub const EXIT_OK: u8 = 0;
pub const EXIT_CALL: u8 = 1;
pub const EXIT_USAGE: u8 = 2;
pub const EXIT_CONNECT: u8 = 3;
pub const EXIT_INTERRUPTED: u8 = 130;

impl Failure {
    fn new(code: u8, kind: &'static str, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            kind,
            rpc: None,
        }
    }

    pub fn usage(message: impl Into<String>) -> Self {
        Self::new(EXIT_USAGE, "usage", message)
    }

    pub fn call(message: impl Into<String>) -> Self {
        Self::new(EXIT_CALL, "call", message)
    }

    pub fn connect(message: impl Into<String>) -> Self {
        Self::new(EXIT_CONNECT, "connect", message)
    }

    pub fn config(e: ConfigError) -> Self {
        Self::usage(e.to_string())
    }

    /// A failure that was already reported (e.g. an `isError` result that was printed).
    pub fn silent(code: u8) -> Self {
        Self::new(code, "reported", "")
    }

    /// The reader of our stdout went away (`mcplab … | head`): stop quietly, status 0.
    pub fn stdout_closed() -> Self {
        Self::new(EXIT_OK, "stdout-closed", "")
    }

    /// The `--json` form of this failure.
    pub fn to_json(&self) -> Value {
        let mut error = json!({ "kind": self.kind, "exit": self.code, "message": self.message });
        if let Some((code, data)) = self.rpc.as_deref() {
            error["code"] = json!(code);
            if let Some(data) = data {
                error["data"] = data.clone();
            }
        }
        json!({ "error": error })
    }
}

impl From<McpError> for Failure {
    fn from(e: McpError) -> Self {
        let (code, kind) = match &e {
            McpError::InvalidConfig(_) | McpError::InvalidParams(_) => (EXIT_USAGE, "usage"),
            McpError::Spawn { .. } | McpError::Connect { .. } | McpError::NotConnected(_) => {
                (EXIT_CONNECT, "connect")
            }
            McpError::Transport { .. } => (EXIT_CONNECT, "transport"),
            McpError::Cancelled => (EXIT_INTERRUPTED, "interrupted"),
            McpError::Server { .. } => (EXIT_CALL, "server"),
            McpError::Timeout { .. } => (EXIT_CALL, "timeout"),
            McpError::BadResponse { .. } => (EXIT_CALL, "bad-response"),
            McpError::Misbehaved { .. } => (EXIT_CALL, "server-misbehaved"),
            McpError::Other(_) => (EXIT_CALL, "mcp"),
        };
        let mut message = e.to_string();
        if matches!(e, McpError::Timeout { .. }) {
            // Core says what happened; the flag that changes it is this binary's.
            message.push_str("; raise the timeout with --timeout SECS if the server is just slow");
        }
        let mut rpc = None;
        if let McpError::Server {
            code: rpc_code,
            data,
            ..
        } = &e
        {
            if let Some(data) = data {
                message.push_str(&format!("\ndetails: {data}"));
            }
            rpc = Some(Box::new((*rpc_code, data.clone())));
        }
        Self {
            code,
            message,
            kind,
            rpc,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_timeout_says_which_flag_raises_it() {
        let f = Failure::from(McpError::Timeout {
            method: "tools/call".into(),
            after: Duration::from_secs(30),
        });
        assert_eq!((f.code, f.kind), (EXIT_CALL, "timeout"));
        assert!(f.message.contains("within 30s"), "{}", f.message);
        assert!(f.message.contains("--timeout SECS"), "{}", f.message);
    }

    #[test]
    fn a_misbehaving_server_is_a_failed_call_not_a_usage_error() {
        let f = Failure::from(McpError::Misbehaved {
            server: "looper".into(),
            message: "it repeated the cursor `a`".into(),
        });
        assert_eq!((f.code, f.kind), (EXIT_CALL, "server-misbehaved"));
        assert!(f.message.contains("server `looper`"), "{}", f.message);
        let f = Failure::from(McpError::InvalidParams("no skill `x`".into()));
        assert_eq!((f.code, f.kind), (EXIT_USAGE, "usage"));
    }
}

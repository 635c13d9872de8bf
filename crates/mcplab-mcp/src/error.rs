//! Errors of the MCP layer, one variant per thing a caller branches on (the CLI maps them to
//! exit codes, the HTTP edge to status codes). Messages say what happened and what to do.
//!
//! Whose fault a failure is stays in its variant: `InvalidParams` is the caller's (nothing
//! sent, or a skill or subscription the server does not have: CLI exit 2, HTTP 400
//! `invalid_params`), `Misbehaved` the server's (a result of the wrong shape, a repeated
//! cursor, over 1000 pages, a forbidden input request: exit 1, 502 `server_misbehaved`),
//! `BadResponse` a response that cannot be used (unparsable, over a limit; the request fails at
//! once), `Other` what mcplab cannot classify. Core messages say what happened; the edges add
//! the advice (the binary's `failure.rs`, the server's `error.rs` whose `mcp_failure` maps each
//! variant to one status on every route, the web's `api/advice.ts`).

use std::time::Duration;

use serde_json::Value;

#[derive(Debug, thiserror::Error)]
pub enum McpError {
    /// The server config cannot work as written.
    #[error("invalid server config: {0}")]
    InvalidConfig(String),

    /// The command of a stdio server could not be started.
    #[error("could not start `{command}`: {source}{hint}", hint = spawn_hint(source))]
    Spawn {
        command: String,
        #[source]
        source: std::io::Error,
    },

    /// The connection could not be established (transport or `initialize` failed).
    #[error("could not connect to {server}: {message}{tail}", tail = stderr_block(stderr_tail))]
    Connect {
        server: String,
        message: String,
        stderr_tail: Vec<String>,
    },

    /// The transport broke while a request was in flight.
    #[error("connection lost: {message}")]
    Transport { message: String },

    /// No response in time (progress notifications reset the clock). The edges add how to
    /// raise the timeout (a flag in the CLI, the server's settings in the web).
    #[error(
        "`{method}` got no response within {}s (the server may be slow or stuck)",
        after.as_secs_f64()
    )]
    Timeout { method: String, after: Duration },

    /// The server answered with a JSON-RPC error.
    #[error("the server returned error {code}: {message}")]
    Server {
        code: i64,
        message: String,
        data: Option<Value>,
    },

    /// The server's response could not be used: unparsable, or over a byte limit. The message
    /// says which, with the start of what came.
    #[error("{message}")]
    BadResponse { message: String },

    /// The request was cancelled by the user.
    #[error("cancelled")]
    Cancelled,

    /// There is no live connection with that name.
    #[error("server `{0}` is not connected; connect it first")]
    NotConnected(String),

    /// The caller's params cannot form the request (nothing was sent), or name something the
    /// server does not have (a skill, a subscription). The caller's fault: a usage error.
    #[error("{0}")]
    InvalidParams(String),

    /// The server broke the protocol: a result of the wrong shape, a repeated cursor, endless
    /// pages, an input request it may not make. Its fault, so the message names it.
    #[error("server `{server}` did not follow the protocol: {message}")]
    Misbehaved { server: String, message: String },

    /// A failure mcplab has no category for (an rmcp error it does not know, a stream that
    /// ended oddly): neither the caller's fault nor provably the server's.
    #[error("{0}")]
    Other(String),
}

fn spawn_hint(e: &std::io::Error) -> &'static str {
    match e.kind() {
        std::io::ErrorKind::NotFound => {
            " (command not found: check that it is installed and on PATH, or give a full path)"
        }
        std::io::ErrorKind::PermissionDenied => " (permission denied: is the file executable?)",
        _ => "",
    }
}

/// The server's last stderr lines as a block under a message (empty when there are none).
pub(crate) fn stderr_block(lines: &[String]) -> String {
    if lines.is_empty() {
        return String::new();
    }
    let mut s = String::from("\nlast lines the server wrote to stderr:");
    for l in lines {
        s.push_str("\n  | ");
        s.push_str(l);
    }
    s
}

impl McpError {
    /// Whether connecting over streamable HTTP failed because the server refused the POST
    /// with HTTP 400, 404 or 405: the spec's sign (backwards compatibility) that the URL may
    /// be a legacy HTTP+SSE server's, for a client that takes either kind of URL (B10).
    pub fn post_refused(&self) -> bool {
        let McpError::Connect { message, .. } = self else {
            return false;
        };
        ["HTTP 400 ", "HTTP 404 ", "HTTP 405 "]
            .iter()
            .any(|status| message.starts_with(status))
    }
}

#[cfg(test)]
mod tests {
    use super::McpError;

    #[test]
    fn a_refused_post_is_told_from_other_connect_failures() {
        let connect = |message: &str| McpError::Connect {
            server: "s".into(),
            message: message.into(),
            stderr_tail: Vec::new(),
        };
        assert!(connect("HTTP 405 Method Not Allowed from http://x/sse: …").post_refused());
        assert!(connect("HTTP 404 Not Found from http://x/mcp").post_refused());
        assert!(!connect("HTTP 401 Unauthorized from http://x/mcp").post_refused());
        assert!(!connect("no answer to `initialize` within 5s").post_refused());
        assert!(!McpError::Other("HTTP 404 ".into()).post_refused());
    }
}

//! Test and demo fixtures for mcplab. It owns the fixture MCP server (`mcplab-demo`), which
//! the binary ships as `mcplab demo-server` and the integration tests drive in process, the
//! scripted LLM server (`llm`) and an OAuth-protected MCP server with its authorization server
//! (`oauth`); those two are behind the `test-servers` feature, which the shipped binary does
//! not enable. It must never write anything but protocol frames to stdout: logging goes to
//! stderr.
//!
//! # Where things are
//!
//! - `crates/mcplab-testkit`: The fixture MCP server (`FixtureServer`, `serve_stdio`, `serve_io`,
//!   `serve_http`/`spawn_http`: rmcp's streamable HTTP service), shipped as `mcplab demo-server
//!   [--http ADDR]` (hidden `--read-log FILE`: one JSON line per `resources/read` with the reading
//!   client's `initialize`, so a test tells connections apart), speaking both eras
//!   (`fixture/modern.rs`: input_required instead of server requests, per-request log levels,
//!   listen streams; `booking.rs`: two input rounds with a sealed `requestState`; `tasks.rs`:
//!   `research`/`approve_deploy` as tasks; `skills.rs`); `llm/` the scripted LLM server (real HTTP
//!   on loopback, OpenAI Chat Completions and Anthropic Messages streaming, errors, cut-offs, slow
//!   streams), driven by a `Vec<Step>` per test; `oauth/` a real loopback authorization server
//!   (metadata, `/authorize` approving at once, `/token` with PKCE/refresh/client credentials,
//!   `/register`) and the MCP server it protects (streamable HTTP and legacy SSE, protected
//!   resource metadata, 401/403 challenges), every part a knob incl. broken setups;
//!   `examples/oauth_server.rs` serves presets for the browser test; `ports.rs` loopback ports below the
//!   kernel's ephemeral range for servers a test starts. `llm/`, `oauth/` and `ports` (and both
//!   examples) are behind the `test-servers` feature: the tests, examples and benches enable it
//!   (dev-dependencies, `--features test-servers`), the shipped binary does not.

mod fixture;
mod http_demo;
#[cfg(feature = "test-servers")]
pub mod llm;
#[cfg(feature = "test-servers")]
pub mod oauth;
#[cfg(feature = "test-servers")]
pub mod ports;

pub use fixture::FixtureServer;
pub use http_demo::{serve_http, spawn_http};

/// The error type of the serving functions: transport and handshake failures.
pub type ServeError = Box<dyn std::error::Error + Send + Sync>;

/// Serve the fixture server on stdin/stdout until the client disconnects.
///
/// This is what `mcplab demo-server` runs (`read_log`: its `--read-log FILE`). Nothing but
/// JSON-RPC frames is written to stdout.
pub async fn serve_stdio(read_log: Option<std::path::PathBuf>) -> Result<(), ServeError> {
    use rmcp::ServiceExt;

    let (read, write) = rmcp::transport::stdio_pipes();
    let server = match read_log {
        Some(path) => FixtureServer::new().with_read_log(path),
        None => FixtureServer::new(),
    };
    let running = server.serve((read, write)).await?;
    let reason = running.waiting().await?;
    tracing::debug!(?reason, "fixture server stopped");
    Ok(())
}

/// Serve the fixture server on any byte stream pair (e.g. the halves of a `tokio::io::duplex`)
/// until the peer disconnects.
pub async fn serve_io<R, W>(read: R, write: W) -> Result<(), ServeError>
where
    R: tokio::io::AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    use rmcp::ServiceExt;

    let running = FixtureServer::new().serve((read, write)).await?;
    let reason = running.waiting().await?;
    tracing::debug!(?reason, "fixture server stopped");
    Ok(())
}

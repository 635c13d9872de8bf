//! How `protocol: auto` (and a pinned era) picks the handshake for a new connection: stdio
//! and the legacy wires go through rmcp's own `auto` with mcplab's `server/discover` probe,
//! falling back to `initialize` on a fresh start when the probe is refused or unanswered, and
//! asking `server/discover` alone, patiently, after a first start that read nothing; streamable
//! HTTP tries the 2026-07-28 wire first. A pinned 2026-07-28 server that refuses says so.

use std::time::Duration;

use mcplab_protocol::{ServerConfig, ServerTransport};

use super::super::connection::Connection;
use super::super::error::McpError;
use super::super::modern::era::Plan;
use super::{ConnectionManager, HandshakeFailure, handshake};

impl ConnectionManager {
    pub(super) async fn open(&self, config: ServerConfig) -> Result<Connection, McpError> {
        let plan = Plan::new(config.protocol, config.transport.kind()).map_err(|message| {
            McpError::InvalidConfig(format!("server `{}`: {message}", config.name))
        })?;
        let auto = config.protocol.is_auto();
        let legacy = || Plan::Initialize(super::super::modern::LEGACY_REVISION.into());
        if !matches!(config.transport, ServerTransport::Http { .. }) || !plan.modern_wire() {
            // rmcp's `auto` falls back by itself when `server/discover` gets a JSON-RPC error
            // (a lax server's `{}` result is made one); an unanswered probe ends the handshake:
            // start again with `initialize` (a fresh process for stdio, which never saw the
            // probe: nothing but `server/discover` is sent to a server before it answers it).
            return match self.open_with(config.clone(), plan, None).await {
                Err(HandshakeFailure {
                    not_modern: Some(why),
                    slow_start: true,
                    ..
                }) if auto => self.open_after_slow_start(config, why).await,
                Err(HandshakeFailure {
                    not_modern: Some(why),
                    ..
                }) if auto => self.open_with(config, legacy(), Some(why)).await,
                Err(HandshakeFailure {
                    error,
                    not_modern: Some(why),
                    ..
                }) if plan_pinned_modern(&config) => Err(HandshakeFailure {
                    error: pinned_modern_failure(&config.name, &why, error),
                    not_modern: None,
                    slow_start: false,
                }),
                other => other,
            }
            .map_err(|f| f.error);
        }
        match self.open_modern_http(config.clone(), plan).await {
            Ok(conn) => Ok(conn),
            Err(HandshakeFailure {
                not_modern: Some(why),
                ..
            }) if auto => self
                .open_with(config, legacy(), Some(why))
                .await
                .map_err(|f| f.error),
            Err(HandshakeFailure {
                error,
                not_modern: Some(why),
                ..
            }) => Err(pinned_modern_failure(&config.name, &why, error)),
            Err(failure) => Err(failure.error),
        }
    }

    /// `auto` on stdio after a first start that never read the probe (still starting when rmcp's
    /// own 10 s probe deadline would have run out): a fresh start asked `server/discover` alone,
    /// patiently, so a slow 2026-07-28 server is still spoken to as one; a refusal there (or a
    /// read probe left unanswered) means a 2025 server, started once more with `initialize`.
    /// A second start that reads nothing for (nearly) the whole connect deadline either is not
    /// answering at all: the connect fails there, within one and a half deadlines, without a
    /// third start.
    async fn open_after_slow_start(
        &self,
        config: ServerConfig,
        why: String,
    ) -> Result<Connection, HandshakeFailure> {
        match self
            .open_with(config.clone(), Plan::Discover, Some(why.clone()))
            .await
        {
            Err(HandshakeFailure {
                error,
                slow_start: true,
                ..
            }) => Err(HandshakeFailure {
                error: read_nothing_twice(error, self.opts.connect_timeout),
                not_modern: None,
                slow_start: false,
            }),
            Err(HandshakeFailure {
                not_modern: Some(again),
                ..
            }) => {
                let legacy = Plan::Initialize(super::super::modern::LEGACY_REVISION.into());
                let both = format!("{why}; started again: {again}");
                self.open_with(config, legacy, Some(both)).await
            }
            other => other,
        }
    }
}

fn plan_pinned_modern(config: &ServerConfig) -> bool {
    config.protocol == mcplab_protocol::ProtocolChoice::V2026_07_28
}

/// The connect error of a stdio server that read nothing from its stdin on two starts (the
/// `auto` probe, then `server/discover` alone for nine tenths of the deadline): the stderr it wrote is
/// kept, the message says what was waited for and what to try.
fn read_nothing_twice(error: McpError, deadline: Duration) -> McpError {
    match error {
        McpError::Connect {
            server,
            stderr_tail,
            ..
        } => McpError::Connect {
            server,
            message: format!(
                "no answer to `initialize` or to the `server/discover` probe before it within {}, \
                 on two starts: the server read nothing from its stdin (is it an MCP server? if \
                 it starts slowly, raise the connect timeout)",
                handshake::seconds(deadline)
            ),
            stderr_tail,
        },
        other => other,
    }
}

/// N12: a server pinned to 2026-07-28 refused `server/discover`. `why` already quotes its
/// answer, so the underlying error (which named `initialize` and the internal server name)
/// only lends its stderr tail.
fn pinned_modern_failure(server: &str, why: &str, error: McpError) -> McpError {
    let stderr_tail = match error {
        McpError::Connect { stderr_tail, .. } => stderr_tail,
        _ => Vec::new(),
    };
    McpError::Connect {
        server: server.to_owned(),
        message: format!(
            "{why}: the server does not speak 2026-07-28 (protocol is pinned to 2026-07-28; \
             choose `auto` or a 2025 revision)"
        ),
        stderr_tail,
    }
}

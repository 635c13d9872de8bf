//! Servers running in this process, over a newline-delimited byte stream pair (tests, a
//! built-in server): connecting one, and opening its wire. Such a server cannot be
//! reconnected from its config (there is no command to start again).

use std::sync::Arc;

use mcplab_protocol::{ProtocolChoice, ServerConfig, ServerTransport};
use tokio_util::sync::CancellationToken;

use super::declared::Declaration;
use super::handshake::Started;
use super::{ConnectionManager, EraSetup, IN_PROCESS, InProcessIo};
use crate::connection::Connection;
use crate::error::McpError;
use crate::modern::era::Plan;
use crate::wire::wire_pair;

impl ConnectionManager {
    /// Connects to a server running in this process over a newline-delimited byte stream
    /// pair (tests, a built-in server). It cannot be reconnected from its config.
    pub async fn connect_io<R, W>(
        self: &Arc<Self>,
        name: &str,
        read: R,
        write: W,
    ) -> Result<Arc<Connection>, McpError>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
        W: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        self.connect_io_with(name, ProtocolChoice::Auto, read, write)
            .await
    }

    /// [`Self::connect_io`] speaking the given protocol revision.
    pub async fn connect_io_with<R, W>(
        self: &Arc<Self>,
        name: &str,
        protocol: ProtocolChoice,
        read: R,
        write: W,
    ) -> Result<Arc<Connection>, McpError>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
        W: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        let config = ServerConfig {
            name: name.to_owned(),
            transport: ServerTransport::Stdio {
                command: IN_PROCESS.to_owned(),
                args: Vec::new(),
                env: Default::default(),
                cwd: None,
            },
            timeout_ms: None,
            inherit_env: false,
            protocol,
        };
        let io: InProcessIo = (Box::new(read), Box::new(write));
        self.connect_via(config, Some(io), Declaration::Keep).await
    }

    /// Opens an in-process server's wire and runs the handshake on it.
    pub(super) async fn open_in_process(
        &self,
        config: ServerConfig,
        (read, write): InProcessIo,
    ) -> Result<Connection, McpError> {
        let (wire, end) = wire_pair();
        let max_line = self.opts.limits.message_bytes;
        crate::stdio::spawn_line_io(read, write, end, max_line, async {
            "the in-process server stopped".to_owned()
        });
        let stderr = Arc::new(self.stderr_tail_buffer());
        let gate = self.gate(config.name.as_str());
        match Plan::new(config.protocol, "stdio") {
            Ok(plan) => {
                let setup = EraSetup::new(plan);
                let started = Started::new(wire, stderr, gate, CancellationToken::new());
                self.handshake(config, started, setup)
                    .await
                    .map_err(|f| f.error)
            }
            Err(message) => Err(McpError::InvalidConfig(message)),
        }
    }
}

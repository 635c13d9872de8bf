//! Servers running in this process, over a newline-delimited byte stream pair: connecting one
//! handed in (tests; it cannot be reconnected from its config, there is no command to start
//! again), a [`BuiltinServer`] named by a stdio config's command line (the shipped demo
//! server: a fresh one on every connect, no child process), and opening their wire.

use std::fmt;
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

/// Bytes of a built-in server's pipe buffered each way before the writer waits.
const BUILTIN_PIPE_BYTES: usize = 64 * 1024;

/// A server this process runs itself whenever a stdio config names it by exactly this command
/// line (no `env`, no `cwd`): connecting such a config starts a fresh one on an in-memory pipe
/// instead of spawning a child (`mcplab serve` does this for its own `mcplab demo-server`, so
/// the inspector is one process). The frames are recorded as for a child; there is no pid and
/// no stderr.
#[derive(Clone)]
pub struct BuiltinServer {
    pub command: String,
    pub args: Vec<String>,
    /// Starts one on the current runtime, serving the given end of its pipe.
    pub start: Arc<dyn Fn(tokio::io::DuplexStream) + Send + Sync>,
}

impl fmt::Debug for BuiltinServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BuiltinServer")
            .field("command", &self.command)
            .field("args", &self.args)
            .finish_non_exhaustive()
    }
}

impl BuiltinServer {
    /// Whether `config` is this server's command line, and nothing else.
    fn runs(&self, config: &ServerConfig) -> bool {
        matches!(&config.transport, ServerTransport::Stdio { command, args, env, cwd }
            if *command == self.command && *args == self.args && env.is_empty() && cwd.is_none())
    }

    /// A fresh server; the client's ends of its pipe.
    fn open(&self) -> InProcessIo {
        let (client, server) = tokio::io::duplex(BUILTIN_PIPE_BYTES);
        (self.start)(server);
        let (read, write) = tokio::io::split(client);
        (Box::new(read), Box::new(write))
    }
}

impl ConnectionManager {
    /// The pipe of a fresh built-in server when `config` names one.
    pub(super) fn builtin_io(&self, config: &ServerConfig) -> Option<InProcessIo> {
        let builtin = self.opts.builtins.iter().find(|b| b.runs(config))?;
        Some(builtin.open())
    }

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

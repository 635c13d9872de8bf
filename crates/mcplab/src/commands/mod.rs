//! Runs a parsed command. Commands that talk to a server open a [`Session`], do their one
//! job, print, and close it; `servers` edits the config file; `demo-server` serves; `apps
//! render` also serves the API to a headless browser for its one render.

mod agent_config;
mod apps;
mod chat;
mod check;
pub mod eval;
pub mod hosts;
mod inspect;
mod listen;
mod mcp;
mod mcp_attach;
mod oauth;
mod open;
mod servers;
mod skills;
mod tap;
mod tasks;

pub use agent_config::CodingAgent;

use crate::cli::{Command, Connected};
use crate::failure::Failure;
use crate::session::Session;
use crate::settings::Settings;

/// Runs `command` under the settings resolved for it.
pub async fn run(command: Command, settings: &Settings) -> Result<(), Failure> {
    let data = &settings.data;
    match command {
        Command::Serve(_) => crate::serve::run(settings).await,
        Command::Servers(cmd) => servers::run(cmd, settings).await,
        Command::Tap(args) => tap::run(args, settings).await,
        Command::Chat(args) => chat::run(args, settings, data).await,
        Command::Oauth(Connected { cmd, .. }) => oauth::run(cmd, settings).await,
        Command::Apps(group) => apps::run(group.cmd, settings).await,
        Command::Eval(cmd) => eval::run(cmd, settings, data).await,
        Command::Hosts(cmd) => hosts::run(cmd, settings, data),
        Command::Open { print } => open::run(data, print).await,
        Command::Check(args) => check::run(args, settings).await,
        Command::Mcp(args) => mcp::run(args, settings).await,
        Command::Completions { shell } => crate::cli::completions(shell),
        Command::Man { dir } => crate::cli::man(dir.as_deref()),
        Command::DemoServer {
            http: None,
            read_log,
        } => mcplab_testkit::serve_stdio(read_log)
            .await
            .map_err(|e| Failure::call(format!("demo server stopped: {e}"))),
        Command::DemoServer {
            http: Some(addr), ..
        } => demo_http(addr).await,
        Command::Inspect(cmd) => {
            with_session(settings, async |s| inspect::run(cmd, settings, s).await).await
        }
        Command::Tasks(group) => {
            with_session(settings, async |s| tasks::run(group.cmd, settings, s).await).await
        }
        Command::Skills(group) => {
            with_session(settings, async |s| {
                skills::run(group.cmd, settings, s).await
            })
            .await
        }
        Command::Listen(args) => {
            with_session(settings, async |s| listen::run(args, settings, s).await).await
        }
    }
}

/// Opens the session `settings` name, runs `job` on it and closes it, whatever `job` returns.
async fn with_session(
    settings: &Settings,
    job: impl AsyncFnOnce(&Session) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let session = Session::open(settings).await?;
    let result = job(&session).await;
    session.close().await;
    result
}

/// A listener on `addr` for an MCP endpoint at `/mcp`, announced on stderr as `who`'s.
pub(crate) async fn listen_for_mcp(
    addr: std::net::SocketAddr,
    who: &str,
) -> Result<tokio::net::TcpListener, Failure> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| Failure::usage(format!("cannot listen on {addr}: {e}")))?;
    let bound = listener
        .local_addr()
        .map_err(|e| Failure::usage(e.to_string()))?;
    eprintln!("{who}: http://{bound}/mcp (Ctrl-C to stop)");
    Ok(listener)
}

/// `demo-server --http ADDR`: the demo server over streamable HTTP until Ctrl-C.
async fn demo_http(addr: std::net::SocketAddr) -> Result<(), Failure> {
    let listener = listen_for_mcp(addr, "mcplab demo server").await?;
    let cancel = tokio_util::sync::CancellationToken::new();
    let stop = cancel.clone();
    tokio::spawn(async move {
        let _ = tokio::signal::ctrl_c().await;
        stop.cancel();
    });
    mcplab_testkit::serve_http(listener, cancel)
        .await
        .map_err(|e| Failure::call(format!("demo server stopped: {e}")))
}

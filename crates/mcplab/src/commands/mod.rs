//! Runs a parsed command. Commands that talk to a server open a [`Session`], do their one
//! job, print, and close it; `servers` edits the config file; `demo-server` serves; `apps
//! render` also serves the API to a headless browser for its one render.

mod apps;
mod chat;
mod check;
pub mod eval;
pub mod hosts;
mod inspect;
mod listen;
mod oauth;
mod open;
mod servers;
mod skills;
mod tasks;

use crate::cli::{Cli, Command};
use crate::failure::Failure;
use crate::session::Session;
use crate::settings::DataDir;

pub async fn run(cli: Cli) -> Result<(), Failure> {
    let data = DataDir::resolve(cli.global.data_dir.as_deref())?;
    match cli.command.unwrap_or(Command::Serve { host: None }) {
        Command::Serve { host } => {
            let mut global = cli.global.clone();
            global.serve.host = host.or(global.serve.host);
            crate::serve::run(&global, &data).await
        }
        Command::Servers(cmd) => servers::run(cmd, &cli.global, &data),
        Command::Chat(args) => chat::run(args, &cli.global, &data).await,
        Command::Oauth(cmd) => oauth::run(cmd, &cli.global, &data).await,
        Command::Apps(cmd) => apps::run(cmd, &cli.global, &data).await,
        Command::Eval(cmd) => eval::run(cmd, &cli.global, &data).await,
        Command::Hosts(cmd) => hosts::run(cmd, &cli.global, &data),
        Command::Open { print } => open::run(&data, print).await,
        Command::Check(args) => check::run(args, &cli.global, &data).await,
        Command::DemoServer { http: None } => mcplab_testkit::serve_stdio()
            .await
            .map_err(|e| Failure::call(format!("demo server stopped: {e}"))),
        Command::DemoServer { http: Some(addr) } => demo_http(addr).await,
        command => {
            let session = Session::open(&cli.global, &data).await?;
            let result = match command {
                Command::Tasks(cmd) => tasks::run(cmd, &cli.global, &session, &data).await,
                Command::Skills(cmd) => skills::run(cmd, &cli.global, &session).await,
                Command::Listen(args) => listen::run(args, &cli.global, &session).await,
                command => inspect::run(command, &cli.global, &session, &data).await,
            };
            session.close().await;
            result
        }
    }
}

/// `demo-server --http ADDR`: the demo server over streamable HTTP until Ctrl-C.
async fn demo_http(addr: std::net::SocketAddr) -> Result<(), Failure> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| Failure::usage(format!("cannot listen on {addr}: {e}")))?;
    let bound = listener
        .local_addr()
        .map_err(|e| Failure::usage(e.to_string()))?;
    eprintln!("mcplab demo server: http://{bound}/mcp (Ctrl-C to stop)");
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

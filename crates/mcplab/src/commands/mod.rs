//! Runs a parsed command. Commands that talk to a server open a [`Session`], do their one
//! job, print, and close it; `servers` edits the config file; `demo-server` serves; `apps
//! render` also serves the API to a headless browser for its one render.

mod apps;
mod chat;
mod check;
mod inspect;
mod oauth;
mod open;
mod servers;

use crate::cli::{Cli, Command};
use crate::failure::Failure;
use crate::session::Session;
use crate::settings::DataDir;

pub async fn run(cli: Cli) -> Result<(), Failure> {
    let data = DataDir::resolve(cli.global.data_dir.as_deref())?;
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => crate::serve::run(&cli.global, &data).await,
        Command::Servers(cmd) => servers::run(cmd, &cli.global, &data),
        Command::Chat(args) => chat::run(args, &cli.global, &data).await,
        Command::Oauth(cmd) => oauth::run(cmd, &cli.global, &data).await,
        Command::Apps(cmd) => apps::run(cmd, &cli.global, &data).await,
        Command::Open { print } => open::run(&data, print).await,
        Command::Check(args) => check::run(args, &cli.global, &data).await,
        Command::DemoServer => mcplab_testkit::serve_stdio()
            .await
            .map_err(|e| Failure::call(format!("demo server stopped: {e}"))),
        command => {
            let session = Session::open(&cli.global, &data).await?;
            let result = inspect::run(command, &cli.global, &session).await;
            session.close().await;
            result
        }
    }
}

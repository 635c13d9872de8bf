//! How `mcplab check` connects each era: a CLI [`Session`] per era (answering the server as
//! every command does, recording the whole traffic ring), handed to the checker as an
//! `Opened` connection; and the options of the connections `--host`'s live renders open.

use futures::FutureExt;
use futures::future::BoxFuture;
use mcplab_check::eras::{Connector, OpenError, Opened, Opening};
use std::time::Duration;

use mcplab_mcp::{Connection, ManagerOptions, TrafficLog};
use mcplab_protocol::ServerConfig;

use crate::failure::{EXIT_CONNECT, Failure};
use crate::session::Session;
use crate::settings::Settings;

pub struct Sessions<'a> {
    pub settings: &'a Settings,
}

/// A session the checker uses.
struct Checked {
    session: Session,
}

impl Opened for Checked {
    fn connection(&self) -> &Connection {
        self.session.connection()
    }

    fn traffic(&self) -> &TrafficLog {
        self.session.manager().traffic()
    }

    fn close(self: Box<Self>) -> BoxFuture<'static, ()> {
        self.session.close().boxed()
    }
}

impl Connector for Sessions<'_> {
    type Fatal = Failure;

    fn open(&mut self, config: ServerConfig) -> Opening<'_, Failure> {
        async move {
            match Session::open_recorded(self.settings, vec![config]).await {
                Ok(session) => Ok(Box::new(Checked { session }) as Box<dyn Opened>),
                Err((failure, frames)) if failure.code == EXIT_CONNECT => {
                    let error = failure.message.lines().next().unwrap_or("").to_owned();
                    Err(OpenError::Failed { error, frames })
                }
                Err((failure, _)) => Err(OpenError::Fatal(failure)),
            }
        }
        .boxed()
    }
}

/// The connection options of a live render (each opens its own connection as the host):
/// a one-shot command's, with the flags' timeouts and environment.
pub fn render_options(settings: &Settings) -> ManagerOptions {
    let mut opts = ManagerOptions {
        stop_grace: Duration::from_millis(200),
        traffic_capacity: 1_024,
        listen_for_changes: false,
        ..ManagerOptions::default()
    };
    settings.apply(&mut opts);
    opts
}

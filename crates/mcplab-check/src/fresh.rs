//! A [`Connector`] that opens each era on a connection manager of its own (with the given
//! options, listening for nothing), so only that connection's frames are judged and the
//! caller's connections of the same server are left alone; the manager is shut down (its
//! server stopped) when the era is done. `mcplab mcp`'s `check` tool uses it; the web API
//! uses [`FreshManagers::beside`], whose managers record into the app's traffic log so the
//! findings' frames can be opened in its traffic view — under a name of their own,
//! `NAME (check)`, so they never mix with the live connection's frames of `NAME` (sequence
//! numbers are the log's, so a finding's frame links stay exact). A remote server that signs
//! in with OAuth is recorded under that name too, and signs in with `NAME`'s stored
//! credentials (`ConnectionManager::sign_in_as`).

use std::convert::Infallible;
use std::sync::Arc;

use futures::FutureExt;
use futures::future::BoxFuture;
use mcplab_mcp::{Connection, ConnectionManager, ManagerOptions, TrafficLog};
use mcplab_protocol::ServerConfig;

use crate::eras::{Connector, OpenError, Opened, Opening};

pub struct FreshManagers {
    options: ManagerOptions,
    /// The manager whose traffic log and OAuth the era's managers share (None: their own).
    beside: Option<Arc<ConnectionManager>>,
}

impl FreshManagers {
    pub fn new(mut options: ManagerOptions) -> Self {
        options.listen_for_changes = false;
        Self {
            options,
            beside: None,
        }
    }

    /// Managers with `manager`'s options that record into its traffic log.
    pub fn beside(manager: Arc<ConnectionManager>) -> Self {
        let mut fresh = Self::new(manager.options().clone());
        fresh.beside = Some(manager);
        fresh
    }
}

struct Managed {
    manager: Arc<ConnectionManager>,
    conn: Arc<Connection>,
}

impl Opened for Managed {
    fn connection(&self) -> &Connection {
        &self.conn
    }

    fn traffic(&self) -> &TrafficLog {
        self.manager.traffic()
    }

    fn close(self: Box<Self>) -> BoxFuture<'static, ()> {
        async move { self.manager.shutdown().await }.boxed()
    }
}

impl Connector for FreshManagers {
    type Fatal = Infallible;

    fn open(&mut self, config: ServerConfig) -> Opening<'_, Infallible> {
        let manager = match &self.beside {
            Some(app) => app.sibling_with(self.options.clone()),
            None => ConnectionManager::new(self.options.clone()),
        };
        let mut config = config;
        if self.beside.is_some() {
            if config.transport.oauth_applies() {
                manager.sign_in_as(&config.name);
            }
            config.name = format!("{} (check)", config.name);
        }
        async move {
            let name = config.name.clone();
            match manager.connect(config).await {
                Ok(conn) => Ok(Box::new(Managed { manager, conn }) as Box<dyn Opened>),
                Err(e) => {
                    let frames = manager.traffic().snapshot(&name).frames;
                    manager.shutdown().await;
                    let error = e.to_string();
                    let first = error.lines().next().unwrap_or_default().to_owned();
                    Err(OpenError::Failed {
                        error: first,
                        frames,
                    })
                }
            }
        }
        .boxed()
    }
}

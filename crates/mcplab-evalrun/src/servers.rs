//! The run's servers while iterations run: before an iteration starts, every server must be
//! connected — one that went away (a crash, a closed stream) is reconnected, once, however
//! many iterations notice at the same moment; and after an iteration, whether a server went
//! away while it ran (its connection is not the one the iteration started with), in which
//! case the iteration measured the crash, not the model, and is marked errored.

use std::collections::BTreeMap;
use std::sync::Arc;

use mcplab_core::mcp::{Connection, ConnectionManager};
use mcplab_protocol::ServerStatus;

/// The connections an iteration started with, to compare with those at its end.
pub struct Snapshot(BTreeMap<String, Option<Arc<Connection>>>);

pub struct ServerHealth {
    manager: Arc<ConnectionManager>,
    names: Vec<String>,
    /// One reconnect at a time per run (a crash is noticed by every iteration in flight).
    reconnecting: tokio::sync::Mutex<()>,
}

impl ServerHealth {
    pub fn new(manager: Arc<ConnectionManager>, names: Vec<String>) -> Self {
        Self {
            manager,
            names,
            reconnecting: tokio::sync::Mutex::new(()),
        }
    }

    pub fn manager(&self) -> &Arc<ConnectionManager> {
        &self.manager
    }

    /// Makes sure every server is connected, reconnecting those that are not. `Ok` carries
    /// what was reconnected (for a warning); `Err` says which server could not be reached.
    pub async fn ensure(&self) -> Result<Vec<String>, String> {
        if self.all_connected() {
            return Ok(Vec::new());
        }
        let _one = self.reconnecting.lock().await;
        let mut done = Vec::new();
        for name in &self.names {
            let status = self.manager.status(name);
            if self.connected(name) {
                continue;
            }
            let why = match status {
                Some(ServerStatus::Failed { message }) => message,
                Some(ServerStatus::Connected) => self
                    .manager
                    .get(name)
                    .ok()
                    .and_then(|c| c.closed_reason())
                    .unwrap_or_else(|| "its connection closed".into()),
                Some(other) => format!("{other:?}").to_lowercase(),
                None => "never connected".into(),
            };
            match self.manager.reconnect(name).await {
                Ok(_) => done.push(format!("server `{name}` went away ({why}); reconnected")),
                Err(e) => {
                    return Err(format!(
                        "server `{name}` went away ({why}) and could not be reconnected: {e}"
                    ));
                }
            }
        }
        Ok(done)
    }

    fn all_connected(&self) -> bool {
        self.names.iter().all(|n| self.connected(n))
    }

    /// Connected, and its transport not closed (the status follows a close a moment later).
    fn connected(&self, name: &str) -> bool {
        matches!(self.manager.status(name), Some(ServerStatus::Connected))
            && self
                .manager
                .get(name)
                .is_ok_and(|c| c.closed_reason().is_none())
    }

    /// The connections now.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot(
            self.names
                .iter()
                .map(|n| (n.clone(), self.manager.get(n).ok()))
                .collect(),
        )
    }

    /// The servers that went away (or were replaced) since `before`.
    pub fn lost_since(&self, before: &Snapshot) -> Vec<String> {
        before
            .0
            .iter()
            .filter(|(name, then)| {
                let now = self.manager.get(name).ok();
                match (then, now) {
                    (Some(a), Some(b)) => !Arc::ptr_eq(a, &b),
                    _ => true,
                }
            })
            .map(|(name, _)| name.clone())
            .collect()
    }
}

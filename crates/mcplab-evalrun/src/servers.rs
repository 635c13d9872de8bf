//! The run's servers while iterations run: before an iteration starts, every server must be
//! connected — one that went away (a crash, a closed stream) is reconnected, once, however
//! many iterations notice at the same moment; and after an iteration, whether a server went
//! away while it ran (its connection is not the one the iteration started with), in which
//! case the iteration measured the crash, not the model, and is marked errored.

use std::collections::BTreeMap;
use std::sync::Arc;

use mcplab_mcp::{Connection, ConnectionManager};
use mcplab_protocol::ServerStatus;

/// The connections an iteration started with, to compare with those at its end.
pub(crate) struct Snapshot(BTreeMap<String, Option<Arc<Connection>>>);

pub(crate) struct ServerHealth {
    manager: Arc<ConnectionManager>,
    names: Vec<String>,
    /// One reconnect at a time per run (a crash is noticed by every iteration in flight).
    reconnecting: tokio::sync::Mutex<()>,
}

impl ServerHealth {
    pub(crate) fn new(manager: Arc<ConnectionManager>, names: Vec<String>) -> Self {
        Self {
            manager,
            names,
            reconnecting: tokio::sync::Mutex::new(()),
        }
    }

    pub(crate) fn manager(&self) -> &Arc<ConnectionManager> {
        &self.manager
    }

    /// Makes sure every server is connected, reconnecting those that are not. `Ok` carries
    /// what was reconnected (for a warning); `Err` says which server could not be reached.
    pub(crate) async fn ensure(&self) -> Result<Vec<String>, String> {
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
    pub(crate) fn snapshot(&self) -> Snapshot {
        Snapshot(
            self.names
                .iter()
                .map(|n| (n.clone(), self.manager.get(n).ok()))
                .collect(),
        )
    }

    /// The servers that went away (or were replaced) since `before`.
    pub(crate) fn lost_since(&self, before: &Snapshot) -> Vec<String> {
        before
            .0
            .iter()
            .filter(|(name, then)| gone(then.as_ref(), self.manager.get(name).ok()))
            .map(|(name, _)| name.clone())
            .collect()
    }
}

/// Whether the connection an iteration started with (`then`) is gone by its end: replaced,
/// removed, or closed. Closed counts even while the manager still holds it: a tool call that
/// failed on the dead server lets the iteration finish before the manager, still closing the
/// process, marks the server failed (the eval flake of stop 20: the crash went unnoticed and
/// the iteration passed).
fn gone(then: Option<&Arc<Connection>>, now: Option<Arc<Connection>>) -> bool {
    match (then, now) {
        (Some(a), Some(b)) => !Arc::ptr_eq(a, &b) || a.closed_reason().is_some(),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcplab_mcp::ManagerOptions;
    use mcplab_protocol::ProtocolChoice;
    use serde_json::{Value, json};
    use std::time::Duration;
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    /// A server that completes the handshake and then goes away (its end of the pipe dropped).
    async fn short_lived(manager: &Arc<ConnectionManager>) -> Arc<Connection> {
        let (client, server) = tokio::io::duplex(1 << 16);
        let (sr, mut sw) = tokio::io::split(server);
        tokio::spawn(async move {
            let mut lines = BufReader::new(sr).lines();
            let line = lines.next_line().await.unwrap().unwrap();
            let init: Value = serde_json::from_str(&line).unwrap();
            let reply = json!({"jsonrpc": "2.0", "id": init["id"], "result": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "serverInfo": {"name": "short-lived", "version": "1"}}});
            sw.write_all(format!("{reply}\n").as_bytes()).await.unwrap();
            // `notifications/initialized`, then the server is gone.
            let _ = lines.next_line().await;
        });
        let (cr, cw) = tokio::io::split(client);
        manager
            .connect_io_with("s", ProtocolChoice::V2025_11_25, cr, cw)
            .await
            .unwrap()
    }

    #[tokio::test]
    async fn a_connection_that_closed_counts_as_gone_while_the_manager_still_holds_it() {
        let manager = ConnectionManager::new(ManagerOptions::default());
        let conn = short_lived(&manager).await;
        assert!(!gone(Some(&conn), Some(conn.clone())), "open and unchanged");
        let mut closed = conn.closed_watch();
        tokio::time::timeout(Duration::from_secs(10), closed.wait_for(Option::is_some))
            .await
            .expect("the transport closes")
            .unwrap();
        assert!(
            gone(Some(&conn), Some(conn.clone())),
            "closed, same connection"
        );
        assert!(gone(Some(&conn), None), "removed");
    }
}

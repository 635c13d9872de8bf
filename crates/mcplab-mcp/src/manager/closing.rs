//! Closing connections: one on request ([`ConnectionManager::disconnect`]), one removed from
//! the configuration ([`ConnectionManager::remove`], which also tells subscribers), all of them
//! at exit, and one whose transport closed by itself (the watcher marks it failed). The other
//! configuration changes are told here too ([`ConnectionManager::configured`]), in order with
//! the status events, though they close nothing.

use std::sync::Arc;

use mcplab_protocol::{ServerEvent, ServerStatus};

use super::ConnectionManager;
use crate::connection::Connection;

impl ConnectionManager {
    /// Closes the connection called `name` (and kills its process group).
    pub async fn disconnect(&self, name: &str) {
        let conn = {
            let mut slots = self.slots.lock();
            let Some(slot) = slots.get_mut(name) else {
                return;
            };
            slot.generation = self.next_generation();
            slot.status = ServerStatus::Disconnected;
            slot.conn.take()
        };
        self.broker.withdraw_server(name);
        if let Some(conn) = conn {
            conn.close().await;
        }
        self.events.send(ServerEvent::Status {
            server: name.to_owned(),
            status: ServerStatus::Disconnected,
        });
    }

    /// Forgets server `name` (removed from the configuration): closes its connection, drops
    /// what the manager kept of it, and tells every subscriber ([`ServerEvent::Removed`], sent
    /// whether or not it was connected) so lists drop it.
    pub async fn remove(&self, name: &str) {
        self.disconnect(name).await;
        self.slots.lock().remove(name);
        self.events.send(ServerEvent::Removed {
            server: name.to_owned(),
        });
    }

    /// Tells every subscriber that server `name` was added to the configuration
    /// ([`ServerEvent::Added`]) or, when `replaced`, changed in place ([`ServerEvent::Updated`]),
    /// so lists fetch it. A connection is neither started nor changed.
    pub fn configured(&self, name: &str, replaced: bool) {
        let server = name.to_owned();
        self.events.send(match replaced {
            true => ServerEvent::Updated { server },
            false => ServerEvent::Added { server },
        });
    }

    /// Tells every subscriber the configured servers are now in the order of `names`
    /// ([`ServerEvent::Reordered`]), so lists follow. Nothing connects or closes.
    pub fn reordered(&self, names: Vec<String>) {
        self.events.send(ServerEvent::Reordered { servers: names });
    }

    /// Closes every connection; call before exiting.
    pub async fn shutdown(&self) {
        let names: Vec<String> = self.slots.lock().keys().cloned().collect();
        for n in names {
            self.disconnect(&n).await;
        }
    }

    /// Marks the server failed when its transport closes by itself.
    pub(super) fn watch(self: &Arc<Self>, name: String, generation: u64, conn: Arc<Connection>) {
        let weak = Arc::downgrade(self);
        let mut closed = conn.raw.closed_watch();
        drop(conn);
        tokio::spawn(async move {
            let Ok(reason) = closed.wait_for(Option::is_some).await.map(|r| r.clone()) else {
                return;
            };
            let Some(manager) = weak.upgrade() else {
                return;
            };
            let conn = manager.slots.lock().get(&name).and_then(|s| s.conn.clone());
            let mut message = reason.unwrap_or_default();
            if let Some(conn) = conn {
                let tail = conn.stderr_tail();
                if let Some(last) = tail.last() {
                    message.push_str(&format!("; last stderr line: {last}"));
                }
                // Make sure nothing of the server outlives the session.
                conn.close().await;
            }
            manager.set_status(&name, generation, ServerStatus::Failed { message });
        });
    }
}

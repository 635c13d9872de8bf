//! The `tools/list` the app-call check reads, cached per server: an app that polls a tool
//! (system monitors, dashboards) would otherwise cost a `tools/list` round trip per call. An
//! entry is dropped when the server says its tools changed (`tools/list_changed`) or its
//! connection leaves `connected` (reconnect, failure, disconnect), and its slot goes when the
//! server is removed; a list fetched while it was being dropped is not kept. It caches nothing
//! else and decides nothing: `mcplab_apps` does.

use std::collections::HashMap;
use std::sync::Arc;

use mcplab_mcp::ConnectionManager;
use mcplab_protocol::{ServerEvent, ServerStatus};
use parking_lot::Mutex;
use serde_json::Value;
use tokio::sync::broadcast::error::RecvError;

struct Slot {
    /// Replaced by every invalidation, so a fetch that raced one is not stored.
    generation: u64,
    tools: Option<Arc<Vec<Value>>>,
}

#[derive(Default)]
struct Slots {
    by_server: HashMap<String, Slot>,
    /// The last generation given out, cache-wide: a server removed and added again gets a
    /// slot no fetch for the removed one can store into.
    last: u64,
}

impl Slots {
    /// A generation no slot had before.
    fn fresh(last: &mut u64) -> u64 {
        *last += 1;
        *last
    }
}

#[derive(Default)]
pub(crate) struct AppToolsCache {
    slots: Mutex<Slots>,
}

impl AppToolsCache {
    /// A cache kept current by `manager`'s events (until its channel closes).
    pub(crate) fn start(manager: &ConnectionManager) -> Arc<Self> {
        let cache = Arc::new(Self::default());
        let weak = Arc::downgrade(&cache);
        let mut events = manager.subscribe();
        tokio::spawn(async move {
            loop {
                let event = events.recv().await;
                let Some(cache) = weak.upgrade() else { return };
                match event {
                    Ok(ServerEvent::ListChanged { server, list }) if list.starts_with("tools") => {
                        cache.invalidate(&server)
                    }
                    // Leaving `connected` (reconnect, failure) drops the list; arriving there
                    // does not, so a list fetched right after connecting stays.
                    Ok(ServerEvent::Status { server, status })
                        if status != ServerStatus::Connected =>
                    {
                        cache.invalidate(&server)
                    }
                    Ok(ServerEvent::Removed { server }) => cache.remove(&server),
                    Ok(_) => {}
                    Err(RecvError::Lagged(_)) => cache.invalidate_all(),
                    Err(RecvError::Closed) => return,
                }
            }
        });
        cache
    }

    /// The cached list, or the generation to hand back to [`Self::store`] after fetching.
    pub(crate) fn get(&self, server: &str) -> Result<Arc<Vec<Value>>, u64> {
        let mut slots = self.slots.lock();
        let Slots { by_server, last } = &mut *slots;
        let slot = by_server.entry(server.to_owned()).or_insert_with(|| Slot {
            generation: Slots::fresh(last),
            tools: None,
        });
        slot.tools.clone().ok_or(slot.generation)
    }

    /// Keeps `tools` unless the server's list was invalidated (or the server removed) since
    /// `generation`.
    pub(crate) fn store(
        &self,
        server: &str,
        generation: u64,
        tools: Vec<Value>,
    ) -> Arc<Vec<Value>> {
        let tools = Arc::new(tools);
        let mut slots = self.slots.lock();
        if let Some(slot) = slots.by_server.get_mut(server)
            && slot.generation == generation
        {
            slot.tools = Some(tools.clone());
        }
        tools
    }

    /// Drops the server's list (a server nobody asked about has no slot: nothing to drop).
    pub(crate) fn invalidate(&self, server: &str) {
        let mut slots = self.slots.lock();
        let Slots { by_server, last } = &mut *slots;
        if let Some(slot) = by_server.get_mut(server) {
            slot.generation = Slots::fresh(last);
            slot.tools = None;
        }
    }

    /// Forgets the server (removed from the configuration).
    fn remove(&self, server: &str) {
        self.slots.lock().by_server.remove(server);
    }

    fn invalidate_all(&self) {
        let mut slots = self.slots.lock();
        let Slots { by_server, last } = &mut *slots;
        for slot in by_server.values_mut() {
            slot.generation = Slots::fresh(last);
            slot.tools = None;
        }
    }

    #[cfg(test)]
    fn has_slot(&self, server: &str) -> bool {
        self.slots.lock().by_server.contains_key(server)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_list_fetched_across_an_invalidation_is_not_kept() {
        let cache = AppToolsCache::default();
        let generation = cache.get("a").unwrap_err();
        cache.store("a", generation, vec![json!({"name": "x"})]);
        assert_eq!(cache.get("a").unwrap().len(), 1);

        cache.invalidate("a");
        let stale = cache.get("a").unwrap_err();
        cache.invalidate("a");
        cache.store("a", stale, vec![json!({"name": "old"})]);
        assert!(cache.get("a").is_err(), "the stale list was dropped");
        assert!(cache.get("b").is_err());
    }

    #[tokio::test]
    async fn a_removed_servers_slot_goes_and_its_late_fetch_is_not_kept() {
        let manager = ConnectionManager::new(Default::default());
        let cache = AppToolsCache::start(&manager);
        let generation = cache.get("a").unwrap_err();
        cache.store("a", generation, vec![json!({"name": "x"})]);
        let in_flight = cache.get("b").unwrap_err();
        manager.remove("a").await;
        manager.remove("b").await;
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(60);
        while cache.has_slot("a") || cache.has_slot("b") {
            assert!(tokio::time::Instant::now() < deadline, "the slots stayed");
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        // `b` is added again and asked for; the fetch for the removed `b` comes back late.
        let fresh = cache.get("b").unwrap_err();
        cache.store("b", in_flight, vec![json!({"name": "old"})]);
        assert!(
            cache.get("b").is_err(),
            "the removed server's list is not kept"
        );
        cache.store("b", fresh, vec![json!({"name": "new"})]);
        assert_eq!(cache.get("b").unwrap()[0]["name"], "new");
    }
}

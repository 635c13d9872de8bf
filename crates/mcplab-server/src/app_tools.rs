//! The `tools/list` the app-call check reads, cached per server: an app that polls a tool
//! (system monitors, dashboards) would otherwise cost a `tools/list` round trip per call. An
//! entry is dropped when the server says its tools changed (`tools/list_changed`) or its
//! connection leaves `connected` (reconnect, failure, disconnect); a list fetched while it was being dropped
//! is not kept. It caches nothing else and decides nothing: `mcplab_apps` does.

use std::collections::HashMap;
use std::sync::Arc;

use mcplab_mcp::ConnectionManager;
use mcplab_protocol::{ServerEvent, ServerStatus};
use parking_lot::Mutex;
use serde_json::Value;
use tokio::sync::broadcast::error::RecvError;

#[derive(Default)]
struct Slot {
    /// Bumped by every invalidation, so a fetch that raced one is not stored.
    generation: u64,
    tools: Option<Arc<Vec<Value>>>,
}

#[derive(Default)]
pub(crate) struct AppToolsCache {
    slots: Mutex<HashMap<String, Slot>>,
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
        let slot = slots.entry(server.to_owned()).or_default();
        slot.tools.clone().ok_or(slot.generation)
    }

    /// Keeps `tools` unless the server's list was invalidated since `generation`.
    pub(crate) fn store(
        &self,
        server: &str,
        generation: u64,
        tools: Vec<Value>,
    ) -> Arc<Vec<Value>> {
        let tools = Arc::new(tools);
        let mut slots = self.slots.lock();
        let slot = slots.entry(server.to_owned()).or_default();
        if slot.generation == generation {
            slot.tools = Some(tools.clone());
        }
        tools
    }

    pub(crate) fn invalidate(&self, server: &str) {
        let mut slots = self.slots.lock();
        let slot = slots.entry(server.to_owned()).or_default();
        slot.generation += 1;
        slot.tools = None;
    }

    fn invalidate_all(&self) {
        for slot in self.slots.lock().values_mut() {
            slot.generation += 1;
            slot.tools = None;
        }
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
}

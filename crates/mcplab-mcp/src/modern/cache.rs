//! Cacheable results of 2026-07-28 (SEP-2549): `server/discover`, the list methods and
//! `resources/read` carry `ttlMs` (freshness) and `cacheScope`. A connection keeps fresh
//! results by method and the parameters that affect them (cursor, uri), serves them without a
//! round trip while fresh, and forgets them on the matching change notification. Results of
//! multi-round-trip retries are never cached. Legacy results have no `ttlMs` and so are never
//! fresh. Bounded: at most [`MAX_ENTRIES`] results, oldest dropped first.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use serde_json::Value;

/// Most results kept per connection.
pub const MAX_ENTRIES: usize = 256;

/// Methods whose results may be cached.
const CACHEABLE: [&str; 6] = [
    "server/discover",
    "tools/list",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
];

/// A result served from the cache.
#[derive(Debug, Clone)]
pub struct CacheHit {
    pub result: Value,
    pub age: Duration,
    pub ttl: Duration,
}

struct Entry {
    result: Value,
    stored: Instant,
    ttl: Duration,
}

#[derive(Default)]
pub struct ResponseCache {
    inner: Mutex<(HashMap<String, Entry>, VecDeque<String>)>,
}

impl ResponseCache {
    /// The cache key of a request, `None` when it must not be cached.
    pub fn key(method: &str, params: Option<&Value>) -> Option<String> {
        if !CACHEABLE.contains(&method) {
            return None;
        }
        let param = |k: &str| params.and_then(|p| p.get(k));
        if param("inputResponses").is_some() || param("requestState").is_some() {
            return None;
        }
        let part = match method {
            "resources/read" => param("uri")?.to_string(),
            _ => param("cursor").map(Value::to_string).unwrap_or_default(),
        };
        Some(format!("{method} {part}"))
    }

    /// A fresh result for `key`, if any.
    pub fn get(&self, key: &str) -> Option<CacheHit> {
        let inner = self.inner.lock();
        let entry = inner.0.get(key)?;
        let age = entry.stored.elapsed();
        (age < entry.ttl).then(|| CacheHit {
            result: entry.result.clone(),
            age,
            ttl: entry.ttl,
        })
    }

    /// Keeps `result` when it is complete and says it stays fresh for a while.
    pub fn put(&self, key: String, result: &Value) {
        let complete = result
            .get("resultType")
            .and_then(Value::as_str)
            .is_none_or(|t| t == "complete");
        let ttl = result.get("ttlMs").and_then(Value::as_u64).unwrap_or(0);
        if !complete || ttl == 0 {
            return;
        }
        let mut inner = self.inner.lock();
        let (map, order) = &mut *inner;
        if map
            .insert(
                key.clone(),
                Entry {
                    result: result.clone(),
                    stored: Instant::now(),
                    ttl: Duration::from_millis(ttl),
                },
            )
            .is_none()
        {
            order.push_back(key);
        }
        while order.len() > MAX_ENTRIES {
            if let Some(old) = order.pop_front() {
                map.remove(&old);
            }
        }
    }

    /// Forgets what a notification makes stale: `tools`, `prompts`, `resources` (lists and
    /// templates) or one resource's reads (`uri`).
    pub fn invalidate(&self, list: &str, uri: Option<&str>) {
        let prefixes: Vec<String> = match (list, uri) {
            (_, Some(uri)) => vec![format!("resources/read {}", Value::from(uri))],
            ("tools", None) => vec!["tools/list ".into()],
            ("prompts", None) => vec!["prompts/list ".into()],
            ("resources", None) => {
                vec!["resources/list ".into(), "resources/templates/list ".into()]
            }
            _ => Vec::new(),
        };
        let mut inner = self.inner.lock();
        let (map, order) = &mut *inner;
        map.retain(|k, _| !prefixes.iter().any(|p| k.starts_with(p.as_str())));
        order.retain(|k| map.contains_key(k));
    }

    /// Forgets everything.
    pub fn clear(&self) {
        let mut inner = self.inner.lock();
        inner.0.clear();
        inner.1.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fresh_results_are_served_and_notifications_invalidate_them() {
        let cache = ResponseCache::default();
        let key = ResponseCache::key("tools/list", None).unwrap();
        cache.put(
            key.clone(),
            &json!({"tools": [], "ttlMs": 60000, "cacheScope": "public"}),
        );
        assert!(cache.get(&key).is_some());
        cache.invalidate("prompts", None);
        assert!(cache.get(&key).is_some());
        cache.invalidate("tools", None);
        assert!(cache.get(&key).is_none());
    }

    #[test]
    fn stale_incomplete_and_retried_results_are_not_kept() {
        let cache = ResponseCache::default();
        let key = ResponseCache::key("resources/read", Some(&json!({"uri": "a://b"}))).unwrap();
        cache.put(key.clone(), &json!({"contents": [], "ttlMs": 0}));
        assert!(cache.get(&key).is_none());
        cache.put(
            key.clone(),
            &json!({"resultType": "input_required", "ttlMs": 9000}),
        );
        assert!(cache.get(&key).is_none());
        cache.put(key.clone(), &json!({"contents": []}));
        assert!(cache.get(&key).is_none());
        let retry = json!({"uri": "a://b", "requestState": "x"});
        assert!(ResponseCache::key("resources/read", Some(&retry)).is_none());
        assert!(ResponseCache::key("tools/call", None).is_none());
        cache.put(key.clone(), &json!({"contents": [], "ttlMs": 5000}));
        cache.invalidate("resources", Some("a://b"));
        assert!(cache.get(&key).is_none());
    }
}

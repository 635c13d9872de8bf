//! Ties an HTTP wire's exchanges to the traffic records of the frames they carried, for
//! `frame_transport`. An outbound frame is recorded before the wire posts it, so its record is
//! remembered by the address of its bytes: the wire gets that very `Bytes` (a clone shares the
//! allocation, which stays alive while the wire holds it) and hands it back with the exchange
//! that posted it. Exchanges are numbered by the wire; their records' `seq` is remembered by
//! that number so the frames a response carries can name it. Both maps are bounded; a link that
//! was forgotten only leaves a frame ungrouped. It records nothing itself.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use std::sync::Arc;

use bytes::Bytes;
use parking_lot::Mutex;

/// How many links of each kind are remembered.
const CAPACITY: usize = 1024;

/// The newest `CAPACITY` entries of a map.
struct Recent<K> {
    map: HashMap<K, u64>,
    order: VecDeque<K>,
}

impl<K: Hash + Eq + Clone> Recent<K> {
    fn new() -> Self {
        Self {
            map: HashMap::new(),
            order: VecDeque::new(),
        }
    }

    fn insert(&mut self, key: K, seq: u64) {
        if self.map.insert(key.clone(), seq).is_none() {
            self.order.push_back(key);
        }
        while self.order.len() > CAPACITY {
            if let Some(old) = self.order.pop_front() {
                self.map.remove(&old);
            }
        }
    }

    fn get(&self, key: &K) -> Option<u64> {
        self.map.get(key).copied()
    }
}

/// Where a frame's bytes live: the same for every clone of one `Bytes`.
fn address(bytes: &Bytes) -> (usize, usize) {
    (bytes.as_ptr() as usize, bytes.len())
}

/// The links of one connection.
#[derive(Clone)]
pub(crate) struct ExchangeLinks {
    sent: Arc<Mutex<Recent<(usize, usize)>>>,
    exchanges: Arc<Mutex<Recent<u64>>>,
}

impl Default for ExchangeLinks {
    fn default() -> Self {
        Self {
            sent: Arc::new(Mutex::new(Recent::new())),
            exchanges: Arc::new(Mutex::new(Recent::new())),
        }
    }
}

impl ExchangeLinks {
    /// An outbound frame was recorded as `seq`.
    pub(crate) fn sent(&self, bytes: &Bytes, seq: u64) {
        let mut sent = self.sent.lock();
        sent.insert(address(bytes), seq);
    }

    /// The record of the frame an exchange posted.
    pub(crate) fn request_seq(&self, posted: &Bytes) -> Option<u64> {
        let sent = self.sent.lock();
        sent.get(&address(posted))
    }

    /// The wire's exchange `id` was recorded as `seq`.
    pub(crate) fn exchange(&self, id: u64, seq: u64) {
        let mut exchanges = self.exchanges.lock();
        exchanges.insert(id, seq);
    }

    /// The record of the wire's exchange `id`.
    pub(crate) fn exchange_seq(&self, id: u64) -> Option<u64> {
        let exchanges = self.exchanges.lock();
        exchanges.get(&id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_posted_frame_is_found_by_its_bytes_and_links_stay_bounded() {
        let links = ExchangeLinks::default();
        let frame = Bytes::from(b"{\"jsonrpc\":\"2.0\"}".to_vec());
        links.sent(&frame, 7);
        let handed_down = frame.clone();
        assert_eq!(links.request_seq(&handed_down), Some(7));
        let other = Bytes::from(b"{\"jsonrpc\":\"2.0\"}".to_vec());
        assert_eq!(
            links.request_seq(&other),
            None,
            "equal bytes elsewhere are another frame"
        );
        for id in 0..(CAPACITY as u64 + 10) {
            links.exchange(id, id + 100);
        }
        assert_eq!(links.exchange_seq(0), None, "the oldest are forgotten");
        assert_eq!(
            links.exchange_seq(CAPACITY as u64 + 9),
            Some(CAPACITY as u64 + 109)
        );
        assert!(links.exchanges.lock().map.len() <= CAPACITY);
    }
}

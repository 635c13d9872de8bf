//! A session's event stream: every event gets a sequence number, is kept for replay in a ring
//! bounded both in events and in bytes (a server decides how large a tool result is), and is
//! broadcast to live subscribers. A subscriber resuming after an event the ring no longer
//! holds gets [`Resume::Resync`]: reload the session, then follow on. It never blocks on a
//! subscriber and never serves HTTP.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

/// Events kept for replay per session.
pub const REPLAY_EVENTS: usize = 5_000;
/// Bytes (of serialized events) kept for replay per session.
pub const REPLAY_BYTES: usize = 4 << 20;
/// Live events a slow subscriber may fall behind before it is told to resync.
const LIVE_BACKLOG: usize = 4096;

/// One numbered event, already serialized.
#[derive(Clone, Debug)]
pub struct Numbered {
    pub seq: u64,
    pub json: Arc<str>,
}

/// What a resuming subscriber gets before the live events.
#[derive(Debug)]
pub enum Resume {
    /// Everything after the given sequence number, in order (empty for a fresh subscriber).
    Replay(Vec<Numbered>),
    /// The gap is gone from the ring (or the id is from another launch): reload.
    Resync,
}

struct Ring {
    next: u64,
    items: VecDeque<Numbered>,
    bytes: usize,
}

pub struct ReplayRing {
    ring: Mutex<Ring>,
    live: broadcast::Sender<Numbered>,
    max_events: usize,
    max_bytes: usize,
}

impl Default for ReplayRing {
    fn default() -> Self {
        Self::new(REPLAY_EVENTS, REPLAY_BYTES)
    }
}

impl ReplayRing {
    pub fn new(max_events: usize, max_bytes: usize) -> Self {
        let (live, _) = broadcast::channel(LIVE_BACKLOG);
        Self {
            ring: Mutex::new(Ring {
                next: 1,
                items: VecDeque::new(),
                bytes: 0,
            }),
            live,
            max_events: max_events.max(1),
            max_bytes,
        }
    }

    /// Numbers, keeps and broadcasts one event; returns its sequence number. An event larger
    /// than the whole byte budget is broadcast but not kept (resuming before it resyncs).
    pub fn publish<T: serde::Serialize>(&self, event: &T) -> u64 {
        let json: Arc<str> = serde_json::to_string(event)
            .unwrap_or_else(|_| "{\"kind\":\"resync\"}".into())
            .into();
        let mut ring = self.ring.lock().unwrap_or_else(|p| p.into_inner());
        let item = Numbered {
            seq: ring.next,
            json,
        };
        ring.next += 1;
        let size = item.json.len();
        if size > self.max_bytes {
            ring.items.clear();
            ring.bytes = 0;
        } else {
            while ring.items.len() >= self.max_events || ring.bytes + size > self.max_bytes {
                match ring.items.pop_front() {
                    Some(old) => ring.bytes -= old.json.len(),
                    None => break,
                }
            }
            ring.bytes += size;
            ring.items.push_back(item.clone());
        }
        // Sent under the lock so live order equals ring order.
        let _ = self.live.send(item.clone());
        item.seq
    }

    /// The sequence number of the newest event (0 before the first).
    pub fn last_seq(&self) -> u64 {
        self.ring.lock().unwrap_or_else(|p| p.into_inner()).next - 1
    }

    /// Bytes held for replay.
    pub fn held_bytes(&self) -> usize {
        self.ring.lock().unwrap_or_else(|p| p.into_inner()).bytes
    }

    /// Subscribes and says what must be replayed after `last_seen` (`None`: a fresh
    /// subscriber, nothing to replay). Taken under one lock with the subscription, so the
    /// live events all come after the replayed ones: no gap, no duplicate.
    pub fn resume(&self, last_seen: Option<u64>) -> (Resume, broadcast::Receiver<Numbered>) {
        let ring = self.ring.lock().unwrap_or_else(|p| p.into_inner());
        let rx = self.live.subscribe();
        let Some(last) = last_seen else {
            return (Resume::Replay(Vec::new()), rx);
        };
        let oldest = ring.items.front().map_or(ring.next, |i| i.seq);
        if last + 1 < oldest || last >= ring.next {
            return (Resume::Resync, rx);
        }
        let missed = ring
            .items
            .iter()
            .filter(|i| i.seq > last)
            .cloned()
            .collect();
        (Resume::Replay(missed), rx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seqs(r: Resume) -> Vec<u64> {
        match r {
            Resume::Replay(items) => items.iter().map(|i| i.seq).collect(),
            Resume::Resync => panic!("expected a replay"),
        }
    }

    #[test]
    fn replay_after_last_seen_and_resync_when_too_old() {
        let ring = ReplayRing::new(3, 1 << 20);
        for i in 0..5 {
            ring.publish(&i);
        }
        assert_eq!(seqs(ring.resume(Some(3)).0), [4, 5]);
        assert_eq!(seqs(ring.resume(Some(2)).0), [3, 4, 5]);
        assert!(
            matches!(ring.resume(Some(1)).0, Resume::Resync),
            "2 is gone"
        );
        assert!(
            matches!(ring.resume(Some(99)).0, Resume::Resync),
            "a future id is from another launch"
        );
        assert!(seqs(ring.resume(None).0).is_empty());
    }

    #[test]
    fn the_ring_is_bounded_in_bytes() {
        // Each event is a 100-character JSON string (102 bytes with quotes).
        let event = "x".repeat(100);
        let ring = ReplayRing::new(1000, 1000);
        for _ in 0..50 {
            ring.publish(&event);
        }
        assert!(
            ring.held_bytes() <= 1000,
            "{} bytes held",
            ring.held_bytes()
        );
        assert_eq!(ring.held_bytes(), 9 * 102, "as many whole events as fit");
        assert_eq!(seqs(ring.resume(Some(41)).0), (42..=50).collect::<Vec<_>>());
        assert!(matches!(ring.resume(Some(40)).0, Resume::Resync));

        // One event larger than the whole budget is broadcast but not kept.
        let (_, mut live) = ring.resume(None);
        let huge = ring.publish(&"y".repeat(5000));
        assert_eq!(live.try_recv().unwrap().seq, huge);
        assert_eq!(ring.held_bytes(), 0);
        assert!(
            matches!(ring.resume(Some(huge - 1)).0, Resume::Resync),
            "a client that missed it must reload"
        );
        assert!(seqs(ring.resume(Some(huge)).0).is_empty());
        ring.publish(&"small");
        assert_eq!(seqs(ring.resume(Some(huge)).0), [huge + 1]);
    }
}

//! A numbered, replayable event log with live subscribers: the host event stream, each chat
//! session's stream, each OAuth debug run's and each eval run's stream are one of these. Every
//! event gets a sequence number and is kept, already serialized, in a ring bounded in events and
//! in bytes; a subscriber resuming after an event the ring no longer holds is told it is
//! [`Gone`] and must reload. It owns no transport: the HTTP crate serves it as SSE.
//!
//! The live channel carries sequence numbers only, and a subscriber reads the events from the
//! ring. So the ring's byte bound is all the stream holds (a broadcast channel keeps its last
//! values in its slots after every subscriber read them: 4,096 events of 16 KiB were 64 MiB
//! outside the bound), and a subscriber that falls behind the wake-ups but not behind the ring
//! loses nothing.

use std::collections::VecDeque;
use std::sync::Arc;

use parking_lot::Mutex;
use tokio::sync::broadcast;

/// Wake-ups a subscriber may miss before it catches up from the ring (they are 8 bytes each).
pub const WAKE_UPS: usize = 4096;

/// What a subscriber asked for already left the ring (or its id is from another launch): it
/// must reload, then follow on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gone;

/// One numbered event, already serialized.
#[derive(Clone, Debug)]
pub struct Numbered {
    pub seq: u64,
    pub json: Arc<str>,
}

struct Ring {
    next: u64,
    items: VecDeque<Numbered>,
    /// Bytes of the kept items' JSON (what the byte bound counts).
    bytes: usize,
}

impl Ring {
    /// Everything after `last`; `Err(Gone)` when part of it already left the ring (or `last`
    /// is from another launch).
    fn after(&self, last: u64) -> Result<Vec<Numbered>, Gone> {
        let oldest = self.items.front().map_or(self.next, |i| i.seq);
        if last + 1 < oldest || last >= self.next {
            return Err(Gone);
        }
        Ok(self
            .items
            .iter()
            .filter(|i| i.seq > last)
            .cloned()
            .collect())
    }
}

struct Shared {
    ring: Mutex<Ring>,
    live: broadcast::Sender<u64>,
    capacity: usize,
    max_bytes: usize,
}

/// The log. Cloning shares it.
#[derive(Clone)]
pub struct EventRing {
    shared: Arc<Shared>,
}

impl EventRing {
    /// A ring of `capacity` events with no byte bound beyond that.
    pub fn with_capacity(capacity: usize) -> Self {
        Self::with_limits(capacity, usize::MAX)
    }

    /// A ring of at most `capacity` events and `max_bytes` bytes of JSON (the newest event is
    /// always kept, whatever its size, so a subscriber that is keeping up never misses it).
    pub fn with_limits(capacity: usize, max_bytes: usize) -> Self {
        let (live, _) = broadcast::channel(WAKE_UPS);
        Self {
            shared: Arc::new(Shared {
                ring: Mutex::new(Ring {
                    next: 1,
                    items: VecDeque::new(),
                    bytes: 0,
                }),
                live,
                capacity: capacity.max(1),
                max_bytes,
            }),
        }
    }

    /// Bytes of JSON the ring holds for replay.
    pub fn bytes_held(&self) -> usize {
        self.shared.ring.lock().bytes
    }

    /// Numbers, keeps and announces one event; returns its sequence number.
    pub fn publish<T: serde::Serialize>(&self, event: &T) -> u64 {
        let json: Arc<str> = serde_json::to_string(event)
            .unwrap_or_else(|_| "{\"kind\":\"resync\"}".into())
            .into();
        let shared = &self.shared;
        let mut ring = self.shared.ring.lock();
        let seq = ring.next;
        ring.next += 1;
        ring.bytes += json.len();
        ring.items.push_back(Numbered { seq, json });
        while ring.items.len() > shared.capacity
            || (ring.bytes > shared.max_bytes && ring.items.len() > 1)
        {
            if let Some(old) = ring.items.pop_front() {
                ring.bytes -= old.json.len();
            }
        }
        // Sent under the lock so wake-ups come in ring order.
        let _ = shared.live.send(seq);
        seq
    }

    /// The sequence number of the newest event (0 before the first).
    pub fn last_seq(&self) -> u64 {
        self.shared.ring.lock().next - 1
    }

    /// Subscribes and returns what must be replayed after `last_seen` (None: nothing to
    /// replay, a fresh subscriber), then follows on. Replay and subscription are taken under
    /// one lock, so what follows comes after the replay: no duplicate, no gap.
    pub fn resume(&self, last_seen: Option<u64>) -> (Result<Vec<Numbered>, Gone>, Follower) {
        let ring = self.shared.ring.lock();
        let wake = self.shared.live.subscribe();
        let at = ring.next - 1;
        let replay = match last_seen {
            None => Ok(Vec::new()),
            Some(last) => ring.after(last),
        };
        drop(ring);
        let follower = Follower {
            ring: self.clone(),
            wake,
            at,
        };
        (replay, follower)
    }

    /// The events after `last`.
    pub fn after(&self, last: u64) -> Result<Vec<Numbered>, Gone> {
        self.shared.ring.lock().after(last)
    }
}

/// One subscriber's place in a ring.
pub struct Follower {
    ring: EventRing,
    wake: broadcast::Receiver<u64>,
    at: u64,
}

impl Follower {
    /// The next events in order, at least one; `Err(Gone)` when this subscriber fell behind
    /// the ring itself (it reloads, and following goes on from the newest event); `None` when
    /// the ring is gone.
    pub async fn next(&mut self) -> Option<Result<Vec<Numbered>, Gone>> {
        loop {
            match self.wake.recv().await {
                // Missed wake-ups only mean more to read from the ring.
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => return None,
            }
            match self.ring.after(self.at) {
                Ok(items) => {
                    let Some(last) = items.last() else { continue };
                    self.at = last.seq;
                    return Some(Ok(items));
                }
                Err(Gone) => {
                    self.at = self.ring.last_seq();
                    return Some(Err(Gone));
                }
            }
        }
    }

    /// The sequence number of the last event this subscriber got.
    pub fn at(&self) -> u64 {
        self.at
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn seqs(r: Result<Vec<Numbered>, Gone>) -> Vec<u64> {
        r.expect("a replay").iter().map(|i| i.seq).collect()
    }

    #[test]
    fn replay_after_last_seen_and_gone_when_too_old() {
        let ring = EventRing::with_capacity(3);
        for i in 0..5 {
            ring.publish(&i);
        }
        assert_eq!(seqs(ring.resume(Some(3)).0), [4, 5]);
        assert_eq!(seqs(ring.resume(Some(2)).0), [3, 4, 5]);
        assert_eq!(ring.resume(Some(1)).0.err(), Some(Gone), "2 is gone");
        assert_eq!(
            ring.resume(Some(99)).0.err(),
            Some(Gone),
            "a future id is from another launch"
        );
        assert!(seqs(ring.resume(None).0).is_empty());
    }

    #[test]
    fn bytes_bound_the_ring_and_the_newest_is_always_kept() {
        // Each event is a 100-character JSON string (102 bytes with quotes).
        let ring = EventRing::with_limits(1000, 1000);
        for _ in 0..50 {
            ring.publish(&"x".repeat(100));
        }
        assert_eq!(ring.bytes_held(), 9 * 102, "as many whole events as fit");
        assert_eq!(seqs(ring.resume(Some(41)).0), (42..=50).collect::<Vec<_>>());
        assert_eq!(ring.resume(Some(40)).0.err(), Some(Gone));
        // One event larger than the whole budget is kept while it is the newest.
        let huge = ring.publish(&"y".repeat(5000));
        assert_eq!(seqs(ring.resume(Some(huge - 1)).0), [huge]);
        assert_eq!(ring.resume(Some(huge - 2)).0.err(), Some(Gone));
        let small = ring.publish(&"small");
        assert_eq!(seqs(ring.resume(Some(huge)).0), [small]);
        assert!(ring.bytes_held() <= 1000, "{}", ring.bytes_held());
    }

    /// An event that left the ring is held by nothing of the ring's: the old live channel
    /// kept its last 4,096 events in its slots, outside the byte bound.
    #[test]
    fn an_evicted_event_is_not_held_by_the_live_channel() {
        let ring = EventRing::with_limits(4, usize::MAX);
        let _subscriber = ring.resume(None);
        ring.publish(&"x".repeat(16 * 1024));
        let first = ring.after(0).unwrap().remove(0);
        for _ in 0..10 {
            ring.publish(&"y");
        }
        assert!(ring.after(0).is_err(), "the first event left the ring");
        assert_eq!(Arc::strong_count(&first.json), 1, "only this test holds it");
    }

    /// A subscriber that missed more wake-ups than the channel keeps, but not events the ring
    /// keeps, gets every event in order and no resync.
    #[tokio::test]
    async fn a_subscriber_behind_the_wake_ups_catches_up_from_the_ring() {
        let ring = EventRing::with_capacity(WAKE_UPS * 2);
        let (_, mut follower) = ring.resume(None);
        let total = (WAKE_UPS + 100) as u64;
        for i in 0..total {
            ring.publish(&i);
        }
        let mut got = Vec::new();
        while (got.len() as u64) < total {
            let batch = tokio::time::timeout(Duration::from_secs(10), follower.next())
                .await
                .expect("events in time")
                .expect("the ring is open")
                .expect("no resync");
            got.extend(batch.iter().map(|i| i.seq));
        }
        assert_eq!(got, (1..=total).collect::<Vec<_>>());
        assert_eq!(follower.at(), total);
    }

    /// A subscriber that fell behind the ring itself is told so once, then follows on.
    #[tokio::test]
    async fn a_subscriber_behind_the_ring_is_told_gone_then_follows_on() {
        let ring = EventRing::with_capacity(2);
        let (_, mut follower) = ring.resume(None);
        for i in 0..5 {
            ring.publish(&i);
        }
        let next = tokio::time::timeout(Duration::from_secs(10), follower.next()).await;
        assert_eq!(next.expect("in time").expect("open").err(), Some(Gone));
        let after = ring.publish(&"after");
        let next = tokio::time::timeout(Duration::from_secs(10), follower.next()).await;
        assert_eq!(seqs(next.expect("in time").expect("open")), [after]);
    }
}

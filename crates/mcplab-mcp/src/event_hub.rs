//! The channel of server events (status changes, human requests, and the notifications and
//! stderr lines the event gate forwards) to everyone who listens: the web's event hub, the
//! CLI, the agent. It is a broadcast channel bounded in events ([`EVENT_CAPACITY`]; a reader
//! that falls further behind misses the oldest and is told how many) and in bytes
//! ([`EVENT_BYTES`], security review N5): an event stays held until every reader has taken it,
//! so the bytes of the events the slowest reader has not taken yet are counted (by their JSON
//! size), and an event the server produced at will is refused while they would pass the
//! budget ([`EventHub::offer`]; the gate counts it in its warning). Events the UI depends on
//! always pass ([`EventHub::send`]): they are small and few.

use std::collections::VecDeque;
use std::sync::Arc;

use mcplab_protocol::ServerEvent;
use parking_lot::Mutex;
use tokio::sync::broadcast;

/// Events a reader may fall behind before it misses the oldest.
pub const EVENT_CAPACITY: usize = 1024;

/// Bytes of events (as JSON) that may wait for the slowest reader.
pub const EVENT_BYTES: usize = 8 * 1024 * 1024;

/// The sending side, shared by a manager, its broker and its event gates.
#[derive(Clone)]
pub struct EventHub {
    inner: Arc<Inner>,
}

struct Inner {
    tx: broadcast::Sender<ServerEvent>,
    budget: usize,
    /// Sizes of the events sent, oldest first; those still held are the newest `tx.len()`.
    sent: Mutex<Sent>,
}

#[derive(Default)]
struct Sent {
    sizes: VecDeque<usize>,
    bytes: usize,
}

impl Default for EventHub {
    fn default() -> Self {
        Self::with_limits(EVENT_CAPACITY, EVENT_BYTES)
    }
}

impl EventHub {
    /// A hub holding at most `capacity` events and (for events offered) `budget` bytes.
    pub fn with_limits(capacity: usize, budget: usize) -> Self {
        let (tx, _) = broadcast::channel(capacity);
        Self {
            inner: Arc::new(Inner {
                tx,
                budget,
                sent: Mutex::default(),
            }),
        }
    }

    /// Every event sent from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<ServerEvent> {
        self.inner.tx.subscribe()
    }

    /// Sends `event` whatever is held (for the kinds the UI depends on).
    pub fn send(&self, event: ServerEvent) {
        let mut sent = self.inner.sent.lock();
        self.settle(&mut sent);
        self.push(&mut sent, event);
    }

    /// Sends `event` if the bytes held for the slowest reader leave room for it (or nothing
    /// is held: a single event may be larger than the budget); false when it was dropped.
    pub fn offer(&self, event: ServerEvent) -> bool {
        let mut sent = self.inner.sent.lock();
        self.settle(&mut sent);
        if sent.bytes > 0 && sent.bytes + json_size(&event) > self.inner.budget {
            return false;
        }
        self.push(&mut sent, event);
        true
    }

    /// Bytes of the events some reader has not taken yet.
    pub fn queued_bytes(&self) -> usize {
        let mut sent = self.inner.sent.lock();
        self.settle(&mut sent);
        sent.bytes
    }

    /// The budget [`Self::offer`] keeps to.
    pub fn budget(&self) -> usize {
        self.inner.budget
    }

    /// Forgets the sizes of events every reader has taken (or the channel evicted): the
    /// channel holds its newest `len()` events.
    fn settle(&self, sent: &mut Sent) {
        let held = self.inner.tx.len();
        while sent.sizes.len() > held {
            let size = sent.sizes.pop_front().unwrap_or(0);
            sent.bytes -= size;
        }
    }

    fn push(&self, sent: &mut Sent, event: ServerEvent) {
        let size = json_size(&event);
        // No reader: nothing is held.
        if self.inner.tx.send(event).is_ok() {
            sent.sizes.push_back(size);
            sent.bytes += size;
        }
    }
}

/// The length of `event` as JSON, counted without building the text.
fn json_size(event: &ServerEvent) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    let _ = serde_json::to_writer(&mut count, event);
    count.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(bytes: usize) -> ServerEvent {
        ServerEvent::Log {
            server: "s".into(),
            level: "info".into(),
            logger: None,
            data: "y".repeat(bytes).into(),
        }
    }

    #[test]
    fn offers_stop_at_the_budget_until_the_reader_catches_up() {
        let hub = EventHub::with_limits(1024, 100_000);
        let mut rx = hub.subscribe();
        let offered = (0..100).filter(|_| hub.offer(log(10_000))).count();
        assert_eq!(offered, 9, "nine of ~10,060 bytes fit in 100,000");
        assert!(hub.queued_bytes() <= 100_000, "{}", hub.queued_bytes());
        // What must pass does, over the budget.
        hub.send(log(10_000));
        assert!(hub.queued_bytes() > 100_000);
        while rx.try_recv().is_ok() {}
        assert_eq!(hub.queued_bytes(), 0, "all taken: nothing held");
        assert!(hub.offer(log(10_000)));
    }

    #[test]
    fn the_slowest_reader_decides_and_nothing_is_held_without_readers() {
        let hub = EventHub::with_limits(16, 1_000_000);
        hub.send(log(100));
        assert_eq!(hub.queued_bytes(), 0, "no reader");
        let mut fast = hub.subscribe();
        let _slow = hub.subscribe();
        hub.send(log(100));
        hub.send(log(100));
        while fast.try_recv().is_ok() {}
        assert_eq!(hub.queued_bytes(), 2 * json_size(&log(100)));
        // Past the capacity the channel evicts the oldest, and they are no longer counted.
        for _ in 0..40 {
            hub.send(log(100));
        }
        assert_eq!(hub.queued_bytes(), 16 * json_size(&log(100)));
    }
}

//! The channel of server events (status changes, human requests, and the notifications and
//! stderr lines the event gate forwards) to everyone who listens: the web's event hub, the
//! CLI, the agent. Each reader ([`EventReceiver`]) has its own queue, bounded in events
//! ([`EVENT_CAPACITY`]) and in bytes ([`EVENT_BYTES`] of JSON, security review N5), so a reader
//! that stalls costs only itself events: an event a server produced at will is not queued for a
//! reader whose queue is full ([`EventHub::offer`]; the gate counts it in its warning), and an
//! event the UI depends on ([`EventHub::send`]) is queued for every reader, making room in a
//! full queue by dropping its oldest. A reader that missed events is told how many
//! (`RecvError::Lagged(n)`, where the gap is), then goes on with the newer ones. Memory stays
//! within readers × budget, and a dropped reader's queue is let go at once.

use std::collections::VecDeque;
use std::sync::Arc;

use mcplab_protocol::ServerEvent;
use parking_lot::Mutex;
use tokio::sync::Notify;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};

/// Events one reader may fall behind.
pub const EVENT_CAPACITY: usize = 1024;

/// Bytes of events (as JSON) that may wait for one reader.
pub const EVENT_BYTES: usize = 8 * 1024 * 1024;

/// The sending side, shared by a manager, its broker and its event gates. When the last clone
/// goes, readers get what they hold, then `Closed`.
#[derive(Clone)]
pub struct EventHub {
    inner: Arc<Inner>,
}

struct Inner {
    capacity: usize,
    budget: usize,
    readers: Mutex<Vec<Arc<Reader>>>,
}

/// One reader's queue, shared by the hub and its [`EventReceiver`].
#[derive(Default)]
struct Reader {
    queue: Mutex<Queue>,
    wake: Notify,
}

#[derive(Default)]
struct Queue {
    entries: VecDeque<Entry>,
    bytes: usize,
    /// Missed after the newest entry (told when the reader reaches it).
    missed: u64,
    /// The hub is gone, or the receiver is.
    closed: bool,
}

struct Entry {
    /// Missed just before this event.
    missed_before: u64,
    size: usize,
    event: ServerEvent,
}

impl Default for EventHub {
    fn default() -> Self {
        Self::with_limits(EVENT_CAPACITY, EVENT_BYTES)
    }
}

impl EventHub {
    /// A hub whose readers each hold at most `capacity` events and `budget` bytes.
    pub fn with_limits(capacity: usize, budget: usize) -> Self {
        Self {
            inner: Arc::new(Inner {
                capacity: capacity.max(1),
                budget,
                readers: Mutex::default(),
            }),
        }
    }

    /// Every event sent from now on.
    pub fn subscribe(&self) -> EventReceiver {
        let reader = Arc::new(Reader::default());
        let mut readers = self.inner.readers.lock();
        readers.retain(|r| Arc::strong_count(r) > 1);
        readers.push(reader.clone());
        EventReceiver { reader }
    }

    /// Queues `event` for every reader (for the kinds the UI depends on); a full queue drops
    /// its oldest to make room.
    pub fn send(&self, event: ServerEvent) {
        self.deliver(event, true);
    }

    /// Queues `event` for every reader whose queue has room for it (an empty queue always
    /// has: a single event may be larger than the budget); how many readers it missed.
    pub fn offer(&self, event: ServerEvent) -> usize {
        self.deliver(event, false)
    }

    /// Bytes of the events readers have not taken yet, over all readers.
    pub fn queued_bytes(&self) -> usize {
        let readers = self.inner.readers.lock();
        readers.iter().map(|r| r.queue.lock().bytes).sum()
    }

    /// The budget each reader's queue keeps to.
    pub fn budget(&self) -> usize {
        self.inner.budget
    }

    /// Queues `event` for each live reader (making room if `must`); how many it missed.
    fn deliver(&self, event: ServerEvent, must: bool) -> usize {
        let size = json_size(&event);
        let (capacity, budget) = (self.inner.capacity, self.inner.budget);
        let mut readers = self.inner.readers.lock();
        readers.retain(|r| Arc::strong_count(r) > 1);
        let mut missed = 0;
        for reader in readers.iter() {
            let mut queue = reader.queue.lock();
            if queue.closed {
                continue;
            }
            let full = |q: &Queue| {
                !q.entries.is_empty() && (q.entries.len() >= capacity || q.bytes + size > budget)
            };
            if full(&queue) && !must {
                queue.missed += 1;
                missed += 1;
                continue;
            }
            while full(&queue) {
                queue.drop_oldest();
            }
            let missed_before = std::mem::take(&mut queue.missed);
            queue.bytes += size;
            queue.entries.push_back(Entry {
                missed_before,
                size,
                event: event.clone(),
            });
            drop(queue);
            reader.wake.notify_one();
        }
        missed
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        for reader in self.readers.get_mut().drain(..) {
            reader.queue.lock().closed = true;
            reader.wake.notify_one();
        }
    }
}

impl Queue {
    /// Drops the oldest entry; the gap moves to the next one.
    fn drop_oldest(&mut self) {
        let Some(old) = self.entries.pop_front() else {
            return;
        };
        self.bytes -= old.size;
        let lost = old.missed_before + 1;
        match self.entries.front_mut() {
            Some(next) => next.missed_before += lost,
            None => self.missed += lost,
        }
    }

    /// The next thing to tell the reader, if any.
    fn take(&mut self) -> Option<Result<ServerEvent, RecvError>> {
        if let Some(front) = self.entries.front_mut() {
            if front.missed_before > 0 {
                let n = std::mem::take(&mut front.missed_before);
                return Some(Err(RecvError::Lagged(n)));
            }
            let entry = self.entries.pop_front()?;
            self.bytes -= entry.size;
            return Some(Ok(entry.event));
        }
        if self.missed > 0 {
            return Some(Err(RecvError::Lagged(std::mem::take(&mut self.missed))));
        }
        self.closed.then_some(Err(RecvError::Closed))
    }
}

/// One reader of an [`EventHub`]: its events in order, `Lagged(n)` where it missed `n`, and
/// `Closed` once the hub is gone and everything is taken.
pub struct EventReceiver {
    reader: Arc<Reader>,
}

impl EventReceiver {
    /// The next event, waiting for one (cancel-safe: nothing is lost if the wait is dropped).
    pub async fn recv(&mut self) -> Result<ServerEvent, RecvError> {
        loop {
            if let Some(next) = self.reader.queue.lock().take() {
                return next;
            }
            self.reader.wake.notified().await;
        }
    }

    /// The next event if one is queued.
    pub fn try_recv(&mut self) -> Result<ServerEvent, TryRecvError> {
        match self.reader.queue.lock().take() {
            None => Err(TryRecvError::Empty),
            Some(Ok(event)) => Ok(event),
            Some(Err(RecvError::Lagged(n))) => Err(TryRecvError::Lagged(n)),
            Some(Err(RecvError::Closed)) => Err(TryRecvError::Closed),
        }
    }

    /// Bytes (as JSON) of the events queued for this reader.
    pub fn queued_bytes(&self) -> usize {
        self.reader.queue.lock().bytes
    }
}

impl Drop for EventReceiver {
    fn drop(&mut self) {
        let mut queue = self.reader.queue.lock();
        queue.closed = true;
        queue.entries = VecDeque::new();
        queue.bytes = 0;
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
#[path = "event_hub_tests.rs"]
mod tests;

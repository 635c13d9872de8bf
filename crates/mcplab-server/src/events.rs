//! The host-level event stream: every server event and every traffic frame gets a sequence
//! number, is kept in a ring bounded in events and in bytes for replay, and is announced live.
//! `GET /api/events` is SSE with `id: <seq>`; a client reconnecting with `Last-Event-ID` gets
//! what it missed, or an explicit `resync` when that has already left the ring. Keep-alives
//! keep proxies honest.
//!
//! The live channel carries sequence numbers only; a subscriber reads the events themselves
//! from the ring. So the ring's byte bound is the whole of what the stream holds (a broadcast
//! channel keeps its last values in its slots after every subscriber read them: 4,096 events of
//! 16 KiB were 64 MiB outside the bound), and a subscriber that falls behind the wake-ups but
//! not behind the ring loses nothing.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures::Stream;
use mcplab_core::mcp::ConnectionManager;
use mcplab_protocol::ServerEvent;
use mcplab_protocol::api::HostEvent;
use tokio::sync::broadcast;

use crate::AppState;

/// Events kept for replay.
pub const REPLAY_CAPACITY: usize = 20_000;
const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// The `retry:` sent to clients.
const RECONNECT_AFTER: Duration = Duration::from_millis(1000);
/// Wake-ups a subscriber may miss before it catches up from the ring (they are 8 bytes each).
const WAKE_UPS: usize = 4096;

/// What a subscriber asked for already left the ring (or its id is from another launch):
/// it must resync.
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

/// A numbered, replayable event log with live subscribers: the host stream, each OAuth debug
/// run's and each eval run's stream are one of these. Cloning shares it.
#[derive(Clone)]
pub struct EventRing {
    shared: Arc<Shared>,
}

/// The host-level stream (server events and traffic).
pub type EventHub = EventRing;

impl EventRing {
    /// A hub fed by `manager`'s events and traffic (forwarding runs until the manager's
    /// channels close).
    pub fn start(manager: &ConnectionManager) -> Arc<Self> {
        let bytes = manager.limits().replay_bytes;
        let hub = Arc::new(Self::with_limits(REPLAY_CAPACITY, bytes));
        let mut events = manager.subscribe();
        let mut traffic = manager.traffic().subscribe();
        let weak = Arc::downgrade(&hub);
        tokio::spawn(async move {
            use broadcast::error::RecvError;
            loop {
                let event = tokio::select! {
                    e = events.recv() => match e {
                        Ok(e) => HostEvent::Server { event: e },
                        Err(RecvError::Lagged(_)) => HostEvent::Resync,
                        Err(RecvError::Closed) => return,
                    },
                    f = traffic.recv() => match f {
                        Ok(f) => HostEvent::Traffic { frame: f },
                        Err(RecvError::Lagged(_)) => HostEvent::Resync,
                        Err(RecvError::Closed) => return,
                    },
                };
                let Some(hub) = weak.upgrade() else { return };
                hub.publish(&event);
            }
        });
        hub
    }

    /// A ring of `capacity` events with no byte bound beyond that.
    pub fn with_capacity(capacity: usize) -> Self {
        Self::with_limits(capacity, usize::MAX)
    }

    /// A ring of at most `capacity` events and `max_bytes` bytes of JSON (the newest event is
    /// always kept, whatever its size).
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

    fn ring(&self) -> std::sync::MutexGuard<'_, Ring> {
        self.shared.ring.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Bytes of JSON the ring holds for replay.
    pub fn bytes_held(&self) -> usize {
        self.ring().bytes
    }

    /// Numbers, keeps and announces one event.
    pub fn publish<T: serde::Serialize>(&self, event: &T) -> u64 {
        let json: Arc<str> = serde_json::to_string(event)
            .unwrap_or_else(|_| "{\"kind\":\"resync\"}".into())
            .into();
        let shared = &self.shared;
        let mut ring = self.ring();
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
        self.ring().next - 1
    }

    /// Publishes a server event (used for events the API itself produces, e.g. per-call progress).
    pub fn publish_server(&self, event: ServerEvent) {
        self.publish(&HostEvent::Server { event });
    }

    /// Subscribes and returns what must be replayed after `last_seen` (None: nothing to
    /// replay, a fresh client), with the sequence number the subscriber is at afterwards.
    /// `Err(Gone)` means the gap is gone from the ring: resync.
    pub fn resume(&self, last_seen: Option<u64>) -> Resumed {
        let ring = self.ring();
        let wake = self.shared.live.subscribe();
        let at = ring.next - 1;
        let replay = match last_seen {
            None => Ok(Vec::new()),
            Some(last) => ring.after(last),
        };
        Resumed { replay, wake, at }
    }

    /// The events after `last`, read when a wake-up came (or several were missed).
    pub fn after(&self, last: u64) -> Result<Vec<Numbered>, Gone> {
        self.ring().after(last)
    }
}

/// A subscription: what to replay first, then wake-ups for what follows `at`.
pub struct Resumed {
    pub replay: Result<Vec<Numbered>, Gone>,
    pub wake: broadcast::Receiver<u64>,
    /// The newest sequence number when the subscription was taken.
    pub at: u64,
}

/// One subscriber's place in a ring: events already due, then whatever follows `at`.
struct Follow {
    ring: EventRing,
    wake: broadcast::Receiver<u64>,
    at: u64,
    pending: VecDeque<Event>,
}

impl Follow {
    /// The next event to send; `None` when the ring is gone.
    async fn next(&mut self) -> Option<Event> {
        loop {
            if let Some(e) = self.pending.pop_front() {
                return Some(e);
            }
            match self.wake.recv().await {
                // Missed wake-ups only mean more to read from the ring.
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => return None,
            }
            match self.ring.after(self.at) {
                Ok(items) => {
                    if let Some(last) = items.last() {
                        self.at = last.seq;
                    }
                    self.pending.extend(items.iter().map(to_sse));
                }
                Err(Gone) => {
                    // Fell behind the ring itself: the client reloads, then follows on.
                    self.at = self.ring.last_seq();
                    self.pending.push_back(resync_event());
                }
            }
        }
    }
}

fn to_sse(item: &Numbered) -> Event {
    Event::default().id(item.seq.to_string()).data(&*item.json)
}

fn resync_event() -> Event {
    Event::default().data("{\"kind\":\"resync\"}")
}

/// `GET /api/events`.
pub async fn stream(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    sse(&state.events, &headers, None)
}

/// Serves `ring` as SSE, replaying after the request's `Last-Event-ID` header, or after
/// `from` (a `lastEventId` query parameter: `EventSource` cannot set the header on its first
/// connection, and a page that loaded a snapshot wants to continue exactly after it).
pub fn sse(
    ring: &EventRing,
    headers: &HeaderMap,
    from: Option<u64>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>> + use<>> {
    let last = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .or(from);
    let Resumed { replay, wake, at } = ring.resume(last);
    // The first chunk goes out at once (the browser's `open` fires on a quiet server too) and
    // tells clients how soon to reconnect.
    let hello = Event::default()
        .comment("mcplab events")
        .retry(RECONNECT_AFTER);
    let mut pending: VecDeque<Event> = VecDeque::from([hello]);
    match replay {
        Ok(items) => pending.extend(items.iter().map(to_sse)),
        Err(Gone) => pending.push_back(resync_event()),
    }
    // Replay and subscription are taken under one lock, so live items all come after `at`:
    // no duplicates, no gap.
    let follow = Follow {
        ring: ring.clone(),
        wake,
        at,
        pending,
    };
    let stream = futures::stream::unfold(follow, |mut f| async move {
        let event = f.next().await?;
        Some((Ok(event), f))
    });
    Sse::new(stream).keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resync() -> HostEvent {
        HostEvent::Resync
    }

    #[test]
    fn replay_after_last_seen_and_resync_when_too_old() {
        let hub = EventHub::with_capacity(3);
        for _ in 0..5 {
            hub.publish(&resync());
        }
        // Ring holds 3, 4, 5.
        let r = hub.resume(Some(3)).replay;
        let seqs: Vec<u64> = r.unwrap().iter().map(|i| i.seq).collect();
        assert_eq!(seqs, [4, 5]);
        let r = hub.resume(Some(2)).replay;
        assert_eq!(r.unwrap().len(), 3);
        assert!(hub.resume(Some(1)).replay.is_err(), "seq 2 is gone: resync");
        assert!(
            hub.resume(Some(99)).replay.is_err(),
            "a future id is from another launch"
        );
        assert!(hub.resume(None).replay.unwrap().is_empty());
    }

    #[test]
    fn bytes_bound_the_ring_and_a_gap_means_resync() {
        let hub = EventHub::with_limits(1000, 200);
        let first = hub.publish(&"x".repeat(150));
        hub.publish(&"y".repeat(150));
        assert!(hub.bytes_held() <= 200, "{}", hub.bytes_held());
        assert!(
            hub.resume(Some(first - 1)).replay.is_err(),
            "the first left: resync"
        );
        assert_eq!(hub.resume(Some(first)).replay.unwrap().len(), 1);
        // One event larger than the bound is still kept (it is the newest).
        hub.publish(&"z".repeat(500));
        assert_eq!(hub.resume(Some(first + 1)).replay.unwrap().len(), 1);
    }

    /// An event that left the ring is held by nothing of the ring's: the old live channel
    /// kept its last 4,096 events in its slots, outside the byte bound.
    #[test]
    fn an_evicted_event_is_not_held_by_the_live_channel() {
        let hub = EventHub::with_limits(4, usize::MAX);
        let _subscriber = hub.resume(None);
        hub.publish(&"x".repeat(16 * 1024));
        let first = hub.after(0).unwrap().remove(0);
        for _ in 0..10 {
            hub.publish(&"y");
        }
        assert!(hub.after(0).is_err(), "the first event left the ring");
        assert_eq!(Arc::strong_count(&first.json), 1, "only this test holds it");
    }

    /// A subscriber that missed more wake-ups than the channel keeps, but not events the ring
    /// keeps, gets every event in order and no resync.
    #[tokio::test]
    async fn a_subscriber_behind_the_wake_ups_catches_up_from_the_ring() {
        let hub = EventHub::with_capacity(WAKE_UPS * 2);
        let Resumed { wake, at, .. } = hub.resume(None);
        let total = WAKE_UPS + 100;
        for i in 0..total {
            hub.publish(&i);
        }
        let mut follow = Follow {
            ring: hub.clone(),
            wake,
            at,
            pending: VecDeque::new(),
        };
        let mut got = 0;
        while got < total {
            let e = tokio::time::timeout(Duration::from_secs(10), follow.next())
                .await
                .expect("an event in time")
                .expect("the ring is open");
            let text = format!("{e:?}");
            assert!(!text.contains("resync"), "no resync: {text}");
            got += 1;
        }
        assert_eq!(follow.at, total as u64);
    }
}

//! The host-level event stream: every server event and every traffic frame gets a sequence
//! number, is kept in a ring bounded in events and in bytes for replay, and is broadcast live. `GET /api/events` is
//! SSE with `id: <seq>`; a client reconnecting with `Last-Event-ID` gets what it missed, or an
//! explicit `resync` when that has already left the ring. Keep-alives keep proxies honest.

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

/// A numbered, replayable event log with live subscribers: the host stream and each chat
/// session's stream are one of these.
pub struct EventRing {
    ring: Mutex<Ring>,
    live: broadcast::Sender<Numbered>,
    capacity: usize,
    max_bytes: usize,
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
        let (live, _) = broadcast::channel(4096);
        Self {
            ring: Mutex::new(Ring {
                next: 1,
                items: VecDeque::new(),
                bytes: 0,
            }),
            live,
            capacity: capacity.max(1),
            max_bytes,
        }
    }

    /// Bytes of JSON the ring holds for replay.
    pub fn bytes_held(&self) -> usize {
        self.ring.lock().unwrap_or_else(|p| p.into_inner()).bytes
    }

    /// Numbers, keeps and broadcasts one event.
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
        ring.bytes += item.json.len();
        ring.items.push_back(item.clone());
        while ring.items.len() > self.capacity
            || (ring.bytes > self.max_bytes && ring.items.len() > 1)
        {
            if let Some(old) = ring.items.pop_front() {
                ring.bytes -= old.json.len();
            }
        }
        // Sent under the lock so live order equals ring order.
        let _ = self.live.send(item.clone());
        item.seq
    }

    /// The sequence number of the newest event (0 before the first).
    pub fn last_seq(&self) -> u64 {
        self.ring.lock().unwrap_or_else(|p| p.into_inner()).next - 1
    }

    /// Publishes a server event (used for events the API itself produces, e.g. per-call progress).
    pub fn publish_server(&self, event: ServerEvent) {
        self.publish(&HostEvent::Server { event });
    }

    /// Subscribes and returns what must be replayed after `last_seen` (None: nothing to
    /// replay, a fresh client). `Err(())` means the gap is gone from the ring: resync.
    pub fn resume(
        &self,
        last_seen: Option<u64>,
    ) -> (Result<Vec<Numbered>, ()>, broadcast::Receiver<Numbered>) {
        let ring = self.ring.lock().unwrap_or_else(|p| p.into_inner());
        let rx = self.live.subscribe();
        let Some(last) = last_seen else {
            return (Ok(Vec::new()), rx);
        };
        let oldest = ring.items.front().map_or(ring.next, |i| i.seq);
        if last + 1 < oldest || last >= ring.next {
            return (Err(()), rx);
        }
        let missed = ring
            .items
            .iter()
            .filter(|i| i.seq > last)
            .cloned()
            .collect();
        (Ok(missed), rx)
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
    let (replay, rx) = ring.resume(last);
    // The first chunk goes out at once (the browser's `open` fires on a quiet server too) and
    // tells clients how soon to reconnect.
    let hello = Event::default()
        .comment("mcplab events")
        .retry(RECONNECT_AFTER);
    let mut first: Vec<Event> = vec![hello];
    match replay {
        Ok(items) => first.extend(items.iter().map(to_sse)),
        Err(()) => first.push(resync_event()),
    }
    // Replay and subscription are taken under one lock, so live items all come after the
    // replayed ones: no duplicates, no gap.
    first.reverse();
    let stream = futures::stream::unfold((first, rx), |(mut pending, mut rx)| async move {
        if let Some(e) = pending.pop() {
            return Some((Ok(e), (pending, rx)));
        }
        match rx.recv().await {
            Ok(item) => Some((Ok(to_sse(&item)), (pending, rx))),
            Err(broadcast::error::RecvError::Lagged(_)) => {
                Some((Ok(resync_event()), (pending, rx)))
            }
            Err(broadcast::error::RecvError::Closed) => None,
        }
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
        let (r, _) = hub.resume(Some(3));
        let seqs: Vec<u64> = r.unwrap().iter().map(|i| i.seq).collect();
        assert_eq!(seqs, [4, 5]);
        let (r, _) = hub.resume(Some(2));
        assert_eq!(r.unwrap().len(), 3);
        assert!(hub.resume(Some(1)).0.is_err(), "seq 2 is gone: resync");
        assert!(
            hub.resume(Some(99)).0.is_err(),
            "a future id is from another launch"
        );
        assert!(hub.resume(None).0.unwrap().is_empty());
    }

    #[test]
    fn bytes_bound_the_ring_and_a_gap_means_resync() {
        let hub = EventHub::with_limits(1000, 200);
        let first = hub.publish(&"x".repeat(150));
        hub.publish(&"y".repeat(150));
        assert!(hub.bytes_held() <= 200, "{}", hub.bytes_held());
        assert!(
            hub.resume(Some(first - 1)).0.is_err(),
            "the first left: resync"
        );
        assert_eq!(hub.resume(Some(first)).0.unwrap().len(), 1);
        // One event larger than the bound is still kept (it is the newest).
        hub.publish(&"z".repeat(500));
        assert_eq!(hub.resume(Some(first + 1)).0.unwrap().len(), 1);
    }
}

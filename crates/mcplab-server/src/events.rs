//! The host-level event stream and the SSE form of every event ring. Every server event and
//! every traffic frame is published to one [`EventRing`] (numbered, kept for replay within a
//! byte bound, announced live); `GET /api/events` serves it as SSE with `id: <seq>`, and a
//! client reconnecting with `Last-Event-ID` gets what it missed, or an explicit `resync` when
//! that already left the ring. Chat sessions, OAuth debug runs and eval runs serve their own
//! rings through the same [`sse`]. Keep-alives keep proxies honest.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures::Stream;
pub(crate) use mcplab_core::ring::{EventRing, Gone, Numbered};
use mcplab_mcp::ConnectionManager;
use mcplab_protocol::ServerEvent;
use mcplab_protocol::api::HostEvent;
use tokio::sync::broadcast;

use crate::AppState;

/// Events kept for replay.
pub(crate) const REPLAY_CAPACITY: usize = 20_000;
const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// The `retry:` sent to clients.
const RECONNECT_AFTER: Duration = Duration::from_millis(1000);

/// The host-level stream (server events and traffic).
pub struct EventHub {
    ring: EventRing,
}

impl std::ops::Deref for EventHub {
    type Target = EventRing;
    fn deref(&self) -> &EventRing {
        &self.ring
    }
}

impl EventHub {
    /// A hub fed by `manager`'s events and traffic (forwarding runs until the manager's
    /// channels close).
    pub fn start(manager: &ConnectionManager) -> Arc<Self> {
        let bytes = manager.limits().replay_bytes;
        let hub = Arc::new(Self {
            ring: EventRing::with_limits(REPLAY_CAPACITY, bytes),
        });
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

    /// Publishes a server event (used for events the API itself produces, e.g. per-call progress).
    pub fn publish_server(&self, event: ServerEvent) {
        self.ring.publish(&HostEvent::Server { event });
    }
}

fn to_sse(item: &Numbered) -> Event {
    Event::default().id(item.seq.to_string()).data(&*item.json)
}

fn resync_event() -> Event {
    Event::default().data("{\"kind\":\"resync\"}")
}

/// `GET /api/events`.
pub(crate) async fn stream(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    sse(&state.events, &headers, None)
}

/// Serves `ring` as SSE, replaying after the request's `Last-Event-ID` header, or after
/// `from` (a `lastEventId` query parameter: `EventSource` cannot set the header on its first
/// connection, and a page that loaded a snapshot wants to continue exactly after it).
pub(crate) fn sse(
    ring: &EventRing,
    headers: &HeaderMap,
    from: Option<u64>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>> + use<>> {
    let last = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .or(from);
    let (replay, follower) = ring.resume(last);
    // The first chunk goes out at once (the browser's `open` fires on a quiet stream too) and
    // tells clients how soon to reconnect.
    let hello = Event::default()
        .comment("mcplab events")
        .retry(RECONNECT_AFTER);
    let mut pending: VecDeque<Event> = VecDeque::from([hello]);
    push(&mut pending, replay);
    let stream = futures::stream::unfold((pending, follower), |(mut pending, mut f)| async move {
        while pending.is_empty() {
            let next = f.next().await?;
            push(&mut pending, next);
        }
        let event = pending.pop_front()?;
        Some((Ok(event), (pending, f)))
    });
    Sse::new(stream).keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
}

/// Queues a batch of events, or the resync a subscriber that fell behind the ring gets (the
/// client reloads, then follows on).
fn push(pending: &mut VecDeque<Event>, next: Result<Vec<Numbered>, Gone>) {
    match next {
        Ok(items) => pending.extend(items.iter().map(to_sse)),
        Err(Gone) => pending.push_back(resync_event()),
    }
}

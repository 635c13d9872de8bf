//! Chat sessions at the HTTP edge: only the SSE form of a session's event stream. Everything
//! else about sessions (turns, idempotency, replay ring, persistence, HostConfig, app context)
//! is `mcplab_core::session`; the routes in `routes/chat.rs` call it.

use std::convert::Infallible;
use std::time::Duration;

use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures::Stream;
use mcplab_core::session::{Numbered, ReplayRing, Resume};
use tokio::sync::broadcast;

const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// The `retry:` sent to clients.
const RECONNECT_AFTER: Duration = Duration::from_millis(1000);

pub use mcplab_protocol::clock::now_ms;

fn to_sse(item: &Numbered) -> Event {
    Event::default().id(item.seq.to_string()).data(&*item.json)
}

fn resync_event() -> Event {
    Event::default().data("{\"kind\":\"resync\"}")
}

/// Serves a session's `ring` as SSE, replaying after the request's `Last-Event-ID` header, or
/// after `from` (the `lastEventId` query parameter: a page that loaded a snapshot continues
/// exactly after it).
pub fn session_sse(
    ring: &ReplayRing,
    headers: &HeaderMap,
    from: Option<u64>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>> + use<>> {
    let last = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .or(from);
    let (replay, rx) = ring.resume(last);
    // The first chunk goes out at once (a client's `open` fires on a quiet session too) and
    // tells clients how soon to reconnect.
    let hello = Event::default()
        .comment("mcplab session events")
        .retry(RECONNECT_AFTER);
    let mut first: Vec<Event> = vec![hello];
    match replay {
        Resume::Replay(items) => first.extend(items.iter().map(to_sse)),
        Resume::Resync => first.push(resync_event()),
    }
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

//! Where a wire's tasks send what they have for the layer above (frames, the frames an HTTP
//! exchange carried, exchange records, notes, failures, the one `Closed`), shared by the
//! streamable HTTP, legacy SSE and 2026-07-28 wires. It owns the shutdown of the wire's tasks
//! and the "server gone" signal; it never reads HTTP itself.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use bytes::Bytes;
use parking_lot::Mutex;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::super::wire::{WireEvent, synthetic_error_for};
use super::get;

/// Bounds on the final `Closed` at shutdown and on stopping the tasks.
const SHUTDOWN_STEP_TIMEOUT: Duration = Duration::from_secs(3);
/// How long a notification or response may hold back the frames after it (see `keep_order`).
const ORDER_WAIT: Duration = Duration::from_secs(10);

/// Where a wire's tasks send what they have for the layer above; shared with `legacy_sse`.
pub(crate) struct Outlet {
    pub inbound: crate::wire::InboundTx,
    /// Cancelled at shutdown; every task's waits watch it.
    pub cancel: CancellationToken,
    pub tasks: TaskTracker,
    /// Why the server is gone (it stopped accepting connections), once a task saw it; the
    /// wire then ends and the connection turns `failed` with this reason.
    gone: Mutex<Option<String>>,
    gone_signal: CancellationToken,
    /// Numbers the wire's HTTP exchanges (see [`WireEvent::Exchange`]).
    next_exchange: AtomicU64,
}

impl Outlet {
    pub(crate) fn new(inbound: crate::wire::InboundTx, cancel: &CancellationToken) -> Self {
        Self {
            inbound,
            cancel: cancel.child_token(),
            tasks: TaskTracker::new(),
            gone: Mutex::new(None),
            gone_signal: CancellationToken::new(),
            next_exchange: AtomicU64::new(1),
        }
    }

    /// Reports an HTTP exchange upwards (`sent`: the frame it posted) and returns its number.
    /// At shutdown (the tasks are cancelled) it is still reported, without waiting.
    pub(crate) async fn exchange(
        &self,
        exchange: mcplab_protocol::TrafficHttpExchange,
        sent: Option<Bytes>,
    ) -> u64 {
        let id = self.next_exchange.fetch_add(1, Ordering::Relaxed);
        let event = WireEvent::Exchange { id, exchange, sent };
        match self.cancel.is_cancelled() {
            true => {
                let _ = self.inbound.try_send(event);
            }
            false => {
                self.emit(event).await;
            }
        }
        id
    }

    /// Sends a frame that arrived in the response of exchange `exchange` upwards.
    pub(crate) async fn carried(&self, frame: Bytes, exchange: u64) -> bool {
        self.emit(WireEvent::Carried { frame, exchange }).await
    }

    /// Says the server is gone (the first reason wins); the wire's loop ends on it.
    pub(crate) fn server_gone(&self, why: String) {
        let mut gone = self.gone.lock();
        if gone.is_none() {
            *gone = Some(why);
            self.gone_signal.cancel();
        }
    }

    /// Resolves with the reason once a task said the server is gone.
    pub(crate) async fn gone(&self) -> String {
        self.gone_signal.cancelled().await;
        get(&self.gone).unwrap_or_default()
    }

    /// Sends an event upwards; false when shutting down or nobody listens any more.
    pub(crate) async fn emit(&self, event: WireEvent) -> bool {
        tokio::select! {
            _ = self.cancel.cancelled() => false,
            sent = self.inbound.send(event) => sent.is_ok(),
        }
    }

    pub(crate) async fn note(&self, message: String) {
        self.emit(WireEvent::Note(message)).await;
    }

    /// Reports a delivery failure: a synthetic error response for a request, a note otherwise.
    pub(crate) async fn fail(&self, frame: &[u8], message: String) {
        match synthetic_error_for(frame, &message) {
            Some(reply) => self.emit(WireEvent::Synthetic(reply)).await,
            None => self.emit(WireEvent::Note(message)).await,
        };
    }

    /// Stops every task (each watches `cancel`) and waits for them, bounded.
    pub(crate) async fn stop_tasks(&self) {
        self.cancel.cancel();
        self.tasks.close();
        let _ = tokio::time::timeout(SHUTDOWN_STEP_TIMEOUT, self.tasks.wait()).await;
    }

    /// The one `Closed`, after every task has stopped so nothing can follow it.
    pub(crate) async fn closed(&self, reason: &str) {
        let closed = WireEvent::Closed(reason.to_string());
        let _ = tokio::time::timeout(SHUTDOWN_STEP_TIMEOUT, self.inbound.send(closed)).await;
    }

    /// Waits until the server has taken `headers_seen`'s frame, bounded by [`ORDER_WAIT`].
    pub(crate) async fn keep_order(&self, headers_seen: oneshot::Receiver<()>) {
        tokio::select! {
            _ = self.cancel.cancelled() => {}
            _ = tokio::time::timeout(ORDER_WAIT, headers_seen) => {}
        }
    }
}

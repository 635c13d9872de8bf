//! The inbound side of a wire: what a transport task has read from the server and the
//! JSON-RPC layer has not taken yet. It is bounded in frames and in bytes ([`WIRE_BYTES`]):
//! a sender waits for room worth its event's size, so a server that floods faster than
//! mcplab handles its frames meets back-pressure (its stdout pipe or HTTP stream is simply
//! read no further) instead of filling memory. A frame larger than the whole budget (the
//! message limit may be larger) passes once the channel is empty. Nothing is dropped here.

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};

use super::WireEvent;

/// Bytes of events that may wait in one wire's inbound channel (security review N5: at 32
/// frames, a flood of 1 MB notifications parked 32 MB here).
pub const WIRE_BYTES: usize = 8 * 1024 * 1024;

/// What an event costs the budget beyond its bytes (an HTTP exchange's record is small).
const EXCHANGE_COST: usize = 1024;

/// An event with the share of the budget it holds until it is taken.
struct Held {
    event: WireEvent,
    _room: OwnedSemaphorePermit,
}

/// The task side: sends events upwards, waiting for room.
#[derive(Clone)]
pub struct InboundTx {
    tx: mpsc::Sender<Held>,
    room: Arc<Semaphore>,
}

/// The JSON-RPC side: takes events in arrival order.
pub struct InboundRx {
    rx: mpsc::Receiver<Held>,
}

/// The receiving side is gone (or, for `try_send`, there is no room now); the event was
/// dropped.
#[derive(Debug)]
pub struct NotSent;

/// A channel of `frames` events and [`WIRE_BYTES`] bytes at most.
pub(super) fn channel(frames: usize) -> (InboundTx, InboundRx) {
    let (tx, rx) = mpsc::channel(frames);
    let room = Arc::new(Semaphore::new(WIRE_BYTES));
    (InboundTx { tx, room }, InboundRx { rx })
}

/// The share of the budget `event` holds: its bytes, at most the whole budget, at least one.
fn cost(event: &WireEvent) -> u32 {
    let bytes = match event {
        WireEvent::Frame(b) | WireEvent::Synthetic(b) => b.len(),
        WireEvent::Carried { frame, .. } => frame.len(),
        WireEvent::Unusable { start, why, .. } => start.len() + why.len(),
        WireEvent::Exchange { .. } => EXCHANGE_COST,
        WireEvent::Note(s) | WireEvent::Closed(s) => s.len(),
    };
    bytes.clamp(1, WIRE_BYTES) as u32
}

impl InboundTx {
    /// Sends `event` once there is room for it; `Err` when nobody receives any more.
    pub async fn send(&self, event: WireEvent) -> Result<(), NotSent> {
        let room = tokio::select! {
            room = self.room.clone().acquire_many_owned(cost(&event)) => room,
            _ = self.tx.closed() => return Err(NotSent),
        };
        let Ok(room) = room else {
            return Err(NotSent);
        };
        let held = Held { event, _room: room };
        self.tx.send(held).await.map_err(|_| NotSent)
    }

    /// Sends `event` if there is room now.
    pub fn try_send(&self, event: WireEvent) -> Result<(), NotSent> {
        let Ok(room) = self.room.clone().try_acquire_many_owned(cost(&event)) else {
            return Err(NotSent);
        };
        let held = Held { event, _room: room };
        self.tx.try_send(held).map_err(|_| NotSent)
    }

    /// Resolves once the receiving side is gone.
    pub async fn closed(&self) {
        self.tx.closed().await;
    }
}

impl InboundRx {
    /// The next event (its room is given back), or `None` once every sender is gone.
    pub async fn recv(&mut self) -> Option<WireEvent> {
        self.rx.recv().await.map(|held| held.event)
    }

    /// The next event if one is waiting.
    pub fn try_recv(&mut self) -> Result<WireEvent, mpsc::error::TryRecvError> {
        self.rx.try_recv().map(|held| held.event)
    }
}

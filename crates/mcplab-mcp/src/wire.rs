//! The raw frame boundary between a concrete transport (stdio, streamable HTTP, legacy SSE)
//! and the JSON-RPC layer. A transport task moves exact bytes only: it pushes every frame the
//! server sent into `inbound` and writes every frame it reads from `outbound`. It never parses
//! JSON-RPC semantics beyond what its protocol needs (e.g. the HTTP transport peeks at the
//! `id` of a request whose POST failed so it can answer it with a synthetic error). Recording
//! and parsing happen once, above this boundary, in `frame_transport`.

mod inbound;

use bytes::Bytes;
use tokio::sync::mpsc;

pub use inbound::{InboundRx, InboundTx, NotSent, WIRE_BYTES};

/// What a transport task reports upwards.
#[derive(Debug)]
pub enum WireEvent {
    /// One complete JSON-RPC frame exactly as received (no trailing newline).
    Frame(Bytes),
    /// A frame the transport made up itself (e.g. an error response for a request whose HTTP
    /// POST failed). It is delivered like a frame but recorded as a transport note.
    Synthetic(Bytes),
    /// A message the transport refused or could not read (over the message limit, an HTTP body
    /// that is not JSON). It is recorded as unparsable (`start`: what was kept of it) and the
    /// request it answers fails at once with `why`: `request` when the transport knows which
    /// (the id of an HTTP POST's request), else the `id` found in `start`, if any.
    Unusable {
        start: Bytes,
        why: String,
        request: Option<serde_json::Value>,
    },
    /// An HTTP request the wire made and its response's status and headers (or why none
    /// came), recorded as an exchange. `id` numbers it within this wire so the frames its
    /// response carries (`Carried`) can name it; `sent` is the frame it posted — the very
    /// `Bytes` handed down through `outbound`, which is how that frame's record is found.
    Exchange {
        id: u64,
        exchange: mcplab_protocol::TrafficHttpExchange,
        sent: Option<Bytes>,
    },
    /// A frame (as [`WireEvent::Frame`]) that arrived in the response of exchange `exchange`.
    Carried { frame: Bytes, exchange: u64 },
    /// A human-readable diagnostic (HTTP status, reconnect attempt, stderr of a child).
    Note(String),
    /// The transport ended for good; the message says why in words a user can act on.
    Closed(String),
}

/// The pair of channels a transport task is driven through.
pub struct Wire {
    /// Frames from the server, in arrival order (bounded in frames and bytes).
    pub inbound: InboundRx,
    /// Frames to the server (exact bytes, one JSON-RPC message each, no newline).
    pub outbound: mpsc::Sender<Bytes>,
}

/// The task side of a [`Wire`].
pub struct WireEnd {
    pub inbound: InboundTx,
    pub outbound: mpsc::Receiver<Bytes>,
}

/// Channel capacity on both sides, in frames; small enough that a server flooding us meets
/// back-pressure early: at 1,024, a flood of 1 MB notifications held ~1 GB here whenever the
/// JSON-RPC layer fell behind (BENCHMARKS.md, "Memory under attack"). Inbound, the bytes are
/// bounded too ([`WIRE_BYTES`]).
const WIRE_CAPACITY: usize = 32;

/// Creates a connected pair: the JSON-RPC layer keeps [`Wire`], the transport task [`WireEnd`].
pub fn wire_pair() -> (Wire, WireEnd) {
    let (in_tx, in_rx) = inbound::channel(WIRE_CAPACITY);
    let (out_tx, out_rx) = mpsc::channel(WIRE_CAPACITY);
    (
        Wire {
            inbound: in_rx,
            outbound: out_tx,
        },
        WireEnd {
            inbound: in_tx,
            outbound: out_rx,
        },
    )
}

/// Builds the JSON-RPC error response a transport sends upwards when it could not deliver a
/// request, so the caller fails at once with the real cause instead of waiting for a timeout.
/// Returns `None` when `frame` is not a request (notifications and responses have no reply).
pub fn synthetic_error_for(frame: &[u8], message: &str) -> Option<Bytes> {
    let value: serde_json::Value = serde_json::from_slice(frame).ok()?;
    let id = value.get("id")?.clone();
    value.get("method")?;
    let reply = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": TRANSPORT_ERROR_CODE, "message": message },
    });
    Some(Bytes::from(serde_json::to_vec(&reply).ok()?))
}

/// How much of a message refused for its size is kept (to show it and find the request it
/// answers): the rest is let go at once instead of being copied into the traffic ring.
pub const KEPT_OF_REFUSED: usize = 64 * 1024;

/// The first [`KEPT_OF_REFUSED`] bytes of `bytes`, in an allocation of their own.
pub fn kept_of_refused(bytes: &[u8]) -> Bytes {
    Bytes::copy_from_slice(&bytes[..bytes.len().min(KEPT_OF_REFUSED)])
}

/// JSON-RPC error code used for synthetic transport errors (implementation-defined range).
pub const TRANSPORT_ERROR_CODE: i64 = -32099;

/// JSON-RPC error code of the synthetic error that fails a request whose response could not be
/// used (unparsable, over a limit). Callers see [`super::McpError::BadResponse`].
pub const BAD_RESPONSE_CODE: i64 = -32098;

/// The error response that fails request `id` with `message` and [`BAD_RESPONSE_CODE`].
pub fn bad_response(id: &serde_json::Value, message: &str) -> Bytes {
    let reply = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": BAD_RESPONSE_CODE, "message": message },
    });
    Bytes::from(reply.to_string())
}

/// The start of a frame on one line for a message: at most `max` characters, control
/// characters shown escaped so a hostile server cannot drive the terminal.
pub fn excerpt(bytes: &[u8], max: usize) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(max * 4)]);
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod budget_tests {
    use super::*;

    const MIB: usize = 1024 * 1024;

    /// Security review N5: what a flooding server can park between its reader and the
    /// JSON-RPC layer is bounded in bytes, not only in frames (32 frames of 1 MB were 32 MB).
    #[tokio::test]
    async fn the_inbound_channel_holds_at_most_its_byte_budget() {
        let (mut wire, end) = wire_pair();
        let frame = || WireEvent::Frame(Bytes::from(vec![b'x'; MIB]));
        let mut queued = 0;
        while queued < 100 && end.inbound.try_send(frame()).is_ok() {
            queued += 1;
        }
        assert!(
            queued * MIB <= WIRE_BYTES,
            "{queued} frames of 1 MiB queued"
        );
        assert!(queued >= 1);
        // Reading one makes room for one more.
        assert!(wire.inbound.recv().await.is_some());
        assert!(end.inbound.try_send(frame()).is_ok());
        assert!(end.inbound.try_send(frame()).is_err());
        // A frame larger than the budget (up to the message limit) still passes, alone.
        while wire.inbound.try_recv().is_ok() {}
        let big = WireEvent::Frame(Bytes::from(vec![b'y'; WIRE_BYTES + MIB]));
        end.inbound.send(big).await.unwrap();
        assert!(end.inbound.try_send(frame()).is_err());
        assert!(
            matches!(wire.inbound.recv().await, Some(WireEvent::Frame(b)) if b.len() > WIRE_BYTES)
        );
        assert!(end.inbound.try_send(frame()).is_ok());
    }
}

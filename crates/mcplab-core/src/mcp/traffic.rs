//! Traffic recording: every frame in both directions, per server, in a bounded ring buffer,
//! plus a broadcast to live subscribers. Overflow is counted and reported, never silent.
//! It stores what it is given; deciding what a frame is belongs to `frame_transport`.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use mcplab_protocol::{Direction, FrameKind, TrafficFrame};
use tokio::sync::broadcast;

/// Default number of frames kept per server.
pub const DEFAULT_RING_CAPACITY: usize = 100_000;

/// A server's recorded frames and how many older ones were evicted.
#[derive(Debug, Clone, Default)]
pub struct TrafficSnapshot {
    pub frames: Vec<TrafficFrame>,
    pub dropped: u64,
}

#[derive(Default)]
struct Ring {
    frames: VecDeque<TrafficFrame>,
    dropped: u64,
}

/// The recording for all servers of one process.
pub struct TrafficLog {
    capacity: usize,
    seq: AtomicU64,
    rings: Mutex<HashMap<String, Ring>>,
    live: broadcast::Sender<TrafficFrame>,
}

impl TrafficLog {
    pub fn new(capacity: usize) -> Self {
        let (live, _) = broadcast::channel(4096);
        Self {
            capacity: capacity.max(1),
            seq: AtomicU64::new(1),
            rings: Mutex::new(HashMap::new()),
            live,
        }
    }

    /// Records one frame and returns it with its sequence number.
    pub fn record(
        &self,
        server: &str,
        direction: Direction,
        kind: FrameKind,
        bytes: &[u8],
    ) -> TrafficFrame {
        self.record_with_headers(server, direction, kind, bytes, None)
    }

    /// [`Self::record`] for a frame whose HTTP headers carried protocol meaning (2026-07-28).
    pub fn record_with_headers(
        &self,
        server: &str,
        direction: Direction,
        kind: FrameKind,
        bytes: &[u8],
        headers: Option<Vec<(String, String)>>,
    ) -> TrafficFrame {
        let ts_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or_default();
        let (text, kind) = match std::str::from_utf8(bytes) {
            Ok(s) => (s.to_owned(), kind),
            Err(e) => (
                String::from_utf8_lossy(bytes).into_owned(),
                FrameKind::Unparsable {
                    error: format!("invalid UTF-8: {e}"),
                },
            ),
        };
        let mut rings = self.rings.lock().unwrap_or_else(|p| p.into_inner());
        // The sequence number is taken under the lock so that frames in a ring are ordered.
        let frame = TrafficFrame {
            seq: self.seq.fetch_add(1, Ordering::Relaxed),
            server: server.to_owned(),
            ts_ms,
            direction,
            kind,
            text,
            headers,
        };
        let ring = rings.entry(server.to_owned()).or_default();
        if ring.frames.len() == self.capacity {
            ring.frames.pop_front();
            ring.dropped += 1;
        }
        ring.frames.push_back(frame.clone());
        // Broadcast under the lock too, so live subscribers get frames in sequence order
        // (concurrent recorders would otherwise race between numbering and sending).
        // No subscribers is normal (e.g. a CLI call without --trace).
        let _ = self.live.send(frame.clone());
        drop(rings);
        frame
    }

    /// A copy of what is recorded for `server`.
    pub fn snapshot(&self, server: &str) -> TrafficSnapshot {
        let rings = self.rings.lock().unwrap_or_else(|p| p.into_inner());
        rings
            .get(server)
            .map(|r| TrafficSnapshot {
                frames: r.frames.iter().cloned().collect(),
                dropped: r.dropped,
            })
            .unwrap_or_default()
    }

    /// Forgets what is recorded for `server`.
    pub fn clear(&self, server: &str) {
        let mut rings = self.rings.lock().unwrap_or_else(|p| p.into_inner());
        rings.remove(server);
    }

    /// Live frames from now on. A subscriber that falls behind gets `RecvError::Lagged(n)`,
    /// which tells it exactly how many frames it missed.
    pub fn subscribe(&self) -> broadcast::Receiver<TrafficFrame> {
        self.live.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_evicts_oldest_and_counts_drops() {
        let log = TrafficLog::new(2);
        for i in 0..5u8 {
            log.record("a", Direction::Inbound, FrameKind::Message, &[b'0' + i]);
        }
        log.record("b", Direction::Outbound, FrameKind::Message, b"x");
        let snap = log.snapshot("a");
        assert_eq!(snap.dropped, 3);
        let texts: Vec<_> = snap.frames.iter().map(|f| f.text.as_str()).collect();
        assert_eq!(texts, ["3", "4"]);
        assert!(snap.frames[0].seq < snap.frames[1].seq);
        assert_eq!(log.snapshot("b").frames.len(), 1);
    }

    #[test]
    fn invalid_utf8_is_kept_and_flagged() {
        let log = TrafficLog::new(10);
        let f = log.record("a", Direction::Inbound, FrameKind::Message, b"ok\xff");
        assert!(matches!(f.kind, FrameKind::Unparsable { .. }));
        assert!(f.text.starts_with("ok"));
    }

    #[tokio::test]
    async fn concurrent_recorders_broadcast_in_sequence_order() {
        let log = std::sync::Arc::new(TrafficLog::new(100_000));
        let mut rx = log.subscribe();
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let log = log.clone();
                std::thread::spawn(move || {
                    for _ in 0..500 {
                        log.record(
                            &format!("s{t}"),
                            Direction::Inbound,
                            FrameKind::Message,
                            b"{}",
                        );
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let mut last = 0;
        for _ in 0..2000 {
            let seq = rx.recv().await.unwrap().seq;
            assert!(seq > last, "frame {seq} arrived after {last}");
            last = seq;
        }
    }

    #[tokio::test]
    async fn subscribers_see_live_frames() {
        let log = TrafficLog::new(10);
        let mut rx = log.subscribe();
        log.record("a", Direction::Outbound, FrameKind::Message, b"{}");
        assert_eq!(rx.recv().await.unwrap().text, "{}");
    }
}

//! Traffic recording: every frame in both directions, per server, in a ring bounded in frames
//! and in bytes (one budget for all servers; the server that is recording gives up its oldest
//! frames first), plus a live channel of sequence numbers: a subscriber's [`TrafficFeed`] reads
//! each announced frame from the ring, so nothing is held outside the budget. Frames longer than the preview size are
//! published and listed truncated (with their full length); the whole text stays available by
//! sequence number while the frame is in the ring. Overflow is counted and reported, never
//! silent. It stores what it is given; deciding what a frame is belongs to `frame_transport`.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use mcplab_protocol::{Direction, FrameKind, TrafficFrame, TrafficHttpExchange};
use parking_lot::Mutex;
use tokio::sync::broadcast;

use super::limits::Limits;

/// Default number of frames kept per server.
pub const DEFAULT_RING_CAPACITY: usize = 100_000;
/// What a stored frame costs besides its text (struct, deque slot, allocation headers).
const FRAME_OVERHEAD: usize = 96;
/// Frames a live subscriber may fall behind (a burst of frames is recorded faster than a
/// subscriber on another task reads them). The channel's slots hold a server name and a
/// sequence number each, never a frame.
const LIVE_FRAMES: usize = 4096;

/// What the live channel announces: frame `seq` of `server` is in the log.
#[derive(Debug, Clone)]
struct Announced {
    server: Arc<str>,
    seq: u64,
}

/// A server's recorded frames and how many older ones were evicted.
#[derive(Debug, Clone, Default)]
pub struct TrafficSnapshot {
    pub frames: Vec<TrafficFrame>,
    pub dropped: u64,
}

#[derive(Default)]
struct Ring {
    frames: VecDeque<TrafficFrame>,
    bytes: usize,
    dropped: u64,
}

impl Ring {
    fn evict_oldest(&mut self) -> usize {
        let Some(old) = self.frames.pop_front() else {
            return 0;
        };
        let cost = cost_of(&old);
        self.bytes -= cost;
        self.dropped += 1;
        cost
    }
}

struct Rings {
    by_server: HashMap<String, Ring>,
    bytes: usize,
}

/// What an HTTP wire knows of a frame besides its bytes.
#[derive(Debug, Default)]
pub struct FrameExtras {
    /// The 2026-07-28 protocol headers an outbound frame was sent with.
    pub headers: Option<Vec<(String, String)>>,
    /// Set on the record of an HTTP exchange itself.
    pub http: Option<TrafficHttpExchange>,
    /// The exchange record whose response carried the frame.
    pub exchange: Option<u64>,
    /// When the frame crossed, if not now (a tap's frames arrive a little after).
    pub ts_ms: Option<u64>,
    /// The frame's whole length when `bytes` is only its start (a tap keeps long frames' starts).
    pub full_bytes: Option<u64>,
}

/// The recording for all servers of one process.
pub struct TrafficLog {
    capacity: usize,
    budget: usize,
    preview: usize,
    seq: AtomicU64,
    rings: Mutex<Rings>,
    live: broadcast::Sender<Announced>,
}

impl TrafficLog {
    /// A log keeping `capacity` frames per server within the default byte budget.
    pub fn new(capacity: usize) -> Self {
        Self::with_limits(capacity, &Limits::default())
    }

    /// A log keeping `capacity` frames per server and `limits.traffic_bytes` in all, publishing
    /// previews of `limits.preview_bytes`.
    pub fn with_limits(capacity: usize, limits: &Limits) -> Self {
        let (live, _) = broadcast::channel(LIVE_FRAMES);
        Self {
            capacity: capacity.max(1),
            budget: limits.traffic_bytes.max(1),
            preview: limits.preview_bytes.max(1),
            seq: AtomicU64::new(1),
            rings: Mutex::new(Rings {
                by_server: HashMap::new(),
                bytes: 0,
            }),
            live,
        }
    }

    /// Records one frame and returns it (as published: truncated to the preview size) with its
    /// sequence number.
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
        let extras = FrameExtras {
            headers,
            ..FrameExtras::default()
        };
        self.record_with(server, direction, kind, bytes, extras)
    }

    /// [`Self::record`] with what an HTTP wire knows of the frame (see [`FrameExtras`]).
    pub fn record_with(
        &self,
        server: &str,
        direction: Direction,
        kind: FrameKind,
        bytes: &[u8],
        extras: FrameExtras,
    ) -> TrafficFrame {
        let ts_ms = extras.ts_ms.unwrap_or_else(mcplab_protocol::clock::now_ms);
        let (text, kind) = match std::str::from_utf8(bytes) {
            Ok(s) => (s.to_owned(), kind),
            Err(e) => (
                String::from_utf8_lossy(bytes).into_owned(),
                FrameKind::Unparsable {
                    error: format!("invalid UTF-8: {e}"),
                },
            ),
        };
        let mut rings = self.rings.lock();
        // The sequence number is taken under the lock so that frames in a ring are ordered.
        let frame = TrafficFrame {
            seq: self.seq.fetch_add(1, Ordering::Relaxed),
            server: server.to_owned(),
            ts_ms,
            direction,
            kind,
            text,
            full_bytes: extras.full_bytes,
            headers: extras.headers,
            http: extras.http,
            exchange: extras.exchange,
        };
        let published = preview(&frame, self.preview);
        let announced = Announced {
            server: Arc::from(server),
            seq: frame.seq,
        };
        self.keep(&mut rings, frame);
        // Announced under the lock too, so live subscribers get frames in sequence order
        // (concurrent recorders would otherwise race between numbering and sending).
        // No subscribers is normal (e.g. a CLI call without --trace).
        let _ = self.live.send(announced);
        drop(rings);
        published
    }

    /// Puts `frame` in its server's ring and evicts until both bounds hold again.
    fn keep(&self, rings: &mut Rings, mut frame: TrafficFrame) {
        let server = frame.server.clone();
        let mut cost = cost_of(&frame);
        if cost > self.budget {
            // Not even this one frame fits: keep its start, as everyone else sees it.
            frame = preview(&frame, self.preview);
            cost = cost_of(&frame);
        }
        let ring = rings.by_server.entry(server.clone()).or_default();
        if ring.frames.len() >= self.capacity {
            rings.bytes -= ring.evict_oldest();
        }
        ring.frames.push_back(frame);
        ring.bytes += cost;
        rings.bytes += cost;
        while rings.bytes > self.budget {
            let freed = match rings.by_server.get_mut(&server) {
                Some(own) if own.frames.len() > 1 => own.evict_oldest(),
                _ => match rings
                    .by_server
                    .iter_mut()
                    .filter(|(name, r)| **name != server && !r.frames.is_empty())
                    .max_by_key(|(_, r)| r.bytes)
                {
                    Some((_, other)) => other.evict_oldest(),
                    None => break,
                },
            };
            rings.bytes -= freed;
        }
    }

    /// What is recorded for `server`, frames truncated to the preview size.
    pub fn snapshot(&self, server: &str) -> TrafficSnapshot {
        let rings = self.rings.lock();
        rings
            .by_server
            .get(server)
            .map(|r| TrafficSnapshot {
                frames: r.frames.iter().map(|f| preview(f, self.preview)).collect(),
                dropped: r.dropped,
            })
            .unwrap_or_default()
    }

    /// The whole frame `seq` of `server`, while it is still in the ring.
    pub fn frame(&self, server: &str, seq: u64) -> Option<TrafficFrame> {
        let rings = self.rings.lock();
        let ring = rings.by_server.get(server)?;
        let at = ring.frames.binary_search_by_key(&seq, |f| f.seq).ok()?;
        ring.frames.get(at).cloned()
    }

    /// How long a published frame's text may be.
    pub fn preview_bytes(&self) -> usize {
        self.preview
    }

    /// Bytes held by the recording (all servers), as counted against the budget.
    pub fn bytes_held(&self) -> usize {
        self.rings.lock().bytes
    }

    /// Forgets what is recorded for `server` (its memory is released at once).
    pub fn clear(&self, server: &str) {
        let mut rings = self.rings.lock();
        if let Some(ring) = rings.by_server.remove(server) {
            rings.bytes -= ring.bytes;
        }
    }

    /// Live frames from now on, truncated to the preview size (see [`TrafficFeed`]).
    pub fn subscribe(self: &Arc<Self>) -> TrafficFeed {
        TrafficFeed {
            log: self.clone(),
            live: self.live.subscribe(),
        }
    }

    /// Frame `seq` of `server` as published (truncated), while it is in the ring.
    fn published(&self, server: &str, seq: u64) -> Option<TrafficFrame> {
        let rings = self.rings.lock();
        let ring = rings.by_server.get(server)?;
        let at = ring.frames.binary_search_by_key(&seq, |f| f.seq).ok()?;
        ring.frames.get(at).map(|f| preview(f, self.preview))
    }
}

/// One live subscriber: the channel tells it which frame came, and it reads that frame from
/// the log. A subscriber that falls behind the channel, or whose frame left the ring (evicted,
/// cleared) before it read it, gets `RecvError::Lagged(n)` with how many it missed.
pub struct TrafficFeed {
    log: Arc<TrafficLog>,
    live: broadcast::Receiver<Announced>,
}

impl TrafficFeed {
    pub async fn recv(&mut self) -> Result<TrafficFrame, broadcast::error::RecvError> {
        let announced = self.live.recv().await?;
        self.log
            .published(&announced.server, announced.seq)
            .ok_or(broadcast::error::RecvError::Lagged(1))
    }
}

fn cost_of(frame: &TrafficFrame) -> usize {
    let error = match &frame.kind {
        FrameKind::Unparsable { error } => error.len(),
        _ => 0,
    };
    let headers: usize = frame
        .headers
        .iter()
        .flatten()
        .map(|(k, v)| k.len() + v.len())
        .sum();
    let http = frame.http.as_ref().map_or(0, |h| {
        let pairs = h.request_headers.iter().chain(&h.response_headers);
        let headers: usize = pairs.map(|(k, v)| k.len() + v.len()).sum();
        h.url.len() + h.error.as_ref().map_or(0, String::len) + headers
    });
    frame.text.len() + frame.server.len() + error + headers + http + FRAME_OVERHEAD
}

/// `frame` with its text cut to at most `limit` bytes (on a character boundary) and its full
/// length noted, or a plain copy when it is short enough.
fn preview(frame: &TrafficFrame, limit: usize) -> TrafficFrame {
    let full = frame.full_bytes.unwrap_or(frame.text.len() as u64);
    if frame.text.len() <= limit {
        return frame.clone();
    }
    TrafficFrame {
        seq: frame.seq,
        server: frame.server.clone(),
        ts_ms: frame.ts_ms,
        direction: frame.direction,
        kind: frame.kind.clone(),
        text: truncate_str(&frame.text, limit).to_owned(),
        full_bytes: Some(full),
        headers: frame.headers.clone(),
        http: frame.http.clone(),
        exchange: frame.exchange,
    }
}

/// The longest prefix of `text` of at most `limit` bytes that ends on a character boundary.
pub(crate) fn truncate_str(text: &str, limit: usize) -> &str {
    if text.len() <= limit {
        return text;
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
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

    fn small(traffic: usize, preview: usize) -> TrafficLog {
        let limits = Limits {
            traffic_bytes: traffic,
            preview_bytes: preview,
            ..Limits::default()
        };
        TrafficLog::with_limits(1000, &limits)
    }

    #[test]
    fn bytes_stay_within_the_budget_and_the_flooder_pays() {
        let log = small(64 * 1024, 1024);
        log.record(
            "quiet",
            Direction::Inbound,
            FrameKind::Message,
            b"{\"ok\":1}",
        );
        let big = vec![b'x'; 10_000];
        for _ in 0..100 {
            log.record("loud", Direction::Inbound, FrameKind::Message, &big);
            assert!(log.bytes_held() <= 64 * 1024, "{}", log.bytes_held());
        }
        let loud = log.snapshot("loud");
        assert!(loud.dropped > 90, "{}", loud.dropped);
        assert_eq!(
            log.snapshot("quiet").frames.len(),
            1,
            "the quiet server keeps its frame"
        );
        log.clear("loud");
        log.clear("quiet");
        assert_eq!(log.bytes_held(), 0);
    }

    #[tokio::test]
    async fn long_frames_are_published_truncated_and_kept_whole() {
        let log = Arc::new(small(1024 * 1024, 8));
        let mut rx = log.subscribe();
        let text = "é".repeat(10); // 20 bytes, cut inside no character
        let published = log.record("a", Direction::Inbound, FrameKind::Message, text.as_bytes());
        assert_eq!(published.text, "éééé");
        assert_eq!(published.full_bytes, Some(20));
        assert_eq!(rx.recv().await.unwrap().text, "éééé");
        assert_eq!(log.snapshot("a").frames[0].full_bytes, Some(20));
        let whole = log.frame("a", published.seq).expect("still in the ring");
        assert_eq!(whole.text, text);
        assert_eq!(whole.full_bytes, None);
        assert!(log.frame("a", published.seq + 1).is_none());
    }

    #[test]
    fn a_frame_larger_than_the_budget_is_kept_as_its_start() {
        let log = small(1000, 100);
        let f = log.record("a", Direction::Inbound, FrameKind::Message, &[b'y'; 5000]);
        assert!(log.bytes_held() <= 1000);
        let kept = log.frame("a", f.seq).unwrap();
        assert_eq!(kept.text.len(), 100);
        assert_eq!(kept.full_bytes, Some(5000));
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
        let log = std::sync::Arc::new(TrafficLog::new(10));
        let mut rx = log.subscribe();
        log.record("a", Direction::Outbound, FrameKind::Message, b"{}");
        assert_eq!(rx.recv().await.unwrap().text, "{}");
    }

    /// The live channel holds no copy of a frame: one that left the log before a subscriber
    /// read it is reported as missed (then the subscriber resyncs), not delivered from a copy
    /// kept outside the traffic budget.
    #[tokio::test]
    async fn a_frame_gone_before_it_is_read_is_reported_missed() {
        let log = std::sync::Arc::new(TrafficLog::new(10));
        let mut rx = log.subscribe();
        log.record(
            "a",
            Direction::Outbound,
            FrameKind::Message,
            &[b'x'; 20_000],
        );
        log.clear("a");
        log.record("a", Direction::Outbound, FrameKind::Message, b"{}");
        assert!(matches!(
            rx.recv().await,
            Err(tokio::sync::broadcast::error::RecvError::Lagged(1))
        ));
        assert_eq!(rx.recv().await.unwrap().text, "{}");
    }
}

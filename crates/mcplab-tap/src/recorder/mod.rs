//! The tap's recorder: the forwarding path hands it copies of frames and never waits on it.
//! [`Recorder::record`] numbers a frame and queues it (a bounded channel, and a byte bound on
//! what is queued: beyond either the frame is dropped and counted, and the traffic still
//! passes); one task turns queued frames into [`TrafficFrame`]s (UTF-8 and JSON checks happen
//! there, off the forwarding path) and writes them in batches to the sinks: a JSON Lines file
//! (`file`), a running inspector (`live`), or both. A sink that fails is reported once and
//! dropped; a failed inspector hands over to the fallback file. It decides nothing about what
//! to record: the stdio and HTTP taps do.

mod file;
mod live;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use mcplab_protocol::tap::{TapEnd, TapStart};
use mcplab_protocol::{Direction, FrameKind, TrafficFrame, TrafficHttpExchange};
use tokio::sync::mpsc;

pub use file::{FileSink, Rotation};
pub use live::{LiveSink, LiveTarget};

/// Frames that may wait for the recorder task.
const QUEUE_FRAMES: usize = 8192;
/// Bytes that may wait for the recorder task (whatever the host or server sends).
pub const QUEUE_BYTES: usize = 32 * 1024 * 1024;
/// What is kept of a frame too large to queue whole.
const KEPT_OF_HUGE: usize = 64 * 1024;
/// Most frames written in one batch.
const BATCH: usize = 512;
/// How long the end of a tap waits for the recording to be written.
const FINISH_WAIT: Duration = Duration::from_secs(3);

/// Called with a line for the person running the tap (a sink failed, where the recording
/// went); the binary writes it to stderr.
pub type Notice = Arc<dyn Fn(&str) + Send + Sync>;

/// A frame as the forwarding path hands it over.
#[derive(Debug, Default)]
pub struct Raw {
    /// The host session (`Mcp-Session-Id`); empty for stdio.
    pub session: String,
    pub direction: Option<Direction>,
    pub bytes: Vec<u8>,
    /// The frame's whole length when `bytes` is only its start.
    pub full: Option<u64>,
    /// When it crossed (default: when it was queued).
    pub ts_ms: Option<u64>,
    /// A transport note (an HTTP exchange's record, an SSE event that is not a message).
    pub note: bool,
    pub headers: Option<Vec<(String, String)>>,
    pub http: Option<TrafficHttpExchange>,
    pub exchange: Option<u64>,
}

// Nearly every item is a frame: boxing it would cost an allocation per frame to save space in
// the rare end message.
#[allow(clippy::large_enum_variant)]
enum Queued {
    Frame(u64, Raw),
    End(TapEnd, tokio::sync::oneshot::Sender<()>),
}

struct Shared {
    tx: mpsc::Sender<Queued>,
    seq: AtomicU64,
    queued_bytes: AtomicUsize,
    dropped: AtomicU64,
}

/// The forwarding path's handle (cheap to clone; usable from plain threads).
#[derive(Clone)]
pub struct Recorder {
    shared: Arc<Shared>,
}

/// Where the recording goes.
pub struct Sinks {
    pub file: Option<FileSink>,
    pub live: Option<LiveSink>,
    /// Where to write when the inspector fails and no file was asked for.
    pub fallback: Option<(PathBuf, Rotation)>,
    pub notice: Notice,
}

impl Recorder {
    /// Starts the recorder task (on the current tokio runtime).
    pub fn start(start: TapStart, sinks: Sinks) -> Self {
        let (tx, rx) = mpsc::channel(QUEUE_FRAMES);
        let shared = Arc::new(Shared {
            tx,
            seq: AtomicU64::new(1),
            queued_bytes: AtomicUsize::new(0),
            dropped: AtomicU64::new(0),
        });
        tokio::spawn(run(rx, shared.clone(), start, sinks));
        Self { shared }
    }

    /// A recorder that keeps nothing (numbers frames only).
    pub fn discard() -> Self {
        let (tx, _) = mpsc::channel(1);
        Self {
            shared: Arc::new(Shared {
                tx,
                seq: AtomicU64::new(1),
                queued_bytes: AtomicUsize::new(0),
                dropped: AtomicU64::new(0),
            }),
        }
    }

    /// Queues a frame without waiting; returns its number (also when it had to be dropped).
    pub fn record(&self, mut raw: Raw) -> u64 {
        let seq = self.shared.seq.fetch_add(1, Ordering::Relaxed);
        if raw.bytes.len() > QUEUE_BYTES / 4 {
            let whole = raw.full.unwrap_or(raw.bytes.len() as u64);
            raw.bytes.truncate(KEPT_OF_HUGE);
            raw.bytes.shrink_to_fit();
            raw.full = Some(whole);
        }
        raw.ts_ms.get_or_insert_with(mcplab_protocol::clock::now_ms);
        let size = raw.bytes.len();
        let queued = self.shared.queued_bytes.fetch_add(size, Ordering::Relaxed);
        if queued + size > QUEUE_BYTES || self.shared.tx.try_send(Queued::Frame(seq, raw)).is_err()
        {
            self.shared.queued_bytes.fetch_sub(size, Ordering::Relaxed);
            self.shared.dropped.fetch_add(1, Ordering::Relaxed);
        }
        seq
    }

    /// Shorthand for a message frame of `session`.
    pub fn message(&self, session: &str, direction: Direction, bytes: Vec<u8>, full: Option<u64>) {
        self.record(Raw {
            session: session.to_owned(),
            direction: Some(direction),
            bytes,
            full,
            ..Raw::default()
        });
    }

    /// Frames dropped so far.
    pub fn dropped(&self) -> u64 {
        self.shared.dropped.load(Ordering::Relaxed)
    }

    /// Writes the end line and waits (a few seconds at most) for everything queued to be
    /// written.
    pub async fn finish(&self, how: String) {
        let end = TapEnd {
            ended_ms: mcplab_protocol::clock::now_ms(),
            how,
            dropped: self.dropped(),
        };
        let (done, wait) = tokio::sync::oneshot::channel();
        let sent = tokio::time::timeout(FINISH_WAIT, self.shared.tx.send(Queued::End(end, done)));
        if matches!(sent.await, Ok(Ok(()))) {
            let _ = tokio::time::timeout(FINISH_WAIT, wait).await;
        }
    }
}

/// The recorder task: batches, converts, writes. A frame's bytes count against the queue's
/// bound until its batch is written, so what waits here and what is being written together
/// stay within `QUEUE_BYTES`.
async fn run(mut rx: mpsc::Receiver<Queued>, shared: Arc<Shared>, start: TapStart, sinks: Sinks) {
    let mut out = Outputs::open(start, sinks).await;
    let mut batch = Vec::with_capacity(BATCH);
    while let Some(first) = rx.recv().await {
        let mut end = None;
        let mut held = 0;
        let mut next = Some(first);
        while let Some(item) = next.take() {
            match item {
                Queued::Frame(seq, raw) => {
                    held += raw.bytes.len();
                    batch.push(to_frame(seq, raw));
                }
                Queued::End(e, done) => {
                    end = Some((e, done));
                    break;
                }
            }
            if batch.len() < BATCH {
                next = rx.try_recv().ok();
            }
        }
        if !batch.is_empty() {
            out.write(&batch).await;
            batch.clear();
        }
        shared.queued_bytes.fetch_sub(held, Ordering::Relaxed);
        if let Some((e, done)) = end {
            out.end(&e).await;
            let _ = done.send(());
            return;
        }
    }
}

/// A queued frame as recorded: text (invalid UTF-8 replaced and noted), and whether it parses.
fn to_frame(seq: u64, raw: Raw) -> TrafficFrame {
    let (text, bad_utf8) = match String::from_utf8(raw.bytes) {
        Ok(s) => (s, None),
        Err(e) => {
            let why = format!("invalid UTF-8: {}", e.utf8_error());
            (
                String::from_utf8_lossy(e.as_bytes()).into_owned(),
                Some(why),
            )
        }
    };
    let kind = if raw.note {
        FrameKind::Note
    } else if let Some(error) = bad_utf8 {
        FrameKind::Unparsable { error }
    } else if raw.full.is_some() {
        FrameKind::Message
    } else {
        match serde_json::from_str::<serde::de::IgnoredAny>(&text) {
            Ok(_) => FrameKind::Message,
            Err(e) => FrameKind::Unparsable {
                error: format!("not JSON: {e}"),
            },
        }
    };
    TrafficFrame {
        seq,
        server: raw.session,
        ts_ms: raw.ts_ms.unwrap_or_default(),
        direction: raw.direction.unwrap_or(Direction::Outbound),
        kind,
        text,
        full_bytes: raw.full,
        headers: raw.headers,
        http: raw.http,
        exchange: raw.exchange,
    }
}

/// The sinks while the task runs.
struct Outputs {
    start: TapStart,
    file: Option<FileSink>,
    live: Option<LiveSink>,
    fallback: Option<(PathBuf, Rotation)>,
    notice: Notice,
}

impl Outputs {
    async fn open(start: TapStart, sinks: Sinks) -> Self {
        let mut out = Self {
            start,
            file: sinks.file,
            live: sinks.live,
            fallback: sinks.fallback,
            notice: sinks.notice,
        };
        if let Some(file) = out.file.as_mut()
            && let Err(e) = file.begin(&out.start)
        {
            (out.notice)(&format!(
                "the recording stopped: {e}; the traffic still flows"
            ));
            out.file = None;
        }
        out
    }

    async fn write(&mut self, batch: &[TrafficFrame]) {
        if let Some(live) = self.live.as_mut()
            && let Err(e) = live.send(batch).await
        {
            self.live = None;
            // The batch the inspector did not take goes to the file (the fallback's, or the
            // one recorded all along) below.
            self.fall_back(&e);
        }
        if let Some(file) = self.file.as_mut()
            && let Err(e) = file.write(batch)
        {
            (self.notice)(&format!(
                "the recording stopped: {e}; the traffic still flows"
            ));
            self.file = None;
        }
    }

    /// The inspector failed: say so, and record to the fallback file if no file is kept.
    fn fall_back(&mut self, why: &str) {
        if self.file.is_some() {
            (self.notice)(&format!(
                "the inspector stopped taking frames ({why}); the recording file goes on"
            ));
            return;
        }
        let Some((path, rotation)) = self.fallback.take() else {
            (self.notice)(&format!(
                "the inspector stopped taking frames ({why}); nothing more is recorded, the \
                 traffic still flows"
            ));
            return;
        };
        let mut file = FileSink::new(path.clone(), rotation);
        match file.begin(&self.start) {
            Ok(()) => {
                (self.notice)(&format!(
                    "the inspector stopped taking frames ({why}); recording to {}",
                    path.display()
                ));
                self.file = Some(file);
            }
            Err(e) => (self.notice)(&format!(
                "the inspector stopped taking frames ({why}) and {e}; the traffic still flows"
            )),
        }
    }

    async fn end(&mut self, end: &TapEnd) {
        if let Some(live) = self.live.as_mut() {
            let _ = live.end(end).await;
        }
        if let Some(file) = self.file.as_mut() {
            let _ = file.end(end);
        }
    }
}

//! The inspector's side of taps: live taps register and post their frames, recordings are
//! opened from a file's text, and both end up in the inspector's own `TrafficLog` — so the
//! traffic panel pairs, filters and shows their HTTP exchanges as it does mcplab's own
//! connections. Each host session gets a key of its own (`tap:N`, then `tap:N.2`, … for a
//! tap's later HTTP sessions: request ids start over per session); the tap's own numbers
//! (`exchange`, `requestSeq`) are mapped to the log's. Everything held is bounded: taps kept,
//! sessions per tap, numbers remembered for mapping.

use std::collections::{BTreeMap, VecDeque};

use mcplab_mcp::TrafficLog;
use mcplab_mcp::traffic::FrameExtras;
use mcplab_protocol::TrafficFrame;
use mcplab_protocol::tap::{TapEnd, TapOpened, TapSessionView, TapStart};
use parking_lot::Mutex;

use crate::label::SessionLabel;
use crate::recording::{self, RecordingError};

/// Taps remembered (the oldest ended ones are forgotten first).
const MAX_TAPS: usize = 64;
/// Host sessions per tap; later sessions share the last key.
const MAX_SESSIONS: usize = 64;
/// Tap frame numbers remembered per tap to link exchanges to their frames.
const LINKS: usize = 4096;

/// The taps this inspector knows.
#[derive(Default)]
pub struct Taps {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    next: u64,
    taps: BTreeMap<u64, Tap>,
}

struct Tap {
    id: String,
    start: TapStart,
    source: &'static str,
    sessions: Vec<Session>,
    /// (tap's seq, log's seq), newest last.
    links: VecDeque<(u64, u64)>,
    ended: Option<TapEnd>,
}

struct Session {
    id: String,
    key: String,
    label: SessionLabel,
}

/// No tap has this id (the inspector restarted, or it was forgotten).
#[derive(Debug, thiserror::Error)]
#[error("no tap `{0}` here (register again with POST /api/taps)")]
pub struct UnknownTap(pub String);

impl Taps {
    /// A new live tap; returns its id.
    pub fn register(&self, start: TapStart) -> String {
        self.add(start, "live")
    }

    fn add(&self, start: TapStart, source: &'static str) -> String {
        let mut inner = self.inner.lock();
        inner.next += 1;
        let n = inner.next;
        if inner.taps.len() >= MAX_TAPS {
            let oldest = (inner.taps.iter())
                .find(|(_, t)| t.ended.is_some())
                .or_else(|| inner.taps.iter().next())
                .map(|(k, _)| *k);
            oldest.map(|k| inner.taps.remove(&k));
        }
        let id = format!("tap:{n}");
        let tap = Tap {
            id: id.clone(),
            start,
            source,
            sessions: Vec::new(),
            links: VecDeque::new(),
            ended: None,
        };
        inner.taps.insert(n, tap);
        id
    }

    /// Records a live tap's frames into `log`.
    pub fn record(
        &self,
        log: &TrafficLog,
        id: &str,
        frames: Vec<TrafficFrame>,
    ) -> Result<(), UnknownTap> {
        let mut inner = self.inner.lock();
        let tap = find(&mut inner, id)?;
        frames.into_iter().for_each(|f| tap.record(log, f));
        Ok(())
    }

    /// A live tap ended.
    pub fn end(&self, id: &str, end: TapEnd) -> Result<(), UnknownTap> {
        let mut inner = self.inner.lock();
        find(&mut inner, id)?.ended = Some(end);
        Ok(())
    }

    /// Records a recording's frames into `log` as a tap of its own.
    pub fn open(&self, log: &TrafficLog, text: &str) -> Result<TapOpened, RecordingError> {
        let recording = recording::parse(text, "the recording")?;
        let start = recording.start.clone().unwrap_or(TapStart {
            format: mcplab_protocol::tap::TAP_FORMAT,
            transport: mcplab_protocol::tap::TapTransport::Stdio,
            target: "(an exported recording)".into(),
            pid: 0,
            started_ms: recording.frames.first().map_or(0, |f| f.ts_ms),
        });
        let id = self.add(start, "file");
        let mut inner = self.inner.lock();
        let Ok(tap) = find(&mut inner, &id) else {
            return Ok(TapOpened {
                sessions: Vec::new(),
                frames: 0,
            });
        };
        let frames = recording.frames.len() as u64;
        recording
            .frames
            .into_iter()
            .for_each(|f| tap.record(log, f));
        tap.ended = recording.end;
        let sessions = tap.views();
        Ok(TapOpened { sessions, frames })
    }

    /// Every tapped session, oldest tap first.
    pub fn sessions(&self) -> Vec<TapSessionView> {
        let inner = self.inner.lock();
        inner.taps.values().flat_map(Tap::views).collect()
    }
}

fn find<'a>(inner: &'a mut Inner, id: &str) -> Result<&'a mut Tap, UnknownTap> {
    let n = id.strip_prefix("tap:").and_then(|n| n.parse::<u64>().ok());
    n.and_then(|n| inner.taps.get_mut(&n))
        .ok_or_else(|| UnknownTap(id.to_owned()))
}

impl Tap {
    fn record(&mut self, log: &TrafficLog, mut frame: TrafficFrame) {
        let at = self.session(&frame.server);
        self.sessions[at].label.observe(&frame);
        let key = self.sessions[at].key.clone();
        let link = |seq: u64| self.link(seq);
        let exchange = frame.exchange.and_then(link);
        if let Some(http) = frame.http.as_mut() {
            http.request_seq = http.request_seq.and_then(link);
        }
        let extras = FrameExtras {
            headers: frame.headers,
            http: frame.http,
            exchange,
            ts_ms: Some(frame.ts_ms),
            full_bytes: frame.full_bytes,
        };
        let text = frame.text.as_bytes();
        let recorded = log.record_with(&key, frame.direction, frame.kind, text, extras);
        if self.links.len() >= LINKS {
            self.links.pop_front();
        }
        self.links.push_back((frame.seq, recorded.seq));
    }

    /// The log's number of the tap's frame `seq`, while remembered.
    fn link(&self, seq: u64) -> Option<u64> {
        self.links
            .iter()
            .rev()
            .find(|(tap, _)| *tap == seq)
            .map(|(_, log)| *log)
    }

    /// The index of host session `id`, added when new.
    fn session(&mut self, id: &str) -> usize {
        if let Some(at) = self.sessions.iter().position(|s| s.id == id) {
            return at;
        }
        if self.sessions.len() >= MAX_SESSIONS {
            return self.sessions.len() - 1;
        }
        let key = match self.sessions.len() {
            0 => self.id.clone(),
            n => format!("{}.{}", self.id, n + 1),
        };
        self.sessions.push(Session {
            id: id.to_owned(),
            key,
            label: SessionLabel::default(),
        });
        self.sessions.len() - 1
    }

    fn views(&self) -> Vec<TapSessionView> {
        self.sessions
            .iter()
            .map(|s| TapSessionView {
                key: s.key.clone(),
                tap: self.id.clone(),
                transport: self.start.transport,
                target: self.start.target.clone(),
                host: s.label.host.clone(),
                protocol_version: s.label.protocol_version.clone(),
                session_id: (!s.id.is_empty()).then(|| s.id.clone()),
                started_ms: self.start.started_ms,
                ended: self.ended.clone(),
                source: self.source.to_owned(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcplab_protocol::tap::TapTransport;
    use mcplab_protocol::{Direction, FrameKind, TrafficHttpExchange};

    fn start() -> TapStart {
        TapStart {
            format: 1,
            transport: TapTransport::Http,
            target: "http://x/mcp".into(),
            pid: 9,
            started_ms: 1,
        }
    }

    fn frame(seq: u64, session: &str, text: &str) -> TrafficFrame {
        TrafficFrame::message(seq, session, 100 + seq, Direction::Outbound, text)
    }

    #[test]
    fn sessions_get_keys_labels_and_linked_exchanges() {
        let taps = Taps::default();
        let log = TrafficLog::new(100);
        log.record("other", Direction::Inbound, FrameKind::Message, b"{}");
        let id = taps.register(start());
        let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","clientInfo":{"name":"claude-ai","version":"0.1"}}}"#;
        let mut exchange = frame(2, "abc", "POST http://x/mcp → HTTP 200");
        exchange.kind = FrameKind::Note;
        exchange.http = Some(TrafficHttpExchange {
            method: "POST".into(),
            url: "http://x/mcp".into(),
            purpose: "post".into(),
            status: Some(200),
            request_headers: vec![],
            response_headers: vec![],
            started_ms: 1,
            elapsed_ms: 1,
            request_seq: Some(1),
            error: None,
        });
        let mut answer = frame(3, "abc", "{}");
        answer.exchange = Some(2);
        let batch = vec![
            frame(1, "abc", init),
            exchange,
            answer,
            frame(4, "def", "{}"),
        ];
        taps.record(&log, &id, batch).unwrap();

        let first = log.snapshot(&id).frames;
        assert_eq!(first.len(), 3);
        assert_eq!(first[0].ts_ms, 101, "the tap's time");
        assert_eq!(
            first[1].http.as_ref().unwrap().request_seq,
            Some(first[0].seq)
        );
        assert_eq!(first[2].exchange, Some(first[1].seq));
        assert_eq!(log.snapshot(&format!("{id}.2")).frames.len(), 1);

        let views = taps.sessions();
        assert_eq!(views[0].host.as_ref().unwrap().name, "claude-ai");
        assert_eq!(views[0].session_id.as_deref(), Some("abc"));
        assert_eq!(views[1].key, format!("{id}.2"));
        taps.end(
            &id,
            TapEnd {
                ended_ms: 1,
                how: "stopped".into(),
                dropped: 0,
            },
        )
        .unwrap();
        assert!(taps.sessions()[0].ended.is_some());
        assert!(taps.record(&log, "tap:99", vec![]).is_err());
    }
}

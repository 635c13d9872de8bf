//! What one server's notifications and stderr lines may push towards the browser and the CLI:
//! a token bucket per server (`events` per second, twice that in a burst) and a size cap per
//! event (a log message's data, a progress message, a reason). Beyond the rate, events are
//! dropped and a counted note (a `warning` log from `mcplab`) says how many, at most once a
//! second; the note also counts events some readers missed because their own queue was full
//! (`event_hub`: a reader that fell behind; the others got them). A too-large field is cut with
//! a note of its size. Traffic keeps every frame whole, so nothing is lost for the user, only
//! not forwarded twice. Status changes, human requests and list changes always pass: the UI
//! depends on them and they are small.

use std::time::{Duration, Instant};

use mcplab_protocol::ServerEvent;
use parking_lot::Mutex;
use serde_json::Value;

use super::event_hub::{EventHub, EventReceiver};
use super::limits::{Limits, Size};
use super::traffic::truncate_str;

/// How often a note about dropped events may be sent.
const NOTE_EVERY: Duration = Duration::from_secs(1);

pub(crate) struct EventGate {
    server: String,
    events: EventHub,
    per_second: f64,
    burst: f64,
    max_field: usize,
    state: Mutex<Bucket>,
}

struct Bucket {
    tokens: f64,
    refilled: Instant,
    /// Since the last note: dropped over the rate; missed by some reader (its queue full), and
    /// by how many readers at most.
    dropped: u64,
    full: u64,
    behind: usize,
    noted: Option<Instant>,
}

impl EventGate {
    pub(crate) fn new(server: &str, events: EventHub, limits: &Limits) -> Self {
        let per_second = f64::from(limits.events_per_second.max(1));
        Self {
            server: server.to_owned(),
            events,
            per_second,
            burst: per_second * 2.0,
            max_field: limits.preview_bytes,
            state: Mutex::new(Bucket {
                tokens: per_second * 2.0,
                refilled: Instant::now(),
                dropped: 0,
                full: 0,
                behind: 0,
                noted: None,
            }),
        }
    }

    /// Listens to everything sent through the hub, not only this server's events (the
    /// 2026-07-28 listen acknowledgement is read from it).
    pub(crate) fn subscribe(&self) -> EventReceiver {
        self.events.subscribe()
    }

    /// Forwards `event` if the server is within its rate (always, for the kinds that must
    /// pass), with oversized fields cut.
    pub(crate) fn send(&self, event: ServerEvent) {
        if !gated(&event) {
            self.events.send(event);
            return;
        }
        let mut bucket = self.state.lock();
        let now = Instant::now();
        let elapsed = now.duration_since(bucket.refilled).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * self.per_second).min(self.burst);
        bucket.refilled = now;
        let pass = bucket.tokens >= 1.0;
        if pass {
            bucket.tokens -= 1.0;
        } else {
            bucket.dropped += 1;
        }
        let note_due =
            bucket.dropped + bucket.full > 0 && bucket.noted.is_none_or(|t| now - t >= NOTE_EVERY);
        let note = note_due.then(|| {
            let counts = Missed {
                over_rate: std::mem::take(&mut bucket.dropped),
                full: std::mem::take(&mut bucket.full),
                readers: std::mem::take(&mut bucket.behind),
            };
            bucket.noted = Some(now);
            self.note(counts)
        });
        drop(bucket);
        if let Some(note) = note {
            self.events.send(note);
        }
        if !pass {
            return;
        }
        // Counted in the next note.
        let missed_by = self.events.offer(self.cut(event));
        if missed_by > 0 {
            let mut bucket = self.state.lock();
            bucket.full += 1;
            bucket.behind = bucket.behind.max(missed_by);
        }
    }

    /// The warning for what was not forwarded since the last one.
    fn note(&self, missed: Missed) -> ServerEvent {
        let server = &self.server;
        let rate = format!(
            "mcplab did not forward {} notification(s)/stderr line(s) from `{server}`: over the \
             limit of {} per second (raise it with --limit events=N)",
            missed.over_rate, self.per_second
        );
        let behind = format!(
            "{} notification(s)/stderr line(s) from `{server}` did not reach {} reader(s) that \
             fell behind ({} of events waiting for each; the other readers got them)",
            missed.full,
            missed.readers,
            Size(self.events.budget())
        );
        let what = match (missed.over_rate, missed.full) {
            (_, 0) => rate,
            (0, _) => format!("mcplab: {behind}"),
            _ => format!("{rate}; {behind}"),
        };
        ServerEvent::Log {
            server: self.server.clone(),
            level: "warning".into(),
            logger: Some("mcplab".into()),
            data: Value::String(format!("{what}; the traffic view has every frame")),
        }
    }

    /// `event` with its free-form fields cut to the size cap.
    fn cut(&self, event: ServerEvent) -> ServerEvent {
        let max = self.max_field;
        match event {
            ServerEvent::Log {
                server,
                level,
                logger,
                data,
            } => ServerEvent::Log {
                server,
                level,
                logger,
                data: cut_value(data, max),
            },
            ServerEvent::Progress {
                server,
                token,
                progress,
                total,
                message,
            } => ServerEvent::Progress {
                server,
                token: cut_value(token, max),
                progress,
                total,
                message: message.map(|m| cut_text(m, max)),
            },
            ServerEvent::Cancelled {
                server,
                request_id,
                reason,
            } => ServerEvent::Cancelled {
                server,
                request_id: cut_value(request_id, max),
                reason: reason.map(|r| cut_text(r, max)),
            },
            ServerEvent::ResourceUpdated { server, uri } => ServerEvent::ResourceUpdated {
                server,
                uri: cut_text(uri, max),
            },
            ServerEvent::Stderr { server, line } => ServerEvent::Stderr {
                server,
                line: cut_text(line, max),
            },
            other => other,
        }
    }
}

/// What a note counts.
struct Missed {
    over_rate: u64,
    full: u64,
    readers: usize,
}

/// The kinds a server can produce at will, which are rate-limited.
fn gated(event: &ServerEvent) -> bool {
    matches!(
        event,
        ServerEvent::Log { .. }
            | ServerEvent::Progress { .. }
            | ServerEvent::Cancelled { .. }
            | ServerEvent::ResourceUpdated { .. }
            | ServerEvent::Stderr { .. }
    )
}

fn cut_text(text: String, max: usize) -> String {
    if text.len() <= max {
        return text;
    }
    let total = text.len();
    format!(
        "{}… [{total} bytes in all; cut at {}, --limit preview=SIZE]",
        truncate_str(&text, max),
        Size(max)
    )
}

/// A JSON value whose text is over `max` bytes becomes a string of its start.
fn cut_value(value: Value, max: usize) -> Value {
    if let Value::String(s) = value {
        return Value::String(cut_text(s, max));
    }
    let text = value.to_string();
    if text.len() <= max {
        return value;
    }
    Value::String(cut_text(text, max))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate(per_second: u32, preview: usize) -> (EventGate, EventReceiver) {
        let tx = EventHub::with_limits(10_000, 1 << 30);
        let rx = tx.subscribe();
        let limits = Limits {
            events_per_second: per_second,
            preview_bytes: preview,
            ..Limits::default()
        };
        (EventGate::new("s", tx, &limits), rx)
    }

    fn log(data: Value) -> ServerEvent {
        ServerEvent::Log {
            server: "s".into(),
            level: "info".into(),
            logger: None,
            data,
        }
    }

    #[test]
    fn a_flood_is_cut_to_the_burst_with_a_counted_note() {
        let (gate, mut rx) = gate(10, 1024);
        for i in 0..1000 {
            gate.send(log(Value::from(i)));
        }
        let mut passed = 0;
        let mut notes = Vec::new();
        while let Ok(event) = rx.try_recv() {
            match event {
                ServerEvent::Log {
                    logger: Some(l),
                    data,
                    ..
                } if l == "mcplab" => notes.push(data.as_str().unwrap().to_string()),
                _ => passed += 1,
            }
        }
        // The burst (20) passes; a burst plus a second's refill at most, on a slow machine.
        assert!((20..=30).contains(&passed), "{passed}");
        assert_eq!(notes.len(), 1, "one note a second: {notes:?}");
        assert!(notes[0].contains("did not forward 1 ") && notes[0].contains("--limit events"));
    }

    #[test]
    fn status_changes_always_pass() {
        let (gate, mut rx) = gate(1, 1024);
        for _ in 0..100 {
            gate.send(ServerEvent::ListChanged {
                server: "s".into(),
                list: "tools".into(),
            });
        }
        let mut n = 0;
        while rx.try_recv().is_ok() {
            n += 1;
        }
        assert_eq!(n, 100);
    }

    #[test]
    fn large_fields_are_cut() {
        let (gate, mut rx) = gate(10, 100);
        gate.send(log(serde_json::json!({ "blob": "x".repeat(10_000) })));
        let ServerEvent::Log { data, .. } = rx.try_recv().unwrap() else {
            panic!("a log");
        };
        let text = data.as_str().expect("cut to a string");
        assert!(text.len() < 200 && text.contains("bytes in all"), "{text}");
    }
}

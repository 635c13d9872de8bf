//! What servers sent that the agent has not read yet: server events (logs, progress, list
//! changes, resource updates, elicitation/sampling requests and how they were answered,
//! statuses) and stderr lines, in one ring bounded in entries and bytes. Each reader (the
//! stream, and the server it asks about or all) has a cursor; a read returns what came after
//! it, at most `max` entries and a reply-sized number of bytes, and says how many entries of
//! its kind were evicted unread. Nothing is sent to the agent unasked. Events are marked
//! `by: agent`; with `--attach`, the person's notifications join them (`person.rs`).

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use mcplab_mcp::ConnectionManager;
use mcplab_protocol::ServerEvent;
use parking_lot::Mutex;
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;

use crate::Agent;
use crate::answers::Answers;
use crate::reply::{self, ok};

/// Entries kept, all servers together.
const MAX_ENTRIES: usize = 5_000;
/// Bytes kept (entries are already cut to the preview size by the connection layer).
const MAX_BYTES: usize = 4 * 1024 * 1024;
/// Bytes one read returns at most.
const REPLY_BYTES: usize = 64 * 1024;
/// How long [`Inbox::settle`] waits for a quiet moment, and at most.
const SETTLE_QUIET: std::time::Duration = std::time::Duration::from_millis(15);
const SETTLE_MAX: std::time::Duration = std::time::Duration::from_millis(200);
/// Entries one read returns unless asked otherwise.
pub(crate) const DEFAULT_MAX: usize = 50;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Stream {
    Events,
    Stderr,
}

struct Entry {
    seq: u64,
    server: String,
    stream: Stream,
    value: Value,
    bytes: usize,
}

/// A reader's place: the last sequence number read and the evictions it has been told of.
#[derive(Default, Clone, Copy)]
struct Cursor {
    seq: u64,
    evicted_seen: u64,
}

#[derive(Default)]
struct State {
    entries: VecDeque<Entry>,
    bytes: usize,
    next: u64,
    cursors: HashMap<(Stream, Option<String>), Cursor>,
    /// Entries evicted unread, per (stream, server) and per stream.
    evicted: HashMap<(Stream, Option<String>), u64>,
}

#[derive(Default)]
pub(crate) struct Inbox {
    state: Mutex<State>,
}

/// One read.
pub(crate) struct Taken {
    pub items: Vec<Value>,
    pub missed: u64,
    pub more: bool,
}

impl Inbox {
    pub(crate) fn push(&self, server: &str, stream: Stream, value: Value) {
        let bytes = value.to_string().len() + server.len();
        let mut s = self.state.lock();
        s.next += 1;
        let seq = s.next;
        s.entries.push_back(Entry {
            seq,
            server: server.to_owned(),
            stream,
            value,
            bytes,
        });
        s.bytes += bytes;
        while s.entries.len() > MAX_ENTRIES || (s.bytes > MAX_BYTES && s.entries.len() > 1) {
            let Some(old) = s.entries.pop_front() else {
                break;
            };
            s.bytes -= old.bytes;
            *s.evicted.entry((old.stream, Some(old.server))).or_default() += 1;
            *s.evicted.entry((old.stream, None)).or_default() += 1;
        }
    }

    /// How many entries were ever pushed.
    fn pushed(&self) -> u64 {
        self.state.lock().next
    }

    /// Waits until nothing new has arrived for one quiet interval (at most `SETTLE_MAX`):
    /// a server's notifications are handled concurrently with the response that followed
    /// them on the wire, so right after a call they may still be on their way here.
    pub(crate) async fn settle(&self) {
        let started = tokio::time::Instant::now();
        let mut seen = self.pushed();
        while started.elapsed() < SETTLE_MAX {
            tokio::time::sleep(SETTLE_QUIET).await;
            let now = self.pushed();
            if now == seen {
                return;
            }
            seen = now;
        }
    }

    /// What came for `server` (or every server) on `stream` since this reader's last read.
    pub(crate) fn take(&self, stream: Stream, server: Option<&str>, max: usize) -> Taken {
        let mut s = self.state.lock();
        let key = (stream, server.map(str::to_owned));
        let cursor = s.cursors.get(&key).copied().unwrap_or_default();
        let evicted = s.evicted.get(&key).copied().unwrap_or(0);
        let mut items = Vec::new();
        let mut bytes = 0;
        let mut last = cursor.seq;
        let mut more = false;
        let matching = s.entries.iter().filter(|e| {
            e.seq > cursor.seq && e.stream == stream && server.is_none_or(|n| e.server == n)
        });
        for e in matching {
            if items.len() >= max.max(1) || (bytes + e.bytes > REPLY_BYTES && !items.is_empty()) {
                more = true;
                break;
            }
            bytes += e.bytes;
            last = e.seq;
            items.push(with_place(e));
        }
        if !more {
            last = s.next;
        }
        s.cursors.insert(
            key,
            Cursor {
                seq: last,
                evicted_seen: evicted,
            },
        );
        Taken {
            items,
            missed: evicted - cursor.evicted_seen.min(evicted),
            more,
        }
    }
}

fn with_place(e: &Entry) -> Value {
    match e.stream {
        Stream::Stderr => json!({ "seq": e.seq, "server": e.server, "line": e.value }),
        Stream::Events => {
            let mut v = e.value.clone();
            if let Some(obj) = v.as_object_mut() {
                obj.insert("seq".into(), json!(e.seq));
            }
            v
        }
    }
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct InboxArgs {
    server: Option<String>,
    max: Option<usize>,
}

impl Agent {
    /// The `notifications` and `stderr` tools.
    pub(crate) async fn inbox_tool(
        &self,
        stream: Stream,
        arguments: Value,
    ) -> mcplab_mcp::tool_server::ToolReply {
        let tool = match stream {
            Stream::Events => "notifications",
            Stream::Stderr => "stderr",
        };
        let args: InboxArgs = match reply::args(tool, arguments) {
            Ok(a) => a,
            Err(r) => return *r,
        };
        if let (Stream::Events, Some(person)) = (stream, &self.inner.person) {
            person
                .collect_notifications(args.server.as_deref(), &self.inner.inbox)
                .await;
        }
        self.inner.inbox.settle().await;
        let server = args.server.as_deref();
        let taken = self
            .inner
            .inbox
            .take(stream, server, args.max.unwrap_or(DEFAULT_MAX));
        let key = match stream {
            Stream::Events => "events",
            Stream::Stderr => "lines",
        };
        let mut summary = format!(
            "{} new {key}{}",
            taken.items.len(),
            server.map(|s| format!(" from `{s}`")).unwrap_or_default()
        );
        if taken.missed > 0 {
            summary.push_str(&format!(" ({} evicted unread)", taken.missed));
        }
        if taken.more {
            summary.push_str("; more waiting: call again");
        }
        ok(
            summary,
            json!({ key: taken.items, "missed": taken.missed, "more": taken.more }),
        )
    }
}

/// Follows `manager`'s events into `inbox`, and hands elicitation/sampling requests to
/// `answers`, until aborted.
pub(crate) fn listen(
    manager: Arc<ConnectionManager>,
    inbox: Arc<Inbox>,
    answers: Arc<Answers>,
) -> tokio::task::JoinHandle<()> {
    let mut events = manager.subscribe();
    tokio::spawn(async move {
        loop {
            match events.recv().await {
                Ok(ServerEvent::Stderr { server, line }) => {
                    inbox.push(&server, Stream::Stderr, Value::String(line));
                }
                // About the list's order, not one server: nothing an agent's inbox keeps.
                Ok(ServerEvent::Reordered { .. }) => {}
                Ok(event) => {
                    if let ServerEvent::HumanRequested { request } = &event {
                        answers.clone().handle(request.clone(), inbox.clone());
                    }
                    let server = event.server().to_owned();
                    let mut value = serde_json::to_value(&event).unwrap_or(Value::Null);
                    if let Some(obj) = value.as_object_mut() {
                        obj.insert("ms".into(), json!(mcplab_protocol::clock::now_ms()));
                        obj.insert("by".into(), json!("agent"));
                    }
                    inbox.push(&server, Stream::Events, value);
                }
                Err(RecvError::Lagged(n)) => {
                    let note = json!({ "type": "missed", "count": n,
                        "note": "mcplab fell behind and lost these events" });
                    inbox.push("mcplab", Stream::Events, note);
                }
                Err(RecvError::Closed) => return,
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_reader_gets_what_came_since_its_last_read() {
        let inbox = Inbox::default();
        inbox.push("a", Stream::Events, json!({"type": "log", "n": 1}));
        inbox.push("b", Stream::Events, json!({"type": "log", "n": 2}));
        inbox.push("a", Stream::Stderr, json!("boom"));
        let all = inbox.take(Stream::Events, None, 10);
        assert_eq!(all.items.len(), 2);
        assert_eq!(inbox.take(Stream::Events, None, 10).items.len(), 0);
        // Another reader (one server) has its own cursor.
        let a = inbox.take(Stream::Events, Some("a"), 10);
        assert_eq!(a.items.len(), 1);
        assert_eq!(a.items[0]["n"], 1);
        let err = inbox.take(Stream::Stderr, Some("a"), 10);
        assert_eq!(err.items[0]["line"], "boom");
        inbox.push("a", Stream::Events, json!({"type": "log", "n": 3}));
        assert_eq!(inbox.take(Stream::Events, Some("a"), 10).items[0]["n"], 3);
    }

    #[test]
    fn a_read_is_bounded_and_says_there_is_more() {
        let inbox = Inbox::default();
        for n in 0..5 {
            inbox.push("a", Stream::Events, json!({ "n": n }));
        }
        let first = inbox.take(Stream::Events, None, 2);
        assert_eq!((first.items.len(), first.more), (2, true));
        let rest = inbox.take(Stream::Events, None, 10);
        assert_eq!((rest.items.len(), rest.more), (3, false));
        assert_eq!(rest.items[0]["n"], 2);
    }

    #[test]
    fn evicted_unread_entries_are_counted_as_missed() {
        let inbox = Inbox::default();
        for n in 0..MAX_ENTRIES + 7 {
            inbox.push("a", Stream::Stderr, json!(format!("line {n}")));
        }
        let read = inbox.take(Stream::Stderr, Some("a"), 1);
        assert_eq!(read.missed, 7);
        assert_eq!(read.items[0]["line"], "line 7");
        assert_eq!(inbox.take(Stream::Stderr, Some("a"), 1).missed, 0);
    }
}

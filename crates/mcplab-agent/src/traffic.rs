//! The `traffic` tool: the last frames recorded between mcplab and one server, both ways, as
//! the traffic view shows them — optionally only one method (requests and the responses that
//! answer them, matched by id) or one request id — each cut to a short excerpt unless `full`.
//! With `--attach`, the frames of the running inspector's own connection to that server (what
//! the person did) are merged in by time, each frame marked `by` (`agent` or `person`). Every
//! answer carries a `cursor`; given back as `since`, only newer frames come, oldest first.

use std::collections::HashMap;

use mcplab_mcp::tool_server::ToolReply;
use mcplab_protocol::{Direction, FrameKind, TrafficFrame};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::Agent;
use crate::reply::{self, cut, fail, ok};

/// Frames returned unless asked otherwise, and at most.
const DEFAULT_LAST: usize = 20;
const MAX_LAST: usize = 200;
/// Characters of each frame's text unless `full`.
const EXCERPT: usize = 600;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TrafficArgs {
    server: String,
    method: Option<String>,
    id: Option<Value>,
    last: Option<usize>,
    #[serde(default)]
    full: bool,
    /// `agent` or `person`; both when absent.
    by: Option<By>,
    /// A `cursor` of an earlier answer.
    since: Option<String>,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum By {
    Agent,
    Person,
}

/// Where a reader was: the newest frame seen of each side (sequence numbers of each process).
#[derive(Default, Clone, Copy, PartialEq, Debug)]
struct Cursor {
    agent: u64,
    person: u64,
}

impl Cursor {
    fn text(self) -> String {
        format!("a{}.p{}", self.agent, self.person)
    }

    fn parse(text: &str) -> Option<Self> {
        let (a, p) = text.split_once('.')?;
        Some(Self {
            agent: a.strip_prefix('a')?.parse().ok()?,
            person: p.strip_prefix('p')?.parse().ok()?,
        })
    }
}

/// One side's frames of the server.
struct Side {
    by: By,
    frames: Vec<TrafficFrame>,
    dropped: u64,
}

impl Agent {
    pub(crate) async fn traffic_tool(&self, arguments: Value) -> ToolReply {
        let args: TrafficArgs = match reply::args("traffic", arguments) {
            Ok(a) => a,
            Err(r) => return *r,
        };
        let since = match args.since.as_deref().map(Cursor::parse) {
            Some(None) => {
                return fail("`since` takes the `cursor` of an earlier `traffic` answer");
            }
            Some(Some(c)) => Some(c),
            None => None,
        };
        let mut sides = Vec::new();
        if args.by != Some(By::Person) {
            let snapshot = self.inner.manager.traffic().snapshot(&args.server);
            sides.push(Side {
                by: By::Agent,
                frames: snapshot.frames,
                dropped: snapshot.dropped,
            });
        }
        let mut unreachable = None;
        match (&self.inner.person, args.by) {
            (Some(person), None | Some(By::Person)) => {
                match person.inspector.traffic(&args.server).await {
                    Ok((frames, dropped)) => sides.push(Side {
                        by: By::Person,
                        frames,
                        dropped,
                    }),
                    Err(why) => unreachable = Some(why),
                }
            }
            (None, Some(By::Person)) => {
                return fail(
                    "the person's traffic is known only with `mcplab mcp --attach` (while \
                     `mcplab serve` runs)",
                );
            }
            _ => {}
        }
        self.traffic_reply(&args, since, sides, unreachable)
    }

    fn traffic_reply(
        &self,
        args: &TrafficArgs,
        since: Option<Cursor>,
        sides: Vec<Side>,
        unreachable: Option<String>,
    ) -> ToolReply {
        let mut cursor = since.unwrap_or_default();
        let mut matching: Vec<(By, &TrafficFrame)> = Vec::new();
        for side in &sides {
            if let Some(newest) = side.frames.last() {
                match side.by {
                    By::Agent => cursor.agent = cursor.agent.max(newest.seq),
                    By::Person => cursor.person = cursor.person.max(newest.seq),
                }
            }
            let after = since.map_or(0, |c| match side.by {
                By::Agent => c.agent,
                By::Person => c.person,
            });
            let picked = select(&side.frames, args.method.as_deref(), args.id.as_ref());
            matching.extend(
                picked
                    .into_iter()
                    .filter(|f| f.seq > after)
                    .map(|f| (side.by, f)),
            );
        }
        matching.sort_by_key(|(_, f)| f.ts_ms);
        let last = args.last.unwrap_or(DEFAULT_LAST).clamp(1, MAX_LAST);
        let total = matching.len();
        let (shown, more) = if since.is_some() && total > last {
            // Oldest first, and the cursor stops at the last one shown.
            let shown = &matching[..last];
            cursor = since.unwrap_or_default();
            for (by, f) in shown {
                match by {
                    By::Agent => cursor.agent = cursor.agent.max(f.seq),
                    By::Person => cursor.person = cursor.person.max(f.seq),
                }
            }
            (shown, true)
        } else {
            (&matching[total.saturating_sub(last)..], false)
        };
        let frames: Vec<Value> = shown
            .iter()
            .map(|(by, f)| self.frame_view(*by, f, &args.server, args.full))
            .collect();
        let dropped: u64 = sides.iter().map(|s| s.dropped).sum();
        let mut summary = format!(
            "{} of {} matching frame(s) of `{}`",
            frames.len(),
            total,
            args.server
        );
        if self.inner.person.is_some() {
            let person = shown.iter().filter(|(b, _)| *b == By::Person).count();
            summary.push_str(&format!(" ({person} of them the person's)"));
        }
        if dropped > 0 {
            summary.push_str(&format!("; {dropped} older evicted"));
        }
        if more {
            summary.push_str("; more: call again with `since`");
        }
        let mut out = json!({ "frames": frames, "dropped": dropped,
            "cursor": cursor.text(), "more": more });
        if let Some(why) = unreachable {
            summary.push_str(&format!(
                "; the inspector's traffic could not be read: {why}"
            ));
            out["inspectorError"] = json!(why);
        }
        ok(summary, out)
    }

    fn frame_view(&self, by: By, f: &TrafficFrame, server: &str, full: bool) -> Value {
        let whole = match (full, by) {
            (true, By::Agent) => self.inner.manager.traffic().frame(server, f.seq),
            _ => None,
        };
        let mut v = view(whole.as_ref().unwrap_or(f), full);
        v["by"] = json!(match by {
            By::Agent => "agent",
            By::Person => "person",
        });
        v
    }
}

/// The frames of `method` (requests and their responses) and/or with request `id`.
fn select<'a>(
    frames: &'a [TrafficFrame],
    method: Option<&str>,
    id: Option<&Value>,
) -> Vec<&'a TrafficFrame> {
    // Which method each request id was, per direction (inbound?), to place the responses.
    let mut methods: HashMap<(bool, String), String> = HashMap::new();
    let parsed: Vec<Option<Value>> = frames
        .iter()
        .map(|f| serde_json::from_str::<Value>(&f.text).ok())
        .collect();
    for (f, v) in frames.iter().zip(&parsed) {
        if let Some(v) = v
            && let (Some(m), Some(i)) = (v["method"].as_str(), v.get("id"))
        {
            methods.insert((inbound(f.direction), i.to_string()), m.to_owned());
        }
    }
    frames
        .iter()
        .zip(&parsed)
        .filter(|(f, v)| {
            let v = v.as_ref();
            let frame_id = v.and_then(|v| v.get("id"));
            let id_ok = id.is_none_or(|want| frame_id == Some(want));
            let method_ok = method.is_none_or(|want| {
                let own = v.and_then(|v| v["method"].as_str());
                let answered = frame_id.and_then(|i| {
                    // A response travels the other way from its request.
                    methods.get(&(!inbound(f.direction), i.to_string()))
                });
                own == Some(want) || answered.map(String::as_str) == Some(want)
            });
            id_ok && method_ok
        })
        .map(|(f, _)| f)
        .collect()
}

fn inbound(d: Direction) -> bool {
    d == Direction::Inbound
}

fn view(f: &TrafficFrame, full: bool) -> Value {
    let kind = match &f.kind {
        FrameKind::Message => "message".to_owned(),
        FrameKind::Unparsable { error } => format!("unparsable: {error}"),
        FrameKind::Synthetic => "synthetic".into(),
        FrameKind::Note => "note".into(),
    };
    let dir = match f.direction {
        Direction::Outbound => "to server",
        Direction::Inbound => "from server",
    };
    let text = if full {
        f.text.clone()
    } else {
        cut(&f.text, EXCERPT)
    };
    let mut v = json!({ "seq": f.seq, "ms": f.ts_ms, "dir": dir, "kind": kind, "text": text });
    if let Some(n) = f.full_bytes {
        v["bytes"] = json!(n);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(seq: u64, direction: Direction, text: &str) -> TrafficFrame {
        TrafficFrame::message(seq, "s", 0, direction, text)
    }

    #[test]
    fn a_cursor_reads_back_what_it_wrote() {
        let c = Cursor {
            agent: 12,
            person: 0,
        };
        assert_eq!(Cursor::parse(&c.text()), Some(c));
        assert_eq!(Cursor::parse("12"), None);
    }

    #[test]
    fn a_method_filter_keeps_its_requests_and_their_responses() {
        let frames = vec![
            frame(
                1,
                Direction::Outbound,
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            ),
            frame(
                2,
                Direction::Inbound,
                r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            ),
            frame(
                3,
                Direction::Outbound,
                r#"{"jsonrpc":"2.0","id":2,"method":"tools/call"}"#,
            ),
            frame(
                4,
                Direction::Inbound,
                r#"{"jsonrpc":"2.0","method":"notifications/message"}"#,
            ),
            frame(
                5,
                Direction::Inbound,
                r#"{"jsonrpc":"2.0","id":2,"result":{}}"#,
            ),
            frame(6, Direction::Inbound, "not json"),
        ];
        let seqs = |v: Vec<&TrafficFrame>| v.iter().map(|f| f.seq).collect::<Vec<_>>();
        assert_eq!(seqs(select(&frames, Some("tools/call"), None)), [3, 5]);
        assert_eq!(seqs(select(&frames, None, Some(&json!(1)))), [1, 2]);
        assert_eq!(seqs(select(&frames, None, None)).len(), 6);
    }
}

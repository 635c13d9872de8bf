//! The `traffic` tool: the last frames recorded between mcplab and one server, both ways, as
//! the traffic view shows them — optionally only one method (requests and the responses that
//! answer them, matched by id) or one request id — each cut to a short excerpt unless `full`.

use std::collections::HashMap;

use mcplab_protocol::{Direction, FrameKind, TrafficFrame};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::Agent;
use crate::reply::{self, cut, ok};

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
}

impl Agent {
    pub(crate) fn traffic_tool(&self, arguments: Value) -> mcplab_mcp::tool_server::ToolReply {
        let args: TrafficArgs = match reply::args("traffic", arguments) {
            Ok(a) => a,
            Err(r) => return *r,
        };
        let log = self.inner.manager.traffic();
        let snapshot = log.snapshot(&args.server);
        let frames = select(&snapshot.frames, args.method.as_deref(), args.id.as_ref());
        let last = args.last.unwrap_or(DEFAULT_LAST).clamp(1, MAX_LAST);
        let shown: Vec<Value> = frames[frames.len().saturating_sub(last)..]
            .iter()
            .map(|f| {
                let whole = if args.full {
                    log.frame(&args.server, f.seq)
                        .unwrap_or_else(|| (*f).clone())
                } else {
                    (*f).clone()
                };
                view(&whole, args.full)
            })
            .collect();
        let summary = format!(
            "{} of {} matching frame(s) of `{}`{}",
            shown.len(),
            frames.len(),
            args.server,
            if snapshot.dropped > 0 {
                format!(" ({} older evicted)", snapshot.dropped)
            } else {
                String::new()
            }
        );
        ok(
            summary,
            json!({ "frames": shown, "dropped": snapshot.dropped }),
        )
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
        TrafficFrame {
            seq,
            server: "s".into(),
            ts_ms: 0,
            direction,
            kind: FrameKind::Message,
            text: text.into(),
            full_bytes: None,
            headers: None,
            http: None,
            exchange: None,
        }
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

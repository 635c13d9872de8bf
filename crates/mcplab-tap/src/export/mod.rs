//! What a recorded host session becomes besides a replay: an eval case (`eval`: the model's
//! tool calls and their results, "expect these calls") and a `mcplab check` baseline
//! (`baseline`: the surface the host saw). Both read the host's requests paired with the
//! server's answers ([`exchanges`]) and the session's era; neither talks to a server.

pub mod baseline;
pub mod eval;

use std::collections::HashMap;

use mcplab_protocol::{Direction, Era, FrameKind, TrafficFrame};
use serde_json::Value;

/// A request the host sent and what came back.
#[derive(Debug, Clone, PartialEq)]
pub struct Exchange {
    pub method: String,
    pub params: Value,
    /// The `result` of the answer, when it was one.
    pub result: Option<Value>,
    /// The `error` of the answer, when it was one.
    pub error: Option<Value>,
}

/// The host's requests in the order sent, each with its answer (none when the session ended
/// first). Frames kept only in part (over `--max-frame`) and notes are left out.
pub fn exchanges(frames: &[&TrafficFrame]) -> Vec<Exchange> {
    let mut out: Vec<Exchange> = Vec::new();
    let mut open: HashMap<String, usize> = HashMap::new();
    for frame in frames {
        if frame.kind != FrameKind::Message || frame.full_bytes.is_some() {
            continue;
        }
        let Ok(message) = serde_json::from_str::<Value>(&frame.text) else {
            continue;
        };
        let id = message.get("id").map(Value::to_string);
        let method = message.get("method").and_then(Value::as_str);
        match (frame.direction, id, method) {
            (Direction::Outbound, Some(id), Some(method)) => {
                open.insert(id, out.len());
                out.push(Exchange {
                    method: method.to_owned(),
                    params: message.get("params").cloned().unwrap_or(Value::Null),
                    result: None,
                    error: None,
                });
            }
            (Direction::Inbound, Some(id), None) => {
                if let Some(at) = open.remove(&id) {
                    out[at].result = message.get("result").cloned();
                    out[at].error = message.get("error").cloned();
                }
            }
            _ => {}
        }
    }
    out
}

/// The era a session spoke and its revision: the handshake's (`initialize`, the revision the
/// server answered with), else 2026-07-28's per-request `_meta` protocol version.
pub fn era_of(exchanges: &[Exchange]) -> (Era, String) {
    if let Some(init) = exchanges.iter().find(|e| e.method == "initialize") {
        let answered = init.result.as_ref().and_then(|r| r.get("protocolVersion"));
        let asked = init.params.get("protocolVersion");
        let revision = answered.or(asked).and_then(Value::as_str).unwrap_or("");
        return (Era::Legacy, revision.to_owned());
    }
    let revision = exchanges
        .iter()
        .find_map(|e| {
            e.params["_meta"]["io.modelcontextprotocol/protocolVersion"]
                .as_str()
                .map(str::to_owned)
        })
        .unwrap_or_else(|| "2026-07-28".to_owned());
    (Era::Modern, revision)
}

/// The server's name as it gave it (`serverInfo` of `initialize` or `server/discover`).
pub fn server_name(exchanges: &[Exchange]) -> Option<String> {
    exchanges
        .iter()
        .filter(|e| e.method == "initialize" || e.method == "server/discover")
        .find_map(|e| {
            e.result.as_ref()?["serverInfo"]["name"]
                .as_str()
                .map(str::to_owned)
        })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Frames of a session from (direction, JSON) pairs.
    pub(crate) fn frames(said: &[(Direction, Value)]) -> Vec<TrafficFrame> {
        said.iter()
            .enumerate()
            .map(|(i, (direction, v))| {
                TrafficFrame::message(i as u64 + 1, "", 1, *direction, v.to_string())
            })
            .collect()
    }

    #[test]
    fn requests_pair_with_their_answers_and_the_era_is_read() {
        use Direction::{Inbound, Outbound};
        use serde_json::json;
        let said = frames(&[
            (
                Outbound,
                json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}),
            ),
            (
                Inbound,
                json!({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","serverInfo":{"name":"w"}}}),
            ),
            (
                Outbound,
                json!({"jsonrpc":"2.0","method":"notifications/initialized"}),
            ),
            (
                Outbound,
                json!({"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"t"}}),
            ),
            (
                Inbound,
                json!({"jsonrpc":"2.0","id":"a","error":{"code":-1,"message":"no"}}),
            ),
        ]);
        let refs: Vec<&TrafficFrame> = said.iter().collect();
        let ex = exchanges(&refs);
        assert_eq!(ex.len(), 2, "notifications are not exchanges");
        assert_eq!(ex[1].error.as_ref().unwrap()["message"], "no");
        assert_eq!(era_of(&ex), (Era::Legacy, "2025-06-18".into()));
        assert_eq!(server_name(&ex).as_deref(), Some("w"));
        let modern = frames(&[(
            Outbound,
            json!({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}),
        )]);
        let refs: Vec<&TrafficFrame> = modern.iter().collect();
        assert_eq!(
            era_of(&exchanges(&refs)),
            (Era::Modern, "2026-07-28".into())
        );
    }
}

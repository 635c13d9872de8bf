//! Replaying a recorded session against a server, as a regression test: the host's frames
//! are sent again exactly as recorded, in order, one request at a time; each answer is
//! compared with the recorded one after `normalize` (JSON-RPC ids, timestamps, UUIDs and the
//! keys asked for are not compared). What the server asks of the host on the way (sampling,
//! elicitation, roots) is answered with what the host answered in the recording, by method
//! and in order. It drives a raw `mcplab_mcp` wire (stdio, HTTP): no MCP client in between, so
//! the server sees the host's own requests, capabilities and all.

mod normalize;

use std::collections::{HashMap, VecDeque};
use std::time::Duration;

use bytes::Bytes;
use mcplab_mcp::wire::{Wire, WireEvent};
use mcplab_protocol::{Direction, FrameKind, TrafficFrame};
use serde_json::{Value, json};

pub use normalize::{Difference, differences};

/// How a replay runs.
#[derive(Debug, Clone)]
pub struct ReplayOptions {
    /// How long one answer may take.
    pub timeout: Duration,
    /// Keys whose values are not compared, wherever they are.
    pub ignore: Vec<String>,
}

/// One request of the recording and how its answer compared.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    /// `tools/call #3` (the method and the recorded id).
    pub request: String,
    pub outcome: Outcome,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Same,
    Differs(Vec<Difference>),
    /// No answer within the timeout, or the wire closed (the words say which).
    NoAnswer(String),
    /// The recording has no answer to compare with; sent all the same.
    NotRecorded,
}

/// What a replay found.
#[derive(Debug, Clone, Default)]
pub struct ReplayReport {
    pub checked: Vec<Checked>,
    /// Notifications sent (not compared).
    pub notifications: usize,
    /// Requests the server made that were answered from the recording.
    pub answered_for_host: usize,
}

impl Outcome {
    /// Same, or nothing to compare with.
    pub fn passed(&self) -> bool {
        matches!(self, Outcome::Same | Outcome::NotRecorded)
    }
}

impl ReplayReport {
    /// True when every recorded answer came back the same.
    pub fn passed(&self) -> bool {
        self.checked.iter().all(|c| c.outcome.passed())
    }
}

/// The recorded session, sorted out: what the host sent, the answers it got, and its answers
/// to the server's requests by method.
struct Script {
    sent: Vec<(Value, String)>,
    answers: HashMap<String, Value>,
    host_answers: HashMap<String, VecDeque<Value>>,
}

impl Script {
    fn of(frames: &[&TrafficFrame]) -> Self {
        let messages = frames
            .iter()
            .filter(|f| f.kind == FrameKind::Message && f.full_bytes.is_none())
            .filter_map(|f| Some((f.direction, serde_json::from_str(&f.text).ok()?, &f.text)));
        let mut script = Script {
            sent: Vec::new(),
            answers: HashMap::new(),
            host_answers: HashMap::new(),
        };
        let mut server_asked: HashMap<String, String> = HashMap::new();
        for (direction, value, text) in messages {
            let value: Value = value;
            let id = value.get("id").map(Value::to_string);
            let method = value
                .get("method")
                .and_then(Value::as_str)
                .map(str::to_owned);
            match (direction, id, method) {
                (Direction::Outbound, Some(id), None) => {
                    let method = server_asked.get(&id).cloned().unwrap_or_default();
                    script
                        .host_answers
                        .entry(method)
                        .or_default()
                        .push_back(value);
                }
                (Direction::Outbound, _, Some(_)) => script.sent.push((value, text.clone())),
                (Direction::Inbound, Some(id), Some(method)) => {
                    server_asked.insert(id, method);
                }
                (Direction::Inbound, Some(id), None) => {
                    script.answers.entry(id).or_insert(value);
                }
                _ => {}
            }
        }
        script
    }
}

/// Replays `frames` (one host session, in order) over `wire`.
pub async fn replay(
    frames: &[&TrafficFrame],
    mut wire: Wire,
    options: &ReplayOptions,
) -> ReplayReport {
    let mut script = Script::of(frames);
    let mut report = ReplayReport::default();
    for (message, text) in std::mem::take(&mut script.sent) {
        let method = message["method"].as_str().unwrap_or("").to_owned();
        let Some(id) = message.get("id").cloned() else {
            report.notifications += 1;
            let _ = wire.outbound.send(Bytes::from(text)).await;
            continue;
        };
        let request = format!("{method} #{id}");
        if wire.outbound.send(Bytes::from(text)).await.is_err() {
            report.checked.push(Checked {
                request,
                outcome: Outcome::NoAnswer("the server is gone".into()),
            });
            break;
        }
        let got = answer_to(&id, &mut wire, &mut script, &mut report, options.timeout).await;
        let outcome = match (got, script.answers.get(&id.to_string())) {
            (Err(why), _) => Outcome::NoAnswer(why),
            (Ok(_), None) => Outcome::NotRecorded,
            (Ok(live), Some(recorded)) => {
                let found = differences(recorded, &live, &options.ignore);
                match found.is_empty() {
                    true => Outcome::Same,
                    false => Outcome::Differs(found),
                }
            }
        };
        let gone = matches!(&outcome, Outcome::NoAnswer(w) if w.contains("closed"));
        report.checked.push(Checked { request, outcome });
        if gone {
            break;
        }
    }
    report
}

/// Waits for the answer to request `id`, answering the server's own requests on the way.
async fn answer_to(
    id: &Value,
    wire: &mut Wire,
    script: &mut Script,
    report: &mut ReplayReport,
    timeout: Duration,
) -> Result<Value, String> {
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        let event = tokio::time::timeout_at(deadline, wire.inbound.recv())
            .await
            .map_err(|_| format!("no answer within {} s", timeout.as_secs_f64()))?;
        let bytes = match event {
            Some(WireEvent::Frame(b) | WireEvent::Carried { frame: b, .. }) => b,
            Some(WireEvent::Synthetic(b)) => b,
            Some(WireEvent::Closed(why)) => return Err(format!("the connection closed: {why}")),
            None => return Err("the connection closed".into()),
            Some(WireEvent::Unusable { why, .. }) => return Err(why),
            Some(_) => continue,
        };
        let Ok(message) = serde_json::from_slice::<Value>(&bytes) else {
            continue;
        };
        match (
            message.get("id"),
            message.get("method").and_then(Value::as_str),
        ) {
            (Some(got), None) if got == id => return Ok(message),
            (Some(asked), Some(method)) => {
                let reply = host_answer(script, method, asked);
                report.answered_for_host += 1;
                let _ = wire.outbound.send(Bytes::from(reply.to_string())).await;
            }
            _ => {}
        }
    }
}

/// The host's recorded answer to the server's next `method` request, under the live id; an
/// error when the recording has none.
fn host_answer(script: &mut Script, method: &str, id: &Value) -> Value {
    match script
        .host_answers
        .get_mut(method)
        .and_then(VecDeque::pop_front)
    {
        Some(mut recorded) => {
            recorded["id"] = id.clone();
            recorded
        }
        None => json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": {"code": -32601, "message": format!("the recording has no answer to `{method}`")},
        }),
    }
}

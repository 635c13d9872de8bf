//! Judges recorded traffic, frame by frame in both directions: each message is validated
//! against the definition its method calls for in the negotiated revision (responses by the
//! request they answer; a 2026-07-28 `input_required` result as an `InputRequiredResult`
//! where the revision allows one), plus the JSON-RPC rules the schema cannot see — responses
//! that match no request or answer one twice, notifications that carry an id, lines that are
//! not JSON-RPC — and list_changed and log notifications against the declared capabilities.
//! Tool definitions and call results go to `tools`. It reads frames only; it sends nothing.

use std::collections::HashMap;

use mcplab_protocol::{Direction, Era, FrameKind, TrafficFrame};
use serde_json::Value;

use super::rules::{
    CLIENT_SCHEMA, INPUT_REQUIRED, LIST_CHANGED, NOT_JSON_RPC, NOTIFICATION_ID, PROBE_ANSWER,
    RESPONSE_ID, SCHEMA, UNDECLARED,
};
use super::schema::{Kind, Side, Spec};
use super::tools::{check_call_result, check_tool};
use crate::findings::{At, Findings};
use crate::recording::{Recording, is_probe_ping};
use crate::rule::Rule;

/// Violations reported per frame.
const PER_FRAME: usize = 5;

/// A request waiting for its answer.
struct Asked {
    method: String,
    def: Option<String>,
    /// The tool of a `tools/call`.
    tool: Option<String>,
    /// A 2025-11-25 `tools/call` augmented with `task` (answered by a `CreateTaskResult`).
    task: bool,
}

/// The state of one walk through the frames.
struct Walk<'a> {
    rec: &'a Recording,
    spec: &'a mut Spec,
    f: &'a mut Findings,
    /// Requests mcplab sent, by id, until answered.
    asked: HashMap<String, Asked>,
    /// Ids answered, with the frame that answered.
    answered: HashMap<String, u64>,
    /// Requests the server sent, by id, until mcplab answered.
    server_asked: HashMap<String, Option<String>>,
    tools: HashMap<String, Value>,
    /// Ids of the 2026-07-28 probe in a legacy session (judged by that era, not this one).
    skipped: Vec<String>,
    /// Whether frames before the session's start were evicted (ids then cannot be matched).
    partial: bool,
    /// Requests answered `input_required`: what was asked, for what, and each round's frame.
    input_rounds: Vec<(String, String, Vec<u64>)>,
}

/// Judges every frame of the session, in order.
pub(super) fn check_frames(rec: &Recording, spec: &mut Spec, partial: bool, f: &mut Findings) {
    let mut walk = Walk {
        rec,
        spec,
        f,
        asked: HashMap::new(),
        answered: HashMap::new(),
        server_asked: HashMap::new(),
        tools: HashMap::new(),
        skipped: Vec::new(),
        partial,
        input_rounds: Vec::new(),
    };
    for frame in &rec.frames {
        match (&frame.kind, frame.direction) {
            (FrameKind::Unparsable { error }, Direction::Inbound) => {
                walk.unparsable(frame, error);
            }
            (FrameKind::Message, direction) => {
                let Ok(v) = serde_json::from_str::<Value>(&frame.text) else {
                    continue;
                };
                match direction {
                    Direction::Outbound => walk.outbound(frame, &v),
                    Direction::Inbound => walk.inbound(frame, &v),
                }
            }
            _ => {}
        }
    }
    walk.input_notes();
}

impl Walk<'_> {
    /// A frame the server sent that mcplab could not read. JSON-RPC that breaks the schema
    /// (a request whose id is a fraction) is judged as the message it is; anything else, or
    /// a message the schema finds nothing wrong with, is not JSON-RPC.
    fn unparsable(&mut self, frame: &TrafficFrame, error: &str) {
        let json_rpc = serde_json::from_str::<Value>(&frame.text)
            .ok()
            .filter(|v| v.get("jsonrpc").is_some());
        if let Some(v) = json_rpc {
            let before = self.f.count();
            self.inbound(frame, &v);
            if self.f.count() > before {
                return;
            }
        }
        let what = if self.rec.is_stdio() {
            "stdout line"
        } else {
            "frame"
        };
        self.f.add(
            &NOT_JSON_RPC,
            format!("a {what} that is not JSON-RPC ({error})"),
            At::frame(frame),
        );
    }

    /// A frame mcplab sent: its own requests and notifications, and its answers to the
    /// server's requests. A violation here is mcplab's bug, reported as such.
    fn outbound(&mut self, frame: &TrafficFrame, v: &Value) {
        let id = v.get("id").map(Value::to_string);
        let method = v.get("method").and_then(Value::as_str);
        match (id, method) {
            (Some(id), Some(method)) => {
                let probe = self.rec.era == Era::Legacy && method == "server/discover";
                if probe || is_probe_ping(v) {
                    self.skipped.push(id);
                    return;
                }
                // A new request under the probe's id (a new HTTP connection counts from 0
                // again): its answer is this era's.
                self.skipped.retain(|s| *s != id);
                let def = self
                    .spec
                    .message_def(Side::Client, Kind::Request, method)
                    .map(str::to_owned);
                self.envelope(&CLIENT_SCHEMA, "JSONRPCRequest", v, frame);
                if let Some(def) = &def {
                    self.validate(&CLIENT_SCHEMA, def, v, "", frame);
                }
                let asked = Asked {
                    method: method.to_owned(),
                    def,
                    tool: v
                        .pointer("/params/name")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                    task: v.pointer("/params/task").is_some(),
                };
                self.asked.insert(id, asked);
            }
            (None, Some(method)) => {
                self.envelope(&CLIENT_SCHEMA, "JSONRPCNotification", v, frame);
                let def = self
                    .spec
                    .message_def(Side::Client, Kind::Notification, method);
                if let Some(def) = def.map(str::to_owned) {
                    self.validate(&CLIENT_SCHEMA, &def, v, "", frame);
                }
            }
            (Some(id), None) => {
                let def = self.server_asked.remove(&id).flatten();
                self.response(&CLIENT_SCHEMA, def.as_deref(), v, frame);
            }
            (None, None) => self.envelope(&CLIENT_SCHEMA, "JSONRPCMessage", v, frame),
        }
    }

    /// A frame the server sent.
    fn inbound(&mut self, frame: &TrafficFrame, v: &Value) {
        let id = v.get("id").map(Value::to_string);
        let method = v.get("method").and_then(Value::as_str);
        match (id, method) {
            (Some(_), Some(method))
                if self.spec.is_notification(method) || method.starts_with("notifications/") =>
            {
                self.f.add(
                    &NOTIFICATION_ID,
                    format!("the notification {method} carries an id: notifications MUST NOT include one"),
                    At::frame(frame).path("/id"),
                );
            }
            (Some(id), Some(method)) => {
                let def = self
                    .spec
                    .message_def(Side::Server, Kind::Request, method)
                    .map(str::to_owned);
                self.envelope(&SCHEMA, "JSONRPCRequest", v, frame);
                if let Some(def) = &def {
                    self.validate(&SCHEMA, def, v, "", frame);
                }
                self.server_asked.insert(id, def);
            }
            (None, Some(method)) => {
                self.envelope(&SCHEMA, "JSONRPCNotification", v, frame);
                let def = self
                    .spec
                    .message_def(Side::Server, Kind::Notification, method);
                if let Some(def) = def.map(str::to_owned) {
                    self.validate(&SCHEMA, &def, v, "", frame);
                }
                self.declared(method, frame);
            }
            (Some(id), None) => self.answer(&id, frame, v),
            (None, None) => self.envelope(&SCHEMA, "JSONRPCMessage", v, frame),
        }
    }

    /// A response from the server: matched to the request it answers, then judged by it.
    fn answer(&mut self, id: &str, frame: &TrafficFrame, v: &Value) {
        if let Some(at) = self.skipped.iter().position(|s| s == id) {
            self.skipped.remove(at);
            return;
        }
        let Some(asked) = self.asked.remove(id) else {
            if !self.probe_answer(id, frame, v) {
                self.stray(id, frame);
            }
            return;
        };
        self.answered.insert(id.to_owned(), frame.seq);
        let Some(result) = v.get("result") else {
            self.response(&SCHEMA, None, v, frame);
            return;
        };
        let input_required =
            result.get("resultType").and_then(Value::as_str) == Some("input_required");
        let def = asked.def.as_deref().unwrap_or_default();
        if input_required {
            self.input_required(&asked, def, v, frame);
            return;
        }
        self.response(&SCHEMA, asked.def.as_deref(), v, frame);
        if asked.task && self.spec.has("CreateTaskResult") && result.get("task").is_some() {
            return;
        }
        match asked.method.as_str() {
            "tools/list" => {
                let listed = result.get("tools").and_then(Value::as_array);
                let mut names = Vec::new();
                for (i, t) in listed.into_iter().flatten().enumerate() {
                    check_tool(t, i, frame, self.f);
                    let name = t.get("name").and_then(Value::as_str);
                    if let Some(name) = name {
                        self.tools.insert(name.to_owned(), t.clone());
                    }
                    names.push(name);
                }
                self.f.name_tools(frame.seq, &names);
            }
            "tools/call" => {
                let def = asked.tool.as_ref().and_then(|n| self.tools.get(n));
                check_call_result(def, result, frame, &self.spec.revision, self.f);
            }
            _ => {}
        }
    }

    /// An error with an id of its own while the 2026-07-28 probe of a legacy session is the
    /// request outstanding (the Python SDK 1.x answers `server/discover` with id
    /// `"server-error"`): the probe's answer, judged as such, not a stray response.
    fn probe_answer(&mut self, id: &str, frame: &TrafficFrame, v: &Value) -> bool {
        if self.skipped.len() != 1 || v.get("error").is_none() || self.answered.contains_key(id) {
            return false;
        }
        let probe = self.skipped.remove(0);
        let message = format!(
            "mcplab's 2026-07-28 probe `server/discover` (id {probe}) was answered with an error carrying id {id}, not the request's"
        );
        self.f
            .add(&PROBE_ANSWER, message, At::frame(frame).path("/id"));
        true
    }

    /// A response whose id matches no request waiting for one.
    fn stray(&mut self, id: &str, frame: &TrafficFrame) {
        if let Some(first) = self.answered.get(id) {
            let message = format!("a second response to id {id} (the first was frame #{first})");
            let at = At::frame(frame).and_frame(*first).path("/id");
            self.f.add(&RESPONSE_ID, message, at);
            return;
        }
        if self.partial {
            return; // its request may have been evicted from the recording
        }
        let mut waiting: Vec<String> = self
            .asked
            .iter()
            .map(|(id, a)| format!("`{}` (id {id})", a.method))
            .collect();
        waiting.sort();
        let message = if waiting.is_empty() {
            format!("a response with id {id}, which matches no request mcplab sent")
        } else {
            format!(
                "a response with id {id}, which matches no request mcplab sent; waiting for an answer: {}",
                waiting.join(", ")
            )
        };
        self.f
            .add(&RESPONSE_ID, message, At::frame(frame).path("/id"));
    }

    /// A 2026-07-28 `input_required` result: valid where the method's response admits one.
    fn input_required(&mut self, asked: &Asked, def: &str, v: &Value, frame: &TrafficFrame) {
        self.envelope(&SCHEMA, "JSONRPCResultResponse", v, frame);
        if !self.spec.allows_input_required(def) {
            self.f.add(
                &SCHEMA,
                format!(
                    "`{}` answered `input_required`, which revision {} does not allow for it",
                    asked.method, self.spec.revision
                ),
                At::frame(frame).path("/result/resultType"),
            );
            return;
        }
        self.validate(
            &SCHEMA,
            "InputRequiredResult",
            &v["result"],
            "/result",
            frame,
        );
        let asks: Vec<String> = v
            .pointer("/result/inputRequests")
            .and_then(Value::as_object)
            .map(|m| {
                m.values()
                    .filter_map(|r| r.get("method").and_then(Value::as_str))
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        let what = match &asked.tool {
            Some(tool) => format!("`{}` {tool}", asked.method),
            None => format!("`{}`", asked.method),
        };
        let asks = if asks.is_empty() {
            "with request state only".to_owned()
        } else {
            format!("for {}", asks.join(", "))
        };
        match self.input_rounds.iter_mut().find(|r| r.0 == what) {
            Some(round) => round.2.push(frame.seq),
            None => self.input_rounds.push((what, asks, vec![frame.seq])),
        }
    }

    /// One note per request that needed input, with every round's frame.
    fn input_notes(&mut self) {
        for (what, asks, seqs) in std::mem::take(&mut self.input_rounds) {
            let rounds = match seqs.len() {
                1 => String::new(),
                n => format!(" in {n} rounds"),
            };
            self.f.add(
                &INPUT_REQUIRED,
                format!("{what} needed input ({asks}){rounds}; mcplab answered as the CLI would and retried"),
                At::seqs(seqs),
            );
        }
    }

    /// A response judged by the request definition it answers (None: only its envelope).
    fn response(
        &mut self,
        rule: &Rule,
        request_def: Option<&str>,
        v: &Value,
        frame: &TrafficFrame,
    ) {
        if v.get("error").is_some() {
            if let Some(def) = self
                .spec
                .first_of(&["JSONRPCErrorResponse", "JSONRPCError"])
            {
                self.validate(rule, def, v, "", frame);
            }
            return;
        }
        if let Some(def) = self
            .spec
            .first_of(&["JSONRPCResultResponse", "JSONRPCResponse"])
        {
            self.validate(rule, def, v, "", frame);
        }
        let result_def = request_def.and_then(|d| self.spec.result_def(d));
        if let (Some(def), Some(result)) = (result_def, v.get("result")) {
            self.validate(rule, &def, result, "/result", frame);
        }
    }

    fn envelope(&mut self, rule: &Rule, def: &str, v: &Value, frame: &TrafficFrame) {
        self.validate(rule, def, v, "", frame);
    }

    fn validate(
        &mut self,
        rule: &Rule,
        def: &str,
        instance: &Value,
        prefix: &str,
        frame: &TrafficFrame,
    ) {
        for v in self.spec.violations(def, instance, PER_FRAME) {
            let path = format!("{prefix}{}", v.path);
            let said = if rule.id == CLIENT_SCHEMA.id {
                format!(
                    "mcplab sent a message that is not a valid {def}: {}",
                    v.message
                )
            } else {
                format!("not a valid {def}: {}", v.message)
            };
            self.f.add(rule, said, At::frame(frame).path(path));
        }
    }

    /// Notifications that need a declared capability.
    fn declared(&mut self, method: &str, frame: &TrafficFrame) {
        let caps = self.rec.capabilities();
        if let Some(list) = method
            .strip_prefix("notifications/")
            .and_then(|m| m.strip_suffix("/list_changed"))
        {
            let on = caps
                .get(list)
                .and_then(|c| c.get("listChanged"))
                .and_then(Value::as_bool);
            if on != Some(true) {
                self.f.add(
                    &LIST_CHANGED,
                    format!(
                        "the server sent {method} but does not declare `{list}.listChanged: true`"
                    ),
                    At::frame(frame),
                );
            }
        }
        if method == "notifications/message" && caps.get("logging").is_none() {
            self.f.add(
                &UNDECLARED,
                "the server sends log messages but does not declare the `logging` capability"
                    .into(),
                At::frame(frame),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use mcplab_protocol::check::Severity;
    use serde_json::json;

    use super::*;

    fn frame(seq: u64, direction: &str, message: Value) -> TrafficFrame {
        serde_json::from_value(json!({
            "seq": seq, "server": "s", "tsMs": 0, "direction": direction, "kind": "message",
            "text": message.to_string(),
        }))
        .unwrap()
    }

    /// (severity, rule) of the frames' findings.
    fn judged(sent: Value) -> Vec<(Severity, String)> {
        let answer = json!({"jsonrpc": "2.0", "id": 1, "result": {"content": []}});
        let frames = vec![frame(1, "outbound", sent), frame(2, "inbound", answer)];
        let rec = Recording::from_frames(Era::Legacy, "2025-11-25", frames);
        let mut spec = Spec::load("2025-11-25").unwrap();
        let mut f = Findings::new(Some("2025-11-25"));
        check_frames(&rec, &mut spec, false, &mut f);
        f.finish()
            .into_iter()
            .map(|x| (x.severity, x.rule))
            .collect()
    }

    /// No raw server can make mcplab send a bad message (a finding is mcplab's bug), so this
    /// rule is tested on a recording: a request mcplab could not have sent is a warning that
    /// names mcplab, and a good one is not.
    #[test]
    fn an_invalid_message_mcplab_sent_is_a_client_schema_warning() {
        let bad =
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": 42}});
        let found = judged(bad);
        assert!(
            found.contains(&(Severity::Warning, "client-schema".to_owned())),
            "{found:?}"
        );
        assert!(
            !found.iter().any(|(_, r)| r == "schema"),
            "the server did nothing wrong: {found:?}"
        );
        let good =
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x"}});
        assert_eq!(judged(good), Vec::new());
    }
}

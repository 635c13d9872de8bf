//! Elicitation and sampling requests from the servers under test. Each is answered by the
//! agent's policy (`policy` tool), or forwarded to the agent's own client when the policy
//! says `forward` — or `auto`, the default, and that client declared the capability. The
//! client asked is the one whose call to that server is running (else the latest caller);
//! without one, `auto` declines. How each request was answered goes to the inbox.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use mcplab_core::agent::answer_by_policy;
use mcplab_mcp::ConnectionManager;
use mcplab_mcp::tool_server::{ClientLink, ToolReply};
use mcplab_protocol::host::ElicitationMode;
use mcplab_protocol::{HumanAnswer, HumanRequest, HumanRequestKind};
use parking_lot::Mutex;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::inbox::{Inbox, Stream};
use crate::reply;

/// How long a forwarded request waits for the agent's client.
const FORWARD_TIMEOUT: Duration = Duration::from_secs(300);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Elicit {
    Auto,
    Forward,
    Decline,
    Cancel,
    AcceptDefaults,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Sample {
    Auto,
    Forward,
    Decline,
    Reply,
}

#[derive(Debug, Clone)]
struct Policy {
    elicitation: Elicit,
    sampling: Sample,
    reply: String,
}

struct Caller {
    id: u64,
    server: Option<String>,
    link: ClientLink,
}

pub(crate) struct Answers {
    manager: Arc<ConnectionManager>,
    policy: Mutex<Policy>,
    callers: Mutex<Vec<Caller>>,
    /// The latest caller, kept after its call ended (requests can come between calls).
    latest: Mutex<Option<ClientLink>>,
    next: AtomicU64,
}

/// Removes its caller when the call ends.
pub(crate) struct CallerGuard {
    answers: Arc<Answers>,
    id: u64,
}

impl Drop for CallerGuard {
    fn drop(&mut self) {
        self.answers.callers.lock().retain(|c| c.id != self.id);
    }
}

/// What to do with one request.
enum Decision {
    Forward(Box<ClientLink>),
    Answer(HumanAnswer, String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct PolicyArgs {
    elicitation: Option<Elicit>,
    sampling: Option<Sample>,
    sampling_reply: Option<String>,
}

impl Answers {
    pub(crate) fn new(manager: Arc<ConnectionManager>) -> Self {
        Self {
            manager,
            policy: Mutex::new(Policy {
                elicitation: Elicit::Auto,
                sampling: Sample::Auto,
                reply: String::new(),
            }),
            callers: Mutex::new(Vec::new()),
            latest: Mutex::new(None),
            next: AtomicU64::new(1),
        }
    }

    /// Notes that a call naming `arguments.server` runs for the client `link`.
    pub(crate) fn enter(self: &Arc<Self>, arguments: &Value, link: ClientLink) -> CallerGuard {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let server = arguments["server"].as_str().map(str::to_owned);
        *self.latest.lock() = Some(link.clone());
        self.callers.lock().push(Caller { id, server, link });
        CallerGuard {
            answers: self.clone(),
            id,
        }
    }

    /// The `policy` tool: sets what is given, returns the whole policy.
    pub(crate) fn policy_tool(&self, arguments: Value) -> ToolReply {
        let args: PolicyArgs = match reply::args("policy", arguments) {
            Ok(a) => a,
            Err(r) => return *r,
        };
        let mut p = self.policy.lock();
        if let Some(e) = args.elicitation {
            p.elicitation = e;
        }
        if let Some(s) = args.sampling {
            p.sampling = s;
        }
        if let Some(r) = args.sampling_reply {
            p.reply = r;
        }
        if p.sampling == Sample::Reply && p.reply.is_empty() {
            p.sampling = Sample::Auto;
            return reply::fail("sampling `reply` needs `samplingReply`, the text to answer with");
        }
        let view = json!({
            "elicitation": name_of(&p.elicitation),
            "sampling": name_of(&p.sampling),
            "samplingReply": p.reply,
        });
        let summary = format!(
            "elicitation: {}, sampling: {}",
            view["elicitation"].as_str().unwrap_or_default(),
            view["sampling"].as_str().unwrap_or_default()
        );
        reply::ok(summary, view)
    }

    /// Answers `request` in the background and notes how in `inbox`.
    pub(crate) fn handle(self: Arc<Self>, request: HumanRequest, inbox: Arc<Inbox>) {
        tokio::spawn(async move {
            let (answer, how) = match self.decide(&request) {
                Decision::Answer(answer, how) => (answer, how),
                Decision::Forward(link) => {
                    let who = link.name().unwrap_or_else(|| "your client".into());
                    match link
                        .ask(request.kind, request.params.clone(), FORWARD_TIMEOUT)
                        .await
                    {
                        Ok(answer) => (answer, format!("forwarded to {who}")),
                        Err(why) => (
                            HumanAnswer::Cancel,
                            format!("forwarding to {who} failed ({why}); cancelled"),
                        ),
                    }
                }
            };
            let outcome = serde_json::to_value(&answer).unwrap_or(Value::Null);
            self.manager.broker().answer(request.id, answer);
            let note = json!({ "type": "humanAnswered", "server": request.server,
                "id": request.id, "kind": request.kind, "by": how, "answer": outcome });
            inbox.push(&request.server, Stream::Events, note);
        });
    }

    fn decide(&self, request: &HumanRequest) -> Decision {
        let policy = self.policy.lock().clone();
        let link = self.link_for(&request.server, request.kind);
        match request.kind {
            HumanRequestKind::Elicitation => {
                let mode = match (policy.elicitation, link) {
                    (Elicit::Auto | Elicit::Forward, Some(link)) => {
                        return Decision::Forward(Box::new(link));
                    }
                    (Elicit::Forward, None) => {
                        return Decision::Answer(
                            HumanAnswer::Decline {
                                reason: Some("the agent's client cannot answer elicitation".into()),
                            },
                            "policy forward, but your client did not declare elicitation; \
                             declined"
                                .into(),
                        );
                    }
                    (Elicit::Auto | Elicit::Decline, None) | (Elicit::Decline, Some(_)) => {
                        ElicitationMode::Decline
                    }
                    (Elicit::Cancel, _) => ElicitationMode::Cancel,
                    (Elicit::AcceptDefaults, _) => ElicitationMode::AcceptDefaults,
                };
                let answer = answer_by_policy(&request.params, mode);
                Decision::Answer(answer, format!("policy {}", name_of(&policy.elicitation)))
            }
            HumanRequestKind::Sampling => match (policy.sampling, link) {
                (Sample::Auto | Sample::Forward, Some(link)) => Decision::Forward(Box::new(link)),
                (Sample::Reply, _) => Decision::Answer(
                    HumanAnswer::Accept {
                        content: json!({ "role": "assistant", "model": "mcplab-policy",
                            "content": { "type": "text", "text": policy.reply },
                            "stopReason": "endTurn" }),
                    },
                    "policy reply".into(),
                ),
                (s, _) => Decision::Answer(
                    HumanAnswer::Decline { reason: None },
                    format!("policy {}; declined", name_of(&s)),
                ),
            },
        }
    }

    /// The client to forward a request of `server` to: the one calling that server now, else
    /// the latest caller; only if it can answer `kind`.
    fn link_for(&self, server: &str, kind: HumanRequestKind) -> Option<ClientLink> {
        let calling = self
            .callers
            .lock()
            .iter()
            .rev()
            .find(|c| c.server.as_deref() == Some(server))
            .map(|c| c.link.clone());
        calling
            .or_else(|| self.latest.lock().clone())
            .filter(|l| l.accepts(kind))
    }
}

/// A policy value's wire name.
fn name_of(v: &impl Serialize) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy_names_are_the_wire_names() {
        assert_eq!(name_of(&Elicit::AcceptDefaults), "accept_defaults");
        assert_eq!(name_of(&Sample::Reply), "reply");
        let back: Elicit = serde_json::from_value(json!("accept_defaults")).unwrap();
        assert_eq!(back, Elicit::AcceptDefaults);
    }
}

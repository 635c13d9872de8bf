//! The calling client, as a tool call sees it: progress reports on the request's progress
//! token, and forwarding of a server-under-test's elicitation or sampling request to this
//! client when it declared the capability. The request is sent with the params exactly as the
//! server under test wrote them, and the answer comes back as a [`HumanAnswer`]. Protocol
//! 2026-07-28 forbids server-to-client requests outside `input_required`: for such a client
//! the request goes back in the running call's `input_required` result (`rounds.rs`), so it
//! can be forwarded only while that call runs.

use std::sync::Arc;
use std::time::Duration;

use mcplab_protocol::{HumanAnswer, HumanRequestKind};
use parking_lot::Mutex;
use rmcp::model::{
    ClientCapabilities, CustomRequest, InputRequest, ProgressNotificationParam, ProgressToken,
    ServerRequest,
};
use rmcp::service::{PeerRequestOptions, RequestContext};
use rmcp::{Peer, RoleServer};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use super::rounds::Ask;

/// Progress of one call, sent as `notifications/progress` when the client asked for it, on the
/// token of the request the call answers now: a 2026-07-28 call that went through an
/// `input_required` round answers the client's retry, a request of its own (`rounds.rs`).
#[derive(Clone)]
pub struct Progress {
    peer: Peer<RoleServer>,
    token: Arc<Mutex<Option<ProgressToken>>>,
}

impl Progress {
    pub(super) fn new(context: &RequestContext<RoleServer>) -> Self {
        Self {
            peer: context.peer.clone(),
            token: Arc::new(Mutex::new(context.meta.get_progress_token())),
        }
    }

    /// From now on the call answers the request of `context` (a retry): its token, or none.
    pub(super) fn follow(&self, context: &RequestContext<RoleServer>) {
        *self.token.lock() = context.meta.get_progress_token();
    }

    /// The call answers no request now (parked until the client's retry): reports go nowhere.
    pub(super) fn pause(&self) {
        *self.token.lock() = None;
    }

    /// Whether the client sent a progress token (else reports go nowhere).
    pub fn wanted(&self) -> bool {
        self.token.lock().is_some()
    }

    /// Reports `progress` (which must grow from one report to the next) of `total`.
    pub async fn report(&self, progress: f64, total: Option<f64>, message: Option<String>) {
        let Some(token) = self.token.lock().clone() else {
            return;
        };
        let mut param = ProgressNotificationParam::new(token, progress);
        param.total = total;
        param.message = message;
        // Best effort: a client that went away cannot be told.
        let _ = self.peer.notify_progress(param).await;
    }
}

/// The client a call came from, for requests the server under test makes of a person or a
/// model.
#[derive(Clone)]
pub struct ClientLink {
    peer: Peer<RoleServer>,
    capabilities: Option<ClientCapabilities>,
    /// 2026-07-28: the running call's way to its `input_required` result.
    inputs: Option<mpsc::UnboundedSender<Ask>>,
}

impl ClientLink {
    /// The link of a call; `inputs` for a 2026-07-28 client (see [`is_modern`]).
    pub(super) fn new(
        context: &RequestContext<RoleServer>,
        inputs: Option<mpsc::UnboundedSender<Ask>>,
    ) -> Self {
        Self {
            peer: context.peer.clone(),
            capabilities: context.client_capabilities(),
            inputs,
        }
    }

    /// The client's name and version from its `initialize` (or the request's `_meta`).
    pub fn name(&self) -> Option<String> {
        self.peer
            .peer_info()
            .map(|i| format!("{} {}", i.client_info.name, i.client_info.version))
    }

    /// Whether a request of `kind` can be forwarded to this client: it declared the
    /// capability, and (2026-07-28) its call still runs.
    pub fn accepts(&self, kind: HumanRequestKind) -> bool {
        let Some(caps) = &self.capabilities else {
            return false;
        };
        let open = self.inputs.as_ref().is_none_or(|tx| !tx.is_closed());
        open && match kind {
            HumanRequestKind::Elicitation => caps.elicitation.is_some(),
            HumanRequestKind::Sampling => caps.sampling.is_some(),
        }
    }

    /// Sends the request to the client and waits up to `timeout` for its answer.
    pub async fn ask(
        &self,
        kind: HumanRequestKind,
        params: Value,
        timeout: Duration,
    ) -> Result<HumanAnswer, String> {
        let method = match kind {
            HumanRequestKind::Elicitation => "elicitation/create",
            HumanRequestKind::Sampling => "sampling/createMessage",
        };
        if let Some(inputs) = &self.inputs {
            return ask_in_round(inputs, kind, method, params, timeout).await;
        }
        let request = ServerRequest::CustomRequest(CustomRequest::new(method, Some(params)));
        let handle = self
            .peer
            .send_request_with_option(request, PeerRequestOptions::with_timeout(timeout))
            .await
            .map_err(|e| format!("could not ask the client: {e}"))?;
        let result = handle
            .await_response()
            .await
            .map_err(|e| format!("the client did not answer `{method}`: {e}"))?;
        let result = serde_json::to_value(result).unwrap_or(Value::Null);
        Ok(answer_of(kind, result))
    }
}

/// Whether the request of `context` speaks 2026-07-28 or later.
pub(super) fn is_modern(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|v| v.as_str() >= "2026-07-28")
}

/// Puts the request in the running call's `input_required` result and waits for the retry
/// that answers it.
async fn ask_in_round(
    inputs: &mpsc::UnboundedSender<Ask>,
    kind: HumanRequestKind,
    method: &str,
    params: Value,
    timeout: Duration,
) -> Result<HumanAnswer, String> {
    let request: InputRequest =
        serde_json::from_value(serde_json::json!({ "method": method, "params": params }))
            .map_err(|e| format!("the server's `{method}` params cannot be passed on: {e}"))?;
    let (answer, answered) = oneshot::channel();
    inputs
        .send(Ask { request, answer })
        .map_err(|_| "the call that could carry it has ended".to_owned())?;
    match tokio::time::timeout(timeout, answered).await {
        Ok(Ok(result)) => Ok(answer_of(kind, result)),
        Ok(Err(_)) => Err(format!("the client's retry did not answer `{method}`")),
        Err(_) => Err(format!(
            "the client did not retry within {}s",
            timeout.as_secs()
        )),
    }
}

/// The client's result as the broker's answer: an elicitation's action and content, or a
/// sampling result passed on whole.
fn answer_of(kind: HumanRequestKind, result: Value) -> HumanAnswer {
    match kind {
        HumanRequestKind::Sampling => HumanAnswer::Accept { content: result },
        HumanRequestKind::Elicitation => match result["action"].as_str() {
            Some("accept") => HumanAnswer::Accept {
                content: result.get("content").cloned().unwrap_or(Value::Null),
            },
            Some("decline") => HumanAnswer::Decline { reason: None },
            _ => HumanAnswer::Cancel,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn client_answers_become_broker_answers() {
        let accepted = json!({"action": "accept", "content": {"name": "Ada"}});
        assert_eq!(
            answer_of(HumanRequestKind::Elicitation, accepted),
            HumanAnswer::Accept {
                content: json!({"name": "Ada"})
            }
        );
        assert_eq!(
            answer_of(HumanRequestKind::Elicitation, json!({"action": "decline"})),
            HumanAnswer::Decline { reason: None }
        );
        assert_eq!(
            answer_of(HumanRequestKind::Elicitation, json!({"action": "cancel"})),
            HumanAnswer::Cancel
        );
        let sampled = json!({"role": "assistant", "model": "m",
            "content": {"type": "text", "text": "hi"}});
        assert_eq!(
            answer_of(HumanRequestKind::Sampling, sampled.clone()),
            HumanAnswer::Accept { content: sampled }
        );
    }
}

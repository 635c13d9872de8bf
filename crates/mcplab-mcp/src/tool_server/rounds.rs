//! Multi round-trip tool calls (SEP-2322) for clients of 2026-07-28, which forbids a server's
//! own requests to the client outside a call's `input_required` result. Such a call runs as a
//! task of its own; when it needs the client — a server under test asked for elicitation or
//! sampling, forwarded by [`ClientLink::ask`](super::ClientLink::ask) — `tools/call` answers
//! `input_required` with those requests and an opaque `requestState`, and the call waits,
//! parked, for the client's retry with `inputResponses`. A call the client never comes back
//! for is cancelled after [`PARK_TTL`] (its unanswered requests are cancelled for the server
//! under test); at most [`MAX_PARKED`] wait at once. The retry is the request the call answers
//! from then on: its progress goes on the retry's token (and nowhere while parked).

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use rmcp::model::{CallToolResponse, InputRequest, InputRequiredResult, InputResponses};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::{Progress, ToolReply, result_of};

/// How long a parked call waits for the client's retry.
const PARK_TTL: Duration = Duration::from_secs(600);
/// Calls parked at once, per server session.
const MAX_PARKED: usize = 32;

/// One request for the client, and where its answer goes.
pub(super) struct Ask {
    pub request: InputRequest,
    pub answer: oneshot::Sender<Value>,
}

/// A tool call running as a task, with the requests it has for the client.
pub(super) struct Running {
    task: JoinHandle<ToolReply>,
    asks: mpsc::UnboundedReceiver<Ask>,
    waiting: HashMap<String, oneshot::Sender<Value>>,
    /// The call's own cancellation (a retry is a new request with a new one of its own).
    cancel: CancellationToken,
    /// Where its progress goes: the token of the request it answers now.
    progress: Progress,
}

impl Running {
    pub(super) fn start(
        call: futures::future::BoxFuture<'static, ToolReply>,
        asks: mpsc::UnboundedReceiver<Ask>,
        cancel: CancellationToken,
        progress: Progress,
    ) -> Self {
        Self {
            task: tokio::spawn(call),
            asks,
            waiting: HashMap::new(),
            cancel,
            progress,
        }
    }

    /// Hands the client's answers to the requests waiting for them; a request left
    /// unanswered is cancelled (its sender dropped).
    fn answer(&mut self, mut responses: InputResponses) {
        for (key, tx) in self.waiting.drain() {
            if let Some(value) = responses.remove(&key) {
                let _ = tx.send(value);
            }
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.cancel.cancel();
        self.task.abort();
    }
}

/// The calls of one server session waiting for their client.
#[derive(Clone, Default)]
pub(super) struct Rounds {
    parked: Arc<Mutex<HashMap<String, Running>>>,
}

impl Rounds {
    /// Resumes the call parked under `state` with the client's `responses`, as the answer to
    /// the retry of `context` (its progress token included).
    pub(super) async fn resume(
        &self,
        state: &str,
        responses: InputResponses,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let Some(mut running) = self.parked.lock().remove(state) else {
            return Err(ErrorData::invalid_params(
                "this requestState names no waiting call (it finished, expired or was never \
                 issued); call the tool again without it",
                None,
            ));
        };
        running.progress.follow(context);
        running.answer(responses);
        self.drive(running, &context.ct).await
    }

    /// Runs `running` until it finishes or has requests for the client.
    pub(super) async fn drive(
        &self,
        mut running: Running,
        ct: &CancellationToken,
    ) -> Result<CallToolResponse, ErrorData> {
        let first = tokio::select! {
            done = &mut running.task => return finished(done),
            ask = running.asks.recv() => ask,
            _ = ct.cancelled() => None,
        };
        let Some(first) = first else {
            // Cancelled, or the call can ask nothing more: it ends on its own.
            if ct.is_cancelled() {
                running.cancel.cancel();
            }
            return finished((&mut running.task).await);
        };
        let mut requests = BTreeMap::new();
        let mut next = Some(first);
        while let Some(ask) = next.take() {
            let key = format!("mcplab-{}", requests.len() + 1);
            running.waiting.insert(key.clone(), ask.answer);
            requests.insert(key, ask.request);
            next = running.asks.try_recv().ok();
        }
        // The request is answered: until the retry, no request is open for its progress.
        running.progress.pause();
        let state = self.park(running)?;
        Ok(CallToolResponse::InputRequired(InputRequiredResult::new(
            Some(requests),
            Some(state),
        )))
    }

    /// Keeps `running` until the client's retry (or [`PARK_TTL`]); its `requestState`.
    fn park(&self, running: Running) -> Result<String, ErrorData> {
        let mut parked = self.parked.lock();
        if parked.len() >= MAX_PARKED {
            return Err(ErrorData::internal_error(
                format!(
                    "{MAX_PARKED} calls already wait for this client's input; answer them \
                     (retry with their requestState) first"
                ),
                None,
            ));
        }
        let state = fresh_state();
        parked.insert(state.clone(), running);
        let map = self.parked.clone();
        let key = state.clone();
        tokio::spawn(async move {
            tokio::time::sleep(PARK_TTL).await;
            map.lock().remove(&key);
        });
        Ok(state)
    }
}

fn finished(
    done: Result<ToolReply, tokio::task::JoinError>,
) -> Result<CallToolResponse, ErrorData> {
    match done {
        Ok(reply) => Ok(result_of(reply).into()),
        Err(e) => Err(ErrorData::internal_error(
            format!("the tool call ended abnormally: {e}"),
            None,
        )),
    }
}

/// An unguessable `requestState`.
fn fresh_state() -> String {
    let mut bytes = [0u8; 16];
    let _ = ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut bytes);
    hex::encode(bytes)
}

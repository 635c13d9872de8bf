//! What the runner sees of the model while an iteration runs, without changing what the model
//! sees: an [`LlmProvider`] wrapper that times each step (LLM time), keeps the request each
//! step sent (provider-neutral: system messages, conversation, tool names, parameters), and,
//! when recording, each step's streamed answer (text, reasoning, tool calls, finish, usage, or
//! the error) so a replay can play it back. The recorded shapes live here too.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use futures::stream::BoxStream;
use mcplab_llm::{ChatRequest, FinishReason, LlmError, LlmProvider, StreamEvent, ToolSpec, Usage};
use mcplab_protocol::chat::TurnFailureKind;
use parking_lot::Mutex;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

/// The most request text kept per iteration; later steps keep only their size.
const REQUEST_BUDGET: usize = 256 * 1024;

/// One recorded stream item (partial tool input is not kept: the complete call is).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum RecordedEvent {
    Text {
        text: String,
    },
    Reasoning {
        text: String,
    },
    ToolCall {
        id: String,
        name: String,
        arguments: Value,
    },
    Finish {
        reason: FinishReason,
        usage: Usage,
    },
}

/// A provider error, enough to raise the same one again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordedError {
    /// The provider error's kind, in the turn failures' vocabulary (the same wire strings).
    pub kind: TurnFailureKind,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<u64>,
}

/// One model step as it streamed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordedStep {
    pub events: Vec<RecordedEvent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<RecordedError>,
}

impl RecordedError {
    pub fn of(e: &LlmError) -> RecordedError {
        use TurnFailureKind as K;
        let (kind, status, retry_after) = match e {
            LlmError::Auth { .. } => (K::Auth, None, None),
            LlmError::RateLimit { retry_after, .. } => (K::RateLimit, None, *retry_after),
            LlmError::ContextLength { .. } => (K::ContextLength, None, None),
            LlmError::Network { .. } => (K::Network, None, None),
            LlmError::Server { status, .. } => (K::Server, Some(*status), None),
            LlmError::BadResponse { .. } => (K::BadResponse, None, None),
            LlmError::Truncated { .. } => (K::Truncated, None, None),
            LlmError::Cancelled => (K::Cancelled, None, None),
            LlmError::NotConfigured { .. } => (K::NotConfigured, None, None),
        };
        RecordedError {
            kind,
            message: message_of(e),
            status,
            retry_after_ms: retry_after.map(|d| d.as_millis() as u64),
        }
    }

    /// The same error again.
    pub fn to_error(&self) -> LlmError {
        use TurnFailureKind as K;
        let message = self.message.clone();
        match self.kind {
            K::Auth => LlmError::Auth { message },
            K::RateLimit => LlmError::RateLimit {
                retry_after: self.retry_after_ms.map(Duration::from_millis),
                message,
            },
            K::ContextLength => LlmError::ContextLength { message },
            K::Network => LlmError::Network { message },
            K::Server => LlmError::Server {
                status: self.status.unwrap_or(500),
                message,
            },
            K::Truncated => LlmError::Truncated { message },
            K::Cancelled => LlmError::Cancelled,
            K::NotConfigured => LlmError::NotConfigured { message },
            // A provider error is never `internal`; an edited recording saying so replays as
            // an answer that could not be read.
            K::BadResponse | K::Internal => LlmError::BadResponse { message },
        }
    }
}

/// The message inside an error (without the variant's prefix), so a replayed error reads the
/// same as the recorded one.
fn message_of(e: &LlmError) -> String {
    match e {
        LlmError::Auth { message }
        | LlmError::RateLimit { message, .. }
        | LlmError::ContextLength { message }
        | LlmError::Network { message }
        | LlmError::Server { message, .. }
        | LlmError::BadResponse { message }
        | LlmError::Truncated { message }
        | LlmError::NotConfigured { message } => message.clone(),
        LlmError::Cancelled => "cancelled".into(),
    }
}

/// What the wrapper saw over one iteration.
#[derive(Debug, Default)]
pub(crate) struct Observed {
    /// Time spent streaming model steps.
    pub llm: Duration,
    /// Per step, the request as sent (or only its size, past the budget).
    pub requests: Vec<Value>,
    /// Per step, the streamed answer (when recording).
    pub steps: Vec<RecordedStep>,
    request_bytes: usize,
}

/// Wraps the iteration's provider; `record` keeps each step's answer.
pub(crate) struct ObservedProvider {
    inner: Arc<dyn LlmProvider>,
    record: bool,
    seen: Arc<Mutex<Observed>>,
}

impl ObservedProvider {
    pub(crate) fn new(inner: Arc<dyn LlmProvider>, record: bool) -> Self {
        Self {
            inner,
            record,
            seen: Arc::default(),
        }
    }

    /// What was seen so far (taken out).
    pub(crate) fn take(&self) -> Observed {
        std::mem::take(&mut *self.seen.lock())
    }

    /// LLM time so far.
    pub(crate) fn llm_time(&self) -> Duration {
        self.seen.lock().llm
    }
}

/// The request as JSON (tool schemas left out: the tool list is recorded once per run).
fn request_json(r: &ChatRequest) -> Value {
    json!({
        "model": r.model.to_string(),
        "system": r.system,
        "messages": r.messages,
        "tools": r.tools.iter().map(|t: &ToolSpec| t.name.as_str()).collect::<Vec<_>>(),
        "temperature": r.temperature,
        "maxTokens": r.max_tokens,
    })
}

impl LlmProvider for ObservedProvider {
    fn id(&self) -> &str {
        self.inner.id()
    }

    fn stream(
        &self,
        request: ChatRequest,
        cancel: CancellationToken,
    ) -> BoxStream<'static, Result<StreamEvent, LlmError>> {
        {
            let mut seen = self.seen.lock();
            let json = request_json(&request);
            let size = json.to_string().len();
            let kept = if seen.request_bytes + size <= REQUEST_BUDGET {
                seen.request_bytes += size;
                json
            } else {
                json!({ "omitted": true, "bytes": size })
            };
            seen.requests.push(kept);
        }
        let seen = self.seen.clone();
        let record = self.record;
        let started = Instant::now();
        let mut step = RecordedStep::default();
        let mut done = false;
        self.inner
            .stream(request, cancel)
            .map(move |item| {
                if record {
                    match &item {
                        Ok(e) => step.events.extend(recorded(e)),
                        Err(e) => step.error = Some(RecordedError::of(e)),
                    }
                }
                let last = matches!(item, Ok(StreamEvent::Finish { .. }) | Err(_));
                if last && !done {
                    done = true;
                    let mut seen = seen.lock();
                    seen.llm += started.elapsed();
                    if record {
                        seen.steps.push(std::mem::take(&mut step));
                    }
                }
                item
            })
            .boxed()
    }
}

fn recorded(e: &StreamEvent) -> Option<RecordedEvent> {
    Some(match e {
        StreamEvent::TextDelta(t) => RecordedEvent::Text { text: t.clone() },
        StreamEvent::ReasoningDelta(t) => RecordedEvent::Reasoning { text: t.clone() },
        StreamEvent::ToolCallPartial { .. } => return None,
        StreamEvent::ToolCall {
            id,
            name,
            arguments,
        } => RecordedEvent::ToolCall {
            id: id.clone(),
            name: name.clone(),
            arguments: arguments.clone(),
        },
        StreamEvent::Finish { reason, usage } => RecordedEvent::Finish {
            reason: reason.clone(),
            usage: usage.clone(),
        },
    })
}

impl RecordedEvent {
    /// The stream event this records.
    pub fn to_event(&self) -> StreamEvent {
        match self.clone() {
            RecordedEvent::Text { text } => StreamEvent::TextDelta(text),
            RecordedEvent::Reasoning { text } => StreamEvent::ReasoningDelta(text),
            RecordedEvent::ToolCall {
                id,
                name,
                arguments,
            } => StreamEvent::ToolCall {
                id,
                name,
                arguments,
            },
            RecordedEvent::Finish { reason, usage } => StreamEvent::Finish { reason, usage },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_come_back_the_same() {
        let errors = [
            LlmError::Auth {
                message: "bad key".into(),
            },
            LlmError::RateLimit {
                retry_after: Some(Duration::from_secs(2)),
                message: "slow down".into(),
            },
            LlmError::Server {
                status: 503,
                message: "busy".into(),
            },
            LlmError::Truncated {
                message: "cut".into(),
            },
            LlmError::NotConfigured {
                message: "no key".into(),
            },
        ];
        for e in errors {
            let back = RecordedError::of(&e).to_error();
            assert_eq!(back, e);
            assert_eq!(back.to_string(), e.to_string());
        }
    }

    /// Recordings written before the kind was an enum read the same (same wire strings);
    /// a kind outside the set is refused instead of replaying as something else.
    #[test]
    fn recorded_kinds_keep_their_wire_strings() {
        let old = json!({"kind": "rate_limit", "message": "slow down", "retryAfterMs": 2000});
        let e: RecordedError = serde_json::from_value(old.clone()).unwrap();
        assert_eq!(e.kind, TurnFailureKind::RateLimit);
        assert_eq!(serde_json::to_value(&e).unwrap(), old);
        let odd = json!({"kind": "teapot", "message": "?"});
        assert!(serde_json::from_value::<RecordedError>(odd).is_err());
    }
}

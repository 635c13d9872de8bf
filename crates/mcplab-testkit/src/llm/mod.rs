//! The scripted LLM server: a real HTTP server on loopback that answers chat requests in the
//! real streaming wire formats of the OpenAI Chat Completions API (`POST /v1/chat/completions`)
//! and the Anthropic Messages API (`POST /v1/messages`), plus `GET /v1/models`. Each chat request
//! consumes the next [`Step`] of a script a test builds in code, so the provider layer of the
//! product is exercised over HTTP for real. It owns the script, the request log and the
//! server's lifetime; it must never reach the internet, never guess what a test meant (an
//! exhausted script answers 500), and never outlive its [`ScriptedLlm`] handle. Instead of a
//! script, [`Rules`] answer by what a request asks (model, user text, position in the turn),
//! so concurrent conversations each get their own answers.
//!
//! Usage numbers are derived, so tests can predict them: input tokens are the raw request body's
//! length in bytes divided by four, rounded up; output tokens are the number of scripted pieces
//! sent (reasoning chunks + text chunks + tool-argument fragments); reasoning tokens are the
//! reasoning chunks; cached input tokens are 0 unless a test sets a number with
//! [`ScriptedLlm::report_cached_input`]. A request's `max_tokens` (or OpenAI's `max_completion_tokens`) below the
//! output tokens truncates the answer to that many pieces and finishes with `length` /
//! `max_tokens`. The usage a request was answered with is in [`RecordedRequest::usage`].

mod anthropic;
mod openai;
mod plan;
mod rules;
mod server;

pub use rules::{Rule, Rules, step_from_json};

use std::{net::SocketAddr, sync::Arc, time::Duration};

use parking_lot::{Mutex, MutexGuard};
use serde_json::Value;

/// The models `GET /v1/models` lists when a test does not name its own; the names make genai
/// pick its OpenAI and Anthropic adapters respectively.
pub const DEFAULT_MODELS: &[&str] = &["gpt-4o-mini", "claude-haiku-4-5"];

/// One scripted answer to one chat request.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Stream reply text (each string a chunk), optional reasoning chunks first.
    Reply {
        text: Vec<String>,
        reasoning: Vec<String>,
    },
    /// Call tools (several per step allowed) after optional text; each call's JSON arguments are
    /// streamed in `fragments` pieces.
    CallTools {
        text: Vec<String>,
        calls: Vec<ScriptedCall>,
    },
    /// HTTP error with status, message, optional `retry-after` seconds, in the provider's error
    /// shape. Wrapped in [`Step::Slow`] the error comes after one delay; [`Step::CutOff`] is
    /// ignored around it.
    Fail {
        status: u16,
        message: String,
        retry_after: Option<u64>,
    },
    /// Start streaming the given step but abort the connection after `after_events` SSE events:
    /// no finish, no `[DONE]` / `message_stop`, and the chunked body never ends cleanly, so the
    /// client sees a transport error. A non-streaming request gets the 200 head and an aborted
    /// body.
    CutOff {
        step: Box<Step>,
        after_events: usize,
    },
    /// Stream the given step waiting `delay_ms` before every event (to test cancellation); a
    /// non-streaming answer waits once.
    Slow { step: Box<Step>, delay_ms: u64 },
}

impl Step {
    /// A plain streamed reply, one chunk per string.
    pub fn reply<S: Into<String>>(text: impl IntoIterator<Item = S>) -> Step {
        Step::Reply {
            text: text.into_iter().map(Into::into).collect(),
            reasoning: Vec::new(),
        }
    }

    /// Tool calls with no text before them.
    pub fn call_tools(calls: impl IntoIterator<Item = ScriptedCall>) -> Step {
        Step::CallTools {
            text: Vec::new(),
            calls: calls.into_iter().collect(),
        }
    }

    /// An HTTP error without `retry-after`.
    pub fn fail(status: u16, message: impl Into<String>) -> Step {
        Step::Fail {
            status,
            message: message.into(),
            retry_after: None,
        }
    }

    /// This step, aborted after `after_events` events.
    pub fn cut_off(self, after_events: usize) -> Step {
        Step::CutOff {
            step: Box::new(self),
            after_events,
        }
    }

    /// This step, with `delay_ms` before every event.
    pub fn slow(self, delay_ms: u64) -> Step {
        Step::Slow {
            step: Box::new(self),
            delay_ms,
        }
    }
}

/// One scripted tool call.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptedCall {
    pub id: String,
    pub name: String,
    pub arguments: Value,
    /// How many pieces the serialized arguments are streamed in (at least one, at most one per
    /// character).
    pub fragments: usize,
}

impl ScriptedCall {
    /// A call whose arguments arrive in three fragments.
    pub fn new(id: impl Into<String>, name: impl Into<String>, arguments: Value) -> ScriptedCall {
        ScriptedCall {
            id: id.into(),
            name: name.into(),
            arguments,
            fragments: 3,
        }
    }
}

/// Which wire format a request used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    OpenAi,
    Anthropic,
}

/// The token counts a request was answered with (see the module doc for how they are derived).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    /// Every input token, cached ones included.
    pub input_tokens: u32,
    pub output_tokens: u32,
    pub reasoning_tokens: u32,
    /// Of `input_tokens`, those reported as read from the prompt cache (OpenAI
    /// `prompt_tokens_details.cached_tokens`; Anthropic `cache_read_input_tokens`, its
    /// `input_tokens` then counting only the rest). 0 unless [`ScriptedLlm::report_cached_input`].
    pub cached_input_tokens: u32,
}

/// What a client sent.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedRequest {
    pub api: Api,
    pub method: String,
    pub path: String,
    /// Header names are lower case, in arrival order.
    pub headers: Vec<(String, String)>,
    /// The JSON body (`Value::Null` for a body-less request, a string if it was not JSON).
    pub body: Value,
    /// The body exactly as received, byte for byte.
    pub raw_body: Vec<u8>,
    /// The usage this request was answered with; `None` when it was answered with an error.
    pub usage: Option<Usage>,
}

impl RecordedRequest {
    /// The first value of a header, by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

/// The running server. Dropping it stops the server and ends every stream in flight.
pub struct ScriptedLlm {
    addr: SocketAddr,
    log: Arc<Mutex<server::Log>>,
    shutdown: tokio::sync::watch::Sender<bool>,
}

impl ScriptedLlm {
    /// Bind 127.0.0.1:0 and serve `script`, listing [`DEFAULT_MODELS`].
    pub async fn start(script: Vec<Step>) -> ScriptedLlm {
        Self::start_with_models(script, DEFAULT_MODELS.iter().map(|m| m.to_string())).await
    }

    /// Bind 127.0.0.1:0 and answer by `rules` (see [`Rules`]): requests in any order, as
    /// concurrent eval iterations send them. A request no rule matches gets a 500.
    pub async fn start_with_rules(rules: Rules) -> ScriptedLlm {
        let llm = Self::start(Vec::new()).await;
        llm.lock().rules = Some(rules);
        llm
    }

    /// Bind 127.0.0.1:0 and serve `script`, listing `models` on `GET /v1/models`.
    pub async fn start_with_models(
        script: Vec<Step>,
        models: impl IntoIterator<Item = String>,
    ) -> ScriptedLlm {
        let log = Arc::new(Mutex::new(server::Log::new(script)));
        let (shutdown, stopped) = tokio::sync::watch::channel(false);
        let addr = server::spawn(log.clone(), models.into_iter().collect(), stopped).await;
        ScriptedLlm {
            addr,
            log,
            shutdown,
        }
    }

    /// The API base with its trailing slash, `http://127.0.0.1:PORT/v1/`: exactly the endpoint
    /// genai needs for both its OpenAI adapter (it joins `chat/completions` and `models`) and its
    /// Anthropic adapter (it appends `messages` and `models`).
    pub fn base_url(&self) -> String {
        format!("http://{}/v1/", self.addr)
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Every chat request received so far, in arrival order (including the ones answered with
    /// an error, such as a malformed body or an exhausted script).
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.lock().requests.clone()
    }

    /// Every `GET /v1/models` request received so far.
    pub fn model_requests(&self) -> Vec<RecordedRequest> {
        self.lock().model_requests.clone()
    }

    /// From now on every answer reports `tokens` of its input (at most all of it) as read from
    /// the prompt cache, in the provider's own usage fields.
    pub fn report_cached_input(&self, tokens: u32) {
        self.lock().cached_input = tokens;
    }

    /// Streamed answers the client went away from before their end (a dropped request).
    pub fn abandoned(&self) -> usize {
        self.lock().abandoned
    }

    /// Waits until `done` holds for this server (checked at once and after every request it
    /// records or answer a client abandons), failing the test after `within`.
    pub async fn wait_until(
        &self,
        what: &str,
        within: Duration,
        done: impl Fn(&ScriptedLlm) -> bool,
    ) {
        let mut changes = self.lock().changes.subscribe();
        let deadline = tokio::time::Instant::now() + within;
        while !done(self) {
            let waited = tokio::time::timeout_at(deadline, changes.changed()).await;
            assert!(
                waited.is_ok(),
                "timed out after {within:?} waiting until {what}"
            );
        }
    }

    /// While `hold` is true, each answer waits after its request is recorded (the client sees
    /// a model that has not answered yet) until it is set false again.
    pub fn hold_answers(&self, hold: bool) {
        self.lock().holding.send_replace(hold);
    }

    /// Steps not consumed yet.
    pub fn remaining(&self) -> usize {
        self.lock().script.len()
    }

    fn lock(&self) -> MutexGuard<'_, server::Log> {
        // A panicking test thread must not hide the log from the others.
        self.log.lock()
    }
}

impl Drop for ScriptedLlm {
    fn drop(&mut self) {
        self.shutdown.send_replace(true);
    }
}

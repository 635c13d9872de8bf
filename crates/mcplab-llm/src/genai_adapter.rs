//! [`GenaiProvider`]: the [`LlmProvider`] for every provider kind, built on genai. It maps our
//! request to genai's, streams with `exec_chat_stream`, and maps genai's events to ours.
//!
//! Two things genai does not guarantee are enforced here:
//! - a stream that stops before the provider's end marker is `LlmError::Truncated`. For the
//!   OpenAI and Anthropic protocols genai emits its `End` only on `[DONE]`/`message_stop`, so
//!   a missing `End` is the signal. For Gemini and Ollama genai *synthesises* an `End` when the
//!   connection closes, so there an `End` without a finish reason is the signal;
//! - cancellation drops the HTTP stream at once and ends with `LlmError::Cancelled`.
//!
//! The request target (endpoint, key, adapter) is always given explicitly as a genai
//! `ServiceTarget`, so genai never infers an adapter from a model name or reads a key from the
//! environment, and a base-URL override works for every kind.

use std::collections::{HashMap, VecDeque};

use futures::StreamExt;
use futures::stream::BoxStream;
use genai::adapter::AdapterKind;
use genai::chat::{
    Binary, ChatMessage, ChatOptions, ChatRequest as GenaiRequest, ChatStream, ChatStreamEvent,
    ContentPart, MessageContent, StopReason, StreamEnd, Tool, ToolCall as GenaiToolCall,
    ToolResponse,
};
use genai::resolver::{AuthData, Endpoint};
use genai::{ModelIden, ServiceTarget};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::genai_errors::classify;
use super::providers::{ProviderConfig, ProviderKind};
use super::xray::{Capture, Relay};
use super::{
    ChatRequest, FinishReason, LlmError, LlmProvider, Message, Part, Role, StreamEvent, Usage,
};

/// A configured provider reached through genai.
pub struct GenaiProvider {
    id: String,
    kind: ProviderKind,
    client: genai::Client,
    /// Talks to a step's x-ray relay on loopback (never through a proxy, nothing pooled:
    /// each relay lives for one step).
    relay_client: genai::Client,
    /// What the relay sends on with (the shared client: its pool, its proxy settings).
    http: reqwest::Client,
    endpoint: String,
    api_key: String,
}

impl std::fmt::Debug for GenaiProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GenaiProvider")
            .field("id", &self.id)
            .field("kind", &self.kind)
            .field("endpoint", &mcplab_net::mask_userinfo(&self.endpoint))
            .finish_non_exhaustive()
    }
}

impl GenaiProvider {
    /// Builds the provider for `config`; `http` is the shared client requests go through.
    pub fn new(config: &ProviderConfig, http: reqwest::Client) -> Result<Self, LlmError> {
        let base = config
            .effective_base_url()
            .ok_or_else(|| LlmError::NotConfigured {
                message: format!("provider `{}` has no base URL", config.id),
            })?;
        let not_configured = |e: &dyn std::fmt::Display| LlmError::NotConfigured {
            message: e.to_string(),
        };
        let client = genai::Client::builder()
            .with_reqwest(http.clone())
            .build()
            .map_err(|e| not_configured(&e))?;
        let loopback = mcplab_net::tls::client_builder()
            .no_proxy()
            .pool_max_idle_per_host(0)
            .build()
            .map_err(|e| not_configured(&e))?;
        let relay_client = genai::Client::builder()
            .with_reqwest(loopback)
            .build()
            .map_err(|e| not_configured(&e))?;
        Ok(Self {
            id: config.id.clone(),
            kind: config.kind,
            client,
            relay_client,
            http,
            endpoint: endpoint_for(config.kind, &base),
            api_key: config.api_key.clone().unwrap_or_default(),
        })
    }

    /// The base URL genai appends its paths to (`…/v1/`).
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    pub fn kind(&self) -> ProviderKind {
        self.kind
    }

    fn target(&self, model: &str) -> ServiceTarget {
        let adapter = adapter_kind(self.kind);
        ServiceTarget {
            endpoint: Endpoint::from_owned(self.endpoint.clone()),
            auth: AuthData::from_single(self.api_key.clone()),
            // Namespaced, so nothing in genai can route it to another adapter.
            model: ModelIden::new(adapter, format!("{}::{model}", adapter.as_lower_str())),
        }
    }
}

impl LlmProvider for GenaiProvider {
    fn id(&self) -> &str {
        &self.id
    }

    fn stream(
        &self,
        request: ChatRequest,
        cancel: CancellationToken,
    ) -> BoxStream<'static, Result<StreamEvent, LlmError>> {
        let target = self.target(&request.model.model);
        let (genai_request, options) = to_genai(self.kind, &request);
        let (client, xray) = match &request.capture {
            Some(capture) => (
                self.relay_client.clone(),
                Some(XrayStart {
                    http: self.http.clone(),
                    capture: capture.clone(),
                }),
            ),
            None => (self.client.clone(), None),
        };
        let step = Step {
            phase: Phase::Start(Some(Box::new(Start {
                client,
                target,
                request: genai_request,
                options,
                xray,
            }))),
            relay: None,
            capture: request.capture.clone(),
            cancel,
            end: end_signal(self.kind),
            pending: VecDeque::new(),
            partials: Vec::new(),
        };
        futures::stream::unfold(step, |mut step| async move {
            let item = step.next().await?;
            Some((item, step))
        })
        .boxed()
    }
}

fn adapter_kind(kind: ProviderKind) -> AdapterKind {
    match kind {
        ProviderKind::OpenAi | ProviderKind::OpenAiCompatible => AdapterKind::OpenAI,
        ProviderKind::Anthropic | ProviderKind::AnthropicCompatible => AdapterKind::Anthropic,
        ProviderKind::Gemini => AdapterKind::Gemini,
        ProviderKind::DeepSeek => AdapterKind::DeepSeek,
        ProviderKind::Xai => AdapterKind::Xai,
        ProviderKind::Mistral => AdapterKind::Mistral,
        ProviderKind::OpenRouter => AdapterKind::OpenRouter,
        ProviderKind::Ollama => AdapterKind::Ollama,
    }
}

/// The base URL in the form genai's adapter for `kind` appends its path to. Users write base
/// URLs the way each provider's own SDK takes them: Anthropic's without `/v1`
/// (`https://api.anthropic.com`), Gemini's with or without the API version, OpenAI's with
/// `/v1`, Ollama's as the bare host.
pub(super) fn endpoint_for(kind: ProviderKind, base: &str) -> String {
    let base = base.trim().trim_end_matches('/');
    let last_segment = base.rsplit('/').next().unwrap_or_default();
    match kind {
        ProviderKind::Anthropic | ProviderKind::AnthropicCompatible if last_segment != "v1" => {
            format!("{base}/v1/")
        }
        ProviderKind::Gemini if !matches!(last_segment, "v1" | "v1beta" | "v1alpha") => {
            format!("{base}/v1beta/")
        }
        _ => format!("{base}/"),
    }
}

/// How a kind's stream says it is complete (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EndSignal {
    /// genai emits `End` only on the protocol's end marker.
    EndEvent,
    /// genai emits `End` also when the connection closes; only a finish reason proves the end.
    FinishReason,
}

fn end_signal(kind: ProviderKind) -> EndSignal {
    match kind {
        ProviderKind::Gemini | ProviderKind::Ollama => EndSignal::FinishReason,
        _ => EndSignal::EndEvent,
    }
}

/// Maps our request to genai's request and options.
fn to_genai(kind: ProviderKind, request: &ChatRequest) -> (GenaiRequest, ChatOptions) {
    let anthropic = matches!(
        kind,
        ProviderKind::Anthropic | ProviderKind::AnthropicCompatible
    );
    // Tool results name their call only by id; Gemini needs the function name too.
    let call_names: HashMap<&str, &str> = request
        .messages
        .iter()
        .flat_map(|m| &m.parts)
        .filter_map(|p| match p {
            Part::ToolCall { id, name, .. } => Some((id.as_str(), name.as_str())),
            _ => None,
        })
        .collect();

    let mut messages = Vec::new();
    // Images from tool results, for protocols whose tool messages carry only text: they
    // follow the run of tool messages as one user message.
    let mut tool_images: Vec<ContentPart> = Vec::new();
    for message in &request.messages {
        if message.role != Role::Tool && !tool_images.is_empty() {
            messages.push(images_message(std::mem::take(&mut tool_images)));
        }
        let parts = match message.role {
            Role::User => user_parts(message),
            Role::Assistant => assistant_parts(kind, message),
            Role::Tool => tool_parts(anthropic, message, &call_names, &mut tool_images),
        };
        if parts.is_empty() {
            continue;
        }
        let content = MessageContent::from_parts(parts);
        messages.push(match message.role {
            Role::User => ChatMessage::user(content),
            Role::Assistant => ChatMessage::assistant(content),
            Role::Tool => ChatMessage::tool(content),
        });
    }
    if !tool_images.is_empty() {
        messages.push(images_message(tool_images));
    }

    let mut genai_request = GenaiRequest::new(messages);
    let system: Vec<&str> = request
        .system
        .iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .collect();
    if !system.is_empty() {
        // One system text: some OpenAI-compatible servers accept a single system message only.
        genai_request.system = Some(system.join("\n\n"));
    }
    if !request.tools.is_empty() {
        genai_request = genai_request.with_tools(request.tools.iter().map(|t| {
            Tool::new(t.name.clone())
                .with_description(t.description.clone())
                .with_schema(t.input_schema.clone())
        }));
    }

    let mut options = ChatOptions::default()
        .with_capture_usage(true)
        .with_capture_tool_calls(true)
        // Anthropic pairs thinking with tool calls; capturing both keeps genai consistent.
        .with_capture_reasoning_content(true);
    if let Some(t) = request.temperature {
        options = options.with_temperature(t);
    }
    if let Some(n) = request.max_tokens {
        options = options.with_max_tokens(n);
    }
    (genai_request, options)
}

fn user_parts(message: &Message) -> Vec<ContentPart> {
    message
        .parts
        .iter()
        .filter_map(|p| match p {
            Part::Text { text } => Some(ContentPart::Text(text.clone())),
            Part::Image { mime_type, data } => Some(ContentPart::Binary(Binary::from_base64(
                mime_type.clone(),
                data.as_str(),
                None,
            ))),
            _ => None,
        })
        .collect()
}

fn assistant_parts(kind: ProviderKind, message: &Message) -> Vec<ContentPart> {
    message
        .parts
        .iter()
        .filter_map(|p| match p {
            Part::Text { text } if !text.is_empty() => Some(ContentPart::Text(text.clone())),
            // DeepSeek requires its reasoning echoed back across a tool round trip; other
            // providers either reject the field or need a signature we do not keep.
            Part::Reasoning { text } if kind == ProviderKind::DeepSeek => {
                Some(ContentPart::ReasoningContent(text.clone()))
            }
            Part::ToolCall {
                id,
                name,
                arguments,
            } => Some(ContentPart::ToolCall(GenaiToolCall {
                call_id: id.clone(),
                fn_name: name.clone(),
                fn_arguments: arguments.clone(),
                thought_signatures: None,
            })),
            _ => None,
        })
        .collect()
}

fn tool_parts(
    anthropic: bool,
    message: &Message,
    call_names: &HashMap<&str, &str>,
    tool_images: &mut Vec<ContentPart>,
) -> Vec<ContentPart> {
    let mut parts = Vec::new();
    for part in &message.parts {
        let Part::ToolResult {
            call_id,
            text,
            images,
            is_error,
        } = part
        else {
            continue;
        };
        if anthropic {
            // genai's ToolResponse has no `is_error` and no images; Anthropic's `tool_result`
            // block has both, and genai passes a custom block through verbatim.
            parts.push(ContentPart::from_custom(
                anthropic_tool_result(call_id, text, images, *is_error),
                None,
            ));
            continue;
        }
        let content = if *is_error {
            format!("Error: {text}")
        } else {
            text.clone()
        };
        let mut response = ToolResponse::new(call_id.clone(), content);
        if let Some(name) = call_names.get(call_id.as_str()) {
            response = response.with_fn_name(*name);
        }
        parts.push(ContentPart::ToolResponse(response));
        tool_images.extend(images.iter().map(|(mime, data)| {
            ContentPart::Binary(Binary::from_base64(mime.clone(), data.as_str(), None))
        }));
    }
    parts
}

fn anthropic_tool_result(
    call_id: &str,
    text: &str,
    images: &[(String, String)],
    is_error: bool,
) -> Value {
    let content = if images.is_empty() {
        json!(text)
    } else {
        let mut blocks = Vec::new();
        if !text.is_empty() {
            blocks.push(json!({"type": "text", "text": text}));
        }
        blocks.extend(images.iter().map(|(mime, data)| {
            json!({"type": "image", "source": {"type": "base64", "media_type": mime, "data": data}})
        }));
        Value::Array(blocks)
    };
    let mut block = json!({"type": "tool_result", "tool_use_id": call_id, "content": content});
    if is_error {
        block["is_error"] = json!(true);
    }
    block
}

fn images_message(images: Vec<ContentPart>) -> ChatMessage {
    let mut parts = vec![ContentPart::Text(
        "The tool results above included these images.".into(),
    )];
    parts.extend(images);
    ChatMessage::user(MessageContent::from_parts(parts))
}

/// What the first poll needs to start the request.
struct Start {
    client: genai::Client,
    target: ServiceTarget,
    request: GenaiRequest,
    options: ChatOptions,
    /// Set when the step is captured: the request goes through a relay.
    xray: Option<XrayStart>,
}

struct XrayStart {
    http: reqwest::Client,
    capture: Capture,
}

impl Start {
    /// Points the request at a new relay in front of the provider (when captured).
    async fn through_relay(&mut self) -> Result<Option<Relay>, LlmError> {
        let Some(x) = self.xray.take() else {
            return Ok(None);
        };
        let upstream = self.target.endpoint.base_url().to_owned();
        let relay = Relay::start(&upstream, x.http, x.capture)
            .await
            .map_err(|e| LlmError::Network {
                message: format!("could not start the x-ray relay on 127.0.0.1: {e}"),
            })?;
        self.target.endpoint = Endpoint::from_owned(relay.endpoint().to_owned());
        Ok(Some(relay))
    }
}

enum Phase {
    Start(Option<Box<Start>>),
    Streaming(ChatStream),
    Done,
}

/// One model step's stream state.
struct Step {
    phase: Phase,
    /// The step's x-ray relay, alive as long as the step.
    relay: Option<Relay>,
    capture: Option<Capture>,
    cancel: CancellationToken,
    end: EndSignal,
    pending: VecDeque<Result<StreamEvent, LlmError>>,
    /// Tool calls seen in chunks (id, name, arguments so far), the fallback if genai's
    /// end-of-stream capture has none.
    partials: Vec<(String, String, String)>,
}

impl Step {
    async fn next(&mut self) -> Option<Result<StreamEvent, LlmError>> {
        loop {
            if let Some(item) = self.pending.pop_front() {
                return Some(item);
            }
            match &mut self.phase {
                Phase::Done => return None,
                Phase::Start(start) => {
                    let Some(mut start) = start.take() else {
                        self.phase = Phase::Done;
                        continue;
                    };
                    match start.through_relay().await {
                        Ok(relay) => self.relay = relay,
                        Err(e) => return self.fail(e),
                    }
                    let opened = tokio::select! {
                        biased;
                        _ = self.cancel.cancelled() => Err(LlmError::Cancelled),
                        r = start.client.exec_chat_stream(
                            start.target,
                            start.request,
                            Some(&start.options),
                        ) => r.map_err(|e| classify(&e)),
                    };
                    match opened {
                        Ok(response) => self.phase = Phase::Streaming(response.stream),
                        Err(e) => {
                            let e = self.real_transport_error(e);
                            return self.fail(e);
                        }
                    }
                }
                Phase::Streaming(stream) => {
                    let item = tokio::select! {
                        biased;
                        _ = self.cancel.cancelled() => None,
                        item = stream.next() => Some(item),
                    };
                    let Some(item) = item else {
                        return self.fail(LlmError::Cancelled);
                    };
                    match item {
                        Some(Ok(event)) => self.on_event(event),
                        Some(Err(e)) => {
                            let e = self.real_transport_error(classify(&e));
                            return self.fail(e);
                        }
                        None => {
                            return self.fail(LlmError::Truncated {
                                message: "the connection closed before the provider's \
                                          end-of-response event"
                                    .into(),
                            });
                        }
                    }
                }
            }
        }
    }

    /// Through the relay, a provider that cannot be reached looks like a dropped loopback
    /// connection to genai; the capture knows the real reason.
    fn real_transport_error(&self, error: LlmError) -> LlmError {
        match (
            &error,
            self.capture.as_ref().and_then(Capture::transport_error),
        ) {
            (LlmError::Network { .. } | LlmError::Truncated { .. }, Some(message)) => {
                LlmError::Network { message }
            }
            _ => error,
        }
    }

    /// Ends the stream with `error`, dropping (and so closing) the HTTP stream.
    fn fail(&mut self, error: LlmError) -> Option<Result<StreamEvent, LlmError>> {
        self.phase = Phase::Done;
        self.pending.clear();
        Some(Err(error))
    }

    fn on_event(&mut self, event: ChatStreamEvent) {
        match event {
            ChatStreamEvent::Chunk(c) if !c.content.is_empty() => {
                self.pending
                    .push_back(Ok(StreamEvent::TextDelta(c.content)));
            }
            ChatStreamEvent::ReasoningChunk(c) if !c.content.is_empty() => {
                self.pending
                    .push_back(Ok(StreamEvent::ReasoningDelta(c.content)));
            }
            ChatStreamEvent::ToolCallChunk(chunk) => {
                let call = chunk.tool_call;
                // genai 0.7.2 carries the arguments accumulated so far (a JSON text), or for
                // Gemini/Ollama the whole arguments object at once.
                let so_far = match &call.fn_arguments {
                    Value::String(s) => s.clone(),
                    Value::Null => String::new(),
                    v => v.to_string(),
                };
                match self.partials.iter_mut().find(|p| p.0 == call.call_id) {
                    Some(p) => {
                        if !call.fn_name.is_empty() {
                            p.1 = call.fn_name.clone();
                        }
                        p.2 = so_far.clone();
                    }
                    None => self.partials.push((
                        call.call_id.clone(),
                        call.fn_name.clone(),
                        so_far.clone(),
                    )),
                }
                self.pending.push_back(Ok(StreamEvent::ToolCallPartial {
                    id: call.call_id,
                    name: call.fn_name,
                    arguments_so_far: so_far,
                }));
            }
            ChatStreamEvent::End(end) => {
                self.phase = Phase::Done;
                match self.finish(end) {
                    Ok(events) => self.pending.extend(events.into_iter().map(Ok)),
                    Err(e) => {
                        self.pending.clear();
                        self.pending.push_back(Err(e));
                    }
                }
            }
            _ => {}
        }
    }

    /// The closing events: complete tool calls, then exactly one `Finish`.
    fn finish(&mut self, end: StreamEnd) -> Result<Vec<StreamEvent>, LlmError> {
        let stop = end.captured_stop_reason.clone();
        if stop.is_none() && self.end == EndSignal::FinishReason {
            return Err(LlmError::Truncated {
                message: "the provider's stream ended without a finish reason".into(),
            });
        }
        let mut reason = match &stop {
            None => FinishReason::Stop,
            Some(StopReason::Completed(_) | StopReason::StopSequence(_)) => FinishReason::Stop,
            Some(StopReason::MaxTokens(_)) => FinishReason::Length,
            Some(StopReason::ToolCall(_)) => FinishReason::ToolCalls,
            Some(StopReason::ContentFilter(_)) => FinishReason::ContentFilter,
            Some(StopReason::Other(s)) => FinishReason::Other(s.clone()),
        };
        let usage = end
            .captured_usage
            .as_ref()
            .map(usage_of)
            .unwrap_or_default();

        let captured: Vec<(String, String, Value)> = end
            .captured_tool_calls()
            .unwrap_or_default()
            .into_iter()
            .map(|c| (c.call_id.clone(), c.fn_name.clone(), c.fn_arguments.clone()))
            .collect();
        let calls = if captured.is_empty() {
            std::mem::take(&mut self.partials)
                .into_iter()
                .map(|(id, name, args)| (id, name, Value::String(args)))
                .collect()
        } else {
            captured
        };

        let mut events = Vec::new();
        for (id, name, arguments) in calls {
            match parse_arguments(arguments) {
                Ok(arguments) => events.push(StreamEvent::ToolCall {
                    id,
                    name,
                    arguments,
                }),
                // A call cut off by the token limit is incomplete by design; `Length` says so.
                Err(_) if reason == FinishReason::Length => {}
                Err(e) => {
                    return Err(LlmError::BadResponse {
                        message: format!("the arguments of tool call `{name}` ({id}): {e}"),
                    });
                }
            }
        }
        let has_calls = events
            .iter()
            .any(|e| matches!(e, StreamEvent::ToolCall { .. }));
        if has_calls && reason == FinishReason::Stop {
            // Gemini and Ollama report a normal stop alongside function calls.
            reason = FinishReason::ToolCalls;
        }
        events.push(StreamEvent::Finish { reason, usage });
        Ok(events)
    }
}

/// Tool-call arguments as a JSON object; an empty text means no arguments.
fn parse_arguments(arguments: Value) -> Result<Value, String> {
    match arguments {
        Value::Null => Ok(json!({})),
        Value::String(text) if text.trim().is_empty() => Ok(json!({})),
        Value::String(text) => serde_json::from_str::<Value>(&text)
            .map_err(|e| format!("not valid JSON ({e}): {text}")),
        other => Ok(other),
    }
}

fn usage_of(u: &genai::chat::Usage) -> Usage {
    let count = |n: Option<i32>| n.and_then(|n| u64::try_from(n).ok());
    let details = u.prompt_tokens_details.as_ref();
    // A reported 0 and no report are the same: nothing came from (or went to) the cache.
    let cache = |n: Option<i32>| count(n).filter(|n| *n > 0);
    Usage {
        cached_input_tokens: cache(details.and_then(|d| d.cached_tokens)),
        cache_write_tokens: cache(details.and_then(|d| d.cache_creation_tokens)),
        input_tokens: count(u.prompt_tokens),
        output_tokens: count(u.completion_tokens),
        reasoning_tokens: count(
            u.completion_tokens_details
                .as_ref()
                .and_then(|d| d.reasoning_tokens),
        ),
    }
}

#[cfg(test)]
#[path = "genai_adapter_tests.rs"]
mod tests;

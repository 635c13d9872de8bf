//! Provider-neutral chat types: messages with text, images, tool calls and tool results;
//! tool specs; streamed events; usage; and the typed errors a user is shown.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `provider::model`, the only way models are named.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ModelRef {
    pub provider: String,
    pub model: String,
}

impl ModelRef {
    /// Parses `provider::model` (the model part may itself contain `:` or `/`).
    pub fn parse(s: &str) -> Result<Self, LlmError> {
        match s.split_once("::") {
            Some((p, m)) if !p.is_empty() && !m.is_empty() => Ok(Self {
                provider: p.to_owned(),
                model: m.to_owned(),
            }),
            _ => Err(LlmError::NotConfigured {
                message: format!(
                    "`{s}` is not a model name; use provider::model, e.g. openai::gpt-4.1-mini"
                ),
            }),
        }
    }
}

impl fmt::Display for ModelRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}::{}", self.provider, self.model)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Assistant,
    /// Carries tool results back to the model.
    Tool,
}

/// One piece of a message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Part {
    Text {
        text: String,
    },
    /// Base64 image data (sent only to models that accept images).
    Image {
        mime_type: String,
        data: String,
    },
    /// Reasoning the model emitted (kept for display; not sent back unless required).
    Reasoning {
        text: String,
    },
    /// A tool call the assistant made.
    ToolCall {
        id: String,
        name: String,
        arguments: Value,
    },
    /// The result of a tool call, in a `Role::Tool` message.
    ToolResult {
        call_id: String,
        /// Text for the model (content blocks rendered to text, structured content as JSON).
        text: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        images: Vec<(String, String)>,
        is_error: bool,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    pub parts: Vec<Part>,
}

impl Message {
    pub fn user(text: impl Into<String>) -> Self {
        Self {
            role: Role::User,
            parts: vec![Part::Text { text: text.into() }],
        }
    }
}

/// A tool offered to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// The model-facing name (`<server>__<tool>`, sanitized).
    pub name: String,
    pub description: String,
    /// JSON Schema of the arguments.
    pub input_schema: Value,
}

/// One model step's request.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatRequest {
    pub model: ModelRef,
    /// System prompt plus server instructions, in order.
    pub system: Vec<String>,
    pub messages: Vec<Message>,
    pub tools: Vec<ToolSpec>,
    pub temperature: Option<f64>,
    pub max_tokens: Option<u32>,
    /// Where to record the step's HTTP exchanges (the x-ray); `None` sends directly.
    pub capture: Option<super::xray::Capture>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum FinishReason {
    Stop,
    ToolCalls,
    Length,
    ContentFilter,
    Other(String),
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    /// Every input token, cached ones included (genai adds Anthropic's cache reads and writes
    /// to its `input_tokens`, as OpenAI's `prompt_tokens` already counts them).
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    pub reasoning_tokens: Option<u64>,
    /// Of the input, tokens read from the prompt cache (OpenAI
    /// `prompt_tokens_details.cached_tokens`, Anthropic `cache_read_input_tokens`).
    #[serde(default)]
    pub cached_input_tokens: Option<u64>,
    /// Of the input, tokens written to the prompt cache (Anthropic
    /// `cache_creation_input_tokens`).
    #[serde(default)]
    pub cache_write_tokens: Option<u64>,
}

/// What a model step streams.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamEvent {
    TextDelta(String),
    ReasoningDelta(String),
    /// A tool call's arguments so far (accumulated text, not a delta), while streaming.
    ToolCallPartial {
        id: String,
        name: String,
        arguments_so_far: String,
    },
    /// A complete tool call (arguments parsed).
    ToolCall {
        id: String,
        name: String,
        arguments: Value,
    },
    /// The step ended; always the last event of a successful stream.
    Finish {
        reason: FinishReason,
        usage: Usage,
    },
}

/// What went wrong with a provider, typed so the UI can say it plainly and retries can be
/// decided without reading messages.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LlmError {
    #[error("the provider rejected the API key: {message}")]
    Auth { message: String },
    #[error("rate limited{}: {message}", retry_after.map(|d| format!(" (retry after {}s)", d.as_secs())).unwrap_or_default())]
    RateLimit {
        retry_after: Option<Duration>,
        message: String,
    },
    #[error("the conversation is too long for the model's context: {message}")]
    ContextLength { message: String },
    #[error("could not reach the provider: {message}")]
    Network { message: String },
    #[error("the provider failed (HTTP {status}): {message}")]
    Server { status: u16, message: String },
    #[error("the provider sent a response mcplab cannot read: {message}")]
    BadResponse { message: String },
    #[error("the provider's stream stopped before the response finished: {message}")]
    Truncated { message: String },
    #[error("cancelled")]
    Cancelled,
    #[error("{message}")]
    NotConfigured { message: String },
}

impl LlmError {
    /// Whether trying the same request again may succeed.
    pub fn is_retryable(&self) -> bool {
        match self {
            LlmError::RateLimit { .. } | LlmError::Network { .. } => true,
            // Other 4xx (bad request, not found, unprocessable) will fail the same way again.
            LlmError::Server { status, .. } => *status >= 500 || *status == 408,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_refs_use_double_colons() {
        let m = ModelRef::parse("ollama::llama3.2:3b").unwrap();
        assert_eq!(
            (m.provider.as_str(), m.model.as_str()),
            ("ollama", "llama3.2:3b")
        );
        assert_eq!(m.to_string(), "ollama::llama3.2:3b");
        assert!(ModelRef::parse("gpt-4o").is_err());
        assert!(ModelRef::parse("::x").is_err());
    }

    #[test]
    fn retryable_errors() {
        assert!(
            LlmError::Server {
                status: 502,
                message: String::new()
            }
            .is_retryable()
        );
        assert!(
            !LlmError::Auth {
                message: String::new()
            }
            .is_retryable()
        );
        assert!(
            !LlmError::Truncated {
                message: String::new()
            }
            .is_retryable()
        );
    }
}

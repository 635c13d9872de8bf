//! The LLM provider layer: provider-neutral chat types, the [`LlmProvider`] trait the agent
//! loop talks to, and typed provider errors. Adapters (genai-based) live in submodules; no
//! other module names genai. It reads no environment: provider settings are handed in.

mod genai_adapter;
mod genai_errors;
pub mod prices;
mod providers;
mod retry;
mod types;
pub mod xray;

pub use genai_adapter::GenaiProvider;
pub use providers::{
    DEFAULT_OLLAMA_HOST, OLLAMA_PROBE_TIMEOUT, ProviderAvailability, ProviderConfig, ProviderKind,
    ProviderSettings, build_provider, parse_ollama_host,
};
pub use retry::{RetryPolicy, RetryingProvider, retry_stream, should_retry};
pub use types::*;

use futures::stream::BoxStream;
use tokio_util::sync::CancellationToken;

/// One chat model backend (a configured provider).
pub trait LlmProvider: Send + Sync {
    /// The provider id used in `provider::model` names (`openai`, `anthropic`, a custom name…).
    fn id(&self) -> &str;

    /// Streams one model step. The stream performs the request when first polled, ends after
    /// exactly one `Finish` event, and yields `Err(LlmError::Truncated)` if the provider's
    /// stream stops before finishing. Cancelling `cancel` ends it with `LlmError::Cancelled`.
    fn stream(
        &self,
        request: ChatRequest,
        cancel: CancellationToken,
    ) -> BoxStream<'static, Result<StreamEvent, LlmError>>;
}

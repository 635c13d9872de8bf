//! The LLM provider layer: provider-neutral chat types, the [`LlmProvider`] trait the agent
//! loop talks to, and typed provider errors. Adapters (genai-based) live in submodules; no
//! other module names genai. It reads no environment: provider settings are handed in.
//!
//! # Where things are
//!
//! - `crates/mcplab-llm/src/`: Provider layer (crate `mcplab-llm`; the only crate that names
//!   genai): neutral chat types and the `LlmProvider` trait (`types.rs`, `mod.rs`); `providers.rs`
//!   (the protocol's `ProviderKind` re-exported, settings from env handed in by the binary, stored
//!   custom endpoints, availability incl. the Ollama probe); `genai_adapter.rs` + `genai_errors.rs`
//!   (the only place genai is named: request mapping, stream mapping, typed errors, truncation
//!   detection; a captured step points genai at its x-ray relay); `retry.rs`; `xray/` (the x-ray:
//!   `relay.rs` a per-step loopback HTTP relay on a random path that records the request exactly as
//!   genai wrote it, forwards it with the shared client and records each response chunk before
//!   passing it on — genai 0.7.2 takes only a finished `reqwest::Client`, so this is the one place
//!   that sees the bytes; it stays: a captured step costs ~0.3 ms more to its first event and ~0.4
//!   MiB of RSS (BENCHMARKS.md, "The x-ray relay per model step"), noise next to a model's latency;
//!   it would go only with genai, for two direct streaming clients that see the bytes themselves
//!   (also dropping genai's h2 and encoding_rs, ~1 MB of the binary); `capture.rs` the step's
//!   exchanges, masked as recorded (`mcplab_net::{mask_header, mask_url}`), bodies capped and
//!   marked; `tokens.rs` a step's tokens: reported usage or a marked estimate, the tool
//!   definitions' share, the prompt-cache reads and writes genai maps from OpenAI
//!   `prompt_tokens_details.cached_tokens` and Anthropic
//!   `cache_read_input_tokens`/`cache_creation_input_tokens`).

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

//! `ProviderKind`: the LLM provider families mcplab speaks to, with the facts each one comes
//! with (its built-in id, display name, key and base-URL environment variables, public
//! endpoint, suggested models). One enum for the LLM layer, the settings API and the web (a
//! TypeScript union). Wire strings: `openai`, `anthropic`, `gemini`, `deepseek`, `xai`,
//! `mistral`, `openrouter`, `ollama`, `openai_compatible`, `anthropic_compatible`. Pure data:
//! reading the environment and talking to providers belong to the LLM layer.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Where Ollama listens when `OLLAMA_HOST` is not set.
pub const DEFAULT_OLLAMA_HOST: &str = "http://127.0.0.1:11434";

/// The wire protocol family and defaults of a provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ProviderKind {
    #[serde(rename = "openai")]
    OpenAi,
    Anthropic,
    Gemini,
    #[serde(rename = "deepseek")]
    DeepSeek,
    Xai,
    Mistral,
    #[serde(rename = "openrouter")]
    OpenRouter,
    Ollama,
    /// Any server speaking OpenAI Chat Completions at a user-given base URL.
    #[serde(rename = "openai_compatible")]
    OpenAiCompatible,
    /// Any server speaking Anthropic Messages at a user-given base URL.
    AnthropicCompatible,
}

impl ProviderKind {
    /// The providers that exist without any stored configuration, in display order.
    pub const BUILT_IN: [ProviderKind; 8] = [
        ProviderKind::OpenAi,
        ProviderKind::Anthropic,
        ProviderKind::Gemini,
        ProviderKind::DeepSeek,
        ProviderKind::Xai,
        ProviderKind::Mistral,
        ProviderKind::OpenRouter,
        ProviderKind::Ollama,
    ];

    /// The provider id of the built-in instance (`openai::gpt-4.1-mini`); `None` for the
    /// compatible kinds, whose ids the user chooses.
    pub fn builtin_id(self) -> Option<&'static str> {
        Some(match self {
            ProviderKind::OpenAi => "openai",
            ProviderKind::Anthropic => "anthropic",
            ProviderKind::Gemini => "gemini",
            ProviderKind::DeepSeek => "deepseek",
            ProviderKind::Xai => "xai",
            ProviderKind::Mistral => "mistral",
            ProviderKind::OpenRouter => "openrouter",
            ProviderKind::Ollama => "ollama",
            ProviderKind::OpenAiCompatible | ProviderKind::AnthropicCompatible => return None,
        })
    }

    pub fn display_name(self) -> &'static str {
        match self {
            ProviderKind::OpenAi => "OpenAI",
            ProviderKind::Anthropic => "Anthropic",
            ProviderKind::Gemini => "Google Gemini",
            ProviderKind::DeepSeek => "DeepSeek",
            ProviderKind::Xai => "xAI",
            ProviderKind::Mistral => "Mistral",
            ProviderKind::OpenRouter => "OpenRouter",
            ProviderKind::Ollama => "Ollama",
            ProviderKind::OpenAiCompatible => "OpenAI-compatible",
            ProviderKind::AnthropicCompatible => "Anthropic-compatible",
        }
    }

    /// Environment variables holding the API key, first match wins.
    pub fn key_env(self) -> &'static [&'static str] {
        match self {
            ProviderKind::OpenAi => &["OPENAI_API_KEY"],
            ProviderKind::Anthropic => &["ANTHROPIC_API_KEY"],
            ProviderKind::Gemini => &["GEMINI_API_KEY", "GOOGLE_API_KEY"],
            ProviderKind::DeepSeek => &["DEEPSEEK_API_KEY"],
            ProviderKind::Xai => &["XAI_API_KEY"],
            ProviderKind::Mistral => &["MISTRAL_API_KEY"],
            ProviderKind::OpenRouter => &["OPENROUTER_API_KEY"],
            ProviderKind::Ollama
            | ProviderKind::OpenAiCompatible
            | ProviderKind::AnthropicCompatible => &[],
        }
    }

    /// Environment variable overriding the base URL.
    pub fn base_url_env(self) -> Option<&'static str> {
        Some(match self {
            ProviderKind::OpenAi => "OPENAI_BASE_URL",
            ProviderKind::Anthropic => "ANTHROPIC_BASE_URL",
            ProviderKind::Gemini => "GEMINI_BASE_URL",
            ProviderKind::DeepSeek => "DEEPSEEK_BASE_URL",
            ProviderKind::Xai => "XAI_BASE_URL",
            ProviderKind::Mistral => "MISTRAL_BASE_URL",
            ProviderKind::OpenRouter => "OPENROUTER_BASE_URL",
            ProviderKind::Ollama => "OLLAMA_HOST",
            ProviderKind::OpenAiCompatible | ProviderKind::AnthropicCompatible => return None,
        })
    }

    /// The public endpoint, as the provider documents it; `None` for the compatible kinds.
    pub fn default_base_url(self) -> Option<&'static str> {
        Some(match self {
            ProviderKind::OpenAi => "https://api.openai.com/v1",
            ProviderKind::Anthropic => "https://api.anthropic.com",
            ProviderKind::Gemini => "https://generativelanguage.googleapis.com/v1beta",
            ProviderKind::DeepSeek => "https://api.deepseek.com",
            ProviderKind::Xai => "https://api.x.ai/v1",
            ProviderKind::Mistral => "https://api.mistral.ai/v1",
            ProviderKind::OpenRouter => "https://openrouter.ai/api/v1",
            ProviderKind::Ollama => DEFAULT_OLLAMA_HOST,
            ProviderKind::OpenAiCompatible | ProviderKind::AnthropicCompatible => return None,
        })
    }

    /// Whether a request cannot be made without an API key.
    pub fn requires_key(self) -> bool {
        !self.key_env().is_empty()
    }

    /// A few current model names offered when the user has not listed any.
    pub fn suggested_models(self) -> &'static [&'static str] {
        match self {
            ProviderKind::OpenAi => &["gpt-4.1-mini", "gpt-4.1", "gpt-4o-mini", "o4-mini"],
            ProviderKind::Anthropic => {
                &["claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-1"]
            }
            ProviderKind::Gemini => &["gemini-2.5-flash", "gemini-2.5-pro"],
            ProviderKind::DeepSeek => &["deepseek-chat", "deepseek-reasoner"],
            ProviderKind::Xai => &["grok-4", "grok-3-mini"],
            ProviderKind::Mistral => &["mistral-large-latest", "mistral-small-latest"],
            ProviderKind::OpenRouter => &["openai/gpt-4.1-mini", "anthropic/claude-sonnet-4.5"],
            ProviderKind::Ollama
            | ProviderKind::OpenAiCompatible
            | ProviderKind::AnthropicCompatible => &[],
        }
    }
}

//! Turns genai's errors into typed [`LlmError`]s. genai reports an HTTP failure of a stream
//! as `Error::WebStream` wrapping a boxed `Error::HttpError` (status, headers, body), and a
//! transport failure as a boxed `reqwest::Error`; an error event inside a stream arrives as
//! `Error::ChatResponse { body }`. This module unwraps those shapes and decides by HTTP status
//! and the provider's machine-readable error `code`/`type`, never by the display string.
//! The one exception is Anthropic's context-length error, which has no code: its message
//! prefix ("prompt is too long") is the documented signal.

use std::error::Error as StdError;
use std::time::Duration;

use mcplab_protocol::error_chain::error_chain as chain;
use reqwest::header::HeaderMap;
use serde_json::Value;

use super::LlmError;

/// The longest provider error text kept in a message.
const MAX_MESSAGE: usize = 600;

/// Classifies any genai error.
pub(super) fn classify(err: &genai::Error) -> LlmError {
    use genai::Error as E;
    match err {
        E::HttpError {
            status,
            body,
            headers,
            ..
        } => from_http(status.as_u16(), Some(headers), body),
        E::WebModelCall { webc_error, .. } | E::WebAdapterCall { webc_error, .. } => {
            from_webc(webc_error)
        }
        E::WebStream { error, cause, .. } => from_boxed(error.as_ref(), cause),
        E::ChatResponse { body, .. } => from_stream_error_body(body),
        E::StreamParse { serde_error, .. } => LlmError::BadResponse {
            message: format!("a stream event is not valid JSON: {serde_error}"),
        },
        E::JsonValueExt(e) => LlmError::BadResponse {
            message: format!("a stream event lacks an expected field: {e}"),
        },
        E::SerdeJson(e) => LlmError::BadResponse {
            message: e.to_string(),
        },
        E::InvalidJsonResponseElement { info } => LlmError::BadResponse {
            message: (*info).to_owned(),
        },
        E::NoChatResponse { .. } | E::ChatResponseGeneration { .. } => LlmError::BadResponse {
            message: clip(&err.to_string()),
        },
        E::RequiresApiKey { .. } | E::NoAuthData { .. } | E::NoAuthResolver { .. } => {
            LlmError::NotConfigured {
                message: "no API key is configured for this provider".into(),
            }
        }
        // Everything else is a request genai could not build (unsupported content for the
        // model, bad options): a configuration problem the user reads.
        other => LlmError::NotConfigured {
            message: clip(&other.to_string()),
        },
    }
}

fn from_webc(err: &genai::webc::Error) -> LlmError {
    use genai::webc::Error as W;
    match err {
        W::ResponseFailedStatus {
            status,
            body,
            headers,
        } => from_http(status.as_u16(), Some(headers), body),
        W::Reqwest(e) => from_reqwest(e),
        other => LlmError::BadResponse {
            message: clip(&other.to_string()),
        },
    }
}

/// The boxed cause inside `Error::WebStream`.
fn from_boxed(error: &(dyn StdError + Send + Sync + 'static), cause: &str) -> LlmError {
    if let Some(inner) = error.downcast_ref::<genai::Error>() {
        return classify(inner);
    }
    if let Some(e) = error.downcast_ref::<reqwest::Error>() {
        return from_reqwest(e);
    }
    if let Some(timeout) = error.downcast_ref::<genai::webc::StreamTimeout>() {
        return LlmError::Network {
            message: timeout.to_string(),
        };
    }
    if let Some(e) = error.downcast_ref::<genai::webc::Error>() {
        return from_webc(e);
    }
    if error.is::<std::str::Utf8Error>() || error.is::<std::string::FromUtf8Error>() {
        return LlmError::BadResponse {
            message: format!("the stream is not valid UTF-8: {cause}"),
        };
    }
    LlmError::Network {
        message: clip(&chain(error)),
    }
}

fn from_reqwest(e: &reqwest::Error) -> LlmError {
    if let Some(status) = e.status() {
        return from_http(status.as_u16(), None, &e.to_string());
    }
    let message = clip(&chain(e));
    // A failure while reading the body happens after the response started: the provider's
    // stream ended early, which is a truncation, not a reachability problem.
    if e.is_body() || e.is_decode() {
        return LlmError::Truncated {
            message: format!("the connection failed mid-response: {message}"),
        };
    }
    LlmError::Network { message }
}

/// An error the provider answered with an HTTP status.
pub(super) fn from_http(status: u16, headers: Option<&HeaderMap>, body: &str) -> LlmError {
    let parsed: Option<Value> = serde_json::from_str(body).ok();
    let info = parsed.as_ref().map(ErrorInfo::of).unwrap_or_default();
    let message = info.message.clone().unwrap_or_else(|| match body.trim() {
        "" => format!("HTTP {status}"),
        text => clip(text),
    });
    if info.is_context_length() {
        return LlmError::ContextLength { message };
    }
    if info.code.as_deref() == Some("insufficient_quota") {
        return LlmError::NotConfigured {
            message: format!("the account has no quota left: {message}"),
        };
    }
    match status {
        401 | 403 => LlmError::Auth { message },
        429 => LlmError::RateLimit {
            retry_after: headers.and_then(retry_after),
            message,
        },
        413 => LlmError::ContextLength { message },
        _ => LlmError::Server { status, message },
    }
}

/// An error event inside a 200 stream (OpenAI `{"error":…}`, Anthropic `event: error`).
fn from_stream_error_body(body: &Value) -> LlmError {
    let info = ErrorInfo::of(body);
    let message = info
        .message
        .clone()
        .unwrap_or_else(|| clip(&body.to_string()));
    if info.is_context_length() {
        return LlmError::ContextLength { message };
    }
    let kind = info.kind.as_deref().unwrap_or_default();
    let code = info.code.as_deref().unwrap_or_default();
    match (kind, code) {
        ("authentication_error" | "permission_error", _) => LlmError::Auth { message },
        ("rate_limit_error", _) | (_, "rate_limit_exceeded") => LlmError::RateLimit {
            retry_after: None,
            message,
        },
        ("overloaded_error", _) => LlmError::Server {
            status: 529,
            message,
        },
        // No status came with it; the provider reported a failure of its own.
        _ => LlmError::Server {
            status: 500,
            message,
        },
    }
}

/// The machine-readable parts of a provider error body, whichever provider shaped it.
#[derive(Debug, Default)]
struct ErrorInfo {
    message: Option<String>,
    code: Option<String>,
    /// OpenAI/Anthropic `type`, Gemini `status`.
    kind: Option<String>,
}

impl ErrorInfo {
    fn of(body: &Value) -> Self {
        // Gemini wraps stream errors in an array.
        let body = match body {
            Value::Array(items) => items.first().unwrap_or(body),
            _ => body,
        };
        let inner = match body.get("error") {
            Some(Value::String(text)) => {
                // Ollama: `{"error": "model 'x' not found"}`.
                return Self {
                    message: Some(clip(text)),
                    ..Self::default()
                };
            }
            Some(obj @ Value::Object(_)) => obj,
            _ => body,
        };
        let text = |key: &str| match inner.get(key) {
            Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
        Self {
            message: text("message").map(|m| clip(&m)),
            code: text("code"),
            kind: text("type").or_else(|| text("status")),
        }
    }

    fn is_context_length(&self) -> bool {
        if self.code.as_deref() == Some("context_length_exceeded")
            || self.kind.as_deref() == Some("request_too_large")
        {
            return true;
        }
        // Anthropic sends no code for this; the message prefix is the documented signal.
        self.kind.as_deref() == Some("invalid_request_error")
            && self
                .message
                .as_deref()
                .is_some_and(|m| m.starts_with("prompt is too long"))
    }
}

/// `retry-after-ms` (OpenAI) or `retry-after` in seconds.
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let number = |name: &str| {
        headers
            .get(name)?
            .to_str()
            .ok()?
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0)
    };
    if let Some(ms) = number("retry-after-ms") {
        return Some(Duration::from_secs_f64(ms / 1000.0));
    }
    number("retry-after").map(Duration::from_secs_f64)
}

/// A transport error as one line for people (its causes included, clipped).
pub(super) fn describe(e: &reqwest::Error) -> String {
    clip(&chain(e))
}

fn clip(text: &str) -> String {
    let text = text.trim();
    if text.chars().count() <= MAX_MESSAGE {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(MAX_MESSAGE).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    #[test]
    fn statuses_map_to_kinds() {
        let body = r#"{"error":{"message":"Incorrect API key","type":"invalid_request_error","code":"invalid_api_key"}}"#;
        assert_eq!(
            from_http(401, None, body),
            LlmError::Auth {
                message: "Incorrect API key".into()
            }
        );
        assert!(matches!(
            from_http(503, None, "upstream down"),
            LlmError::Server { status: 503, message } if message == "upstream down"
        ));
        assert!(matches!(
            from_http(404, None, ""),
            LlmError::Server { status: 404, message } if message == "HTTP 404"
        ));
    }

    #[test]
    fn rate_limits_carry_retry_after() {
        let mut headers = HeaderMap::new();
        headers.insert("retry-after", HeaderValue::from_static("7"));
        assert_eq!(
            from_http(429, Some(&headers), "{}"),
            LlmError::RateLimit {
                retry_after: Some(Duration::from_secs(7)),
                message: "{}".into()
            }
        );
        headers.insert("retry-after-ms", HeaderValue::from_static("1500"));
        assert!(matches!(
            from_http(429, Some(&headers), ""),
            LlmError::RateLimit { retry_after: Some(d), .. } if d == Duration::from_millis(1500)
        ));
    }

    #[test]
    fn context_length_is_recognised_for_openai_and_anthropic() {
        let openai = r#"{"error":{"message":"This model's maximum context length is 128000 tokens","type":"invalid_request_error","code":"context_length_exceeded"}}"#;
        assert!(matches!(
            from_http(400, None, openai),
            LlmError::ContextLength { .. }
        ));
        let anthropic = r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}"#;
        assert!(matches!(
            from_http(400, None, anthropic),
            LlmError::ContextLength { .. }
        ));
        let other = r#"{"type":"error","error":{"type":"invalid_request_error","message":"messages: field required"}}"#;
        assert!(matches!(
            from_http(400, None, other),
            LlmError::Server { status: 400, .. }
        ));
    }

    #[test]
    fn stream_error_events_are_typed() {
        let overloaded: Value = serde_json::json!({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}});
        assert_eq!(
            from_stream_error_body(&overloaded),
            LlmError::Server {
                status: 529,
                message: "Overloaded".into()
            }
        );
        let openai: Value = serde_json::json!({"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"});
        assert!(matches!(
            from_stream_error_body(&openai),
            LlmError::RateLimit { .. }
        ));
    }

    #[test]
    fn ollama_string_errors_keep_their_text() {
        assert_eq!(
            from_http(404, None, r#"{"error":"model 'x' not found"}"#),
            LlmError::Server {
                status: 404,
                message: "model 'x' not found".into()
            }
        );
    }
}

//! Building a tool's answer: a successful reply (a one-line summary for the model and the
//! structured result), a failure (`isError`, with `{"error": …}` as the structured result, which
//! every output schema admits), and reading a call's arguments into a typed struct with an
//! error that names the tool and the bad field.

use mcplab_mcp::tool_server::ToolReply;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// A successful reply.
pub(crate) fn ok(summary: impl Into<String>, structured: Value) -> ToolReply {
    ToolReply {
        summary: summary.into(),
        structured,
        images: Vec::new(),
        is_error: false,
    }
}

/// A failed call: the message is both the text and `structured.error`.
pub(crate) fn fail(message: impl Into<String>) -> ToolReply {
    let message = message.into();
    ToolReply {
        structured: json!({ "error": message }),
        summary: message,
        images: Vec::new(),
        is_error: true,
    }
}

/// A failed call with more detail than the message (the server's stderr, an MCP error's code).
pub(crate) fn fail_with(message: impl Into<String>, mut detail: Value) -> ToolReply {
    let message = message.into();
    if let Some(obj) = detail.as_object_mut() {
        obj.insert("error".into(), Value::String(message.clone()));
    }
    ToolReply {
        structured: detail,
        summary: message,
        images: Vec::new(),
        is_error: true,
    }
}

/// The arguments of `tool` as `T`, or the reply that says what is wrong with them.
pub(crate) fn args<T: DeserializeOwned>(tool: &str, arguments: Value) -> Result<T, Box<ToolReply>> {
    serde_json::from_value(arguments)
        .map_err(|e| Box::new(fail(format!("invalid arguments for `{tool}`: {e}"))))
}

/// `text` cut to `max` characters, with how much was left out.
pub(crate) fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let head: String = text.chars().take(max).collect();
    format!("{head}… ({} more bytes)", text.len() - head.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    struct Sample {
        #[allow(dead_code)]
        server: String,
    }

    #[test]
    fn bad_arguments_name_the_tool_and_the_field() {
        let err = args::<Sample>("connect", json!({"srv": "x"})).unwrap_err();
        assert!(err.is_error);
        assert!(err.summary.contains("`connect`"), "{}", err.summary);
        assert!(err.summary.contains("srv"), "{}", err.summary);
        assert_eq!(err.structured["error"], json!(err.summary));
    }

    #[test]
    fn long_text_is_cut_with_what_was_left_out() {
        assert_eq!(cut("short", 10), "short");
        let c = cut(&"é".repeat(20), 4);
        assert!(c.starts_with("éééé… (32 more bytes)"), "{c}");
    }
}

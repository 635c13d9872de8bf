//! App context for the model: what a rendered UI asked the host to tell the model (MCP Apps
//! `ui/update-model-context`, OpenAI `setWidgetState`), turned into one system message per
//! app that says where it came from. The user never sees these as chat messages, so the text
//! says so, and the model can tell app-provided facts from the user's words.

use mcplab_protocol::chat::{AppContextEntry, AppContextSource};
use serde_json::Value;

/// The system message for one app's context, or `None` when it carries nothing (no text
/// blocks and no structured content).
pub fn app_context_message(entry: &AppContextEntry) -> Option<String> {
    let mut body: Vec<String> = entry
        .content
        .as_array()
        .into_iter()
        .flatten()
        .filter(|block| block["type"] == "text")
        .filter_map(|block| block["text"].as_str())
        .filter(|text| !text.trim().is_empty())
        .map(str::to_owned)
        .collect();
    if let Some(sc) = entry.structured_content.as_ref().filter(|v| !v.is_null()) {
        body.push(format!("structuredContent: {}", compact(sc)));
    }
    if body.is_empty() {
        return None;
    }
    let via = match entry.source {
        AppContextSource::ModelContext => "ui/update-model-context",
        AppContextSource::WidgetState => "widget state",
    };
    Some(format!(
        "Context from the app of tool `{}` on server `{}` ({via}), not shown to the user as a \
         message:\n{}",
        entry.tool,
        entry.server,
        body.join("\n")
    ))
}

fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry(source: AppContextSource, content: Value, sc: Option<Value>) -> AppContextEntry {
        AppContextEntry {
            key: "k".into(),
            server: "demo".into(),
            tool: "show_counter_app".into(),
            call_id: "c1".into(),
            source,
            content,
            structured_content: sc,
            updated_at_ms: 1,
        }
    }

    #[test]
    fn text_blocks_then_structured_content() {
        let e = entry(
            AppContextSource::ModelContext,
            json!([{"type": "text", "text": "count is 3"}, {"type": "image", "data": "AA"},
                   {"type": "text", "text": "user likes odd numbers"}]),
            Some(json!({"count": 3})),
        );
        assert_eq!(
            app_context_message(&e).unwrap(),
            "Context from the app of tool `show_counter_app` on server `demo` \
             (ui/update-model-context), not shown to the user as a message:\n\
             count is 3\nuser likes odd numbers\nstructuredContent: {\"count\":3}"
        );
        let state = entry(
            AppContextSource::WidgetState,
            json!([]),
            Some(json!({"a": 1})),
        );
        let text = app_context_message(&state).unwrap();
        assert!(text.contains("(widget state)"), "{text}");
        assert!(text.ends_with("\nstructuredContent: {\"a\":1}"), "{text}");
    }

    #[test]
    fn empty_context_is_skipped() {
        let empty = entry(AppContextSource::ModelContext, json!([]), None);
        assert_eq!(app_context_message(&empty), None);
        let only_image = entry(
            AppContextSource::ModelContext,
            json!([{"type": "image", "data": "AA", "mimeType": "image/png"}]),
            Some(Value::Null),
        );
        assert_eq!(app_context_message(&only_image), None);
    }
}

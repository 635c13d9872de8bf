//! Reading a UI resource's `resources/read` content item: which protocol the UI speaks (from
//! its MIME type), its HTML (`text`, or base64 `blob` decoded as UTF-8), and whether it
//! prefers a border (`_meta.ui.prefersBorder`, else OpenAI's `openai/widgetPrefersBorder`).
//! Errors say what the server sent wrong, for the server's author.

use base64::Engine;
use serde_json::Value;

use super::linkage::UiKind;

/// The UI protocol a MIME type names: `text/html;profile=mcp-app` and plain `text/html` are
/// MCP Apps, `text/html+skybridge` is an OpenAI widget; anything else is unknown (`None`).
pub fn ui_kind_of_mime(mime: Option<&str>) -> Option<UiKind> {
    let mime = mime?.to_ascii_lowercase();
    let mut parts = mime.split(';').map(str::trim);
    let essence = parts.next().unwrap_or_default();
    let params: Vec<&str> = parts.collect();
    match essence {
        "text/html+skybridge" => Some(UiKind::OpenAiWidget),
        "text/html" => {
            let profile = params.iter().find_map(|p| p.strip_prefix("profile="));
            match profile.map(|p| p.trim_matches('"')) {
                None | Some("mcp-app") => Some(UiKind::McpApp),
                Some(_) => None,
            }
        }
        _ => None,
    }
}

/// The HTML of a `resources/read` content item.
pub fn ui_resource_html(content_item: &Value) -> Result<String, String> {
    if let Some(text) = content_item.get("text").and_then(Value::as_str) {
        return Ok(text.to_owned());
    }
    let Some(blob) = content_item.get("blob").and_then(Value::as_str) else {
        return Err(
            "its content has neither `text` nor a base64 `blob`; a UI resource must carry its \
             HTML in one of them"
                .into(),
        );
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(blob.trim())
        .map_err(|e| format!("its `blob` is not valid base64 ({e})"))?;
    String::from_utf8(bytes).map_err(|_| "its `blob` is not UTF-8 text (expected HTML)".into())
}

/// Whether the UI prefers a visible border: the merged `_meta.ui.prefersBorder`, else
/// `openai/widgetPrefersBorder` on the content item, else on the `resources/list` entry.
pub fn prefers_border(
    ui_meta: &Value,
    content_item: &Value,
    listing_entry: Option<&Value>,
) -> Option<bool> {
    ui_meta
        .get("prefersBorder")
        .and_then(Value::as_bool)
        .or_else(|| {
            [Some(content_item), listing_entry]
                .into_iter()
                .flatten()
                .find_map(|v| v.pointer("/_meta/openai~1widgetPrefersBorder")?.as_bool())
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn mime_types_name_the_protocol() {
        let kind = |m: &str| ui_kind_of_mime(Some(m));
        assert_eq!(kind("text/html;profile=mcp-app"), Some(UiKind::McpApp));
        assert_eq!(kind("text/html; profile=\"mcp-app\""), Some(UiKind::McpApp));
        assert_eq!(kind("text/html"), Some(UiKind::McpApp));
        assert_eq!(kind("text/html+skybridge"), Some(UiKind::OpenAiWidget));
        assert_eq!(kind("text/html;profile=other"), None);
        assert_eq!(kind("application/json"), None);
        assert_eq!(ui_kind_of_mime(None), None);
    }

    #[test]
    fn html_comes_from_text_or_a_base64_blob() {
        assert_eq!(
            ui_resource_html(&json!({"text": "<p>hi</p>"})).unwrap(),
            "<p>hi</p>"
        );
        assert_eq!(
            ui_resource_html(&json!({"blob": "PHA+aGk8L3A+"})).unwrap(),
            "<p>hi</p>"
        );
        let bad = ui_resource_html(&json!({"blob": "not base64!"})).unwrap_err();
        assert!(bad.contains("not valid base64"), "{bad}");
        let binary = ui_resource_html(&json!({"blob": "//79"})).unwrap_err();
        assert!(binary.contains("UTF-8"), "{binary}");
        let none = ui_resource_html(&json!({"uri": "ui://x"})).unwrap_err();
        assert!(none.contains("neither `text` nor"), "{none}");
    }

    #[test]
    fn border_preference_falls_back_to_the_openai_key() {
        let item = json!({"_meta": {"openai/widgetPrefersBorder": true}});
        assert_eq!(prefers_border(&json!({}), &item, None), Some(true));
        assert_eq!(
            prefers_border(&json!({"prefersBorder": false}), &item, None),
            Some(false)
        );
        let listing = json!({"_meta": {"openai/widgetPrefersBorder": false}});
        assert_eq!(
            prefers_border(&json!({}), &json!({}), Some(&listing)),
            Some(false)
        );
        assert_eq!(prefers_border(&json!({}), &json!({}), None), None);
    }
}

//! Tool ↔ UI linkage and visibility. A tool renders the `ui://` resource named in
//! `_meta.ui.resourceUri` (MCP Apps), else the deprecated flat `"ui/resourceUri"` key, else
//! `openai/outputTemplate` (OpenAI Apps SDK). Visibility (`_meta.ui.visibility`) says whether
//! the model, the app, or both may call it; absent means both.

use serde_json::Value;

/// Which protocol the UI speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UiKind {
    /// MCP Apps (SEP-1865): `text/html;profile=mcp-app`.
    McpApp,
    /// OpenAI Apps SDK widget: `text/html+skybridge`, `window.openai`.
    OpenAiWidget,
}

/// The UI a tool's results render in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UiLink {
    pub uri: String,
    pub kind: UiKind,
    /// Where the link came from (for diagnostics): the meta key that named it.
    pub source: &'static str,
}

/// The UI linked from a tool (its `tools/list` entry), if any.
pub fn ui_link(tool: &Value) -> Option<UiLink> {
    let meta = tool.get("_meta")?;
    let candidates = [
        (
            meta.pointer("/ui/resourceUri"),
            UiKind::McpApp,
            "_meta.ui.resourceUri",
        ),
        (
            meta.get("ui/resourceUri"),
            UiKind::McpApp,
            "_meta[\"ui/resourceUri\"]",
        ),
        (
            meta.get("openai/outputTemplate"),
            UiKind::OpenAiWidget,
            "_meta[\"openai/outputTemplate\"]",
        ),
    ];
    candidates.into_iter().find_map(|(v, kind, source)| {
        let uri = v?.as_str()?.trim();
        (!uri.is_empty()).then(|| UiLink {
            uri: uri.to_owned(),
            kind,
            source,
        })
    })
}

/// Who may call a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Visibility {
    /// Offered to the model.
    pub model: bool,
    /// Callable from the tool's own UI.
    pub app: bool,
}

/// A tool's visibility; an absent or malformed list means both. The OpenAI Apps SDK's
/// `"openai/visibility": "private"` hides a tool from the model too (its widget may still
/// call it when `openai/widgetAccessible` says so).
pub fn visibility(tool: &Value) -> Visibility {
    let mut v = match tool
        .pointer("/_meta/ui/visibility")
        .and_then(Value::as_array)
    {
        Some(list) => Visibility {
            model: list.iter().any(|v| v == "model"),
            app: list.iter().any(|v| v == "app"),
        },
        None => Visibility {
            model: true,
            app: true,
        },
    };
    if tool
        .pointer("/_meta/openai~1visibility")
        .and_then(Value::as_str)
        == Some("private")
    {
        v.model = false;
    }
    v
}

/// The `_meta.ui` of a UI resource: the `resources/read` content item's wins over the
/// `resources/list` entry's (both are checked, per the spec); the Python SDK's `meta`
/// spelling is accepted too.
pub fn resource_ui_meta(content_item: &Value, listing_entry: Option<&Value>) -> Value {
    let ui_of = |v: &Value| {
        v.pointer("/_meta/ui")
            .or_else(|| v.pointer("/meta/ui"))
            .cloned()
    };
    let mut merged = listing_entry
        .and_then(ui_of)
        .unwrap_or(Value::Object(Default::default()));
    if let (Some(Value::Object(item)), Value::Object(base)) = (ui_of(content_item), &mut merged) {
        for (k, v) in item {
            base.insert(k, v);
        }
    }
    // OpenAI widgets declare their CSP outside `ui`; keep it where the CSP builder looks.
    for source in [Some(content_item), listing_entry].into_iter().flatten() {
        if let (Some(widget), Value::Object(base)) =
            (source.pointer("/_meta/openai~1widgetCSP"), &mut merged)
            && !base.contains_key("csp")
        {
            base.insert("openaiWidgetCsp".into(), widget.clone());
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn links_in_order_of_precedence() {
        let both = json!({"_meta": {"ui": {"resourceUri": "ui://a"}, "ui/resourceUri": "ui://b"}});
        assert_eq!(ui_link(&both).unwrap().uri, "ui://a");
        let legacy = json!({"_meta": {"ui/resourceUri": "ui://b"}});
        assert_eq!(ui_link(&legacy).unwrap().kind, UiKind::McpApp);
        let openai = json!({"_meta": {"openai/outputTemplate": "ui://widget/w.html"}});
        assert_eq!(ui_link(&openai).unwrap().kind, UiKind::OpenAiWidget);
        assert_eq!(ui_link(&json!({"name": "plain"})), None);
        assert_eq!(
            ui_link(&json!({"_meta": {"ui": {"resourceUri": " "}}})),
            None
        );
    }

    #[test]
    fn visibility_defaults_to_both() {
        assert_eq!(
            visibility(&json!({})),
            Visibility {
                model: true,
                app: true
            }
        );
        let app_only = json!({"_meta": {"ui": {"visibility": ["app"]}}});
        assert_eq!(
            visibility(&app_only),
            Visibility {
                model: false,
                app: true
            }
        );
    }

    #[test]
    fn openai_private_tools_are_hidden_from_the_model() {
        let private =
            json!({"_meta": {"openai/visibility": "private", "openai/widgetAccessible": true}});
        assert!(!visibility(&private).model);
        assert!(visibility(&json!({"_meta": {"openai/visibility": "public"}})).model);
    }

    #[test]
    fn the_content_item_meta_wins_over_the_listing() {
        let listing = json!({"_meta": {"ui": {"prefersBorder": false, "csp": {"connectDomains": ["https://a.example"]}}}});
        let item = json!({"_meta": {"ui": {"prefersBorder": true}}});
        let meta = resource_ui_meta(&item, Some(&listing));
        assert_eq!(meta["prefersBorder"], true);
        assert_eq!(meta["csp"]["connectDomains"][0], "https://a.example");
        let widget =
            json!({"_meta": {"openai/widgetCSP": {"connect_domains": ["https://api.example"]}}});
        assert!(resource_ui_meta(&widget, None)["openaiWidgetCsp"].is_object());
    }
}

//! Which tools a rendered UI may call. The host proxies a UI's `tools/call` only to the UI's
//! own server (the caller binds each UI to it), and only for tools that UI kind may call: an
//! MCP App (or an MCP-UI resource) needs `"app"` in `_meta.ui.visibility` (absent means
//! model and app); an OpenAI widget needs `_meta["openai/widgetAccessible"] == true` or an
//! explicit `"app"` in the visibility list.

use serde_json::Value;

use super::linkage::visibility;

/// The kind of UI asking to call a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AppCaller {
    /// An MCP App (SEP-1865) View.
    McpApp,
    /// An OpenAI Apps SDK widget (`window.openai.callTool`).
    OpenAiWidget,
    /// An MCP-UI resource (tool-call actions).
    McpUi,
}

/// Why a UI's tool call is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AppCallRefusal {
    #[error(
        "the app asked for tool `{tool}`, which server `{server}` does not have; an app may \
         only call tools of its own server"
    )]
    UnknownTool { tool: String, server: String },
    #[error(
        "tool `{tool}` is not visible to apps: its `_meta.ui.visibility` lacks \"app\", so only \
         the model may call it"
    )]
    NotVisibleToApp { tool: String },
    #[error(
        "tool `{tool}` is not widget-accessible: it needs `_meta[\"openai/widgetAccessible\"]: \
         true` (or \"app\" in `_meta.ui.visibility`) before a widget may call it"
    )]
    NotWidgetAccessible { tool: String },
}

impl AppCallRefusal {
    /// The stable machine code the API reports.
    pub fn code(&self) -> &'static str {
        match self {
            AppCallRefusal::UnknownTool { .. } => "unknown_tool",
            AppCallRefusal::NotVisibleToApp { .. } => "tool_not_visible_to_app",
            AppCallRefusal::NotWidgetAccessible { .. } => "tool_not_widget_accessible",
        }
    }
}

/// Whether a UI of kind `caller` may call `tool` (its `tools/list` entry).
pub fn app_may_call(tool: &Value, caller: AppCaller) -> Result<(), AppCallRefusal> {
    let name = || tool["name"].as_str().unwrap_or_default().to_owned();
    match caller {
        AppCaller::McpApp | AppCaller::McpUi => {
            if visibility(tool).app {
                Ok(())
            } else {
                Err(AppCallRefusal::NotVisibleToApp { tool: name() })
            }
        }
        AppCaller::OpenAiWidget => {
            let accessible = tool.pointer("/_meta/openai~1widgetAccessible") == Some(&true.into());
            let app_listed = tool
                .pointer("/_meta/ui/visibility")
                .and_then(Value::as_array)
                .is_some_and(|list| list.iter().any(|v| v == "app"));
            if accessible || app_listed {
                Ok(())
            } else {
                Err(AppCallRefusal::NotWidgetAccessible { tool: name() })
            }
        }
    }
}

/// Finds `name` among `server`'s tools (exact match) and checks that `caller` may call it.
pub fn check_app_call<'a>(
    tools: &'a [Value],
    server: &str,
    name: &str,
    caller: AppCaller,
) -> Result<&'a Value, AppCallRefusal> {
    let tool = tools
        .iter()
        .find(|t| t["name"].as_str() == Some(name))
        .ok_or_else(|| AppCallRefusal::UnknownTool {
            tool: name.to_owned(),
            server: server.to_owned(),
        })?;
    app_may_call(tool, caller).map(|()| tool)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(meta: Value) -> Value {
        json!({"name": "t", "_meta": meta})
    }

    #[test]
    fn mcp_apps_follow_visibility() {
        let default = json!({"name": "echo"});
        let app_only = tool(json!({"ui": {"visibility": ["app"]}}));
        let model_only = tool(json!({"ui": {"visibility": ["model"]}}));
        for caller in [AppCaller::McpApp, AppCaller::McpUi] {
            assert_eq!(app_may_call(&default, caller), Ok(()));
            assert_eq!(app_may_call(&app_only, caller), Ok(()));
            let refused = app_may_call(&model_only, caller).unwrap_err();
            assert_eq!(refused.code(), "tool_not_visible_to_app");
            assert!(refused.to_string().contains("`t`"), "{refused}");
            assert!(refused.to_string().contains("lacks \"app\""), "{refused}");
        }
    }

    #[test]
    fn widgets_need_an_explicit_opt_in() {
        let default = json!({"name": "echo"});
        let refused = app_may_call(&default, AppCaller::OpenAiWidget).unwrap_err();
        assert_eq!(refused.code(), "tool_not_widget_accessible");
        assert!(refused.to_string().contains("`echo`"));
        let accessible = tool(json!({"openai/widgetAccessible": true}));
        assert_eq!(app_may_call(&accessible, AppCaller::OpenAiWidget), Ok(()));
        let not_really = tool(json!({"openai/widgetAccessible": "true"}));
        assert!(app_may_call(&not_really, AppCaller::OpenAiWidget).is_err());
        let listed = tool(json!({"ui": {"visibility": ["model", "app"]}}));
        assert_eq!(app_may_call(&listed, AppCaller::OpenAiWidget), Ok(()));
        let model_only = tool(json!({"ui": {"visibility": ["model"]}}));
        assert!(app_may_call(&model_only, AppCaller::OpenAiWidget).is_err());
    }

    #[test]
    fn only_the_servers_own_tools_by_exact_name() {
        let tools = vec![json!({"name": "echo"}), json!({"name": "Add"})];
        assert_eq!(
            check_app_call(&tools, "demo", "echo", AppCaller::McpApp).unwrap()["name"],
            "echo"
        );
        let refused = check_app_call(&tools, "demo", "add", AppCaller::McpApp).unwrap_err();
        assert_eq!(refused.code(), "unknown_tool");
        assert_eq!(
            refused.to_string(),
            "the app asked for tool `add`, which server `demo` does not have; an app may only \
             call tools of its own server"
        );
    }
}

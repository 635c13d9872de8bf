//! The tools a model may call, named `<server>__<tool>` and sanitized to what providers accept
//! (letters, digits, `_`, `-`; at most 64 characters), with collisions resolved and a reverse
//! map to the MCP server and tool. Tools whose MCP Apps visibility lacks `"model"` (or that
//! are `openai/visibility: private`) are not offered (DESIGN.md §2), nor are tools the
//! HostConfig's per-server allow/deny lists leave out. This is the one place these rules
//! live; `tests/vectors/model_rules.json` pins them for the web's copies too.

use std::collections::HashMap;

use mcplab_protocol::host::ServerTools;
use serde_json::Value;

use crate::llm::ToolSpec;

/// Longest tool name providers accept.
const MAX_NAME: usize = 64;

/// One tool the model may call.
#[derive(Debug, Clone, PartialEq)]
pub struct CatalogEntry {
    pub name: String,
    pub server: String,
    pub tool: String,
    pub spec: ToolSpec,
}

#[derive(Debug, Clone, Default)]
pub struct ToolCatalog {
    entries: Vec<CatalogEntry>,
    by_name: HashMap<String, usize>,
}

/// `<server>__<tool>` with every other character replaced by `_`, cut to 64 characters.
pub fn model_tool_name(server: &str, tool: &str) -> String {
    let raw = format!("{server}__{tool}");
    let mut name: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    name.truncate(MAX_NAME);
    name
}

impl ToolCatalog {
    /// Builds the catalog from `(server, tools/list result tools, tool filter)`, in order.
    pub fn build<'a>(
        servers: impl IntoIterator<Item = (&'a str, &'a [Value], &'a ServerTools)>,
    ) -> Self {
        let mut catalog = Self::default();
        for (server, tools, filter) in servers {
            for tool in tools {
                let Some(tool_name) = tool.get("name").and_then(Value::as_str) else {
                    continue;
                };
                if !crate::apps::visibility(tool).model || !filter.offers(tool_name) {
                    continue;
                }
                let mut name = model_tool_name(server, tool_name);
                let mut n = 2;
                while catalog.by_name.contains_key(&name) {
                    let suffix = format!("_{n}");
                    let mut base = model_tool_name(server, tool_name);
                    base.truncate(MAX_NAME - suffix.len());
                    name = base + &suffix;
                    n += 1;
                }
                let description = tool
                    .get("description")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                let input_schema = tool
                    .get("inputSchema")
                    .cloned()
                    .unwrap_or_else(|| serde_json::json!({"type": "object"}));
                catalog.by_name.insert(name.clone(), catalog.entries.len());
                catalog.entries.push(CatalogEntry {
                    spec: ToolSpec {
                        name: name.clone(),
                        description,
                        input_schema,
                    },
                    name,
                    server: server.to_owned(),
                    tool: tool_name.to_owned(),
                });
            }
        }
        catalog
    }

    /// Every entry, in the order offered.
    pub fn entries(&self) -> &[CatalogEntry] {
        &self.entries
    }

    pub fn specs(&self) -> Vec<ToolSpec> {
        self.entries.iter().map(|e| e.spec.clone()).collect()
    }

    /// The server and tool behind a model-facing name.
    pub fn resolve(&self, name: &str) -> Option<&CatalogEntry> {
        self.by_name.get(name).map(|i| &self.entries[*i])
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_are_sanitized_and_cut() {
        assert_eq!(
            model_tool_name("my server", "get.weather"),
            "my_server__get_weather"
        );
        let long = model_tool_name(&"s".repeat(40), &"t".repeat(40));
        assert_eq!(long.len(), 64);
    }

    #[test]
    fn collisions_get_suffixes_and_resolve_back() {
        let a = vec![json!({"name": "x.y"}), json!({"name": "x_y"})];
        let all = ServerTools::default();
        let catalog = ToolCatalog::build([("srv", a.as_slice(), &all)]);
        let names: Vec<_> = catalog.specs().into_iter().map(|s| s.name).collect();
        assert_eq!(names, ["srv__x_y", "srv__x_y_2"]);
        assert_eq!(catalog.resolve("srv__x_y_2").unwrap().tool, "x_y");
        assert_eq!(catalog.resolve("srv__x_y").unwrap().tool, "x.y");
        assert!(catalog.resolve("nope").is_none());
    }

    #[test]
    fn app_only_tools_never_reach_the_model() {
        let tools = vec![
            json!({"name": "a", "_meta": {"ui": {"visibility": ["app"]}}}),
            json!({"name": "b", "_meta": {"ui": {"visibility": ["model", "app"]}}}),
            json!({"name": "c"}),
        ];
        let all = ServerTools::default();
        let catalog = ToolCatalog::build([("s", tools.as_slice(), &all)]);
        let names: Vec<_> = catalog.specs().into_iter().map(|s| s.name).collect();
        assert_eq!(names, ["s__b", "s__c"]);
    }

    /// The rules in `tests/vectors/model_rules.json`, which the web's tests read too.
    #[test]
    fn shared_vectors() {
        use crate::apps::{AppCaller, app_may_call, ui_link, visibility};
        let v: Value =
            serde_json::from_str(include_str!("../../tests/vectors/model_rules.json")).unwrap();
        let cases = |key: &str| v[key].as_array().unwrap().clone();
        for c in cases("uiLink") {
            let got = ui_link(&c["tool"]).map(|l| {
                let kind = match l.kind {
                    crate::apps::UiKind::McpApp => "mcpApp",
                    crate::apps::UiKind::OpenAiWidget => "openaiWidget",
                };
                json!({"uri": l.uri, "kind": kind})
            });
            assert_eq!(
                got.unwrap_or(Value::Null),
                c["expect"],
                "uiLink: {}",
                c["name"]
            );
        }
        for c in cases("visibility") {
            let got = visibility(&c["tool"]);
            let got = json!({"model": got.model, "app": got.app});
            assert_eq!(got, c["expect"], "visibility: {}", c["name"]);
        }
        for c in cases("appMayCall") {
            let may = |caller| app_may_call(&c["tool"], caller).is_ok();
            let got = json!({"mcpApp": may(AppCaller::McpApp), "openaiWidget": may(AppCaller::OpenAiWidget)});
            assert_eq!(got, c["expect"], "appMayCall: {}", c["name"]);
            assert_eq!(
                may(AppCaller::McpUi),
                may(AppCaller::McpApp),
                "{}",
                c["name"]
            );
        }
        for c in cases("catalog") {
            let servers: Vec<(String, Vec<Value>, ServerTools)> = c["servers"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| {
                    let filter = serde_json::from_value(s["filter"].clone()).unwrap_or_default();
                    let tools = s["tools"].as_array().unwrap().clone();
                    (s["name"].as_str().unwrap().to_owned(), tools, filter)
                })
                .collect();
            let catalog = ToolCatalog::build(
                servers
                    .iter()
                    .map(|(n, t, f)| (n.as_str(), t.as_slice(), f)),
            );
            let got: Vec<Value> = catalog
                .entries()
                .iter()
                .map(|e| json!([e.name, e.server, e.tool]))
                .collect();
            assert_eq!(Value::Array(got), c["expect"], "catalog: {}", c["name"]);
            for e in catalog.entries() {
                assert_eq!(catalog.resolve(&e.name).unwrap().tool, e.tool);
            }
        }
    }
}

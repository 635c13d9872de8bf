//! The tools a model may call, named `<server>__<tool>` and sanitized to what providers accept
//! (letters, digits, `_`, `-`; at most 64 characters), with collisions resolved and a reverse
//! map to the MCP server and tool. Tools whose MCP Apps visibility lacks `"model"` (or that
//! are `openai/visibility: private`) are not offered (DESIGN.md §2), nor are tools the
//! HostConfig's per-server allow/deny lists leave out. A host profile's `toolCatalog` may name
//! tools as the server wrote them (`bare`, prefixed only where two servers share a name) and
//! cap how many the model gets (`maxTools`: the first ones in server order are kept, the rest
//! listed in `left_out`). This is the one place these rules live;
//! `tests/vectors/model_rules.json` pins them for the web's copies too.

use std::collections::HashMap;

use mcplab_protocol::host::{ServerTools, ToolCatalogPolicy, ToolNaming};
use serde_json::Value;

use mcplab_llm::ToolSpec;

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
    /// Model-facing names the host's tool limit left out, in order.
    left_out: Vec<String>,
}

/// `<server>__<tool>` with every other character replaced by `_`, cut to 64 characters.
pub fn model_tool_name(server: &str, tool: &str) -> String {
    sanitized(&format!("{server}__{tool}"))
}

/// Every character providers refuse replaced by `_`, cut to 64 characters.
fn sanitized(raw: &str) -> String {
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

/// Whether a host offers `tool` to the model: by its visibility, which a host without MCP Apps
/// knows only from `openai/visibility`.
fn model_sees(tool: &Value, mcp_apps: bool) -> bool {
    if mcp_apps {
        return mcplab_apps::visibility(tool).model;
    }
    tool.pointer("/_meta/openai~1visibility")
        .and_then(Value::as_str)
        != Some("private")
}

impl ToolCatalog {
    /// Builds the catalog from `(server, tools/list result tools, tool filter)`, in order,
    /// under mcplab's own naming and no limit.
    pub fn build<'a>(
        servers: impl IntoIterator<Item = (&'a str, &'a [Value], &'a ServerTools)>,
    ) -> Self {
        Self::build_with(servers, &ToolCatalogPolicy::default(), true)
    }

    /// Builds the catalog under a host's naming and tool limit. `mcp_apps`: whether the host
    /// implements MCP Apps; one that does not never reads `_meta.ui`, so its visibility
    /// does not keep an app-only tool from the model (OpenAI's `openai/visibility` still does).
    pub fn build_with<'a>(
        servers: impl IntoIterator<Item = (&'a str, &'a [Value], &'a ServerTools)>,
        policy: &ToolCatalogPolicy,
        mcp_apps: bool,
    ) -> Self {
        let offered: Vec<(&str, &str, &Value)> = servers
            .into_iter()
            .flat_map(|(server, tools, filter)| {
                tools.iter().filter_map(move |tool| {
                    let name = tool.get("name").and_then(Value::as_str)?;
                    (model_sees(tool, mcp_apps) && filter.offers(name))
                        .then_some((server, name, tool))
                })
            })
            .collect();
        // `bare` keeps the server's name unless another server offers the same one.
        let mut seen: HashMap<String, usize> = HashMap::new();
        for (_, tool, _) in &offered {
            *seen.entry(sanitized(tool)).or_default() += 1;
        }
        let limit = policy.max_tools.map_or(usize::MAX, |n| n as usize);
        let mut catalog = Self::default();
        for (server, tool_name, tool) in offered {
            let base = match policy.naming {
                ToolNaming::Bare if seen.get(&sanitized(tool_name)) == Some(&1) => {
                    sanitized(tool_name)
                }
                _ => model_tool_name(server, tool_name),
            };
            let mut name = base.clone();
            let mut n = 2;
            while catalog.by_name.contains_key(&name) {
                let suffix = format!("_{n}");
                let mut cut = base.clone();
                cut.truncate(MAX_NAME - suffix.len());
                name = cut + &suffix;
                n += 1;
            }
            if catalog.entries.len() >= limit {
                catalog.left_out.push(name);
                continue;
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
        catalog
    }

    /// Model-facing names the host's tool limit left out.
    pub fn left_out(&self) -> &[String] {
        &self.left_out
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

    #[test]
    fn a_host_without_mcp_apps_offers_app_only_tools_to_the_model() {
        let tools = [
            json!({"name": "a", "_meta": {"ui": {"visibility": ["app"]}}}),
            json!({"name": "p", "_meta": {"openai/visibility": "private"}}),
            json!({"name": "m"}),
        ];
        let filter = ServerTools::default();
        let names = |apps| {
            ToolCatalog::build_with([("s", &tools[..], &filter)], &Default::default(), apps)
                .entries()
                .iter()
                .map(|e| e.tool.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(names(true), ["m"]);
        assert_eq!(
            names(false),
            ["a", "m"],
            "`_meta.ui` is unknown to such a host"
        );
    }

    #[test]
    fn a_host_may_name_tools_bare_and_cap_how_many_the_model_gets() {
        let a = vec![json!({"name": "echo"}), json!({"name": "add"})];
        let b = vec![json!({"name": "echo"}), json!({"name": "get.time"})];
        let all = ServerTools::default();
        let servers = || [("a", a.as_slice(), &all), ("b", b.as_slice(), &all)];
        let bare = ToolCatalogPolicy {
            naming: ToolNaming::Bare,
            max_tools: None,
        };
        let catalog = ToolCatalog::build_with(servers(), &bare, true);
        let names: Vec<_> = catalog.specs().into_iter().map(|s| s.name).collect();
        assert_eq!(names, ["a__echo", "add", "b__echo", "get_time"]);
        assert_eq!(catalog.resolve("get_time").unwrap().tool, "get.time");
        let capped = ToolCatalogPolicy {
            naming: ToolNaming::ServerPrefixed,
            max_tools: Some(3),
        };
        let catalog = ToolCatalog::build_with(servers(), &capped, true);
        assert_eq!(catalog.len(), 3);
        assert_eq!(catalog.left_out(), ["b__get_time"]);
        assert!(
            catalog.resolve("b__get_time").is_none(),
            "left out = not callable"
        );
    }

    /// The rules in `tests/vectors/model_rules.json`, which the web's tests read too.
    #[test]
    fn shared_vectors() {
        use mcplab_apps::{AppCaller, app_may_call, ui_link, visibility};
        let v: Value =
            serde_json::from_str(include_str!("../../tests/vectors/model_rules.json")).unwrap();
        let cases = |key: &str| v[key].as_array().unwrap().clone();
        for c in cases("uiLink") {
            let got = ui_link(&c["tool"]).map(|l| {
                let kind = match l.kind {
                    mcplab_apps::UiKind::McpApp => "mcpApp",
                    mcplab_apps::UiKind::OpenAiWidget => "openaiWidget",
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

//! A server's surface — its tools, resources, resource templates and prompts, and what it says
//! of itself (revision, capabilities, name and version) — read after each connect, and the
//! difference between two readings: what `restart` tells the agent after a rebuild. Items are
//! keyed by name (URI for resources, URI template for templates); a changed item lists the
//! fields that differ.

use std::collections::{BTreeMap, BTreeSet};

use mcplab_mcp::{Connection, Listing, RequestOptions};
use serde_json::{Value, json};

/// One reading of a server's surface.
#[derive(Debug, Clone, Default)]
pub(crate) struct Surface {
    /// Per listing key (`tools`, …): item key → item.
    lists: BTreeMap<&'static str, BTreeMap<String, Value>>,
    /// `protocolVersion`, `capabilities`, `serverInfo`.
    about: BTreeMap<&'static str, Value>,
}

fn item_key(listing: Listing) -> &'static str {
    match listing {
        Listing::Resources => "uri",
        Listing::ResourceTemplates => "uriTemplate",
        _ => "name",
    }
}

/// Reads `conn`'s surface: every listing its capabilities announce (a listing that fails is
/// left out and its error returned beside the surface).
pub(crate) async fn read(conn: &Connection, opts: &RequestOptions) -> (Surface, Vec<String>) {
    let init = conn.initialize_result();
    let mut surface = Surface::default();
    for key in ["protocolVersion", "capabilities", "serverInfo"] {
        surface
            .about
            .insert(key, init.get(key).cloned().unwrap_or(Value::Null));
    }
    let mut errors = Vec::new();
    for listing in Listing::STANDARD {
        let declared = listing
            .capability()
            .is_some_and(|c| init["capabilities"].get(c).is_some());
        if !declared {
            continue;
        }
        match conn.list_all(listing, opts.clone()).await {
            Ok(list) => {
                let items = list[listing.key()].as_array().cloned().unwrap_or_default();
                let by_key = items
                    .into_iter()
                    .map(|item| {
                        let k = item[item_key(listing)].as_str().unwrap_or("?").to_owned();
                        (k, item)
                    })
                    .collect();
                surface.lists.insert(listing.key(), by_key);
            }
            Err(e) => errors.push(format!("{}: {e}", listing.method())),
        }
    }
    (surface, errors)
}

impl Surface {
    /// How many items each listing has.
    pub(crate) fn counts(&self) -> Value {
        let counts: serde_json::Map<String, Value> = self
            .lists
            .iter()
            .map(|(k, items)| ((*k).to_owned(), json!(items.len())))
            .collect();
        Value::Object(counts)
    }

    /// The tool names.
    pub(crate) fn tool_names(&self) -> Vec<String> {
        self.lists
            .get("tools")
            .map(|t| t.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// What changed from `self` to `new`: per listing the added, removed and changed items
    /// (with the fields that differ), and what the server says of itself.
    pub(crate) fn diff(&self, new: &Surface) -> Value {
        let mut out = serde_json::Map::new();
        let kinds: BTreeSet<&str> = self.lists.keys().chain(new.lists.keys()).copied().collect();
        let empty = BTreeMap::new();
        for kind in kinds {
            let old = self.lists.get(kind).unwrap_or(&empty);
            let now = new.lists.get(kind).unwrap_or(&empty);
            let added: Vec<&String> = now.keys().filter(|k| !old.contains_key(*k)).collect();
            let removed: Vec<&String> = old.keys().filter(|k| !now.contains_key(*k)).collect();
            let changed: Vec<Value> = now
                .iter()
                .filter_map(|(k, v)| {
                    let before = old.get(k)?;
                    let fields = changed_fields(before, v);
                    (!fields.is_empty()).then(|| json!({ "name": k, "fields": fields }))
                })
                .collect();
            if added.is_empty() && removed.is_empty() && changed.is_empty() {
                continue;
            }
            out.insert(
                kind.to_owned(),
                json!({ "added": added, "removed": removed, "changed": changed }),
            );
        }
        for (key, before) in &self.about {
            let now = new.about.get(key).unwrap_or(&Value::Null);
            if before != now {
                out.insert((*key).to_owned(), json!({ "before": before, "now": now }));
            }
        }
        Value::Object(out)
    }
}

/// The top-level fields whose values differ.
fn changed_fields(a: &Value, b: &Value) -> Vec<String> {
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return vec!["(whole item)".into()];
    };
    let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    keys.into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .cloned()
        .collect()
}

/// A one-line account of a diff.
pub(crate) fn describe(diff: &Value) -> String {
    let Some(obj) = diff.as_object().filter(|o| !o.is_empty()) else {
        return "nothing changed".into();
    };
    let mut parts = Vec::new();
    for (kind, d) in obj {
        let n = |k: &str| d[k].as_array().map_or(0, Vec::len);
        if d.get("added").is_some() {
            parts.push(format!(
                "{kind}: +{} −{} ~{}",
                n("added"),
                n("removed"),
                n("changed")
            ));
        } else {
            parts.push(format!("{kind} changed"));
        }
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn surface(tools: Vec<Value>, version: &str) -> Surface {
        let mut s = Surface::default();
        let items = tools
            .into_iter()
            .map(|t| (t["name"].as_str().unwrap().to_owned(), t))
            .collect();
        s.lists.insert("tools", items);
        s.about.insert("serverInfo", json!({ "version": version }));
        s
    }

    #[test]
    fn a_diff_names_added_removed_and_changed_items_with_their_fields() {
        let before = surface(
            vec![
                json!({"name": "echo", "description": "Echo"}),
                json!({"name": "gone", "description": "x"}),
            ],
            "1",
        );
        let after = surface(
            vec![
                json!({"name": "echo", "description": "Echo it back", "inputSchema": {}}),
                json!({"name": "new", "description": "y"}),
            ],
            "2",
        );
        let diff = before.diff(&after);
        assert_eq!(diff["tools"]["added"], json!(["new"]));
        assert_eq!(diff["tools"]["removed"], json!(["gone"]));
        assert_eq!(
            diff["tools"]["changed"],
            json!([{"name": "echo", "fields": ["description", "inputSchema"]}])
        );
        assert_eq!(diff["serverInfo"]["now"]["version"], "2");
        assert_eq!(describe(&diff), "tools: +1 −1 ~1; serverInfo changed");
        assert_eq!(describe(&after.diff(&after)), "nothing changed");
    }
}

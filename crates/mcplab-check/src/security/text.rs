//! Every string a server offers the model, with where it is: the server's info and
//! instructions (initialize or discover result), and every string inside the tools, prompts,
//! resources and templates it listed — names, titles, descriptions, schemas — each with its
//! frame and JSON path, and whether it is prose (a description, title or instructions, where
//! instructions to the model would hide) or another value.

use serde_json::Value;

use crate::recording::Recording;

/// One string the server published.
pub(super) struct Text {
    /// Who it belongs to, for messages: "tool `search`", "the server".
    pub owner: String,
    /// The frame that carried it.
    pub seq: u64,
    /// JSON pointer into that frame.
    pub path: String,
    /// The key it sits under (`description`, `title`, `name`, `uri`, …).
    pub key: String,
    pub text: String,
}

impl Text {
    /// Descriptions, titles and instructions: prose a model reads as guidance.
    pub(super) fn is_prose(&self) -> bool {
        matches!(self.key.as_str(), "description" | "title" | "instructions")
    }
}

/// Every string of the listings and the handshake, in frame order.
pub(super) fn gather(rec: &Recording) -> Vec<Text> {
    let mut out = Vec::new();
    for answer in rec.results() {
        let (kind, key) = match answer.method.as_str() {
            "initialize" | "server/discover" => {
                let base = Owner {
                    owner: "the server".into(),
                    seq: answer.frame.seq,
                };
                for field in ["serverInfo", "instructions"] {
                    if let Some(v) = answer.result.get(field) {
                        walk(v, &format!("/result/{field}"), field, &base, &mut out);
                    }
                }
                continue;
            }
            "tools/list" => ("tool", "tools"),
            "prompts/list" => ("prompt", "prompts"),
            "resources/list" => ("resource", "resources"),
            "resources/templates/list" => ("resource template", "resourceTemplates"),
            _ => continue,
        };
        let items = answer.result.get(key).and_then(Value::as_array);
        for (i, item) in items.into_iter().flatten().enumerate() {
            let name = item.get("name").and_then(Value::as_str).unwrap_or("?");
            let base = Owner {
                owner: format!("{kind} `{name}`"),
                seq: answer.frame.seq,
            };
            walk(item, &format!("/result/{key}/{i}"), "", &base, &mut out);
        }
    }
    out
}

struct Owner {
    owner: String,
    seq: u64,
}

/// Collects every string under `v` (keys of schema `properties` count as names).
fn walk(v: &Value, path: &str, key: &str, base: &Owner, out: &mut Vec<Text>) {
    match v {
        Value::String(s) => out.push(Text {
            owner: base.owner.clone(),
            seq: base.seq,
            path: path.to_owned(),
            key: key.to_owned(),
            text: s.clone(),
        }),
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                walk(x, &format!("{path}/{i}"), key, base, out);
            }
        }
        Value::Object(m) => {
            for (k, x) in m {
                let child = format!("{path}/{}", k.replace('~', "~0").replace('/', "~1"));
                if key == "properties" {
                    // A property's own name is text the model reads too.
                    walk(&Value::String(k.clone()), &child, "name", base, out);
                }
                walk(x, &child, k, base, out);
            }
        }
        _ => {}
    }
}

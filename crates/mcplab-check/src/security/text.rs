//! Every string a server offers the model, with where it is: the server's info and
//! instructions (initialize or discover result), and every string inside the tools, prompts,
//! resources and templates it listed — names, titles, descriptions, schemas — each with its
//! frame and JSON path, and whether it is prose (a description, title or instructions, where
//! instructions to the model would hide) or another value. Items come from the listings the
//! check ran (whole), not from the recorded frames, which the traffic log keeps only in part
//! when they are large; the frame and path are given when a recorded frame holds the item.

use mcplab_mcp::Listing;
use serde_json::Value;

use crate::findings::At;
use crate::recording::{Answer, Recording};

/// One string the server published.
pub(super) struct Text {
    /// Who it belongs to, for messages: "tool `search`", "the server".
    pub owner: String,
    /// The frame that carried it (None when no recorded frame holds it whole).
    pub seq: Option<u64>,
    /// JSON pointer into that frame (or into the item, when there is no frame).
    pub path: String,
    /// The key it sits under (`description`, `title`, `name`, `uri`, …).
    pub key: String,
    pub text: String,
    /// The tool it belongs to, when a tool's definition holds it.
    pub tool: Option<String>,
}

impl Text {
    /// Descriptions, titles and instructions: prose a model reads as guidance.
    pub(super) fn is_prose(&self) -> bool {
        matches!(self.key.as_str(), "description" | "title" | "instructions")
    }

    /// Where a finding about it points: its frame and path there, when a frame holds it.
    pub(super) fn at(&self) -> At {
        let at = match self.seq {
            Some(seq) => At::seqs([seq]).path(self.path.clone()),
            None => At::default(),
        };
        match &self.tool {
            Some(tool) => at.tool(tool),
            None => at,
        }
    }
}

/// The listings whose items are gathered: (listing, method, result key, kind for messages).
const LISTS: &[(Listing, &str, &str, &str)] = &[
    (Listing::Tools, "tools/list", "tools", "tool"),
    (Listing::Prompts, "prompts/list", "prompts", "prompt"),
    (
        Listing::Resources,
        "resources/list",
        "resources",
        "resource",
    ),
    (
        Listing::ResourceTemplates,
        "resources/templates/list",
        "resourceTemplates",
        "resource template",
    ),
];

/// Every string of the handshake and the listings.
pub(super) fn gather(rec: &Recording) -> Vec<Text> {
    let answers = rec.results();
    let mut out = Vec::new();
    handshake(rec, &answers, &mut out);
    for (listing, method, key, kind) in LISTS {
        // Where each item sits in a recorded frame that holds it whole.
        let mut places: Vec<(u64, String, &Value)> = Vec::new();
        for answer in answers.iter().filter(|a| a.method == *method) {
            let items = answer.result.get(*key).and_then(Value::as_array);
            for (i, item) in items.into_iter().flatten().enumerate() {
                places.push((answer.frame.seq, format!("/result/{key}/{i}"), item));
            }
        }
        let framed: Vec<Value>;
        let items: &[Value] = match rec.listed(*listing) {
            Some(items) => items,
            None => {
                // A recording of frames alone: what the frames hold is all there is.
                framed = places.iter().map(|(_, _, v)| (*v).clone()).collect();
                &framed
            }
        };
        for (i, item) in items.iter().enumerate() {
            let name = item.get("name").and_then(Value::as_str).unwrap_or("?");
            let place = places.iter().find(|(_, _, v)| *v == item);
            let (seq, path) = match place {
                Some((seq, path, _)) => (Some(*seq), path.clone()),
                None => (None, format!("/{key}/{i}")),
            };
            let base = Owner {
                owner: format!("{kind} `{name}`"),
                seq,
                tool: (*listing == Listing::Tools
                    && item.get("name").is_some_and(Value::is_string))
                .then(|| name.to_owned()),
            };
            walk(item, &path, "", &base, &mut out);
        }
    }
    out
}

/// The server's info and instructions: from the handshake frame when it was recorded whole,
/// else from the handshake result the connection kept.
fn handshake(rec: &Recording, answers: &[Answer<'_>], out: &mut Vec<Text>) {
    let framed = answers
        .iter()
        .find(|a| matches!(a.method.as_str(), "initialize" | "server/discover"));
    let (result, seq, prefix) = match framed {
        Some(a) => (&a.result, Some(a.frame.seq), "/result"),
        None => (&rec.initialize, None, ""),
    };
    let base = Owner {
        owner: "the server".into(),
        seq,
        tool: None,
    };
    for field in ["serverInfo", "instructions"] {
        if let Some(v) = result.get(field) {
            walk(v, &format!("{prefix}/{field}"), field, &base, out);
        }
    }
}

struct Owner {
    owner: String,
    seq: Option<u64>,
    tool: Option<String>,
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
            tool: base.tool.clone(),
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

//! The tools a suite names (expected and forbidden calls, per-tool options, `firstTool`,
//! `toolResult`, `jsonPath`, `appRendered`, the `call` of a model-free step), each with the JSON pointer where it is written,
//! and the check of those names against what the servers list, so a misspelled tool is an
//! error with its line and a "did you mean" instead of every model failing at 0 %.

use std::collections::BTreeMap;

use serde_json::Value;

use super::load::closest;
use super::model::Suite;

/// One tool named in a suite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolRef {
    /// Where it is written (`/cases/0/toolCalls/expected/1/tool`).
    pub pointer: String,
    /// The server it must be on, when the suite says.
    pub server: Option<String>,
    pub tool: String,
}

/// The tools each server lists, as one host declaration sees them; `host` names the
/// declaration's host profile (`None`: the suite's own host).
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    pub host: Option<String>,
    pub servers: BTreeMap<String, Vec<String>>,
}

impl Catalog {
    fn has(&self, server: Option<&str>, tool: &str) -> bool {
        match server {
            Some(s) => self
                .servers
                .get(s)
                .is_some_and(|t| t.iter().any(|n| n == tool)),
            None => self.servers.values().flatten().any(|n| n == tool),
        }
    }
}

/// Every tool the suite names, in document order. The pointers are the file's (the typed
/// suite serialises back to the shape it was read from).
pub fn tool_refs(suite: &Suite) -> Vec<ToolRef> {
    let doc = serde_json::to_value(suite).unwrap_or(Value::Null);
    let mut out = Vec::new();
    if let Some(defaults) = doc.get("defaults") {
        options(defaults.get("toolCalls"), "/defaults/toolCalls", &mut out);
        checks(defaults.get("checks"), "/defaults/checks", &mut out);
    }
    for (i, case) in array(doc.get("cases")).iter().enumerate() {
        let at = format!("/cases/{i}");
        expectations(case.get("toolCalls"), &format!("{at}/toolCalls"), &mut out);
        checks(case.get("checks"), &format!("{at}/checks"), &mut out);
        for (t, turn) in array(case.get("turns")).iter().enumerate() {
            let at = format!("{at}/turns/{t}");
            expectations(turn.get("toolCalls"), &format!("{at}/toolCalls"), &mut out);
            checks(turn.get("checks"), &format!("{at}/checks"), &mut out);
        }
        for (k, step) in array(case.get("steps")).iter().enumerate() {
            let at = format!("{at}/steps/{k}");
            if let Some(tool) = step.get("call") {
                push(&mut out, format!("{at}/call"), step.get("server"), tool);
            }
            checks(step.get("expect"), &format!("{at}/expect"), &mut out);
        }
    }
    out
}

/// `(pointer, message)` for each named tool that some catalog lacks (and each server named
/// that is not one of the suite's), with the nearest listed name when one is close.
pub fn unknown_tools(refs: &[ToolRef], catalogs: &[Catalog]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let servers: Vec<&String> = catalogs.iter().flat_map(|c| c.servers.keys()).collect();
    for r in refs {
        if let Some(s) = &r.server
            && !servers.contains(&s)
        {
            let names: Vec<String> = dedup(servers.iter().map(|s| s.to_string()));
            out.push((
                format!(
                    "{}/server",
                    r.pointer
                        .strip_suffix("/tool")
                        .or_else(|| r.pointer.strip_suffix("/call"))
                        .unwrap_or(&r.pointer)
                ),
                format!(
                    "server `{s}` is not one of the suite's servers ({}){}",
                    names.join(", "),
                    hint(s, &names)
                ),
            ));
            continue;
        }
        let missing: Vec<&Catalog> = catalogs
            .iter()
            .filter(|c| !c.has(r.server.as_deref(), &r.tool))
            .collect();
        if missing.is_empty() {
            continue;
        }
        let listed: Vec<String> = dedup(
            catalogs
                .iter()
                .flat_map(|c| c.servers.iter())
                .filter(|(s, _)| r.server.as_ref().is_none_or(|want| want == *s))
                .flat_map(|(_, tools)| tools.iter().cloned()),
        );
        let place = match &r.server {
            Some(s) => format!("server `{s}`"),
            None if servers.len() == 1 => format!("server `{}`", servers[0]),
            None => "any of the suite's servers".to_owned(),
        };
        let message = if missing.len() == catalogs.len() {
            format!(
                "tool `{}` is not on {place}{}",
                r.tool,
                hint(&r.tool, &listed)
            )
        } else {
            let hosts: Vec<String> = missing.iter().map(|c| host_label(c)).collect();
            format!(
                "tool `{}` is not listed to {} (the servers list it to other hosts: a server \
                 may list tools per client)",
                r.tool,
                hosts.join(", ")
            )
        };
        out.push((r.pointer.clone(), message));
    }
    out
}

fn host_label(c: &Catalog) -> String {
    match &c.host {
        Some(h) => format!("host `{h}`"),
        None => "the suite's host".into(),
    }
}

fn hint(name: &str, known: &[String]) -> String {
    match closest(name, known) {
        Some(near) => format!(": did you mean `{near}`?"),
        None if known.is_empty() => " (it lists no tools)".into(),
        None if known.len() <= 12 => format!(" (its tools: {})", known.join(", ")),
        None => String::new(),
    }
}

fn dedup(names: impl Iterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = names.collect();
    v.sort();
    v.dedup();
    v
}

fn array(v: Option<&Value>) -> &[Value] {
    v.and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

fn push(out: &mut Vec<ToolRef>, pointer: String, server: Option<&Value>, tool: &Value) {
    if let Some(tool) = tool.as_str() {
        out.push(ToolRef {
            pointer,
            server: server.and_then(Value::as_str).map(str::to_owned),
            tool: tool.to_owned(),
        });
    }
}

/// `forbidden` and `perTool` (the options part of a `toolCalls`).
fn options(tc: Option<&Value>, at: &str, out: &mut Vec<ToolRef>) {
    let Some(tc) = tc else { return };
    for (k, tool) in array(tc.get("forbidden")).iter().enumerate() {
        push(out, format!("{at}/forbidden/{k}"), None, tool);
    }
    if let Some(per_tool) = tc.get("perTool").and_then(Value::as_object) {
        for name in per_tool.keys() {
            let key = name.replace('~', "~0").replace('/', "~1");
            push(
                out,
                format!("{at}/perTool/{key}"),
                None,
                &Value::from(name.as_str()),
            );
        }
    }
}

fn expectations(tc: Option<&Value>, at: &str, out: &mut Vec<ToolRef>) {
    let Some(tc) = tc else { return };
    for (k, call) in array(tc.get("expected")).iter().enumerate() {
        if let Some(tool) = call.get("tool") {
            push(
                out,
                format!("{at}/expected/{k}/tool"),
                call.get("server"),
                tool,
            );
        }
    }
    options(Some(tc), at, out);
}

fn checks(list: Option<&Value>, at: &str, out: &mut Vec<ToolRef>) {
    for (i, check) in array(list).iter().enumerate() {
        let at = format!("{at}/{i}");
        if let Some(tool) = check.get("firstTool") {
            push(out, format!("{at}/firstTool"), None, tool);
        }
        if let Some(tr) = check.get("toolResult")
            && let Some(tool) = tr.get("tool")
        {
            push(out, format!("{at}/toolResult/tool"), tr.get("server"), tool);
        }
        if let Some(j) = check.get("jsonPath")
            && let Some(tool) = j.get("tool")
        {
            push(out, format!("{at}/jsonPath/tool"), j.get("server"), tool);
        }
        if let Some(tool) = check.pointer("/appRendered/tool") {
            push(out, format!("{at}/appRendered/tool"), None, tool);
        }
    }
}

//! A host verdict's reasons about the server as a whole: the era the host would speak with
//! it (`client.protocol`), the client capabilities the server asked for during the check
//! (sampling, elicitation, roots — as requests, or 2026-07-28 `inputRequests`) against those
//! the host declares, skills, and the number of tools the model sees against
//! `toolCatalog.maxTools`.

use std::collections::HashMap;

use mcplab_protocol::check::{HostItemKind, Verdict};
use mcplab_protocol::host::ClientDeclaration;
use mcplab_protocol::{Direction, Era, FrameKind, ProtocolChoice};
use serde_json::Value;

use super::Profile;
use super::rules::{CAPABILITY, PROTOCOL, TOOL_LIMIT};
use crate::apps::model_visible;
use crate::recording::Recording;

/// Above this many tools an unknown limit matters: Cursor's documented 40 is the lowest
/// limit a built-in profile documents.
const LOWEST_KNOWN_LIMIT: usize = 40;

/// The recording of the era a host asking for `asked` speaks with the server.
pub(super) fn chosen<'a>(asked: ProtocolChoice, recs: &[&'a Recording]) -> Option<&'a Recording> {
    let find = |era: Era| recs.iter().copied().find(|r| r.era == era);
    let (modern, legacy) = (find(Era::Modern), find(Era::Legacy));
    match asked {
        ProtocolChoice::Auto => modern.or(legacy),
        ProtocolChoice::V2026_07_28 => modern,
        _ => legacy,
    }
}

/// The connected era this host would speak, with the reason; None (blocked) when the server
/// does not speak it.
pub(super) fn era<'a>(prof: &mut Profile, recs: &[&'a Recording]) -> Option<&'a Recording> {
    let field = "client.protocol";
    let asked = prof.p.host_config.client.protocol;
    if recs.is_empty() {
        prof.add(
            &PROTOCOL,
            None,
            Verdict::Unknown,
            field,
            "no era of the server could be connected: nothing to judge".into(),
        );
        return None;
    }
    let chosen = chosen(asked, recs);
    let wanted = match asked {
        ProtocolChoice::Auto => "the newest revision the server speaks",
        _ => asked.as_str(),
    };
    let Some(rec) = chosen else {
        let speaks: Vec<&str> = recs.iter().map(|r| r.revision.as_str()).collect();
        let verdict = prof.or_unknown(field, Verdict::Blocked);
        prof.add(
            &PROTOCOL,
            None,
            verdict,
            field,
            format!(
                "the host asks for {wanted}; the server speaks only {}",
                speaks.join(", ")
            ),
        );
        return None;
    };
    let how = if asked == ProtocolChoice::Auto || rec.revision == asked.as_str() {
        format!("the host asks for {wanted}: {}", rec.revision)
    } else {
        format!(
            "the host asks for {wanted}; the server speaks the 2025 era (checked at {}; {wanted} itself not tried)",
            rec.revision
        )
    };
    let verdict = if asked == ProtocolChoice::Auto {
        Verdict::Works
    } else {
        prof.or_unknown(field, Verdict::Works)
    };
    prof.add(&PROTOCOL, None, verdict, field, how);
    Some(rec)
}

/// Capabilities, skills and the tool limit.
pub(super) fn judge(prof: &mut Profile, rec: &Recording) {
    capabilities(prof, rec);
    skills(prof, rec);
    tool_limit(prof, rec);
}

/// Each client capability the server asked for, attributed to the tool whose call it
/// interrupted when one was in flight.
fn capabilities(prof: &mut Profile, rec: &Recording) {
    let client = prof.p.host_config.client.clone();
    for (method, tool) in asked_of_client(rec) {
        let Some((field, declared)) = declared(&client, &method) else {
            continue;
        };
        let (verdict, said) = prof.offered(
            field,
            declared,
            "declares it",
            "does not declare it: the server must do without",
            Verdict::Degraded,
        );
        let item = tool.as_deref().map(|t| (HostItemKind::Tool, t));
        prof.add(
            &CAPABILITY,
            item,
            verdict,
            field,
            format!("the server asked for `{method}`; the host {said}"),
        );
    }
}

/// The profile field behind a client request, and whether the host declares it.
fn declared(c: &ClientDeclaration, method: &str) -> Option<(&'static str, bool)> {
    Some(match method {
        "sampling/createMessage" => ("client.sampling", c.sampling),
        "roots/list" => ("client.roots", c.roots),
        "elicitation/create" => ("client.elicitationForm", c.elicitation_form),
        "elicitation/create (url)" => ("client.elicitationUrl", c.elicitation_url),
        _ => return None,
    })
}

/// Requests the server made of the client (method, the tool call in flight), once each.
fn asked_of_client(rec: &Recording) -> Vec<(String, Option<String>)> {
    let mut calls: HashMap<String, String> = HashMap::new();
    let mut in_flight: Vec<String> = Vec::new();
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    let mut push = |m: String, t: Option<String>| {
        if !out.iter().any(|(om, ot)| *om == m && *ot == t) {
            out.push((m, t));
        }
    };
    for fr in rec.frames.iter().filter(|f| f.kind == FrameKind::Message) {
        let Ok(v) = serde_json::from_str::<Value>(&fr.text) else {
            continue;
        };
        let id = v.get("id").map(Value::to_string);
        let method = v.get("method").and_then(Value::as_str);
        match (fr.direction, id, method) {
            (Direction::Outbound, Some(id), Some("tools/call")) => {
                let tool = v
                    .pointer("/params/name")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                calls.insert(id.clone(), tool.to_owned());
                in_flight.push(id);
            }
            (Direction::Inbound, Some(_), Some(m)) => {
                let tool = (in_flight.len() == 1).then(|| calls[&in_flight[0]].clone());
                push(client_method(m, v.get("params")), tool);
            }
            (Direction::Inbound, Some(id), None) => {
                in_flight.retain(|i| *i != id);
                let requests = v
                    .pointer("/result/inputRequests")
                    .and_then(Value::as_object);
                for r in requests.into_iter().flat_map(|o| o.values()) {
                    if let Some(m) = r.get("method").and_then(Value::as_str) {
                        push(client_method(m, r.get("params")), calls.get(&id).cloned());
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// URL elicitation is a capability of its own.
fn client_method(method: &str, params: Option<&Value>) -> String {
    let url_mode = params.and_then(|p| p.get("mode")).and_then(Value::as_str) == Some("url");
    if method == "elicitation/create" && url_mode {
        "elicitation/create (url)".into()
    } else {
        method.to_owned()
    }
}

/// A server that offers skills needs a host that takes them.
fn skills(prof: &mut Profile, rec: &Recording) {
    let offers = rec
        .capabilities()
        .get("extensions")
        .and_then(Value::as_object)
        .is_some_and(|e| e.keys().any(|k| k.contains("skills")));
    if !offers {
        return;
    }
    let field = "client.skills";
    let (verdict, said) = prof.offered(
        field,
        prof.p.host_config.client.skills,
        "declares the skills extension",
        "does not take skills: they are not offered",
        Verdict::Degraded,
    );
    prof.add(
        &CAPABILITY,
        None,
        verdict,
        field,
        format!("the server offers skills; the host {said}"),
    );
}

/// The tools the model sees against the host's limit; tools past it are not offered.
fn tool_limit(prof: &mut Profile, rec: &Recording) {
    let field = "toolCatalog.maxTools";
    let visible: Vec<&str> = rec
        .tools()
        .iter()
        .filter(|t| model_visible(t))
        .filter_map(|t| t.get("name").and_then(Value::as_str))
        .collect();
    let n = visible.len();
    if prof.unknown(field) {
        if n > LOWEST_KNOWN_LIMIT {
            prof.add(&TOOL_LIMIT, None, Verdict::Unknown, field, format!(
                "the model sees {n} tools; this host's limit is not known (Cursor's is {LOWEST_KNOWN_LIMIT})"
            ));
        }
        return;
    }
    match prof.p.host_config.tool_catalog.max_tools {
        Some(max) if n > max as usize => {
            let max = max as usize;
            prof.add(
                &TOOL_LIMIT,
                None,
                Verdict::Degraded,
                field,
                format!(
                    "the model sees {n} tools; the host offers at most {max}: {} are left out",
                    n - max
                ),
            );
            for name in &visible[max..] {
                prof.add(
                    &TOOL_LIMIT,
                    Some((HostItemKind::Tool, name)),
                    Verdict::Blocked,
                    field,
                    format!("not offered to the model: past the host's limit of {max} tools"),
                );
            }
        }
        Some(max) => prof.add(
            &TOOL_LIMIT,
            None,
            Verdict::Works,
            field,
            format!("the model sees {n} tools; the host offers up to {max}"),
        ),
        None => prof.add(
            &TOOL_LIMIT,
            None,
            Verdict::Works,
            field,
            format!("the model sees {n} tools; the host sets no limit"),
        ),
    }
}

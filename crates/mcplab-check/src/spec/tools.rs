//! Rules on tools that the JSON Schema of the protocol cannot express: names, input and
//! output schemas as JSON Schema 2020-12 (compiled with the `jsonschema` crate), annotation
//! types, and call results (`structuredContent` against `outputSchema`, content types,
//! `isError`). Pure: it judges values handed in and records findings.

use mcplab_protocol::TrafficFrame;
use serde_json::Value;

use super::rules::{
    ANNOTATIONS, CONTENT_TYPE, INPUT_SCHEMA, IS_ERROR, OUTPUT_SCHEMA, REMOTE_REF, STRUCTURED,
    TOOL_NAME,
};
use crate::findings::{At, Findings};
use crate::schema_refs::{RemoteRefs, compile};

/// Content block types each revision knows.
fn content_types(revision: &str) -> &'static [&'static str] {
    match revision {
        "2024-11-05" => &["text", "image", "resource"],
        "2025-03-26" => &["text", "image", "audio", "resource"],
        _ => &["text", "image", "audio", "resource_link", "resource"],
    }
}

/// One tool definition from a `tools/list` result (at `index` of the frame's list).
pub(super) fn check_tool(tool: &Value, index: usize, frame: &TrafficFrame, f: &mut Findings) {
    let name = tool.get("name").and_then(Value::as_str);
    let at = |p: &str| {
        let at = At::frame(frame).path(format!("/result/tools/{index}{p}"));
        match name {
            Some(n) => at.tool(n),
            None => at,
        }
    };
    match name {
        None => f.add_with(
            &TOOL_NAME,
            mcplab_protocol::check::Severity::Error,
            format!("tool {index} has no name"),
            at(""),
        ),
        Some(n) if !valid_tool_name(n) => f.add(
            &TOOL_NAME,
            format!(
                "tool name `{}` is not 1–128 characters of A–Z a–z 0–9 _ - .",
                n.escape_debug()
            ),
            at("/name"),
        ),
        Some(_) => {}
    }
    let label = name.unwrap_or("(no name)").escape_debug().to_string();
    match tool.get("inputSchema") {
        Some(schema) => {
            let (problem, remote) = schema_problem(schema);
            if let Some(problem) = problem {
                f.add(
                    &INPUT_SCHEMA,
                    format!("`{label}`: inputSchema {problem}"),
                    at("/inputSchema"),
                );
            }
            remote_refs(&label, "inputSchema", &remote, at("/inputSchema"), f);
        }
        None => f.add(
            &INPUT_SCHEMA,
            format!("`{label}` has no inputSchema"),
            at(""),
        ),
    }
    if let Some(schema) = tool.get("outputSchema") {
        let (problem, remote) = schema_problem(schema);
        if let Some(problem) = problem {
            f.add(
                &OUTPUT_SCHEMA,
                format!("`{label}`: outputSchema {problem}"),
                at("/outputSchema"),
            );
        }
        remote_refs(&label, "outputSchema", &remote, at("/outputSchema"), f);
    }
    if let Some(ann) = tool.get("annotations").and_then(Value::as_object) {
        for (key, value) in ann {
            let ok = match key.as_str() {
                "title" => value.is_string(),
                k if k.ends_with("Hint") => value.is_boolean(),
                _ => true,
            };
            if !ok {
                f.add(
                    &ANNOTATIONS,
                    format!(
                        "`{label}`: annotation `{key}` is {value}, not a {}",
                        if key == "title" { "string" } else { "boolean" }
                    ),
                    at(&format!("/annotations/{key}")),
                );
            }
        }
    }
}

/// 2025-11-25 (SEP-986): 1–128 characters of ASCII letters, digits, `_`, `-`, `.`.
fn valid_tool_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// What is wrong with a tool's input or output schema, if anything, and the remote
/// references it has (not fetched: those parts are not checked).
fn schema_problem(schema: &Value) -> (Option<String>, RemoteRefs) {
    if !schema.is_object() {
        return (
            Some(format!("is not an object: {schema}")),
            RemoteRefs::default(),
        );
    }
    let (compiled, remote) = compile(schema);
    if let Err(e) = compiled {
        return (Some(format!("is not a valid JSON Schema: {e}")), remote);
    }
    let problem = match schema.get("type") {
        Some(Value::String(t)) if t == "object" => None,
        Some(t) => Some(format!("has `type: {t}`; it must be `object`")),
        None => Some("has no `type: object`".into()),
    };
    (problem, remote)
}

fn remote_refs(label: &str, which: &str, remote: &RemoteRefs, at: At, f: &mut Findings) {
    if remote.is_empty() {
        return;
    }
    f.add(
        &REMOTE_REF,
        format!(
            "`{label}`: {which} refers to {}: not resolved (mcplab never fetches), so what it describes is not checked",
            remote.list()
        ),
        at,
    );
}

/// A `tools/call` result, with the tool's definition when it was listed.
pub(super) fn check_call_result(
    tool: Option<&Value>,
    result: &Value,
    frame: &TrafficFrame,
    revision: &str,
    f: &mut Findings,
) {
    let name = tool
        .and_then(|t| t.get("name"))
        .and_then(Value::as_str)
        .unwrap_or("?")
        .escape_debug()
        .to_string();
    let known = content_types(revision);
    let blocks = result.get("content").and_then(Value::as_array);
    for (i, block) in blocks.into_iter().flatten().enumerate() {
        let ty = block.get("type").and_then(Value::as_str).unwrap_or("");
        if !known.contains(&ty) {
            f.add(
                &CONTENT_TYPE,
                format!(
                    "`{name}` returned content of unknown type `{}` (revision {revision} knows {})",
                    ty.escape_debug(),
                    known.join(", ")
                ),
                At::frame(frame).path(format!("/result/content/{i}/type")),
            );
        }
    }
    let is_error = match result.get("isError") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            f.add(
                &IS_ERROR,
                format!("`{name}` returned `isError: {other}`, which is not a boolean"),
                At::frame(frame).path("/result/isError"),
            );
            false
        }
    };
    let Some(schema) = tool.and_then(|t| t.get("outputSchema")) else {
        return;
    };
    if is_error {
        return;
    }
    match result.get("structuredContent") {
        None => f.add(
            &STRUCTURED,
            format!("`{name}` declares an outputSchema but returned no structuredContent"),
            At::frame(frame).path("/result"),
        ),
        Some(sc) => {
            let Ok(validator) = compile(schema).0 else {
                return; // reported as an output-schema finding
            };
            for e in validator.iter_errors(sc).take(5) {
                f.add(
                    &STRUCTURED,
                    format!("`{name}`: structuredContent does not match its outputSchema: {e}"),
                    At::frame(frame)
                        .path(format!("/result/structuredContent{}", e.instance_path())),
                );
            }
        }
    }
}

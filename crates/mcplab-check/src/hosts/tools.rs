//! A host verdict's reasons per tool: the name the model gets (characters and length, with
//! the host's server prefix when it adds one), the description's length, whether results
//! that carry only `structuredContent` reach the model, and tools that must run as tasks.

use std::sync::LazyLock;

use mcplab_protocol::check::{HostItemKind, Verdict};
use mcplab_protocol::host::{StructuredContentMode, ToolNaming};
use regex::Regex;
use serde_json::Value;

use super::Profile;
use super::rules::{CAPABILITY, DESCRIPTION, RESULTS, TOOL_NAME};
use crate::apps::model_visible;
use crate::options::CheckOptions;
use crate::recording::Recording;

/// What model APIs accept as a function name (Anthropic's and OpenAI's tool name pattern).
static MODEL_NAME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[A-Za-z0-9_-]{1,64}$").expect("regex"));
/// Claude Code cuts tool descriptions at 2 KB (its MCP docs); no profile states a limit.
const DESCRIPTION_BYTES: usize = 2048;

pub(super) fn judge(prof: &mut Profile, rec: &Recording, _opts: &CheckOptions) {
    for tool in rec.tools() {
        let Some(name) = tool.get("name").and_then(Value::as_str) else {
            continue;
        };
        if model_visible(tool) {
            naming(prof, rec, name);
            description(prof, tool, name);
        }
        results(prof, rec, tool, name);
        tasks(prof, tool, name);
    }
}

fn naming(prof: &mut Profile, rec: &Recording, name: &str) {
    let field = "toolCatalog.naming";
    let item = Some((HostItemKind::Tool, name));
    if !MODEL_NAME.is_match(name) {
        prof.add(&TOOL_NAME, item, Verdict::Degraded, field, format!(
            "`{name}` is not a name model APIs accept ([A-Za-z0-9_-], 1–64 characters): the host must rename it, and the model sees another name"
        ));
        return;
    }
    let prefixed = format!("{}__{name}", sanitize(&rec.config.name));
    let fits = prefixed.chars().count() <= 64;
    match (prof.unknown(field), prof.p.host_config.tool_catalog.naming) {
        (true, _) if !fits => prof.add(&TOOL_NAME, item, Verdict::Unknown, field, format!(
            "a host that prefixes the server's name makes it `{prefixed}` ({} characters, over 64); whether this host does is not known", prefixed.chars().count()
        )),
        (false, ToolNaming::ServerPrefixed) if !fits => prof.add(&TOOL_NAME, item, Verdict::Degraded, field, format!(
            "the host offers it as `{prefixed}`: {} characters, over the 64 model APIs accept", prefixed.chars().count()
        )),
        (false, ToolNaming::ServerPrefixed) => prof.add(&TOOL_NAME, item, Verdict::Works, field, format!(
            "offered to the model as `{prefixed}`"
        )),
        _ => prof.add(&TOOL_NAME, item, Verdict::Works, field, format!("offered to the model as `{name}`")),
    }
}

/// Model APIs' name characters: others become `_`.
fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn description(prof: &mut Profile, tool: &Value, name: &str) {
    let len = tool
        .get("description")
        .and_then(Value::as_str)
        .map_or(0, str::len);
    if len > DESCRIPTION_BYTES {
        prof.add(&DESCRIPTION, Some((HostItemKind::Tool, name)), Verdict::Unknown, "toolCatalog.descriptionLimit", format!(
            "the description is {len} bytes; no host profile states a description limit (this one included); Claude Code, which has no profile here, cuts descriptions at {DESCRIPTION_BYTES} bytes"
        ));
    }
}

/// A tool with an outputSchema in a host that never shows `structuredContent` to the
/// model, or a called result that had no text for a host whose policy is unknown.
fn results(prof: &mut Profile, rec: &Recording, tool: &Value, name: &str) {
    if tool.get("outputSchema").is_none() {
        return;
    }
    let field = "toolResults.structuredContent";
    let item = Some((HostItemKind::Tool, name));
    let textless = rec.calls.iter().filter(|c| c.tool == name).any(|c| {
        c.outcome.as_ref().is_ok_and(|r| {
            r.get("structuredContent").is_some()
                && !r.get("content").and_then(Value::as_array).is_some_and(|c| {
                    c.iter()
                        .any(|b| b.get("type") == Some(&Value::from("text")))
                })
        })
    });
    if prof.unknown(field) {
        if textless {
            prof.add(&RESULTS, item, Verdict::Unknown, field, "its result had structuredContent and no text; whether this host shows structuredContent to the model is not known".into());
        }
        return;
    }
    match prof.p.host_config.tool_results.structured_content {
        StructuredContentMode::Never if textless => prof.add(&RESULTS, item, Verdict::Blocked, field, "its result had structuredContent and no text; the host never shows structuredContent to the model: the model sees nothing".into()),
        StructuredContentMode::Never => prof.add(&RESULTS, item, Verdict::Degraded, field, "the host never shows structuredContent to the model: only the text content reaches it".into()),
        _ => {}
    }
}

/// `execution.taskSupport: "required"` needs a host that declares tasks.
fn tasks(prof: &mut Profile, tool: &Value, name: &str) {
    if tool
        .pointer("/execution/taskSupport")
        .and_then(Value::as_str)
        != Some("required")
    {
        return;
    }
    let field = "client.tasks";
    let (verdict, said) = prof.offered(
        field,
        prof.p.host_config.client.tasks,
        "declares tasks",
        "does not declare tasks: it cannot call the tool",
        Verdict::Blocked,
    );
    prof.add(
        &CAPABILITY,
        Some((HostItemKind::Tool, name)),
        verdict,
        field,
        format!("the tool must run as a task (execution.taskSupport: required); the host {said}"),
    );
}

//! Spec rules on what the exercises observed rather than on single frames: the connection
//! itself, `ping`, listings of declared and undeclared capabilities, cursors,
//! `logging/setLevel`, and the tool list as a whole (unique names, its cost in model tokens).

use std::collections::HashSet;

use mcplab_mcp::Listing;
use mcplab_protocol::check::Severity;
use serde_json::{Value, json};

use super::rules::{
    BROKEN, CONNECT, PAGINATION, PING, TEMPLATES, TOOL_DUPLICATE, TOOL_LIST_COST, TOOL_LIST_SIZE,
    UNDECLARED,
};
use crate::findings::{At, Findings};
use crate::options::CheckOptions;
use crate::recording::{ProbeError, Recording};

pub(super) fn judge(rec: &Recording, opts: &CheckOptions, f: &mut Findings) {
    if let Some(error) = &rec.connect_error {
        f.add(
            &CONNECT,
            format!("connecting failed: {error}"),
            At::default(),
        );
    }
    if let Some(Err(e)) = &rec.ping
        && !stray(e)
    {
        f.add(&PING, format!("`ping` failed: {e}"), At::default());
    }
    for run in &rec.listings {
        let method = run.listing.method();
        let cap = run.listing.capability().unwrap_or_default();
        match &run.outcome {
            Ok(listed) => {
                if !run.declared && !listed.items.is_empty() {
                    f.add(
                        &UNDECLARED,
                        format!("the server answers {method} with {} item(s) but does not declare the `{cap}` capability", listed.items.len()),
                        At::default(),
                    );
                }
                if let Some(problem) = &listed.cursor_problem {
                    f.add(&PAGINATION, problem.clone(), At::default());
                }
            }
            // Nothing requires templates: a server with resources may have none.
            Err(ProbeError::MethodNotFound) if run.listing == Listing::ResourceTemplates => {
                if run.declared {
                    f.add(
                        &TEMPLATES,
                        format!("the server declares `{cap}` and answers {method} with -32601 (method not found); clients treat that as no templates"),
                        At::default(),
                    );
                }
            }
            Err(e) if run.declared && !stray(e) => f.add(
                &BROKEN,
                format!("the server declares `{cap}` but {method} failed: {e}"),
                At::default(),
            ),
            Err(_) => {}
        }
    }
    if let Some(Err(e)) = &rec.set_level
        && !stray(e)
    {
        f.add(
            &BROKEN,
            format!("the server declares `logging` but logging/setLevel failed: {e}"),
            At::default(),
        );
    }
    whole_tool_list(rec.tools(), opts.token_budget, f);
}

/// A request failed because the answer had the wrong id: the `response-id` rule names it.
fn stray(e: &ProbeError) -> bool {
    matches!(e, ProbeError::StrayResponse(_))
}

/// Rules on the whole tool list: unique names, and its cost in model tokens per turn.
fn whole_tool_list(tools: &[Value], budget: usize, f: &mut Findings) {
    let mut names = HashSet::new();
    for t in tools {
        if let Some(n) = t.get("name").and_then(Value::as_str)
            && !names.insert(n)
        {
            f.add(
                &TOOL_DUPLICATE,
                format!("two tools are named `{}`", n.escape_debug()),
                At::default().tool(n),
            );
        }
    }
    if tools.is_empty() {
        return;
    }
    let tokens = tool_list_tokens(tools);
    let message = format!(
        "the {} tool definitions cost about {tokens} tokens on every model turn",
        tools.len()
    );
    if tokens > budget {
        f.add(
            &TOOL_LIST_SIZE,
            format!("{message}, over the budget of {budget} (--token-budget)"),
            At::default(),
        );
    } else {
        f.add_with(&TOOL_LIST_COST, Severity::Info, message, At::default());
    }
}

/// What a host sends the model per turn: name, description and input schema per tool. About
/// four characters per token is the usual estimate for English text and JSON.
pub(crate) fn tool_list_tokens(tools: &[Value]) -> usize {
    let sent: Vec<Value> = tools
        .iter()
        .map(|t| json!({"name": t.get("name"), "description": t.get("description"), "parameters": t.get("inputSchema")}))
        .collect();
    serde_json::to_string(&sent).map_or(0, |s| s.len()) / 4
}

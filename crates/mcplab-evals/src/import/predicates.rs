//! MCPJam's transcript predicates (`toolCalledWith`, `responseContains`, …) as mcplab
//! expectations: expected calls, forbidden tools and checks for one scope (the case, or one
//! turn). Their argument matching is translated exactly where it can be (top-level partial
//! keys with bare-word type placeholders; nested values compared whole), and noted where not.

use serde_json::{Map, Value, json};

use super::{NoteKind, Notes};
use crate::suite::{
    AppRenderedCheck, ArgumentMode, Check, DetailedNeedle, ExpectedCall, On, TextNeedle,
    ToolCallExpectations,
};

/// What a scope collects from its predicates.
#[derive(Debug, Default)]
pub(super) struct Collected {
    pub calls: Vec<ExpectedCall>,
    pub forbidden: Vec<String>,
    pub checks: Vec<Check>,
}

impl Collected {
    /// The tool-call expectations, if any predicate made one.
    pub(super) fn tool_calls(&self, none: bool) -> Option<ToolCallExpectations> {
        if self.calls.is_empty() && self.forbidden.is_empty() && !none {
            return None;
        }
        Some(ToolCallExpectations {
            expected: self.calls.clone(),
            forbidden: self.forbidden.clone(),
            none,
            ..Default::default()
        })
    }
}

/// Add one predicate (at `path` in the source) to `into`. `prompts` is the case's number of
/// user turns (for `turnCountUnder`).
pub(super) fn add(p: &Value, path: &str, prompts: usize, into: &mut Collected, notes: &mut Notes) {
    let kind = p.get("type").and_then(Value::as_str).unwrap_or_default();
    let tool = || {
        p.get("toolName")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let known: &[&str] = match kind {
        "toolCalledWith" => &["type", "toolName", "args", "minCount"],
        "toolCalledAtLeastOnce" | "toolNeverCalled" | "firstToolWas" => &["type", "toolName"],
        "responseContains" => &["type", "needle", "caseSensitive"],
        "responseMatches" => &["type", "pattern"],
        "tokenBudgetUnder" => &["type", "tokens"],
        "widgetRendered" | "widgetNoConsoleErrors" => &["type", "toolName"],
        "widgetRenderLatencyUnder" => &["type", "ms", "toolName"],
        "turnCountUnder" => &["type", "turns"],
        _ => &["type"],
    };
    notes.unknown_keys(p, known, path);
    match kind {
        "toolCalledWith" => called_with(p, path, into, notes),
        "toolCalledAtLeastOnce" => {
            let tool = tool();
            if into.calls.iter().any(|c| c.tool == tool) {
                notes.add(
                    path,
                    NoteKind::Info,
                    format!("already covered by an expected call of `{tool}`"),
                );
            } else {
                into.calls.push(ExpectedCall {
                    tool,
                    server: None,
                    arguments: None,
                    argument_mode: None,
                    optional: false,
                });
            }
        }
        "toolNeverCalled" => into.forbidden.push(tool()),
        "firstToolWas" => into.checks.push(Check::FirstTool(tool())),
        "responseContains" => {
            let text = p
                .get("needle")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            let case_sensitive = p
                .get("caseSensitive")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            let needle = if case_sensitive {
                TextNeedle::Detailed(DetailedNeedle {
                    text,
                    case_sensitive,
                })
            } else {
                TextNeedle::Text(text)
            };
            into.checks.push(Check::AnswerContains(needle));
        }
        "responseMatches" => {
            let pattern = p.get("pattern").and_then(Value::as_str).unwrap_or_default();
            match regex::Regex::new(pattern) {
                Ok(_) => into.checks.push(Check::AnswerMatches(pattern.to_string())),
                Err(e) => notes.add(path, NoteKind::Dropped, format!(
                    "the JavaScript pattern /{pattern}/ is not valid in mcplab's regex syntax ({}); rewrite it as an `answerMatches` check",
                    crate::matching::args::regex_error(&e)
                )),
            }
        }
        "noToolErrors" => into.checks.push(Check::NoToolErrors(On)),
        "finalAssistantMessageNonEmpty" => into.checks.push(Check::AnswerMatches(r"\S".into())),
        "tokenBudgetUnder" => {
            let tokens = p.get("tokens").and_then(Value::as_u64).unwrap_or(1);
            into.checks.push(Check::MaxTokens(tokens.saturating_sub(1)));
            notes.add(
                path,
                NoteKind::Info,
                format!(
                    "\"under {tokens} tokens\" is written `maxTokens: {}` (at most)",
                    tokens.saturating_sub(1)
                ),
            );
        }
        "widgetRendered" | "widgetNoConsoleErrors" => {
            let tool = p
                .get("toolName")
                .and_then(Value::as_str)
                .map(str::to_string);
            into.checks
                .push(Check::AppRendered(AppRenderedCheck { tool }));
            notes.add(path, NoteKind::Approximated, format!(
                "`{kind}` became `appRendered`, which is stricter: the app must initialize with no CSP violation and no error"
            ));
        }
        "widgetRenderLatencyUnder" => notes.add(
            path,
            NoteKind::Dropped,
            "mcplab does not measure app render latency",
        ),
        "turnCountUnder" => {
            let turns = p.get("turns").and_then(Value::as_u64).unwrap_or(0) as usize;
            if prompts < turns {
                notes.add(
                    path,
                    NoteKind::Info,
                    format!("always holds: the case has {prompts} user turn(s), under {turns}"),
                );
            } else {
                notes.add(
                    path,
                    NoteKind::Dropped,
                    format!(
                        "can never hold: the case has {prompts} user turn(s), not under {turns}"
                    ),
                );
            }
        }
        other => notes.add(
            path,
            NoteKind::Dropped,
            format!("unknown predicate type `{other}`"),
        ),
    }
}

fn called_with(p: &Value, path: &str, into: &mut Collected, notes: &mut Notes) {
    let tool = p
        .get("toolName")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let matcher = p.get("args").cloned().unwrap_or(json!({}));
    notes.unknown_keys(
        &matcher,
        &["args", "argumentMatching"],
        &format!("{path}.args"),
    );
    let args = matcher
        .get("args")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mode = matcher
        .get("argumentMatching")
        .and_then(Value::as_str)
        .unwrap_or("partial");
    let (arguments, argument_mode) = match mode {
        "ignore" => (None, Some(ArgumentMode::Ignore)),
        "exact" => (Some(json!({ "$literal": Value::Object(args) })), None),
        _ => (Some(Value::Object(partial(&args))), None),
    };
    if into.calls.iter().any(|c| c.tool == tool) {
        notes.add(path, NoteKind::Approximated, format!(
            "another predicate also expects `{tool}`: mcplab pairs each expected call with a call of its own, so this now needs a separate call"
        ));
    }
    let count = p
        .get("minCount")
        .and_then(Value::as_u64)
        .unwrap_or(1)
        .max(1);
    for _ in 0..count {
        into.calls.push(ExpectedCall {
            tool: tool.clone(),
            server: None,
            arguments: arguments.clone(),
            argument_mode,
            optional: false,
        });
    }
}

/// MCPJam's partial matching: each top-level key compares whole (deep equality), except the
/// bare words any/string/number/boolean/object/array/null, which check the type.
fn partial(args: &Map<String, Value>) -> Map<String, Value> {
    args.iter()
        .map(|(k, v)| {
            let placeholder =
                v.as_str()
                    .map(|s| s.trim().to_lowercase())
                    .and_then(|s| match s.as_str() {
                        "any" | "string" | "number" | "boolean" | "object" | "array" | "null" => {
                            Some(format!("<{s}>"))
                        }
                        _ => None,
                    });
            let m = match placeholder {
                Some(p) => Value::String(p),
                None => literal(v),
            };
            (k.clone(), m)
        })
        .collect()
}

/// `v` compared exactly: wrapped in `$literal` unless it is a plain scalar with no special
/// meaning to mcplab's matcher.
fn literal(v: &Value) -> Value {
    match v {
        Value::String(s) if s.starts_with('<') && s.ends_with('>') => json!({ "$literal": v }),
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => v.clone(),
        _ => json!({ "$literal": v }),
    }
}

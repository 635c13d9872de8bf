//! JSONPath checks (RFC 9535, through `serde_json_path`): on the JSON in the final answer
//! (`answerJson`) and on tool results — the whole `CallToolResult`, so `structuredContent`
//! and `content` alike (`jsonPath`). Each asserts one of: the value `equals` a matcher, the
//! value (a string, or a scalar as JSON writes it) `matches` a regex, or the path `exists`.

use regex::RegexBuilder;
use serde_json::Value;
use serde_json_path::JsonPath;

use crate::matching::args::{self, ArgOptions, regex_error};
use crate::matching::calls::brief;
use crate::suite::{JsonPathCheck, ToolJsonPathCheck};
use crate::trace::ToolCallTrace;

/// The JSON an answer carries: all of it, a fenced ```json block, or the outermost braces.
pub fn json_in(answer: &str) -> Option<Value> {
    let trimmed = answer.trim();
    if let Ok(v) = serde_json::from_str(trimmed) {
        return Some(v);
    }
    if let Some(start) = trimmed.find("```json") {
        let rest = &trimmed[start + 7..];
        if let Some(end) = rest.find("```")
            && let Ok(v) = serde_json::from_str(rest[..end].trim())
        {
            return Some(v);
        }
    }
    let (start, end) = (trimmed.find('{')?, trimmed.rfind('}')?);
    serde_json::from_str(trimmed.get(start..=end)?).ok()
}

/// `answerJson`.
pub(super) fn answer_json(check: &JsonPathCheck, answer: &str) -> (bool, String) {
    let Some(doc) = json_in(answer) else {
        return (
            false,
            format!(
                "the answer holds no JSON; answer: {}",
                brief(&Value::String(answer.into()))
            ),
        );
    };
    let path = match JsonPath::parse(&check.path) {
        Ok(p) => p,
        Err(e) => return (false, format!("invalid JSONPath: {e}")),
    };
    let nodes = path.query(&doc).all();
    match assert_nodes(check, &nodes) {
        Ok(why) => (true, why),
        Err(why) => (false, format!("{why} in the answer's JSON {}", brief(&doc))),
    }
}

/// `jsonPath` over the results of the calls in scope.
pub(super) fn tool_json(check: &ToolJsonPathCheck, calls: Vec<&ToolCallTrace>) -> (bool, String) {
    let of_tool: Vec<&ToolCallTrace> = calls
        .into_iter()
        .filter(|c| check.tool.as_ref().is_none_or(|t| t == &c.tool))
        .filter(|c| check.server.as_ref().is_none_or(|s| s == &c.server))
        .collect();
    let what = check.tool.as_deref().unwrap_or("any tool");
    if of_tool.is_empty() {
        return (false, format!("{what} was not called"));
    }
    let path = match JsonPath::parse(&check.path) {
        Ok(p) => p,
        Err(e) => return (false, format!("invalid JSONPath: {e}")),
    };
    let results: Vec<&Value> = of_tool.iter().filter_map(|c| c.result.as_ref()).collect();
    if results.is_empty() {
        return (false, format!("no call of {what} returned a result"));
    }
    let assertion = check.assertion();
    if check.exists == Some(false) {
        // Every result must lack it.
        for r in &results {
            let nodes = path.query(r).all();
            if let Err(why) = assert_nodes(&assertion, &nodes) {
                return (false, format!("{why} in a result of {what}"));
            }
        }
        return (
            true,
            format!("{} finds nothing in any result of {what}", check.path),
        );
    }
    let mut first_miss = None;
    for r in &results {
        let nodes = path.query(r).all();
        match assert_nodes(&assertion, &nodes) {
            Ok(why) => return (true, format!("{why} in a result of {what}")),
            Err(why) => {
                first_miss.get_or_insert(format!("{why} in the result {}", brief(r)));
            }
        }
    }
    let n = results.len();
    let lead = if n == 1 {
        String::new()
    } else {
        format!("none of {n} results of {what} passes; first: ")
    };
    (false, format!("{lead}{}", first_miss.unwrap_or_default()))
}

/// The assertion on the nodes a path found: `Ok(why)` passes, `Err(why)` fails.
fn assert_nodes(check: &JsonPathCheck, nodes: &[&Value]) -> Result<String, String> {
    let path = &check.path;
    if let Some(want) = check.exists {
        return match (want, nodes.is_empty()) {
            (true, false) => Ok(format!("{path} exists")),
            (false, true) => Ok(format!("{path} finds nothing")),
            (true, true) => Err(format!("{path} finds nothing")),
            (false, false) => Err(format!(
                "{path} was expected to find nothing but found {}",
                found(nodes)
            )),
        };
    }
    if nodes.is_empty() {
        return Err(format!("{path} finds nothing"));
    }
    if let Some(equals) = &check.equals {
        let opts = ArgOptions::default();
        return match nodes.iter().any(|n| args::matches(equals, Some(n), &opts)) {
            true => Ok(format!("{path} matches")),
            false => Err(format!(
                "{path}: expected {}, found {}",
                brief(equals),
                found(nodes)
            )),
        };
    }
    if let Some(pattern) = &check.matches {
        let re = RegexBuilder::new(pattern)
            .size_limit(1 << 20)
            .build()
            .map_err(|e| format!("invalid regular expression: {}", regex_error(&e)))?;
        let text = |v: &Value| match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(_) | Value::Bool(_) => Some(v.to_string()),
            _ => None,
        };
        return match nodes
            .iter()
            .filter_map(|n| text(n))
            .any(|t| re.is_match(&t))
        {
            true => Ok(format!("{path} matches /{pattern}/")),
            false => Err(format!(
                "{path}: expected a match of /{pattern}/, found {}",
                found(nodes)
            )),
        };
    }
    Ok(format!("{path} exists"))
}

fn found(nodes: &[&Value]) -> String {
    let shown: Vec<String> = nodes.iter().take(5).map(|n| brief(n)).collect();
    let more = nodes.len().saturating_sub(5);
    match more {
        0 => shown.join(", "),
        n => format!("{} and {n} more", shown.join(", ")),
    }
}

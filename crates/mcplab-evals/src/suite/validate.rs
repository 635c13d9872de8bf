//! What a suite must satisfy beyond its schema: unique case ids and models, regexes and
//! JSONPaths that compile, argument matchers that make sense, no tool both expected and
//! forbidden, negative cases without expected calls. Works on the raw JSON value, tolerating
//! shapes the schema already rejected, so these errors come in the same report as the schema's.

use std::collections::HashMap;

use regex::RegexBuilder;
use serde_json::Value;

use crate::matching::args::regex_error;
use crate::matching::validate_matcher;

/// `(JSON pointer, message)` for each problem.
pub(super) fn semantic_errors(doc: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    duplicates(doc.get("models"), "/models", "model", &mut out);
    duplicates(doc.get("servers"), "/servers", "server", &mut out);
    if let Some(inline) = doc.get("mcpServers").and_then(Value::as_object) {
        for (i, name) in strings(doc.get("servers")).iter().enumerate() {
            if inline.contains_key(*name) {
                out.push((
                    format!("/servers/{i}"),
                    format!("server `{name}` is both a configured server and defined in `mcpServers`: keep one"),
                ));
            }
        }
    }
    if let Some(defaults) = doc.get("defaults") {
        checks(defaults.get("checks"), "/defaults/checks", &mut out);
    }
    let cases = doc
        .get("cases")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let mut ids: HashMap<&str, usize> = HashMap::new();
    for (i, case) in cases.iter().enumerate() {
        let at = format!("/cases/{i}");
        if let Some(id) = case.get("id").and_then(Value::as_str)
            && let Some(first) = ids.insert(id, i)
        {
            ids.insert(id, first);
            out.push((
                format!("{at}/id"),
                format!("duplicate case id `{id}` (also case #{})", first + 1),
            ));
        }
        duplicates(
            case.get("models"),
            &format!("{at}/models"),
            "model",
            &mut out,
        );
        if case.get("model").is_some() && case.get("models").is_some() {
            out.push((
                format!("{at}/model"),
                "`model` and `models` both set: keep one (`model: x` is `models: [x]`)".into(),
            ));
        }
        tool_calls(
            case.get("toolCalls"),
            doc,
            &format!("{at}/toolCalls"),
            &mut out,
        );
        checks(case.get("checks"), &format!("{at}/checks"), &mut out);
        steps(case, &at, &mut out);
        let turns = case
            .get("turns")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        for (t, turn) in turns.iter().enumerate() {
            let at = format!("{at}/turns/{t}");
            tool_calls(
                turn.get("toolCalls"),
                doc,
                &format!("{at}/toolCalls"),
                &mut out,
            );
            checks(turn.get("checks"), &format!("{at}/checks"), &mut out);
            per_iteration_only(turn.get("checks"), &format!("{at}/checks"), &mut out);
        }
    }
    out
}

/// A case has `turns` or `steps`; a case of steps has no model, so nothing that needs one;
/// a step's checks are those a turn may make.
fn steps(case: &Value, at: &str, out: &mut Vec<(String, String)>) {
    let len = |key: &str| case.get(key).and_then(Value::as_array).map_or(0, Vec::len);
    // A list of the wrong shape is the schema's error already.
    let shaped = |key: &str| case.is_object() && case.get(key).is_none_or(Value::is_array);
    if case.get("simulatedUser").is_some() {
        for key in ["turns", "steps"] {
            if case.get(key).is_some() {
                out.push((
                    format!("{at}/{key}"),
                    format!(
                        "the simulated user writes the turns: remove `{key}` (or `simulatedUser`)"
                    ),
                ));
            }
        }
        return;
    }
    match (len("turns"), len("steps")) {
        (0, 0) if shaped("turns") && shaped("steps") => out.push((
            match (case.get("turns"), case.get("steps")) {
                (Some(_), _) => format!("{at}/turns"),
                (None, Some(_)) => format!("{at}/steps"),
                (None, None) => at.to_owned(),
            },
            "a case needs `turns` (user messages a model answers), `steps` (tools called \
             directly, no model) or a `simulatedUser`"
                .into(),
        )),
        (t, s) if t > 0 && s > 0 => {
            let id = case.get("id").and_then(Value::as_str).unwrap_or("?");
            out.push((
                format!("{at}/steps"),
                format!(
                    "case `{id}` has both `turns` and `steps`: a case has one or the other; put \
                     the steps in a case of their own"
                ),
            ))
        }
        (0, s) if s > 0 => {
            for key in ["toolCalls", "judge", "model", "models", "systemPrompt"] {
                if case.get(key).is_some() {
                    out.push((
                        format!("{at}/{key}"),
                        format!("a case of `steps` runs no model, so `{key}` has nothing to apply to: remove it"),
                    ));
                }
            }
        }
        _ => {}
    }
    let steps = case
        .get("steps")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for (k, step) in steps.iter().enumerate() {
        let at = format!("{at}/steps/{k}/expect");
        checks(step.get("expect"), &at, out);
        per_iteration_only(step.get("expect"), &at, out);
    }
}

fn duplicates(list: Option<&Value>, at: &str, what: &str, out: &mut Vec<(String, String)>) {
    let items = list
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for (i, item) in items.iter().enumerate() {
        if items[..i].contains(item) {
            out.push((
                format!("{at}/{i}"),
                format!("{what} {item} is listed twice"),
            ));
        }
    }
}

fn tool_calls(tc: Option<&Value>, doc: &Value, at: &str, out: &mut Vec<(String, String)>) {
    let Some(tc) = tc else { return };
    let expected = tc
        .get("expected")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    if tc.get("none") == Some(&Value::Bool(true)) && !expected.is_empty() {
        out.push((
            format!("{at}/none"),
            "`none: true` (no tool call) contradicts the expected calls listed".into(),
        ));
    }
    let mut forbidden: Vec<&str> = strings(tc.get("forbidden"));
    forbidden.extend(strings(doc.pointer("/defaults/toolCalls/forbidden")));
    for (k, call) in expected.iter().enumerate() {
        let here = format!("{at}/expected/{k}");
        if let Some(tool) = call.get("tool").and_then(Value::as_str)
            && forbidden.contains(&tool)
        {
            out.push((
                format!("{here}/tool"),
                format!("tool `{tool}` is both expected and forbidden"),
            ));
        }
        if let Some(args) = call.get("arguments") {
            if !args.is_object() && !is_operator(args) {
                out.push((
                    format!("{here}/arguments"),
                    "arguments are an object (or a `$` matcher)".into(),
                ));
            }
            matcher(args, &format!("{here}/arguments"), out);
        }
    }
}

fn is_operator(v: &Value) -> bool {
    v.as_object()
        .is_some_and(|m| m.keys().any(|k| k.starts_with('$')))
}

fn strings(v: Option<&Value>) -> Vec<&str> {
    v.and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

fn matcher(m: &Value, at: &str, out: &mut Vec<(String, String)>) {
    for (below, message) in validate_matcher(m) {
        out.push((format!("{at}{below}"), message));
    }
}

fn checks(list: Option<&Value>, at: &str, out: &mut Vec<(String, String)>) {
    let items = list
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for (i, check) in items.iter().enumerate() {
        let at = format!("{at}/{i}");
        if let Some(pattern) = check.get("answerMatches").and_then(Value::as_str)
            && let Err(e) = RegexBuilder::new(pattern).size_limit(1 << 20).build()
        {
            out.push((
                format!("{at}/answerMatches"),
                format!("invalid regular expression: {}", regex_error(&e)),
            ));
        }
        for key in ["answerJson", "jsonPath"] {
            if let Some(json) = check.get(key) {
                json_path(json, &format!("{at}/{key}"), out);
            }
        }
        if let Some(c) = check.get("command") {
            let line = c.as_str().or_else(|| c.get("run").and_then(Value::as_str));
            if let Some(line) = line {
                match shell_words::split(line) {
                    Ok(words) if words.is_empty() => {
                        out.push((format!("{at}/command"), "the command line is empty".into()))
                    }
                    Ok(_) => {}
                    Err(e) => out.push((
                        format!("{at}/command"),
                        format!("the command line does not split into words: {e}"),
                    )),
                }
            }
        }
        if let Some(m) = check.pointer("/toolResult/matches") {
            matcher(m, &format!("{at}/toolResult/matches"), out);
        }
    }
}

/// A JSONPath check: the path compiles (RFC 9535), one assertion, a regex that compiles, a
/// matcher that makes sense.
fn json_path(json: &Value, at: &str, out: &mut Vec<(String, String)>) {
    if let Some(path) = json.get("path").and_then(Value::as_str)
        && let Err(e) = serde_json_path::JsonPath::parse(path)
    {
        out.push((format!("{at}/path"), format!("invalid JSONPath: {e}")));
    }
    let given: Vec<&str> = ["equals", "exists", "matches"]
        .into_iter()
        .filter(|k| json.get(*k).is_some())
        .collect();
    if json.is_object() && given.len() != 1 {
        let message = match given.len() {
            0 => "say what to check: `equals: VALUE`, `exists: true|false` or `matches: REGEX`"
                .to_string(),
            _ => format!("write one of `{}`, not several", given.join("`, `")),
        };
        out.push((at.to_owned(), message));
    }
    if let Some(pattern) = json.get("matches").and_then(Value::as_str)
        && let Err(e) = RegexBuilder::new(pattern).size_limit(1 << 20).build()
    {
        out.push((
            format!("{at}/matches"),
            format!("invalid regular expression: {}", regex_error(&e)),
        ));
    }
    if let Some(equals) = json.get("equals") {
        matcher(equals, &format!("{at}/equals"), out);
    }
}

/// Cost is measured per iteration, and a command sees the whole iteration, so a turn cannot
/// check them.
fn per_iteration_only(list: Option<&Value>, at: &str, out: &mut Vec<(String, String)>) {
    let items = list
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for (i, check) in items.iter().enumerate() {
        if check.get("command").is_some() {
            out.push((
                format!("{at}/{i}/command"),
                "a check command reads the whole iteration's trace: put `command` on the case, \
                 not on a turn or a step"
                    .into(),
            ));
        }
        if check.get("maxCostUsd").is_some() {
            out.push((
                format!("{at}/{i}/maxCostUsd"),
                "cost is measured per iteration: put `maxCostUsd` on the case, not on a turn or \
                 a step"
                    .into(),
            ));
        }
    }
}

//! Writing suites: a saved chat session as a case, a case appended to a suite file without
//! rewriting the rest of it (comments and layout stay), and a starter suite for a set of
//! servers (one positive case per tool the model sees, built from its description and input
//! schema, and one negative case). Shared by the CLI and the Evals page.

use mcplab_evals::import::safe_id;
use mcplab_evals::suite::{self, Case, ExpectedCall, ToolCallExpectations, Turn, case_from_turns};
use mcplab_store::Store;
use serde_json::{Map, Value, json};

/// The case a stored chat session describes; its id from `id` or the session's title.
pub fn case_from_session(store: &Store, session: &str, id: Option<&str>) -> Result<Case, String> {
    let record = store
        .session(session)
        .map_err(|_| format!("no chat session `{session}` (the Chat page lists them)"))?;
    let turns: Vec<_> = store
        // The model messages are not needed here: skipped, not decoded.
        .turns::<serde::de::IgnoredAny>(session)
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    if turns.is_empty() {
        return Err(format!("chat session `{session}` has no turns yet"));
    }
    let id = id.map_or_else(|| safe_id(&record.title, "from-chat"), str::to_owned);
    Ok(case_from_turns(&id, Some(&record.title), &turns))
}

/// `case` as an item of the `cases:` list, each line indented by `indent`.
fn case_item(case: &Case, indent: &str) -> String {
    let value = serde_json::to_value(case).unwrap_or(Value::Null);
    let yaml = mcplab_yaml::to_yaml(&value);
    let mut out = String::new();
    for (i, line) in yaml.lines().enumerate() {
        let lead = if i == 0 { "- " } else { "  " };
        out.push_str(&format!("{indent}{lead}{line}\n"));
    }
    out
}

/// The case as YAML to paste under `cases:`.
pub fn case_yaml(case: &Case) -> String {
    case_item(case, "  ")
}

/// `text` (a suite file) with `case` appended to its `cases` list, when that list is the
/// file's last key in block style; the case's id gets a suffix if the suite has it already.
/// The result is checked to load with one more case; otherwise the reason is returned (add
/// the case by hand).
pub fn append_case(text: &str, mut case: Case) -> Result<(String, String), String> {
    let suite = suite::parse_suite(text).map_err(|e| format!("the suite does not load: {e}"))?;
    let taken = |id: &str| suite.cases.iter().any(|c| c.id == id);
    if taken(&case.id) {
        let base = case.id.clone();
        let n = (2..).find(|n| !taken(&format!("{base}-{n}"))).unwrap_or(2);
        case.id = format!("{base}-{n}");
    }
    let limits = mcplab_yaml::Limits {
        max_depth: 64,
        max_nodes: 500_000,
    };
    let (doc, _) = mcplab_yaml::parse(text, limits).map_err(|e| e.message)?;
    if doc
        .as_object()
        .and_then(|o| o.keys().next_back())
        .map(String::as_str)
        != Some("cases")
    {
        return Err("`cases` is not the suite's last key: add the case by hand".into());
    }
    let indent = text
        .lines()
        .skip_while(|l| !l.starts_with("cases:"))
        .skip(1)
        .find(|l| l.trim_start().starts_with("- "))
        .map(|l| &l[..l.len() - l.trim_start().len()])
        .ok_or("`cases` is not a block list: add the case by hand")?;
    let mut out = text.to_owned();
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&case_item(&case, indent));
    let after = suite::parse_suite(&out)
        .map_err(|e| format!("appending would break the suite ({e}): add the case by hand"))?;
    if after.cases.len() != suite.cases.len() + 1 || after.cases.last() != Some(&case) {
        return Err("appending did not add the case as written: add it by hand".into());
    }
    Ok((out, case.id))
}

/// A placeholder matcher for a JSON Schema type (`"<string>"` …).
fn placeholder(schema: &Value) -> Value {
    let kind = match &schema["type"] {
        Value::String(t) => t.as_str(),
        Value::Array(ts) => ts
            .iter()
            .find_map(|t| t.as_str().filter(|t| *t != "null"))
            .unwrap_or("any"),
        _ => "any",
    };
    match kind {
        "string" | "number" | "integer" | "boolean" | "object" | "array" => {
            json!(format!("<{kind}>"))
        }
        _ => json!("<any>"),
    }
}

/// The first sentence of a description, without its full stop.
fn first_sentence(text: &str) -> String {
    let line = text.lines().next().unwrap_or("").trim();
    let cut = line.find(". ").map_or(line, |i| &line[..i]);
    cut.trim_end_matches('.').to_owned()
}

/// One positive case for `tool` of `server`.
pub fn case_for_tool(server: &str, tool: &Value) -> Option<Case> {
    let name = tool["name"].as_str()?;
    let description = tool["description"].as_str().unwrap_or("");
    let mut arguments = Map::new();
    let required: Vec<&str> = tool["inputSchema"]["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    for key in &required {
        arguments.insert(
            (*key).to_owned(),
            placeholder(&tool["inputSchema"]["properties"][*key]),
        );
    }
    let ask = if description.is_empty() {
        format!("Use the {name} tool.")
    } else {
        format!("Use the {name} tool ({}).", first_sentence(description))
    };
    Some(Case {
        id: safe_id(name, "tool"),
        title: Some(format!("Calls {name}")),
        turns: vec![Turn::Text(ask)],
        tool_calls: Some(ToolCallExpectations {
            expected: vec![ExpectedCall {
                tool: name.to_owned(),
                server: Some(server.to_owned()),
                arguments: (!arguments.is_empty()).then_some(Value::Object(arguments)),
                argument_mode: None,
                optional: false,
            }],
            ..Default::default()
        }),
        checks: Vec::new(),
        judge: None,
        models: None,
        repeat: None,
        pass_threshold: None,
        skip: false,
        ..Case::default()
    })
}

/// The negative case every starter suite ends with.
pub fn negative_case() -> Case {
    Case {
        id: "no-tool-needed".into(),
        title: Some("A greeting needs no tool".into()),
        turns: vec![Turn::Text(
            "Hi! Just say hello; no tools are needed.".into(),
        )],
        tool_calls: Some(ToolCallExpectations {
            none: true,
            ..Default::default()
        }),
        checks: Vec::new(),
        judge: None,
        models: None,
        repeat: None,
        pass_threshold: None,
        skip: false,
        ..Case::default()
    }
}

/// The cases for every tool the model sees (app-only tools are left out).
pub fn tool_cases(server: &str, tools: &[Value]) -> Vec<Case> {
    tools
        .iter()
        .filter(|t| mcplab_apps::visibility(t).model)
        .filter_map(|t| case_for_tool(server, t))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUITE: &str = "# my suite\nversion: 1\nid: s\nmodels: [openai::m]\ncases:\n  # first\n  - id: a\n    turns: [hi]\n";

    #[test]
    fn a_case_is_appended_keeping_the_file_and_ids_unique() {
        let case = negative_case();
        let (text, id) = append_case(SUITE, case.clone()).unwrap();
        assert!(text.starts_with(SUITE), "the file is kept as written");
        assert_eq!(id, "no-tool-needed");
        let (again, id2) = append_case(&text, case).unwrap();
        assert_eq!(id2, "no-tool-needed-2");
        assert_eq!(suite::parse_suite(&again).unwrap().cases.len(), 3);
        let flow = "version: 1\nid: s\ncases: [{id: a, turns: [hi]}]\n";
        assert!(append_case(flow, negative_case()).is_err());
        let not_last = "version: 1\ncases:\n  - id: a\n    turns: [hi]\nid: s\n";
        assert!(
            append_case(not_last, negative_case())
                .unwrap_err()
                .contains("last key")
        );
    }

    #[test]
    fn tools_become_cases_with_typed_placeholders() {
        let tools = vec![
            json!({"name": "add", "description": "Adds two numbers. Returns the sum.",
                   "inputSchema": {"type": "object", "required": ["a", "b"],
                                   "properties": {"a": {"type": "number"}, "b": {"type": ["integer", "null"]}}}}),
            json!({"name": "app_only", "_meta": {"ui": {"visibility": ["app"]}}}),
        ];
        let cases = tool_cases("demo", &tools);
        assert_eq!(cases.len(), 1);
        let expected = &cases[0].tool_calls.as_ref().unwrap().expected[0];
        assert_eq!(
            expected.arguments,
            Some(json!({"a": "<number>", "b": "<integer>"}))
        );
        assert_eq!(
            cases[0].turns[0].user(),
            "Use the add tool (Adds two numbers)."
        );
    }
}

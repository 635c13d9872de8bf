//! Datasets: a case with `dataset:` runs once per row of a table — rows inline, or a CSV or
//! JSON Lines file beside the suite — each row a case of its own named `case[name]` (by its
//! `name` column) or `case#3` (by its place), with `{{column}}` replaced in its turns, title,
//! expectations and checks. In a matcher (expected arguments, `equals`, a `toolResult`'s
//! `matches`) a string that is one placeholder alone takes the cell's value with its type
//! (`a: "{{a}}"` → `a: 2`); elsewhere the cell is written as text. Reading the file is the runner's; parsing its text and
//! expanding the cases is here.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::case::Case;
use super::load::closest;
use super::model::Suite;

/// `(JSON pointer, message)` for each problem found.
pub type Problems = Vec<(String, String)>;

/// Rows one dataset may have.
pub const MAX_ROWS: usize = 10_000;

/// A case's table of inputs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Dataset {
    /// The rows inline, each an object of column → value.
    Rows(#[schemars(length(min = 1))] Vec<Map<String, Value>>),
    /// `{ file: cases.csv }` (a header line, then one row a line) or `cases.jsonl` (one JSON
    /// object a line), relative to the suite file.
    File(DatasetFile),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DatasetFile {
    #[schemars(length(min = 1))]
    pub file: String,
}

static PLACEHOLDER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}").expect("the placeholder pattern compiles")
});

/// The rows of a dataset file's text, by its extension (`.csv`, `.jsonl`/`.ndjson`). The error
/// names the file and the line.
pub fn parse_rows(name: &str, text: &str) -> Result<Vec<Map<String, Value>>, String> {
    let lower = name.to_ascii_lowercase();
    let rows = if lower.ends_with(".csv") {
        csv_rows(name, text)?
    } else if lower.ends_with(".jsonl") || lower.ends_with(".ndjson") {
        jsonl_rows(name, text)?
    } else {
        return Err(format!(
            "{name}: a dataset file is .csv (a header line, then rows) or .jsonl (one JSON object a line)"
        ));
    };
    if rows.is_empty() {
        return Err(format!("{name}: the file has no rows"));
    }
    if rows.len() > MAX_ROWS {
        return Err(format!(
            "{name}: {} rows, over the limit of {MAX_ROWS}: split the case",
            rows.len()
        ));
    }
    Ok(rows)
}

fn csv_rows(name: &str, text: &str) -> Result<Vec<Map<String, Value>>, String> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(text.as_bytes());
    let headers: Vec<String> = reader
        .headers()
        .map_err(|e| format!("{name}: {e}"))?
        .iter()
        .map(|h| h.trim().to_owned())
        .collect();
    if let Some(h) = headers.iter().find(|h| h.is_empty()) {
        return Err(format!(
            "{name}:1: a column has no name ({h:?}): name every column in the header line"
        ));
    }
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| match e.position() {
            Some(p) => format!("{name}:{}: {}", p.line(), csv_problem(&e)),
            None => format!("{name}: {e}"),
        })?;
        let row = headers
            .iter()
            .zip(record.iter())
            .map(|(h, cell)| (h.clone(), cell_value(cell)))
            .collect();
        rows.push(row);
    }
    Ok(rows)
}

fn csv_problem(e: &csv::Error) -> String {
    match e.kind() {
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("this row has {len} fields, the header has {expected_len}"),
        _ => e.to_string(),
    }
}

/// A CSV cell: a number or `true`/`false` as such, anything else the text.
fn cell_value(cell: &str) -> Value {
    match serde_json::from_str::<Value>(cell.trim()) {
        Ok(v @ (Value::Number(_) | Value::Bool(_))) => v,
        _ => Value::String(cell.to_owned()),
    }
}

fn jsonl_rows(name: &str, text: &str) -> Result<Vec<Map<String, Value>>, String> {
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(line) {
            Ok(Value::Object(row)) => rows.push(row),
            Ok(other) => {
                return Err(format!(
                    "{name}:{}: a row is a JSON object, not {}",
                    i + 1,
                    crate::matching::args::kind(&other)
                ));
            }
            Err(e) => return Err(format!("{name}:{}: not JSON: {e}", i + 1)),
        }
    }
    Ok(rows)
}

/// The suite with every dataset case expanded into its rows (datasets must be inline by now),
/// and for each case of the result the index of the case it came from. `Err`: `(JSON pointer,
/// message)` for each problem.
pub fn expand(suite: &Suite) -> Result<(Suite, Vec<usize>), Problems> {
    let mut out = suite.clone();
    out.cases.clear();
    let mut origins = Vec::new();
    let mut problems = Vec::new();
    for (i, case) in suite.cases.iter().enumerate() {
        match &case.dataset {
            None => {
                out.cases.push(case.clone());
                origins.push(i);
            }
            Some(Dataset::File(f)) => problems.push((
                format!("/cases/{i}/dataset/file"),
                format!("the dataset file {} was not read", f.file),
            )),
            Some(Dataset::Rows(rows)) => match expand_case(case, rows, i) {
                Ok(cases) => {
                    origins.extend(std::iter::repeat_n(i, cases.len()));
                    out.cases.extend(cases);
                }
                Err(p) => problems.extend(p),
            },
        }
    }
    match problems.is_empty() {
        true => Ok((out, origins)),
        false => Err(problems),
    }
}

fn expand_case(
    case: &Case,
    rows: &[Map<String, Value>],
    index: usize,
) -> Result<Vec<Case>, Problems> {
    let at = format!("/cases/{index}");
    let mut template = serde_json::to_value(case).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut template {
        m.remove("dataset");
        m.remove("id");
    }
    let mut problems = Vec::new();
    let mut names = BTreeSet::new();
    let mut cases = Vec::new();
    for (k, row) in rows.iter().enumerate() {
        let id = match row.get("name") {
            Some(Value::String(s)) if !s.trim().is_empty() => format!("{}[{}]", case.id, s.trim()),
            Some(v @ Value::Number(_)) => format!("{}[{v}]", case.id),
            _ => format!("{}#{}", case.id, k + 1),
        };
        if !names.insert(id.clone()) {
            problems.push((
                format!("{at}/dataset"),
                format!("two rows make the case id `{id}`: give each row its own `name`"),
            ));
            continue;
        }
        let mut value = template.clone();
        substitute(
            &mut value,
            row,
            &mut String::new(),
            &mut |pointer, column| {
                let columns: Vec<String> = row.keys().cloned().collect();
                let hint = match closest(column, &columns) {
                    Some(near) => format!(": did you mean `{near}`?"),
                    None => format!(" (its columns: {})", columns.join(", ")),
                };
                let message = format!(
                    "`{{{{{column}}}}}`: row {} has no column `{column}`{hint}",
                    k + 1
                );
                let pointer = format!("{at}{pointer}");
                if !problems.iter().any(|(p, _)| p == &pointer) {
                    problems.push((pointer, message));
                }
            },
        );
        if let Value::Object(m) = &mut value {
            m.insert("id".into(), Value::String(id));
        }
        match serde_json::from_value::<Case>(value) {
            Ok(c) => cases.push(c),
            Err(e) => problems.push((
                format!("{at}/dataset"),
                format!("row {} does not make a valid case: {e}", k + 1),
            )),
        }
    }
    match problems.is_empty() {
        true => Ok(cases),
        false => Err(problems),
    }
}

/// Whether `pointer` is inside a matcher (expected arguments, `equals`, a `toolResult`'s
/// `matches`) or a step's `args`, where a lone placeholder keeps the cell's type; elsewhere
/// text is text.
fn in_matcher(pointer: &str) -> bool {
    pointer.contains("/arguments")
        || pointer.contains("/args/")
        || pointer.contains("/equals")
        || pointer.contains("/toolResult/matches")
}

/// Replaces the placeholders in every string under `value` (`pointer` is where `value` is);
/// `unknown(pointer, column)` for each column the row lacks.
fn substitute(
    value: &mut Value,
    row: &Map<String, Value>,
    pointer: &mut String,
    unknown: &mut dyn FnMut(&str, &str),
) {
    match value {
        Value::String(s) => {
            if in_matcher(pointer)
                && let Some(c) = PLACEHOLDER.captures(s)
                && c.get(0).is_some_and(|m| m.as_str() == s.as_str())
            {
                match row.get(&c[1]) {
                    Some(v) => *value = v.clone(),
                    None => unknown(pointer, &c[1]),
                }
                return;
            }
            let replaced =
                PLACEHOLDER.replace_all(s, |c: &regex::Captures<'_>| match row.get(&c[1]) {
                    Some(Value::String(t)) => t.clone(),
                    Some(v) => v.to_string(),
                    None => {
                        unknown(pointer, &c[1]);
                        c[0].to_owned()
                    }
                });
            *s = replaced.into_owned();
        }
        Value::Array(items) => {
            for (k, item) in items.iter_mut().enumerate() {
                let len = pointer.len();
                pointer.push_str(&format!("/{k}"));
                substitute(item, row, pointer, unknown);
                pointer.truncate(len);
            }
        }
        Value::Object(map) => {
            for (key, item) in map.iter_mut() {
                let len = pointer.len();
                pointer.push_str(&format!("/{}", mcplab_yaml::escape_pointer(key)));
                substitute(item, row, pointer, unknown);
                pointer.truncate(len);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::parse_suite;

    const SUITE: &str = "version: 1
id: s
cases:
  - id: add
    title: \"{{a}} + {{b}}\"
    turns: [\"What is {{a}} + {{b}}?\"]
    toolCalls:
      expected: [{ tool: add, arguments: { a: \"{{a}}\", b: \"{{b}}\" } }]
    checks: [{ answerContains: \"{{sum}}\" }]
    dataset:
      - { name: small, a: 1, b: 2, sum: 3 }
      - { a: 20, b: 22, sum: 42 }
  - id: plain
    turns: [hi]
";

    #[test]
    fn rows_become_cases_named_by_row_with_typed_placeholders() {
        let suite = parse_suite(SUITE).unwrap();
        let (out, origins) = expand(&suite).unwrap();
        let ids: Vec<&str> = out.cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["add[small]", "add#2", "plain"]);
        assert_eq!(origins, [0, 0, 1]);
        let second = serde_json::to_value(&out.cases[1]).unwrap();
        assert_eq!(second["turns"][0], "What is 20 + 22?");
        assert_eq!(second["title"], "20 + 22");
        assert_eq!(
            second["toolCalls"]["expected"][0]["arguments"],
            serde_json::json!({"a": 20, "b": 22})
        );
        assert_eq!(second["checks"][0]["answerContains"], "42");
        assert!(second.get("dataset").is_none());
    }

    #[test]
    fn an_unknown_column_is_named_with_the_nearest() {
        let text = SUITE.replace("{{sum}}", "{{summ}}");
        let suite = parse_suite(&text).unwrap();
        let problems = expand(&suite).unwrap_err();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].0, "/cases/0/checks/0/answerContains");
        assert!(
            problems[0]
                .1
                .contains("row 1 has no column `summ`: did you mean `sum`?"),
            "{problems:?}"
        );
    }

    #[test]
    fn files_parse_with_their_line_in_errors() {
        let rows = parse_rows("x.csv", "name,a,b\none,1,\"two, quoted\"\n").unwrap();
        assert_eq!(rows[0]["a"], 1);
        assert_eq!(rows[0]["b"], "two, quoted");
        let e = parse_rows("x.csv", "a,b\n1,2\n3\n").unwrap_err();
        assert_eq!(e, "x.csv:3: this row has 1 fields, the header has 2");
        let rows = parse_rows("x.jsonl", "{\"a\": 1}\n\n{\"a\": [2]}\n").unwrap();
        assert_eq!(rows.len(), 2);
        let e = parse_rows("x.jsonl", "{\"a\": 1}\n[1]\n").unwrap_err();
        assert_eq!(e, "x.jsonl:2: a row is a JSON object, not an array");
        let e = parse_rows("x.jsonl", "{\"a\": 1}\n{oops\n").unwrap_err();
        assert!(e.starts_with("x.jsonl:2: not JSON"), "{e}");
        assert!(parse_rows("x.txt", "a").unwrap_err().contains(".csv"));
    }
}

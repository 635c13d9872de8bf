//! Loading a suite file: bounded input → YAML with positions → the JSON Schema (every
//! structural error) plus the semantic checks (every other error) → the typed `Suite`. All
//! errors come back at once, sorted by line, each naming its line, column and key path.

use std::fmt;

use jsonschema::ValidationError;
use jsonschema::error::ValidationErrorKind;
use serde_json::Value;

use super::model::Suite;
use super::schema::suite_schema;
use super::validate::semantic_errors;
use mcplab_yaml::{self as yaml, ErrorKind, Position, Positions};

/// Bounds on suite input.
#[derive(Debug, Clone, Copy)]
pub struct LoadLimits {
    pub max_bytes: usize,
    pub max_depth: usize,
    pub max_nodes: usize,
}

impl Default for LoadLimits {
    fn default() -> Self {
        LoadLimits {
            max_bytes: 4 << 20,
            max_depth: 48,
            max_nodes: 500_000,
        }
    }
}

/// One problem in a suite file.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SuiteError {
    pub position: Option<Position>,
    /// Where in the document, e.g. `cases[2].toolCalls.expected[0].tool` (empty: the file).
    pub path: String,
    pub message: String,
}

/// Every problem found, in document order.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SuiteErrors(pub Vec<SuiteError>);

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = self.position {
            write!(f, "{}:{}: ", p.line, p.column)?;
        }
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        f.write_str(&self.message)
    }
}

impl fmt::Display for SuiteErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        writeln!(
            f,
            "{n} problem{} in the suite file:",
            if n == 1 { "" } else { "s" }
        )?;
        for e in &self.0 {
            writeln!(f, "  {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SuiteErrors {}

/// Parse a suite (YAML or JSON) with the default limits.
pub fn parse_suite(text: &str) -> Result<Suite, SuiteErrors> {
    parse_suite_with(text, LoadLimits::default())
}

/// Parse a suite with explicit limits.
pub fn parse_suite_with(text: &str, limits: LoadLimits) -> Result<Suite, SuiteErrors> {
    if text.len() > limits.max_bytes {
        return Err(one(format!(
            "the file is {} bytes, over the {}-byte limit for a suite: split it into several suites",
            text.len(),
            limits.max_bytes
        )));
    }
    let (doc, positions) = yaml::parse(
        text,
        yaml::Limits {
            max_depth: limits.max_depth,
            max_nodes: limits.max_nodes,
        },
    )
    .map_err(|e| one_at(e.position, suite_wording(e)))?;
    if !doc.is_object() {
        return Err(one_at(
            positions.value(""),
            "the top level must be a mapping (`version: 1`, `id: …`, `cases: …`)".into(),
        ));
    }
    let mut errors = Vec::new();
    if let Some(v) = doc.get("version").filter(|v| *v != &Value::from(1)) {
        // Said first and alone: the rest of a future-version file is not ours to judge.
        return Err(SuiteErrors(vec![located(
            &positions,
            "/version",
            format!(
                "suite version {v} is not supported: this mcplab reads version 1 (a newer mcplab may read it)"
            ),
        )]));
    }
    schema_errors(&doc, &positions, &mut errors);
    for (pointer, message) in semantic_errors(&doc) {
        errors.push(located(&positions, &pointer, message));
    }
    if errors.is_empty() {
        match serde_json::from_value::<Suite>(doc) {
            Ok(suite) => return Ok(suite),
            // The schema is generated from these types, so this means a gap between the two.
            Err(e) => errors.push(SuiteError {
                position: None,
                path: String::new(),
                message: e.to_string(),
            }),
        }
    }
    errors.sort_by_key(|e| e.position.map(|p| (p.line, p.column)));
    errors.dedup();
    Err(SuiteErrors(errors))
}

/// Problems found after loading (`(JSON pointer, message)`, e.g. tools the servers do not
/// list), each placed at its line in `text` — read again for its positions, which happens
/// only when there is something to report. `None`: the suite has no text of its own (an
/// imported file), so the problems carry their key paths only.
pub fn locate_problems(text: Option<&str>, problems: Vec<(String, String)>) -> SuiteErrors {
    let positions = text
        .and_then(|t| {
            let limits = LoadLimits::default();
            let bounds = yaml::Limits {
                max_depth: limits.max_depth,
                max_nodes: limits.max_nodes,
            };
            yaml::parse(t, bounds).ok()
        })
        .map(|(_, p)| p)
        .unwrap_or_default();
    let mut errors: Vec<SuiteError> = problems
        .into_iter()
        .map(|(pointer, message)| located(&positions, &pointer, message))
        .collect();
    errors.sort_by_key(|e| e.position.map(|p| (p.line, p.column)));
    SuiteErrors(errors)
}

fn one(message: String) -> SuiteErrors {
    one_at(None, message)
}

fn one_at(position: Option<Position>, message: String) -> SuiteErrors {
    SuiteErrors(vec![SuiteError {
        position,
        path: String::new(),
        message,
    }])
}

/// The YAML front end's message, said about a suite where a suite has more to say.
fn suite_wording(e: yaml::Error) -> String {
    match e.kind {
        ErrorKind::Empty => {
            "the file is empty: a suite needs at least `version`, `id` and `cases`".into()
        }
        ErrorKind::SeveralDocuments(n) => format!(
            "the file holds {n} YAML documents; a suite file is exactly one (put each suite in its own file)"
        ),
        ErrorKind::Syntax | ErrorKind::Shape => e.message,
    }
}

fn located(positions: &Positions, pointer: &str, message: String) -> SuiteError {
    SuiteError {
        position: positions.key(pointer),
        path: human_path(pointer),
        message,
    }
}

/// `/cases/0/turns/1` → `cases[0].turns[1]`.
pub(crate) fn human_path(pointer: &str) -> String {
    let mut out = String::new();
    for token in pointer.split('/').skip(1) {
        let token = token.replace("~1", "/").replace("~0", "~");
        if !token.is_empty() && token.chars().all(|c| c.is_ascii_digit()) {
            out.push_str(&format!("[{token}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&token);
        }
    }
    out
}

fn schema_errors(doc: &Value, positions: &Positions, out: &mut Vec<SuiteError>) {
    let schema = suite_schema();
    let validator = match jsonschema::validator_for(&schema) {
        Ok(v) => v,
        Err(e) => {
            return out.push(SuiteError {
                position: None,
                path: String::new(),
                message: format!("internal: the suite schema does not compile: {e}"),
            });
        }
    };
    for error in validator.iter_errors(doc) {
        describe(&error, &schema, positions, out);
    }
}

fn describe(
    error: &ValidationError<'_>,
    schema: &Value,
    positions: &Positions,
    out: &mut Vec<SuiteError>,
) {
    let pointer = error.instance_path().to_string();
    match error.kind() {
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            let known = known_keys(schema, &error.schema_path().to_string());
            for key in unexpected {
                let at = format!("{pointer}/{}", yaml::escape_pointer(key));
                let hint = match closest(key, &known) {
                    Some(near) => format!(": did you mean `{near}`?"),
                    None if known.is_empty() => String::new(),
                    None => format!(" (expected one of: {})", known.join(", ")),
                };
                out.push(located(
                    positions,
                    &at,
                    format!("unknown key `{key}`{hint}"),
                ));
            }
        }
        ValidationErrorKind::Required { property } => {
            let name = property
                .as_str()
                .map_or_else(|| property.to_string(), str::to_string);
            out.push(located(
                positions,
                &pointer,
                format!("missing required key `{name}`"),
            ));
        }
        ValidationErrorKind::OneOfNotValid { context } | ValidationErrorKind::AnyOf { context } => {
            alternatives(error, context, schema, positions, out)
        }
        ValidationErrorKind::OneOfMultipleValid { .. } => out.push(located(
            positions,
            &pointer,
            "ambiguous: matches more than one form".into(),
        )),
        ValidationErrorKind::Type { kind } => {
            let found = crate::matching::args::kind(error.instance());
            // Optional fields allow null too; nobody means to write null, so do not offer it.
            let wanted: Vec<String> = match kind {
                jsonschema::error::TypeKind::Single(t) => vec![t.to_string()],
                jsonschema::error::TypeKind::Multiple(set) => set
                    .iter()
                    .map(|t| t.to_string())
                    .filter(|t| t != "null")
                    .collect(),
            };
            out.push(located(
                positions,
                &pointer,
                format!("expected {}, found {found}", wanted.join(" or ")),
            ))
        }
        ValidationErrorKind::Constant { expected_value }
            if **expected_value == Value::Bool(true) =>
        {
            out.push(located(
                positions,
                &pointer,
                "write `true` (`false` turns nothing on: remove the check instead)".into(),
            ))
        }
        ValidationErrorKind::Pattern { pattern } => out.push(located(
            positions,
            &pointer,
            pattern_message(pattern, error),
        )),
        _ => out.push(located(positions, &pointer, error.to_string())),
    }
}

/// A value that fits none of several forms: a one-key object naming no known form gets the
/// list of forms; otherwise the form that got furthest explains the problem.
fn alternatives(
    error: &ValidationError<'_>,
    context: &[Vec<ValidationError<'static>>],
    schema: &Value,
    positions: &Positions,
    out: &mut Vec<SuiteError>,
) {
    let pointer = error.instance_path().to_string();
    let names: Vec<String> = context
        .iter()
        .filter_map(|branch| {
            // A form's name is the key it requires of this very object (a deeper missing key
            // means the form was recognized).
            branch.iter().find_map(|e| match e.kind() {
                ValidationErrorKind::Required { property }
                    if e.instance_path().to_string() == pointer =>
                {
                    property.as_str().map(str::to_string)
                }
                _ => None,
            })
        })
        .collect();
    if let Value::Object(map) = error.instance().as_ref()
        && map.len() == 1
        && names.len() == context.len()
    {
        let key = map.keys().next().map(String::as_str).unwrap_or_default();
        if !names.iter().any(|n| n == key) {
            let at = format!("{pointer}/{}", yaml::escape_pointer(key));
            let message = format!(
                "unknown check `{key}` (expected one of: {})",
                names.join(", ")
            );
            return out.push(located(positions, &at, message));
        }
    }
    let depth = |branch: &Vec<ValidationError<'static>>| {
        let d = branch
            .iter()
            .map(|e| e.instance_path().to_string().matches('/').count())
            .min()
            .unwrap_or(0);
        let type_mismatch_here = branch.iter().any(|e| {
            matches!(
                e.kind(),
                ValidationErrorKind::Type { .. } | ValidationErrorKind::Constant { .. }
            ) && e.instance_path().to_string() == pointer
        });
        (!type_mismatch_here, d, usize::MAX - branch.len())
    };
    match context.iter().max_by_key(|b| depth(b)) {
        Some(best) if !best.is_empty() && depth(best).0 => {
            for e in best {
                describe(e, schema, positions, out);
            }
        }
        _ => {
            let kinds: Vec<String> = context
                .iter()
                .flatten()
                .filter(|e| e.instance_path().to_string() == pointer)
                .filter_map(|e| match e.kind() {
                    ValidationErrorKind::Type {
                        kind: jsonschema::error::TypeKind::Single(t),
                    } => Some(format!("{t}")),
                    ValidationErrorKind::Constant { expected_value } => {
                        Some(expected_value.to_string())
                    }
                    _ => None,
                })
                .collect();
            let found = crate::matching::args::kind(error.instance());
            let message = if kinds.is_empty() {
                format!("not a valid value here (found {found})")
            } else {
                format!("expected {}, found {found}", kinds.join(" or "))
            };
            out.push(located(positions, &pointer, message))
        }
    }
}

fn pattern_message(pattern: &str, error: &ValidationError<'_>) -> String {
    let value = error.instance();
    if pattern.contains("::") {
        format!("{value} is not a model: write `provider::model`, e.g. `openai::gpt-4.1-mini`")
    } else if pattern.starts_with("^[A-Za-z0-9][A-Za-z0-9_.-]") {
        format!(
            "{value} is not a valid id: 1–128 letters, digits, `-`, `_` or `.`, starting with a letter or digit"
        )
    } else {
        error.to_string()
    }
}

/// The known key within two edits of `key`, if one is.
pub(crate) fn closest<'a>(key: &str, known: &'a [String]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (edit_distance(key, k), k))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k.as_str())
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The keys the schema object at `keyword_path` (ending in `/additionalProperties`) allows.
fn known_keys(schema: &Value, keyword_path: &str) -> Vec<String> {
    let object_path = keyword_path
        .strip_suffix("/additionalProperties")
        .unwrap_or(keyword_path);
    let resolved = resolve(schema, object_path);
    resolved
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

/// Follow a schema path that may pass through `$ref`s.
fn resolve<'a>(schema: &'a Value, path: &str) -> Option<&'a Value> {
    let mut node = schema;
    for token in path.split('/').skip(1) {
        let token = token.replace("~1", "/").replace("~0", "~");
        node = if token == "$ref" {
            let target = node.get("$ref")?.as_str()?.strip_prefix('#')?;
            schema.pointer(target)?
        } else {
            match node {
                Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
                _ => node.get(&token)?,
            }
        };
    }
    Some(node)
}

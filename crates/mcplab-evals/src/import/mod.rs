//! `mcplab eval import`: MCPJam's suite file v1 (`schemaVersion: "1"`) and its older
//! `tests.json` become mcplab suites. Whatever has no mcplab equivalent is reported as a note
//! (dropped, or approximated and how) — never silently left out. The YAML written carries the
//! notes as comments at the top. Formats learned from MCPJam's published source; fixtures are
//! our own.

mod mcpjam_v1;
mod predicates;
mod tests_json;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::suite::{self, Suite};

/// What happened to something in the source that did not map one to one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum NoteKind {
    /// Not in the suite at all: mcplab cannot represent it.
    Dropped,
    /// In the suite, with a different meaning the message explains.
    Approximated,
    /// Worth knowing; nothing lost.
    Info,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportNote {
    /// Where in the source, e.g. `cases[2].steps[3]`.
    pub path: String,
    pub kind: NoteKind,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SourceFormat {
    McpjamSuiteV1,
    McpjamTestsJson,
}

impl SourceFormat {
    pub fn label(self) -> &'static str {
        match self {
            SourceFormat::McpjamSuiteV1 => "MCPJam suite file v1",
            SourceFormat::McpjamTestsJson => "MCPJam tests.json",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    pub format: SourceFormat,
    pub suite: Suite,
    pub notes: Vec<ImportNote>,
}

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("{0}")]
    Syntax(String),
    #[error("not an MCPJam suite: {0}")]
    Unrecognized(String),
    #[error("the imported suite does not load ({0}); please report this with the source file")]
    Invalid(suite::SuiteErrors),
}

pub(crate) struct Notes(pub Vec<ImportNote>);

impl Notes {
    pub(crate) fn add(&mut self, path: &str, kind: NoteKind, message: impl Into<String>) {
        self.0.push(ImportNote {
            path: path.to_string(),
            kind,
            message: message.into(),
        });
    }
    /// Every key of `obj` not in `known`, as dropped.
    pub(crate) fn unknown_keys(&mut self, obj: &Value, known: &[&str], path: &str) {
        if let Some(map) = obj.as_object() {
            for key in map.keys().filter(|k| !known.contains(&k.as_str())) {
                let at = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                self.add(
                    &at,
                    NoteKind::Dropped,
                    format!("`{key}` is not part of the format; left out"),
                );
            }
        }
    }
}

/// Convert an MCPJam file. `name` (the file name without extension) names a `tests.json`
/// suite, which has no id of its own.
pub fn import(text: &str, name: &str) -> Result<Imported, ImportError> {
    let trimmed = text.trim_start();
    let (format, suite, notes) = if trimmed.starts_with('[') {
        let doc: Value = serde_json::from_str(trimmed)
            .map_err(|e| ImportError::Syntax(format!("not valid JSON: {e}")))?;
        let (suite, notes) = tests_json::convert(&doc, name)?;
        (SourceFormat::McpjamTestsJson, suite, notes)
    } else {
        let limits = mcplab_yaml::Limits {
            max_depth: 64,
            max_nodes: 500_000,
        };
        let (doc, _) = mcplab_yaml::parse(text, limits).map_err(|e| {
            let at = e
                .position
                .map(|p| format!("{}:{}: ", p.line, p.column))
                .unwrap_or_default();
            ImportError::Syntax(format!("{at}{}", e.message))
        })?;
        let (suite, notes) = mcpjam_v1::convert(&doc)?;
        (SourceFormat::McpjamSuiteV1, suite, notes)
    };
    // What we write must load: a converter bug should surface here, not in the user's CI.
    let yaml = to_yaml(&suite, &[]);
    suite::parse_suite(&yaml).map_err(ImportError::Invalid)?;
    Ok(Imported {
        format,
        suite,
        notes: notes.0,
    })
}

/// The suite as YAML, with the notes as comments at the top.
pub fn to_yaml(suite: &Suite, notes: &[ImportNote]) -> String {
    let mut head = String::new();
    if !notes.is_empty() {
        head.push_str("# Imported by `mcplab eval import`. Not carried over as-is:\n");
        for n in notes {
            let kind = match n.kind {
                NoteKind::Dropped => "dropped",
                NoteKind::Approximated => "approximated",
                NoteKind::Info => "note",
            };
            for (i, line) in format!("{}: {}", n.path, n.message).lines().enumerate() {
                let lead = if i == 0 {
                    format!("# - {kind}: ")
                } else {
                    "#   ".to_string()
                };
                head.push_str(&format!("{lead}{line}\n"));
            }
        }
    }
    let value = serde_json::to_value(suite).unwrap_or(Value::Null);
    format!("{head}{}\n", mcplab_yaml::to_yaml(&value))
}

/// An id mcplab accepts, from any text: letters, digits, `-`, `_`, `.`; starting with a
/// letter or digit; at most 128 characters.
pub fn safe_id(text: &str, fallback: &str) -> String {
    let mut id: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    while id.contains("--") {
        id = id.replace("--", "-");
    }
    let id = id
        .trim_matches(|c: char| !c.is_ascii_alphanumeric())
        .to_string();
    let id: String = id.chars().take(128).collect();
    if id.is_empty() {
        fallback.to_string()
    } else {
        id
    }
}

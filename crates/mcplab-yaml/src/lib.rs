//! The one YAML front end of the workspace: YAML (and JSON, a subset of it) text → a JSON value
//! plus where each part came from, so every later error can name its line and column. Suites,
//! HostConfig files and SKILL.md frontmatter are all read through it, and suites written by it,
//! on one engine (yaml-rust2). The same safety rules hold for every input: anchors, aliases
//! and tags are refused (no expansion bombs), so are duplicate keys, non-scalar keys and
//! streams of several documents; depth and node count are bounded while parsing. Plain scalars
//! resolve per the YAML 1.2 core schema; quoted ones stay strings. Knows nothing about what
//! the documents mean.
//!
//! # Where things are
//!
//! - `crates/mcplab-yaml`: YAML → JSON value + positions in one pass on yaml-rust2's events
//!   (`load.rs`), the core-schema scalars (`scalar.rs`), `from_str` (typed, errors at the key's
//!   line), `to_yaml` (`emit.rs`).

mod emit;
mod load;
mod scalar;
#[cfg(test)]
mod tests;

use std::collections::HashMap;

use serde::de::DeserializeOwned;
use serde_json::Value;

pub use emit::to_yaml;

/// A line and column, both 1-based, as editors count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// Where the parts of a document are: by JSON pointer (`/cases/0/id`), the value's position
/// and, for mapping entries, the key's.
#[derive(Debug, Default)]
pub struct Positions {
    values: HashMap<String, Position>,
    keys: HashMap<String, Position>,
}

impl Positions {
    /// The position of the value at `pointer`, or of its nearest ancestor that has one.
    pub fn value(&self, pointer: &str) -> Option<Position> {
        let mut p = pointer;
        loop {
            if let Some(pos) = self.values.get(p) {
                return Some(*pos);
            }
            let cut = p.rfind('/')?;
            p = &p[..cut];
        }
    }

    /// The position of the key that holds `pointer`'s value, else the value's.
    pub fn key(&self, pointer: &str) -> Option<Position> {
        self.keys
            .get(pointer)
            .copied()
            .or_else(|| self.value(pointer))
    }
}

/// Bounds on what a document may make us hold.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_depth: usize,
    pub max_nodes: usize,
}

/// What kind of problem an [`Error`] is, for callers that word some of them their own way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// No document at all (empty, or only comments).
    Empty,
    /// More than one document in the stream (how many).
    SeveralDocuments(usize),
    /// Not valid YAML, or refused by the rules above, or over a limit.
    Syntax,
    /// Valid YAML whose value does not fit the type asked for ([`from_str`]).
    Shape,
}

/// Why a text is not a usable document.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}{message}", at(*position))]
pub struct Error {
    pub position: Option<Position>,
    pub kind: ErrorKind,
    pub message: String,
}

fn at(position: Option<Position>) -> String {
    position
        .map(|p| format!("line {}, column {}: ", p.line, p.column))
        .unwrap_or_default()
}

/// Parses one YAML/JSON document into a value and its positions.
pub fn parse(text: &str, limits: Limits) -> Result<(Value, Positions), Error> {
    load::load(text, limits)
}

/// Parses one document into `T`; a value that does not fit names the line of the key (or
/// value) it is about.
pub fn from_str<T: DeserializeOwned>(text: &str, limits: Limits) -> Result<T, Error> {
    let (value, positions) = parse(text, limits)?;
    serde_path_to_error::deserialize(value).map_err(|e| {
        let mut pointer = String::new();
        for segment in e.path().iter() {
            use serde_path_to_error::Segment;
            match segment {
                Segment::Seq { index } => pointer.push_str(&format!("/{index}")),
                Segment::Map { key } => pointer.push_str(&format!("/{}", escape_pointer(key))),
                Segment::Enum { .. } => {}
                Segment::Unknown => break,
            }
        }
        Error {
            position: positions.key(&pointer),
            kind: ErrorKind::Shape,
            message: e.into_inner().to_string(),
        }
    })
}

/// RFC 6901 escaping of one reference token.
pub fn escape_pointer(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

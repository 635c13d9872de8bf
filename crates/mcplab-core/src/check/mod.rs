//! `mcplab check`: a linter for MCP servers. It exercises what a connected server advertises
//! (`probe`), then judges every frame the server sent against the official JSON Schema of the
//! negotiated revision and the rules the schema cannot express (`frames`, `tools`): tool
//! names and schemas, `structuredContent` against `outputSchema`, content types, `isError`,
//! pagination, list_changed, capability/behaviour mismatches, stdout noise and the size of
//! the tool list. Each finding names its rule, the spec section, the frame and a fix. It only
//! reads traffic and sends requests through a [`Connection`]; printing is the caller's.

mod frames;
mod probe;
mod rules;
mod spec;
mod tools;

use std::collections::{BTreeSet, HashMap};

use mcplab_protocol::TrafficFrame;
use mcplab_protocol::check::{CheckReport, Finding, Severity};

pub use probe::{CheckOptions, check_connection, check_failed_connect};
pub use rules::Rule;

/// Most findings kept per rule; the rest are summarised in one more finding.
const PER_RULE: usize = 20;
/// Longest frame excerpt in a finding.
const EXCERPT_CHARS: usize = 400;

/// The findings of one check run, with the rules that were applied.
pub(crate) struct Findings {
    revision: String,
    list: Vec<Finding>,
    per_rule: HashMap<&'static str, usize>,
    rules: BTreeSet<&'static str>,
}

impl Findings {
    fn new(revision: &str) -> Self {
        Self {
            revision: revision.to_owned(),
            list: Vec::new(),
            per_rule: HashMap::new(),
            rules: BTreeSet::new(),
        }
    }

    /// Notes that `rule` was checked (it becomes a JUnit test case, passed or not).
    fn applied(&mut self, rule: &Rule) {
        self.rules.insert(rule.id);
    }

    /// Adds a finding of `rule`.
    fn add(&mut self, rule: &Rule, message: String, at: At) {
        self.add_with(rule, rule.severity, message, at);
    }

    fn add_with(&mut self, rule: &Rule, severity: Severity, message: String, at: At) {
        self.rules.insert(rule.id);
        let n = self.per_rule.entry(rule.id).or_default();
        *n += 1;
        if *n > PER_RULE {
            return;
        }
        self.list.push(Finding {
            severity,
            rule: rule.id.to_owned(),
            message,
            spec: rule.url(&self.revision),
            fix: rule.fix.to_owned(),
            frame_seq: at.seq,
            excerpt: at.excerpt.map(|e| cut(&focus(&e, at.path.as_deref()))),
            path: at.path,
        });
    }

    fn finish(
        mut self,
        server: &str,
        protocol: Option<String>,
        exercised: Vec<String>,
    ) -> CheckReport {
        self.drop_covered_schema_findings();
        for (rule, n) in &self.per_rule {
            if *n > PER_RULE {
                let example = self.list.iter().find(|f| f.rule == *rule).cloned();
                if let Some(mut more) = example {
                    more.message = format!("… and {} more findings of this rule", n - PER_RULE);
                    more.excerpt = None;
                    more.frame_seq = None;
                    more.path = None;
                    self.list.push(more);
                }
            }
        }
        self.list.sort_by_key(|f| f.severity);
        CheckReport {
            server: server.to_owned(),
            protocol_version: protocol,
            exercised,
            rules: self.rules.iter().map(|r| (*r).to_owned()).collect(),
            findings: self.list,
        }
    }
}

impl Findings {
    /// A schema violation that a specific rule already explains (same frame, the same place,
    /// or one inside the other) is left out: the specific finding carries the better fix.
    fn drop_covered_schema_findings(&mut self) {
        let specific: Vec<(u64, String)> = self
            .list
            .iter()
            .filter(|f| f.rule != "schema")
            .filter_map(|f| Some((f.frame_seq?, f.path.clone()?)))
            .collect();
        self.list.retain(|f| {
            let (true, Some(seq), Some(path)) = (f.rule == "schema", f.frame_seq, &f.path) else {
                return true;
            };
            !specific.iter().any(|(s, p)| {
                *s == seq
                    && (path == p
                        || path.starts_with(&format!("{p}/"))
                        || p.starts_with(&format!("{path}/")))
            })
        });
    }
}

/// Where a finding points.
#[derive(Default)]
pub(crate) struct At {
    seq: Option<u64>,
    excerpt: Option<String>,
    path: Option<String>,
}

impl At {
    fn frame(frame: &TrafficFrame) -> Self {
        Self {
            seq: Some(frame.seq),
            excerpt: Some(frame.text.clone()),
            path: None,
        }
    }

    fn path(mut self, path: impl Into<String>) -> Self {
        let p = path.into();
        self.path = (!p.is_empty()).then_some(p);
        self
    }

    fn excerpt(mut self, excerpt: impl Into<String>) -> Self {
        self.excerpt = Some(excerpt.into());
        self
    }
}

/// The part of a frame a finding's path points at (the whole frame when it cannot be found).
fn focus(frame: &str, path: Option<&str>) -> String {
    let Some(path) = path.filter(|p| !p.is_empty()) else {
        return frame.to_owned();
    };
    serde_json::from_str::<serde_json::Value>(frame)
        .ok()
        .and_then(|v| v.pointer(path).map(|x| x.to_string()))
        .unwrap_or_else(|| frame.to_owned())
}

fn cut(s: &str) -> String {
    match s.char_indices().nth(EXCERPT_CHARS) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

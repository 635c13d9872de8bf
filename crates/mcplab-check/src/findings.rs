//! Collects the findings of one era: each from a [`Rule`] (its set, severity, source and fix),
//! a message and where it points ([`At`]: frames, a JSON path, an excerpt). Excerpts are cut
//! to a readable length with invisible characters made visible; a rule that fires very often
//! is summarised after the first [`PER_RULE`]. Pure: no I/O.

use std::collections::HashMap;

use mcplab_protocol::TrafficFrame;
use mcplab_protocol::check::{CheckCall, Finding, Severity};
use serde_json::Value;

use crate::rule::Rule;
use crate::visible::visible;

/// Most findings kept per rule; the rest are summarised in one more finding.
pub(crate) const PER_RULE: usize = 20;
/// Longest excerpt in a finding, in characters.
const EXCERPT_CHARS: usize = 400;

/// The findings of one era (or of the server as a whole, without a revision).
pub struct Findings {
    revision: Option<String>,
    list: Vec<Finding>,
    per_rule: HashMap<&'static str, usize>,
    /// Most findings kept per rule ([`PER_RULE`] in a report).
    cap: usize,
}

impl Findings {
    pub fn new(revision: Option<&str>) -> Self {
        Self {
            revision: revision.map(str::to_owned),
            list: Vec::new(),
            per_rule: HashMap::new(),
            cap: PER_RULE,
        }
    }

    /// Findings that keep every one of a rule's (the Tools page marks each tool, not the
    /// first twenty).
    pub fn every(revision: Option<&str>) -> Self {
        Self {
            cap: usize::MAX,
            ..Self::new(revision)
        }
    }

    /// The revision the findings are about.
    pub fn revision(&self) -> Option<&str> {
        self.revision.as_deref()
    }

    /// Adds a finding of `rule` at its own severity.
    pub fn add(&mut self, rule: &Rule, message: String, at: At) {
        self.add_with(rule, rule.severity(), message, at);
    }

    /// Adds a finding of `rule` at another severity (a rule whose source is stricter for one
    /// case, e.g. a tool without any name).
    pub fn add_with(&mut self, rule: &Rule, severity: Severity, message: String, at: At) {
        self.add_sourced(rule, severity, message, at, None);
    }

    /// Adds a finding of `rule` whose source is another page (URL, date read) than the
    /// rule's own: e.g. the host profile field a host verdict rests on.
    pub fn add_sourced(
        &mut self,
        rule: &Rule,
        severity: Severity,
        message: String,
        at: At,
        source: Option<(String, String)>,
    ) {
        let n = self.per_rule.entry(rule.id).or_default();
        *n += 1;
        if *n > self.cap {
            return;
        }
        self.list.push(Finding {
            rule_set: rule.set,
            rule: rule.id.to_owned(),
            severity,
            era: self.revision.clone(),
            message,
            source: source
                .as_ref()
                .map_or_else(|| rule.url(self.revision.as_deref()), |s| s.0.clone()),
            source_read: source
                .map(|s| s.1)
                .or_else(|| rule.read().map(str::to_owned)),
            fix: rule.fix.to_owned(),
            frames: at.frames,
            excerpt: at
                .excerpt
                .map(|e| cut(&visible(&focus(&e, at.path.as_deref())))),
            path: at.path,
            call: at.call,
            tool: at.tool,
        });
    }

    /// Names the tool of each finding of frame `seq` that points into its `tools/list` result
    /// (`/result/tools/N…`) and names none yet: `names[N]`, the names listed there. Schema
    /// violations are found by path, not by a rule that knows its tool.
    pub(crate) fn name_tools(&mut self, seq: u64, names: &[Option<&str>]) {
        for f in self.list.iter_mut().filter(|f| f.tool.is_none()) {
            let Some(rest) = f
                .path
                .as_deref()
                .and_then(|p| p.strip_prefix("/result/tools/"))
            else {
                continue;
            };
            let index = rest.split('/').next().and_then(|i| i.parse::<usize>().ok());
            if f.frames.first() == Some(&seq)
                && let Some(Some(name)) = index.and_then(|i| names.get(i))
            {
                f.tool = Some((*name).to_owned());
            }
        }
    }

    /// How many findings were added (those summarised included).
    pub(crate) fn count(&self) -> usize {
        self.per_rule.values().sum()
    }

    /// Whether a finding of `rule` was added.
    pub fn has(&self, rule: &Rule) -> bool {
        self.per_rule.contains_key(rule.id)
    }

    /// The findings, with the over-the-limit ones summarised.
    pub fn finish(mut self) -> Vec<Finding> {
        self.drop_covered_schema_findings();
        self.drop_repeated_schema_findings();
        let cap = self.cap;
        let mut over: Vec<(&&'static str, &usize)> =
            self.per_rule.iter().filter(|(_, n)| **n > cap).collect();
        over.sort();
        for (rule, n) in over {
            let example = self.list.iter().find(|f| f.rule == **rule).cloned();
            if let Some(mut more) = example {
                more.message = format!("… and {} more findings of this rule", n - cap);
                more.excerpt = None;
                more.frames.clear();
                more.path = None;
                more.tool = None;
                self.list.push(more);
            }
        }
        self.list
    }

    /// A schema violation said again by a second definition of the same message (a request's
    /// envelope and its method's own: `JSONRPCRequest` and `PingRequest` both refuse an id of
    /// 1.5) is left out: same frame, same place, same words after the definition's name.
    fn drop_repeated_schema_findings(&mut self) {
        let mut seen = std::collections::HashSet::new();
        self.list.retain(|f| {
            let (true, Some(seq), Some(path)) = (f.rule == "schema", f.frames.first(), &f.path)
            else {
                return true;
            };
            let said = f
                .message
                .split_once(": ")
                .map_or(f.message.as_str(), |(_, s)| s);
            seen.insert((*seq, path.clone(), said.to_owned()))
        });
    }

    /// A schema violation that a specific rule already explains (same frame, the same place,
    /// or one inside the other) is left out: the specific finding carries the better fix.
    fn drop_covered_schema_findings(&mut self) {
        let specific: Vec<(u64, String)> = self
            .list
            .iter()
            .filter(|f| f.rule != "schema")
            .filter_map(|f| Some((*f.frames.first()?, f.path.clone()?)))
            .collect();
        self.list.retain(|f| {
            let (true, Some(seq), Some(path)) = (f.rule == "schema", f.frames.first(), &f.path)
            else {
                return true;
            };
            !specific.iter().any(|(s, p)| {
                s == seq
                    && (path == p
                        || path.starts_with(&format!("{p}/"))
                        || p.starts_with(&format!("{path}/")))
            })
        });
    }
}

/// Where a finding points.
#[derive(Default, Clone)]
pub struct At {
    frames: Vec<u64>,
    excerpt: Option<String>,
    path: Option<String>,
    call: Option<CheckCall>,
    tool: Option<String>,
}

impl At {
    /// A frame, with its text as the excerpt (narrowed to the path when one is set).
    pub fn frame(frame: &TrafficFrame) -> Self {
        Self {
            frames: vec![frame.seq],
            excerpt: Some(frame.text.clone()),
            path: None,
            call: None,
            tool: None,
        }
    }

    /// Frames by number, without an excerpt.
    pub fn seqs(seqs: impl IntoIterator<Item = u64>) -> Self {
        Self {
            frames: seqs.into_iter().collect(),
            ..Self::default()
        }
    }

    /// One more frame that shows it.
    pub fn and_frame(mut self, seq: u64) -> Self {
        if !self.frames.contains(&seq) {
            self.frames.push(seq);
        }
        self
    }

    pub fn path(mut self, path: impl Into<String>) -> Self {
        let p = path.into();
        self.path = (!p.is_empty()).then_some(p);
        self
    }

    /// The exact call that shows it.
    pub fn call(mut self, name: &str, arguments: &Value) -> Self {
        self.call = Some(CheckCall {
            name: name.to_owned(),
            arguments: arguments.clone(),
        });
        self
    }

    /// The tool whose definition it is about.
    pub fn tool(mut self, name: &str) -> Self {
        self.tool = Some(name.to_owned());
        self
    }

    pub fn excerpt(mut self, excerpt: impl Into<String>) -> Self {
        self.excerpt = Some(excerpt.into());
        self
    }
}

/// The part of a frame a finding's path points at (the whole frame when it cannot be found).
fn focus(frame: &str, path: Option<&str>) -> String {
    let Some(path) = path.filter(|p| !p.is_empty()) else {
        return frame.to_owned();
    };
    serde_json::from_str::<Value>(frame)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::rules::SCHEMA;

    #[test]
    fn a_violation_two_definitions_say_alike_is_reported_once() {
        let mut f = Findings::new(Some("2025-11-25"));
        let id = "1.5 is not of types \"integer\", \"string\"";
        for def in ["JSONRPCRequest", "PingRequest"] {
            let at = At::seqs([9]).path("/id");
            f.add(&SCHEMA, format!("not a valid {def}: {id}"), at);
        }
        let other = "not a valid PingRequest: \"x\" is not of type \"object\"";
        f.add(&SCHEMA, other.into(), At::seqs([9]).path("/id"));
        f.add(
            &SCHEMA,
            format!("not a valid PingRequest: {id}"),
            At::seqs([10]).path("/id"),
        );
        let kept: Vec<(u64, String)> = f
            .finish()
            .into_iter()
            .map(|x| (x.frames[0], x.message))
            .collect();
        assert_eq!(kept.len(), 3, "{kept:?}");
        assert!(
            kept[0].1.starts_with("not a valid JSONRPCRequest"),
            "{kept:?}"
        );
    }
}

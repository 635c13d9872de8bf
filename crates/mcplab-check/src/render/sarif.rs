//! SARIF 2.1.0 (OASIS), the format GitHub code scanning reads: one run whose driver lists
//! every rule of the sets that ran (description, help link, default level) and one result per
//! finding. A finding is about a server, not a source line, so every result points at one
//! artifact the caller names (the config file, the server's script) at line 1, with the
//! frame and JSON path as a logical location and in its properties. A stable fingerprint per
//! finding lets code scanning follow it across runs.

use mcplab_protocol::check::{CheckReport, Finding, Severity};
use serde_json::{Value, json};

use crate::rule::Rule;
use crate::sets::all_rules;

/// What the results point at.
#[derive(Debug, Clone)]
pub struct SarifOptions {
    /// The artifact every result is located in (a repository-relative path when possible).
    pub artifact: String,
}

pub fn sarif(r: &CheckReport, opts: &SarifOptions) -> Value {
    let rules: Vec<&Rule> = all_rules()
        .filter(|rule| super::ran(r, rule.set) || r.findings.iter().any(|f| f.rule == rule.id))
        .collect();
    let descriptors: Vec<Value> = rules.iter().map(|rule| descriptor(rule)).collect();
    let results: Vec<Value> = r
        .findings
        .iter()
        .map(|f| result(f, &rules, &r.server, opts))
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "mcplab check",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": descriptors,
            }},
            "automationDetails": {"id": format!("mcplab-check/{}/", r.server)},
            "results": results,
        }],
    })
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn descriptor(rule: &Rule) -> Value {
    let mut help = format!("{}\n\nSource: {}", rule.summary, rule.url(None));
    if let Some(read) = rule.read() {
        help.push_str(&format!(" (read {read})"));
    }
    if !rule.fix.is_empty() {
        help.push_str(&format!("\n\nFix: {}", rule.fix));
    }
    json!({
        "id": rule.id,
        "name": rule.id,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.summary},
        "help": {"text": help},
        "helpUri": rule.url(None),
        "defaultConfiguration": {"level": level(rule.severity())},
        "properties": {"tags": ["mcp", rule.set.as_str()]},
    })
}

fn result(f: &Finding, rules: &[&Rule], server: &str, opts: &SarifOptions) -> Value {
    let index = rules.iter().position(|r| r.id == f.rule);
    let era = f.era.as_deref().unwrap_or("server");
    let mut where_ = format!("{server} [{era}]");
    if let Some(p) = super::place(f) {
        where_.push_str(&format!(" {p}"));
    }
    let mut text = format!("{} ({server}, {era})", f.message);
    if !f.fix.is_empty() {
        text.push_str(&format!(". Fix: {}", f.fix));
    }
    let mut out = json!({
        "ruleId": f.rule,
        "level": level(f.severity),
        "message": {"text": text},
        "locations": [{
            "physicalLocation": {
                "artifactLocation": {"uri": opts.artifact},
                "region": {"startLine": 1},
            },
            "logicalLocations": [{"name": where_, "kind": "object"}],
        }],
        "partialFingerprints": {"mcplabFinding/v1": fingerprint(server, f)},
        "properties": {
            "ruleSet": f.rule_set.as_str(),
            "era": f.era,
            "frames": f.frames,
            "path": f.path,
            "excerpt": f.excerpt,
            "source": f.source,
        },
    });
    if let Some(i) = index {
        out["ruleIndex"] = json!(i);
    }
    out
}

/// FNV-1a over what identifies a finding across runs (not its frame numbers).
fn fingerprint(server: &str, f: &Finding) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let parts = [
        server,
        &f.rule,
        f.era.as_deref().unwrap_or(""),
        f.path.as_deref().unwrap_or(""),
        &f.message,
    ];
    for part in parts {
        for b in part.bytes().chain([0]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

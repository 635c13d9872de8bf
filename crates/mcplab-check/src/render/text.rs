//! The report for people: per era what was exercised, then the findings grouped by rule set
//! (worst set first), each with where, the excerpt, the fix and the source; and the list of
//! every rule (`mcplab check --list-rules`).

use std::fmt::Write as _;

use mcplab_protocol::Era;
use mcplab_protocol::check::{CheckReport, Finding, Severity};

use super::{counts, groups, label, place, source};
use crate::rule::LISTING_REVISION;
use crate::sets::registry;

pub fn text(r: &CheckReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "check of {}", r.server);
    for e in &r.eras {
        let era = match e.era {
            Era::Modern => "2026-07-28 era",
            Era::Legacy => "2025 era",
        };
        let state = if e.connected {
            format!("protocol {}", e.revision)
        } else {
            "could not connect".to_owned()
        };
        let _ = writeln!(out, "  {era}: {state}");
        for x in &e.exercised {
            let _ = writeln!(out, "    · {x}");
        }
    }
    for note in &r.notes {
        let _ = writeln!(out, "  note: {note}");
    }
    out.push('\n');
    out.push_str(&super::hosts::text(&r.hosts));
    for (_, title, mine) in groups(r) {
        if mine.is_empty() {
            let _ = writeln!(out, "{title}: clean\n");
            continue;
        }
        let _ = writeln!(out, "{title}: {}", counts(&mine));
        for f in mine {
            finding(&mut out, f);
        }
    }
    let all: Vec<&Finding> = r.findings.iter().collect();
    let rules: usize = r.eras.iter().map(|e| e.rules.len()).sum();
    let _ = writeln!(
        out,
        "{}; {rules} rule checks in {} era(s)",
        counts(&all),
        r.eras.len()
    );
    out
}

fn finding(out: &mut String, f: &Finding) {
    let era = f
        .era
        .as_deref()
        .map(|e| format!(" [{e}]"))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "  {:<5} {}{era}: {}",
        label(f.severity),
        f.rule,
        f.message
    );
    if let Some(p) = place(f) {
        let _ = writeln!(out, "        at {p}");
    }
    if let Some(x) = &f.excerpt {
        let _ = writeln!(out, "        > {x}");
    }
    if !f.fix.is_empty() {
        let _ = writeln!(out, "        fix: {}", f.fix);
    }
    let _ = writeln!(out, "        source: {}\n", source(f));
}

/// Every rule of every set with its level and source.
pub fn rules_list() -> String {
    let mut out = String::new();
    for def in registry() {
        let when = if def.always {
            "always on"
        } else {
            "when asked for"
        };
        let _ = writeln!(out, "{} — {} ({when})", def.set.as_str(), def.title);
        for rule in def.rules {
            let severity = match rule.severity() {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "info",
            };
            let read = rule
                .read()
                .map(|d| format!(" (read {d})"))
                .unwrap_or_default();
            let _ = writeln!(out, "  {:<24} {severity:<8} {}", rule.id, rule.summary);
            let _ = writeln!(
                out,
                "  {:<24} {:<8} source: {}{read}",
                "",
                "",
                rule.url(None)
            );
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "Spec sources follow the negotiated revision in reports (shown here for {LISTING_REVISION})."
    );
    out
}

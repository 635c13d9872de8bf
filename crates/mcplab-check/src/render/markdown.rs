//! Markdown for a pull-request comment or a CI job summary: a verdict line, the eras checked,
//! then per rule set (worst first) a table of findings with where and the fix.

use std::fmt::Write as _;

use mcplab_protocol::Era;
use mcplab_protocol::check::{CheckReport, Finding, Severity};

use super::{counts, groups, place};

pub fn markdown(r: &CheckReport) -> String {
    let all: Vec<&Finding> = r.findings.iter().collect();
    let verdict = if r.unreachable() {
        "⛔ could not connect"
    } else if r.count(Severity::Error) > 0 {
        "❌ fails"
    } else {
        "✅ passes"
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## mcplab check of `{}`: {verdict}\n\n{}\n",
        cell(&r.server),
        counts(&all)
    );
    let _ = writeln!(
        out,
        "| era | revision | connected | exercised |\n|---|---|---|---|"
    );
    for e in &r.eras {
        let era = match e.era {
            Era::Modern => "2026-07-28",
            Era::Legacy => "2025",
        };
        let _ = writeln!(
            out,
            "| {era} | {} | {} | {} |",
            e.revision,
            if e.connected { "yes" } else { "no" },
            cell(&e.exercised.join("; "))
        );
    }
    for note in &r.notes {
        let _ = writeln!(out, "\n> {}", cell(note));
    }
    out.push_str(&super::hosts::markdown(&r.hosts));
    for (_, title, mine) in groups(r) {
        let _ = writeln!(out, "\n### {title}: {}\n", counts(&mine));
        if mine.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "| | rule | era | finding | where | fix |\n|---|---|---|---|---|---|"
        );
        for f in mine {
            let icon = match f.severity {
                Severity::Error => "❌",
                Severity::Warning => "⚠️",
                Severity::Info => "ℹ️",
            };
            let _ = writeln!(
                out,
                "| {icon} | [`{}`]({}) | {} | {} | {} | {} |",
                f.rule,
                f.source,
                f.era.as_deref().unwrap_or("—"),
                cell(&f.message),
                cell(&place(f).unwrap_or_default()),
                cell(&f.fix)
            );
        }
    }
    out
}

/// Text safe inside a table cell: pipes escaped, line breaks as spaces, HTML neutralised.
fn cell(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

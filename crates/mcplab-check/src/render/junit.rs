//! JUnit XML for CI: one test case per rule and era (and per rule with findings about the
//! server as a whole), with at most one `<failure>` each — the rule's errors joined — and its
//! warnings and notes in `<system-out>`. `failures` counts failing test cases.

use std::fmt::Write as _;

use mcplab_protocol::check::{CheckReport, Finding, Severity};

use super::{label, place, source};

struct Case<'a> {
    set: &'a str,
    rule: &'a str,
    era: Option<&'a str>,
    findings: Vec<&'a Finding>,
}

pub fn junit(r: &CheckReport) -> String {
    let cases = cases(r);
    let failing = cases
        .iter()
        .filter(|c| c.findings.iter().any(|f| f.severity == Severity::Error))
        .count();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuite name=\"mcplab check {}\" tests=\"{}\" failures=\"{failing}\" errors=\"0\">",
        xml(&r.server),
        cases.len()
    );
    for c in &cases {
        case(&mut out, c);
    }
    out.push_str("</testsuite>\n");
    out
}

fn cases(r: &CheckReport) -> Vec<Case<'_>> {
    let mut cases = Vec::new();
    for era in &r.eras {
        for rule in &era.rules {
            cases.push(Case {
                set: rule.rule_set.as_str(),
                rule: &rule.rule,
                era: Some(&era.revision),
                findings: r
                    .findings
                    .iter()
                    .filter(|f| f.rule == rule.rule && f.era.as_deref() == Some(&era.revision))
                    .collect(),
            });
        }
    }
    let mut whole: Vec<&Finding> = r.findings.iter().filter(|f| f.era.is_none()).collect();
    whole.sort_by(|a, b| a.rule.cmp(&b.rule));
    for f in whole {
        match cases
            .iter_mut()
            .find(|c| c.era.is_none() && c.rule == f.rule)
        {
            Some(c) => c.findings.push(f),
            None => cases.push(Case {
                set: f.rule_set.as_str(),
                rule: &f.rule,
                era: None,
                findings: vec![f],
            }),
        }
    }
    cases
}

fn case(out: &mut String, c: &Case) {
    let name = match c.era {
        Some(era) => format!("{} [{era}]", c.rule),
        None => c.rule.to_owned(),
    };
    let _ = writeln!(
        out,
        "  <testcase classname=\"mcplab.check.{}\" name=\"{}\">",
        xml(c.set),
        xml(&name)
    );
    let errors: Vec<&&Finding> = c
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .collect();
    if let Some(first) = errors.first() {
        let message = if errors.len() == 1 {
            first.message.clone()
        } else {
            format!("{} (and {} more)", first.message, errors.len() - 1)
        };
        let body: Vec<String> = errors.iter().map(|f| detail(f)).collect();
        let _ = writeln!(
            out,
            "    <failure message=\"{}\">{}</failure>",
            xml(&message),
            xml(&body.join("\n\n"))
        );
    }
    let notes: Vec<String> = c
        .findings
        .iter()
        .filter(|f| f.severity != Severity::Error)
        .map(|f| format!("{}: {}", label(f.severity), f.message))
        .collect();
    if !notes.is_empty() {
        let _ = writeln!(
            out,
            "    <system-out>{}</system-out>",
            xml(&notes.join("\n"))
        );
    }
    out.push_str("  </testcase>\n");
}

fn detail(f: &Finding) -> String {
    let mut s = f.message.clone();
    if let Some(p) = place(f) {
        let _ = write!(s, "\nat {p}");
    }
    if let Some(x) = &f.excerpt {
        let _ = write!(s, "\n> {x}");
    }
    let _ = write!(s, "\nfix: {}\nsource: {}", f.fix, source(f));
    s
}

/// Text for XML attributes and content; control characters XML 1.0 forbids are written as
/// `\xNN`.
fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' | '\t' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || matches!(c as u32, 0xFFFE | 0xFFFF) => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

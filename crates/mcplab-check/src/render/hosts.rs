//! The host verdicts for people: per host its verdict and the reasons about the server as a
//! whole, then the tools and apps that do not simply work, each reason with its profile
//! field and source (text); a servers-by-hosts line per host (Markdown).

use std::fmt::Write as _;

use mcplab_protocol::check::{HostItemKind, HostReason, HostVerdict, Verdict};
use mcplab_protocol::host_profile::FieldSource;

fn icon(v: Verdict) -> &'static str {
    match v {
        Verdict::Works => "✓",
        Verdict::Degraded => "◐",
        Verdict::Blocked => "✗",
        Verdict::Unknown => "?",
    }
}

fn source(r: &HostReason) -> String {
    match &r.source {
        Some(FieldSource::Documented(s)) => format!("{} (read {})", s.url, s.read),
        Some(FieldSource::Unknown(_)) => "unknown".into(),
        None => "no source in the profile".into(),
    }
}

fn reason(out: &mut String, indent: &str, r: &HostReason) {
    let _ = writeln!(
        out,
        "{indent}{} {:<8} {} [{}: {}]",
        icon(r.verdict),
        r.verdict.as_str(),
        r.message,
        r.field,
        source(r)
    );
}

/// The verdicts as text.
pub(super) fn text(hosts: &[HostVerdict]) -> String {
    let mut out = String::new();
    if hosts.is_empty() {
        return out;
    }
    let _ = writeln!(out, "Host verdicts:");
    for h in hosts {
        let at = h
            .revision
            .as_deref()
            .map(|r| format!(", judged at {r}"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  {} {}: {} (profile v{}{at})",
            icon(h.verdict),
            h.host,
            h.verdict.as_str().to_uppercase(),
            h.profile_version
        );
        for r in &h.reasons {
            reason(&mut out, "      ", r);
        }
        let fine = h
            .items
            .iter()
            .filter(|i| i.verdict == Verdict::Works)
            .count();
        for i in h.items.iter().filter(|i| i.verdict != Verdict::Works) {
            let kind = match i.kind {
                HostItemKind::Tool => "tool",
                HostItemKind::App => "app",
            };
            let _ = writeln!(out, "    {kind} {}: {}", i.name, i.verdict.as_str());
            for r in i.reasons.iter().filter(|r| r.verdict != Verdict::Works) {
                reason(&mut out, "      ", r);
            }
        }
        if fine > 0 {
            let _ = writeln!(out, "    {fine} tool(s)/app(s) work");
        }
    }
    out.push('\n');
    out
}

/// The verdicts as a Markdown table.
pub(super) fn markdown(hosts: &[HostVerdict]) -> String {
    let mut out = String::new();
    if hosts.is_empty() {
        return out;
    }
    let _ = writeln!(
        out,
        "\n### Hosts\n\n| host | verdict | not working |\n|---|---|---|"
    );
    for h in hosts {
        let bad: Vec<String> = h
            .items
            .iter()
            .filter(|i| i.verdict != Verdict::Works)
            .map(|i| format!("`{}` ({})", i.name, i.verdict.as_str()))
            .collect();
        let _ = writeln!(
            out,
            "| {} | {} {} | {} |",
            h.host,
            icon(h.verdict),
            h.verdict.as_str(),
            if bad.is_empty() {
                "—".into()
            } else {
                bad.join(", ").replace('|', "\\|")
            }
        );
    }
    out
}

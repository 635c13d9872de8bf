//! Renderings of a [`CheckReport`], shared by the CLI and the web API: text for people
//! (grouped by rule set, worst first), JUnit XML (one test case per rule and era), SARIF 2.1.0
//! (GitHub code scanning), Markdown (a pull-request comment or job summary), and the list of
//! every rule with its source. Each returns a string; writing it is the caller's.

mod hosts;
mod junit;
mod markdown;
mod sarif;
mod text;

use mcplab_protocol::check::{CheckReport, Finding, RuleSet, Severity};

pub use junit::junit;
pub use markdown::markdown;
pub use sarif::{SarifOptions, sarif};
pub use text::{rules_list, text};

use crate::sets::registry;

pub(crate) fn label(s: Severity) -> &'static str {
    match s {
        Severity::Error => "ERROR",
        Severity::Warning => "WARN",
        Severity::Info => "INFO",
    }
}

/// The findings by rule set: sets with the worst findings first (registry order among
/// equals), each set's findings worst first.
pub(crate) fn groups(report: &CheckReport) -> Vec<(RuleSet, &'static str, Vec<&Finding>)> {
    let mut out: Vec<(RuleSet, &'static str, Vec<&Finding>)> = registry()
        .into_iter()
        .map(|d| {
            let mut mine: Vec<&Finding> = report
                .findings
                .iter()
                .filter(|f| f.rule_set == d.set)
                .collect();
            mine.sort_by_key(|f| f.severity);
            (d.set, d.title, mine)
        })
        .filter(|(set, _, mine)| !mine.is_empty() || ran(report, *set))
        .collect();
    out.sort_by_key(|(_, _, mine)| {
        mine.first()
            .map_or(Severity::Info as u8 + 1, |f| f.severity as u8)
    });
    out
}

/// Whether any era applied rules of `set`.
pub(crate) fn ran(report: &CheckReport, set: RuleSet) -> bool {
    report
        .eras
        .iter()
        .any(|e| e.rules.iter().any(|r| r.rule_set == set))
}

/// "2 error(s), 1 warning(s), 3 note(s)".
pub(crate) fn counts(findings: &[&Finding]) -> String {
    let n = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
    format!(
        "{} error(s), {} warning(s), {} note(s)",
        n(Severity::Error),
        n(Severity::Warning),
        n(Severity::Info)
    )
}

/// Where a finding points, in words ("frame #12, /result/tools/0").
pub(crate) fn place(f: &Finding) -> Option<String> {
    let frames = match f.frames.as_slice() {
        [] => None,
        [one] => Some(format!("frame #{one}")),
        many => Some(format!(
            "frames {}",
            many.iter()
                .map(|s| format!("#{s}"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    };
    match (frames, &f.path) {
        (Some(fr), Some(p)) => Some(format!("{fr}, {p}")),
        (Some(fr), None) => Some(fr),
        (None, Some(p)) => Some(p.clone()),
        (None, None) => None,
    }
}

/// The source with the date it was read, when it has one.
pub(crate) fn source(f: &Finding) -> String {
    match &f.source_read {
        Some(read) => format!("{} (read {read})", f.source),
        None => f.source.clone(),
    }
}

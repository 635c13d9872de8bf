//! JUnit XML for CI: one `<testcase>` per case × model, named with both (`case-id
//! [provider::model]`), failed when its pass rate is under the case threshold (the failing
//! iterations' reasons in the body), an error when no iteration completed. Everything escaped.

use std::fmt::Write;

use super::{escape, pct};
use crate::run::RunRecord;
use crate::stats::{CellSummary, RunSummary};

/// The run as a JUnit XML document.
pub fn junit_xml(run: &RunRecord, summary: &RunSummary) -> String {
    let failures = summary
        .cells
        .iter()
        .filter(|c| c.passed == Some(false))
        .count();
    let errors = summary.cells.iter().filter(|c| c.passed.is_none()).count();
    let total_ms: u64 = run.iterations.iter().map(|i| i.metrics.latency_ms).sum();
    let suite = escape(&run.suite_id);
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        x,
        "<testsuites name=\"mcplab eval {suite}\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{:.3}\">",
        summary.cells.len(),
        total_ms as f64 / 1000.0
    );
    let _ = writeln!(
        x,
        "  <testsuite name=\"{suite}\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"0\" time=\"{:.3}\">",
        summary.cells.len(),
        total_ms as f64 / 1000.0
    );
    let _ = writeln!(
        x,
        "    <properties>\n      <property name=\"suiteHash\" value=\"{}\"/>",
        escape(&run.suite_hash)
    );
    if let Some(rate) = summary.pass_rate {
        let _ = writeln!(x, "      <property name=\"passRate\" value=\"{rate:.4}\"/>");
    }
    x.push_str("    </properties>\n");
    for cell in &summary.cells {
        testcase(&mut x, run, cell);
    }
    x.push_str("  </testsuite>\n</testsuites>\n");
    x
}

fn testcase(x: &mut String, run: &RunRecord, cell: &CellSummary) {
    let its: Vec<_> = run
        .iterations
        .iter()
        .filter(|i| i.unit.case_id == cell.case_id && i.unit.model == cell.model)
        .collect();
    let ms: u64 = its.iter().map(|i| i.metrics.latency_ms).sum();
    let _ = writeln!(
        x,
        "    <testcase name=\"{} [{}]\" classname=\"{}.{}\" time=\"{:.3}\">",
        escape(&cell.case_id),
        escape(&crate::run::model_label(&cell.model)),
        escape(&run.suite_id),
        escape(&cell.case_id),
        ms as f64 / 1000.0
    );
    let mut details = String::new();
    let mut sorted = its.clone();
    sorted.sort_by_key(|i| i.unit.iteration);
    for it in sorted.iter().filter(|i| !i.outcome.is_pass()) {
        for f in &it.failures {
            let _ = writeln!(details, "iteration {}: {f}", it.unit.iteration + 1);
        }
    }
    let stats = stats_line(cell);
    match cell.passed {
        Some(true) => {}
        Some(false) => {
            let message = format!(
                "pass rate {}/{} is under the threshold {}",
                cell.passes,
                cell.n,
                pct(cell.pass_threshold)
            );
            let _ = writeln!(
                x,
                "      <failure message=\"{}\" type=\"EvalFailure\">{}</failure>",
                escape(&message),
                escape(&details)
            );
        }
        None => {
            let message = format!("no iteration completed ({} errored)", cell.errors);
            let _ = writeln!(
                x,
                "      <error message=\"{}\" type=\"EvalError\">{}</error>",
                escape(&message),
                escape(&details)
            );
        }
    }
    let _ = writeln!(
        x,
        "      <system-out>{}</system-out>\n    </testcase>",
        escape(&stats)
    );
}

fn stats_line(c: &CellSummary) -> String {
    let mut s = format!("{}/{} passed", c.passes, c.n);
    if let (Some(r), Some(i)) = (c.pass_rate, c.interval) {
        s += &format!(" ({}; 95% CI {}–{})", pct(r), pct(i.low), pct(i.high));
    }
    if c.errors > 0 {
        s += &format!(", {} errored", c.errors);
    }
    for (k, v) in &c.pass_hat_k {
        s += &format!(", pass^{k} {v:.3}");
    }
    if c.flaky {
        s += ", flaky";
    }
    s
}

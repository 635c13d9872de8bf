//! The self-contained HTML report: one file with inline CSS and inline SVG charts, no script
//! and no external resource (its CSP says so), every value from the run escaped. Summary,
//! gates, the case × model matrix (dots per iteration, pass rate with interval, pass^k, p50
//! latency, tokens, cost), charts, failing iterations, and the comparison with a baseline.

use std::fmt::Write;

use super::charts::{latency_chart, pass_rate_chart};
use super::{escape, pct};
use crate::compare::Comparison;
use crate::gates::{GateReport, GateStatus};
use crate::run::RunRecord;
use crate::stats::{CellSummary, RunSummary};

const STYLE: &str = "body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d2430;background:#fff}\
h1{font-size:20px}h2{font-size:16px;margin-top:28px}table{border-collapse:collapse}\
td,th{border-bottom:1px solid #e3e6ea;padding:4px 10px;text-align:left;vertical-align:top}\
.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}.pass{color:#137333}.fail{color:#b3261e}.insufficient{color:#8a5a00}\
.dot{display:inline-block;width:9px;height:9px;border-radius:50%;margin-right:2px}.dot.p{background:#1e8e3e}.dot.f{background:#d93025}.dot.e{background:#9aa0a6}\
svg .lbl,svg .val,svg .tick,svg .na{font:12px system-ui,sans-serif;fill:#3c4043}svg .ok{fill:#81c995}svg .bad{fill:#f28b82}\
svg .ci{stroke:#202124;stroke-width:1.5;fill:none}svg .grid{stroke:#e8eaed}svg .llm{fill:#8ab4f8}svg .mcp{fill:#fdd663}svg .p95{stroke:#202124;stroke-width:2}\
pre{white-space:pre-wrap;margin:0}.muted{color:#5f6368}";

/// The report page.
pub fn html_report(
    run: &RunRecord,
    s: &RunSummary,
    gates: Option<&GateReport>,
    comparison: Option<&Comparison>,
) -> String {
    let mut h = String::new();
    let title = format!("mcplab eval · {}", run.suite_id);
    let _ = write!(
        h,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\
         <title>{}</title><style>{STYLE}</style></head><body><h1>{}</h1>",
        escape(&title),
        escape(&title)
    );
    overview(&mut h, run, s);
    if let Some(g) = gates {
        gate_table(&mut h, g);
    }
    matrix(&mut h, s);
    let _ = write!(
        h,
        "<h2>Pass rate</h2>{}<h2>Latency</h2><p class=\"muted\">Bars: p50 LLM time (blue) and MCP time (yellow); tick: p95 of the whole iteration.</p>{}",
        pass_rate_chart(&s.cells),
        latency_chart(&s.cells)
    );
    failures(&mut h, run);
    if let Some(c) = comparison {
        compare_table(&mut h, c);
    }
    h.push_str("</body></html>\n");
    h
}

fn opt(v: Option<f64>, f: impl Fn(f64) -> String) -> String {
    v.map_or_else(|| "—".to_string(), f)
}

fn overview(h: &mut String, run: &RunRecord, s: &RunSummary) {
    let rate = match (s.pass_rate, s.interval) {
        (Some(r), Some(i)) => format!(
            "{} ({}/{}; 95% CI {}–{})",
            pct(r),
            s.passes,
            s.completed,
            pct(i.low),
            pct(i.high)
        ),
        _ => "—".into(),
    };
    let mut cost = match s.cost_usd {
        Some(c) => format!("${c:.4}"),
        None => format!("unknown ({} iteration(s) without a price)", s.unpriced),
    };
    for (who, u) in [("judge", &s.judge), ("simulated user", &s.simulated_user)] {
        if u.calls > 0 {
            let spent = u.cost_usd.map_or("no price".into(), |c| format!("${c:.4}"));
            cost.push_str(&format!(
                " · of which {who} {spent} ({} in / {} out tokens)",
                u.input_tokens, u.output_tokens
            ));
        }
    }
    let rows = [
        (
            "Suite",
            format!(
                "{} ({})",
                run.suite_id,
                run.suite_hash.get(..12).unwrap_or(&run.suite_hash)
            ),
        ),
        (
            "Iterations",
            format!(
                "{} finished of {} planned; {} errored",
                s.finished, s.planned, s.errors
            ),
        ),
        ("Pass rate", rate),
        (
            "Tool calls",
            format!(
                "precision {} · recall {}",
                opt(s.precision, pct),
                opt(s.recall, pct)
            ),
        ),
        (
            "Tokens",
            format!("{} in · {} out", s.input_tokens, s.output_tokens),
        ),
        ("Cost", cost),
        (
            "Latency",
            format!(
                "p50 {} · p95 {} (LLM p50 {} · MCP p50 {})",
                ms(s.latency.p50),
                ms(s.latency.p95),
                ms(s.llm.p50),
                ms(s.mcp.p50)
            ),
        ),
        (
            "Flaky",
            if s.flaky.is_empty() {
                "none".into()
            } else {
                s.flaky
                    .iter()
                    .map(|(c, m)| format!("{c} on {m}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            },
        ),
    ];
    h.push_str("<table>");
    for (k, v) in rows {
        let _ = write!(h, "<tr><th>{}</th><td>{}</td></tr>", escape(k), escape(&v));
    }
    h.push_str("</table>");
}

fn ms(v: Option<f64>) -> String {
    opt(v, |x| format!("{x:.0} ms"))
}

fn gate_table(h: &mut String, g: &GateReport) {
    let _ = write!(h, "<h2>Gates (exit code {})</h2>", g.exit_code);
    for reason in &g.invalid {
        let _ = write!(
            h,
            "<p class=\"insufficient\">Invalid run: {}</p>",
            escape(reason)
        );
    }
    h.push_str("<table><tr><th>Gate</th><th>Status</th><th>Why</th></tr>");
    for r in &g.gates {
        let (class, word) = match r.status {
            GateStatus::Pass => ("pass", "pass"),
            GateStatus::Fail => ("fail", "FAIL"),
            GateStatus::InsufficientData => ("insufficient", "insufficient data"),
        };
        let _ = write!(
            h,
            "<tr><td>{}</td><td class=\"{class}\">{word}</td><td>{}</td></tr>",
            escape(&r.gate),
            escape(&r.reason)
        );
    }
    h.push_str("</table>");
}

fn matrix(h: &mut String, s: &RunSummary) {
    h.push_str("<h2>Cases × models</h2><table><tr><th>Case</th><th>Model</th><th>Iterations</th><th class=\"num\">Pass rate</th><th class=\"num\">95% CI</th><th class=\"num\">pass^k</th><th class=\"num\">p50</th><th class=\"num\">Tokens</th><th class=\"num\">Cost</th></tr>");
    for c in &s.cells {
        row(h, c);
    }
    h.push_str("</table>");
}

fn row(h: &mut String, c: &CellSummary) {
    let dots: String = c
        .dots
        .iter()
        .map(|d| match d {
            Some(true) => "<span class=\"dot p\" title=\"pass\"></span>",
            Some(false) => "<span class=\"dot f\" title=\"fail\"></span>",
            None => "<span class=\"dot e\" title=\"error\"></span>",
        })
        .collect();
    let class = match c.passed {
        Some(true) => "pass",
        Some(false) => "fail",
        None => "insufficient",
    };
    let hat: Vec<String> = c
        .pass_hat_k
        .iter()
        .filter(|(k, _)| **k > 1)
        .map(|(k, v)| format!("^{k} {v:.2}"))
        .collect();
    let _ = write!(
        h,
        "<tr><td>{}</td><td>{}</td><td>{dots}</td><td class=\"num {class}\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
        escape(&c.case_id),
        escape(&crate::run::model_label(&c.model)),
        opt(c.pass_rate, pct),
        c.interval
            .map_or("—".into(), |i| format!("{}–{}", pct(i.low), pct(i.high))),
        escape(&hat.join(" ")),
        ms(c.latency.p50),
        opt(c.mean_tokens, |t| format!("{t:.0}")),
        opt(c.cost_usd, |x| format!("${x:.4}")),
    );
}

fn failures(h: &mut String, run: &RunRecord) {
    let failing: Vec<_> = run
        .iterations
        .iter()
        .filter(|i| !i.outcome.is_pass())
        .collect();
    if failing.is_empty() {
        return;
    }
    h.push_str("<h2>Failing iterations</h2><table><tr><th>Case</th><th>Model</th><th>#</th><th>Why</th></tr>");
    for it in failing {
        let why = it.failures.join("\n");
        let _ = write!(
            h,
            "<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td><td><pre>{}</pre></td></tr>",
            escape(&it.unit.case_id),
            escape(&crate::run::model_label(&it.unit.model)),
            it.unit.iteration + 1,
            escape(&why)
        );
    }
    h.push_str("</table>");
}

fn compare_table(h: &mut String, c: &Comparison) {
    let _ = write!(
        h,
        "<h2>Compared with the baseline</h2><p class=\"muted\">Regression: the 95% Newcombe interval of the difference is below zero with at least {} completed iterations on each side.</p>",
        c.min_samples
    );
    h.push_str("<table><tr><th>Case</th><th>Model</th><th>Change</th><th class=\"num\">Base</th><th class=\"num\">Run</th><th class=\"num\">Difference (95% CI)</th><th>Verdict</th></tr>");
    for cell in &c.cells {
        let counts = |x: Option<(u64, u64)>| x.map_or("—".into(), |(p, n)| format!("{p}/{n}"));
        let diff = match (cell.difference, cell.interval) {
            (Some(d), Some(i)) => format!(
                "{:+.1} ({:+.1} to {:+.1}) points",
                d * 100.0,
                i.low * 100.0,
                i.high * 100.0
            ),
            _ => "—".into(),
        };
        let verdict = cell
            .significance
            .map_or("—".to_string(), |s| format!("{s:?}"));
        let _ = write!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
            escape(&cell.case_id),
            escape(&crate::run::model_label(&cell.model)),
            cell.change.label(),
            counts(cell.base),
            counts(cell.run),
            escape(&diff),
            escape(&verdict)
        );
    }
    h.push_str("</table>");
}

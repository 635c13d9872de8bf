//! Inline SVG charts for the HTML report: pass rate per case × model with its 95 % interval
//! as a whisker, and latency (p50 split LLM/MCP, p95 marked). Plain SVG elements, no script,
//! every label escaped; sized from the data so nothing overflows.

use std::fmt::Write;

use super::{escape, pct};
use crate::stats::CellSummary;

const LABEL_W: f64 = 330.0;
const PLOT_W: f64 = 420.0;
const ROW_H: f64 = 22.0;

/// "case · model", shortened to fit the label column (the full names are in the table).
fn label(c: &CellSummary) -> String {
    let full = format!("{} · {}", c.case_id, crate::run::model_label(&c.model));
    match full.char_indices().nth(50) {
        Some((cut, _)) => format!("{}…", &full[..cut]),
        None => full,
    }
}

fn frame(rows: usize, title: &str, body: &str, axis: &str) -> String {
    let h = rows as f64 * ROW_H + 40.0;
    let w = LABEL_W + PLOT_W + 200.0;
    format!(
        "<svg role=\"img\" aria-label=\"{t}\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\"><title>{t}</title>{axis}{body}</svg>",
        t = escape(title)
    )
}

/// Horizontal bars of pass rate with the Wilson interval as a whisker.
pub fn pass_rate_chart(cells: &[CellSummary]) -> String {
    let mut body = String::new();
    for (i, c) in cells.iter().enumerate() {
        let y = 20.0 + i as f64 * ROW_H;
        let _ = write!(
            body,
            "<text x=\"{:.0}\" y=\"{:.1}\" text-anchor=\"end\" class=\"lbl\">{}</text>",
            LABEL_W - 8.0,
            y + 14.0,
            escape(&label(c))
        );
        let Some(rate) = c.pass_rate else {
            let _ = write!(
                body,
                "<text x=\"{LABEL_W}\" y=\"{:.1}\" class=\"na\">no completed iteration</text>",
                y + 14.0
            );
            continue;
        };
        let class = match c.passed {
            Some(true) => "ok",
            _ => "bad",
        };
        let _ = write!(
            body,
            "<rect x=\"{LABEL_W}\" y=\"{:.1}\" width=\"{:.1}\" height=\"14\" class=\"{class}\"/>",
            y + 3.0,
            rate * PLOT_W
        );
        if let Some(iv) = c.interval {
            let (x1, x2, ym) = (
                LABEL_W + iv.low * PLOT_W,
                LABEL_W + iv.high * PLOT_W,
                y + 10.0,
            );
            let _ = write!(
                body,
                "<path d=\"M{x1:.1} {ym:.1}H{x2:.1}M{x1:.1} {:.1}V{:.1}M{x2:.1} {:.1}V{:.1}\" class=\"ci\"/>",
                ym - 4.0,
                ym + 4.0,
                ym - 4.0,
                ym + 4.0
            );
        }
        let _ = write!(
            body,
            "<text x=\"{:.1}\" y=\"{:.1}\" class=\"val\">{} ({}/{})</text>",
            LABEL_W + PLOT_W + 6.0,
            y + 14.0,
            pct(rate),
            c.passes,
            c.n
        );
    }
    frame(
        cells.len(),
        "Pass rate per case and model, with 95% Wilson intervals",
        &body,
        &axis(cells.len(), &["0%", "50%", "100%"]),
    )
}

fn axis(rows: usize, ticks: &[&str]) -> String {
    let bottom = 20.0 + rows as f64 * ROW_H;
    let mut s = String::new();
    for (k, t) in ticks.iter().enumerate() {
        let x = LABEL_W + PLOT_W * k as f64 / (ticks.len() - 1) as f64;
        let _ = write!(
            s,
            "<path d=\"M{x:.1} 16V{bottom:.1}\" class=\"grid\"/><text x=\"{x:.1}\" y=\"12\" text-anchor=\"middle\" class=\"tick\">{}</text>",
            escape(t)
        );
    }
    s
}

/// Latency per cell: p50 as LLM + MCP stacked bars, p95 as a tick.
pub fn latency_chart(cells: &[CellSummary]) -> String {
    let max = cells
        .iter()
        .filter_map(|c| c.latency.p95.or(c.latency.p50))
        .fold(1.0_f64, f64::max);
    let scale = PLOT_W / max;
    let mut body = String::new();
    for (i, c) in cells.iter().enumerate() {
        let y = 20.0 + i as f64 * ROW_H;
        let _ = write!(
            body,
            "<text x=\"{:.0}\" y=\"{:.1}\" text-anchor=\"end\" class=\"lbl\">{}</text>",
            LABEL_W - 8.0,
            y + 14.0,
            escape(&label(c))
        );
        let (llm, mcp) = (c.llm.p50.unwrap_or(0.0), c.mcp.p50.unwrap_or(0.0));
        let _ = write!(
            body,
            "<rect x=\"{LABEL_W}\" y=\"{:.1}\" width=\"{:.1}\" height=\"14\" class=\"llm\"/>",
            y + 3.0,
            llm * scale
        );
        let _ = write!(
            body,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"14\" class=\"mcp\"/>",
            LABEL_W + llm * scale,
            y + 3.0,
            mcp * scale
        );
        if let Some(p95) = c.latency.p95 {
            let x = LABEL_W + p95 * scale;
            let _ = write!(
                body,
                "<path d=\"M{x:.1} {:.1}V{:.1}\" class=\"p95\"/>",
                y + 1.0,
                y + 19.0
            );
        }
        let text = match (c.latency.p50, c.latency.p95) {
            (Some(p50), Some(p95)) => format!("p50 {p50:.0} ms · p95 {p95:.0} ms"),
            _ => "—".to_string(),
        };
        let _ = write!(
            body,
            "<text x=\"{:.1}\" y=\"{:.1}\" class=\"val\">{}</text>",
            LABEL_W + PLOT_W + 6.0,
            y + 14.0,
            escape(&text)
        );
    }
    let ticks = [
        "0 ms".to_string(),
        format!("{:.0} ms", max / 2.0),
        format!("{max:.0} ms"),
    ];
    let refs: Vec<&str> = ticks.iter().map(String::as_str).collect();
    frame(
        cells.len(),
        "Latency per case and model: p50 split LLM / MCP, p95 tick",
        &body,
        &axis(cells.len(), &refs),
    )
}

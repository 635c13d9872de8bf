//! Reports of a run: progress events as JSON Lines (`RunEvent`, the wire contract's), JUnit XML for CI (`junit`) and
//! a self-contained HTML page with inline SVG charts (`html`, `charts`). Each is a pure
//! function of the run's records; the runner decides where the bytes go.

pub mod charts;
pub mod html;
pub mod junit;

pub use html::html_report;
pub use junit::junit_xml;
pub use mcplab_protocol::evals::{Progress, RunEvent};

/// Text made safe for XML and HTML text and attribute values: markup characters escaped, and
/// characters XML 1.0 forbids (most control characters) replaced with U+FFFD.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// `0.1234` → `12.3%`.
pub(crate) fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

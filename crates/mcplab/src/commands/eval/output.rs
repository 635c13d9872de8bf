//! What `mcplab eval` prints and writes: the live progress (a bar on a terminal — cases ×
//! models × iterations, passed/failed/errored so far, ETA —, one line per iteration in a CI
//! log, or the events as JSON Lines with `--json`), the summary table of a run (cells with
//! dots, pass rate and interval, p50 latency, tokens, cost; gates; verdict), and the report
//! files (`run.json`, `events.jsonl`, `junit.xml`, `report.html`).

use mcplab_evals::run::model_label;
use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::Path;
use std::time::Instant;

use mcplab_evalrun::RunSink;
use mcplab_evals::compare::Comparison;
use mcplab_evals::gates::{GateReport, GateStatus};
use mcplab_evals::report::{RunEvent, html_report, junit_xml};
use mcplab_evals::run::{RunRecord, SideUsage};
use mcplab_evals::stats::RunSummary;
use mcplab_evals::suite::Gates;
use mcplab_evals::verdict::Outcome;
use parking_lot::Mutex;
use serde::{Deserialize, Serialize};

use crate::failure::Failure;

/// `run.json`: what a run (or shard) leaves for `eval merge` and for people.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunFile {
    pub run_id: String,
    pub record: RunRecord,
    pub summary: RunSummary,
    pub gates: GateReport,
    /// The gates the run was judged by (suite over command line), for a merge to judge again.
    pub suite_gates: Gates,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comparison: Option<Comparison>,
}

/// Where run events go while the run lasts.
pub struct CliSink {
    json: bool,
    /// A terminal: draw the bar; else (not `--json`) a line per iteration.
    bar: bool,
    events: Option<Mutex<BufWriter<File>>>,
    state: Mutex<BarState>,
}

#[derive(Default)]
struct BarState {
    started: Option<Instant>,
    drawn: bool,
}

impl CliSink {
    pub fn new(json: bool, events: Option<&Path>) -> Result<CliSink, Failure> {
        let events = match events {
            Some(p) => Some(Mutex::new(BufWriter::new(private_file(p).map_err(
                |e| Failure::usage(format!("cannot write {}: {e}", p.display())),
            )?))),
            None => None,
        };
        Ok(CliSink {
            json,
            bar: !json && std::io::stderr().is_terminal(),
            events,
            state: Mutex::default(),
        })
    }

    /// Clears the bar and flushes the events file.
    pub fn finish(&self) {
        self.clear();
        if let Some(f) = &self.events {
            let _ = f.lock().flush();
        }
    }

    fn clear(&self) {
        let mut s = self.state.lock();
        if s.drawn {
            eprint!("\r\x1b[2K");
            s.drawn = false;
        }
    }
}

impl RunSink for CliSink {
    fn event(&self, event: &RunEvent) {
        let line = event.to_line();
        if let Some(f) = &self.events {
            let _ = writeln!(f.lock(), "{line}");
        }
        if self.json {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
            return;
        }
        match event {
            RunEvent::RunStarted { .. } => {
                self.state.lock().started = Some(Instant::now());
            }
            RunEvent::Warning { message } => {
                self.clear();
                eprintln!("warning: {}", crate::output::safe(message));
            }
            RunEvent::IterationFinished {
                record, progress, ..
            } => {
                if self.bar {
                    let mut s = self.state.lock();
                    let elapsed = s.started.map(|t| t.elapsed().as_secs_f64()).unwrap_or(0.0);
                    eprint!("\r\x1b[2K{}", bar(progress, elapsed));
                    let _ = std::io::stderr().flush();
                    s.drawn = true;
                } else {
                    let mark = match &record.outcome {
                        Outcome::Passed => "✓",
                        Outcome::Failed => "✗",
                        Outcome::Errored { .. } => "!",
                    };
                    let u = &record.unit;
                    let why = record
                        .failures
                        .first()
                        .map(|f| format!(": {f}"))
                        .unwrap_or_default();
                    // A failure reason quotes server errors and answers (N2).
                    let line = format!(
                        "{mark} [{}/{}] {} [{}] #{}{why}",
                        progress.finished,
                        progress.planned,
                        u.case_id,
                        model_label(&u.model),
                        u.iteration + 1
                    );
                    eprintln!("{}", crate::output::safe(&line));
                }
            }
            _ => {}
        }
    }
}

/// `[#######-------] 12/40  ✓ 10  ✗ 1  ! 1  ETA 1m02s`
pub fn bar(p: &mcplab_evals::report::Progress, elapsed_secs: f64) -> String {
    const WIDTH: usize = 24;
    let frac = if p.planned == 0 {
        1.0
    } else {
        p.finished as f64 / p.planned as f64
    };
    let filled = ((frac * WIDTH as f64).round() as usize).min(WIDTH);
    let eta = if p.finished > 0 && p.finished < p.planned {
        let left = elapsed_secs / p.finished as f64 * (p.planned - p.finished) as f64;
        format!("  ETA {}", duration(left))
    } else {
        String::new()
    };
    format!(
        "[{}{}] {}/{}  ✓ {}  ✗ {}  ! {}{eta}",
        "#".repeat(filled),
        "-".repeat(WIDTH - filled),
        p.finished,
        p.planned,
        p.passed,
        p.failed,
        p.errored
    )
}

fn duration(secs: f64) -> String {
    let s = secs.round() as u64;
    if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// The summary of a run as a table with its gates and verdict.
pub fn summary_text(
    run_id: &str,
    record: &RunRecord,
    s: &RunSummary,
    gates: Option<&GateReport>,
) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "suite {} · run {run_id} · {} of {} iterations ({} completed, {} errored)\n\n",
        record.suite_id, s.finished, s.planned, s.completed, s.errors
    ));
    let case_w = s
        .cells
        .iter()
        .map(|c| c.case_id.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let model_w = s
        .cells
        .iter()
        .map(|c| model_label(&c.model).len())
        .max()
        .unwrap_or(5)
        .max(5);
    out.push_str(&format!(
        "{:case_w$}  {:model_w$}  {:12}  {:>14}  {:>13}  {:>7}  {:>7}  {:>8}\n",
        "CASE", "MODEL", "RUNS", "PASS", "95% CI", "p50 ms", "TOKENS", "COST"
    ));
    for c in &s.cells {
        let dots: String = c
            .dots
            .iter()
            .take(12)
            .map(|d| match d {
                Some(true) => '●',
                Some(false) => '○',
                None => '·',
            })
            .collect();
        let pass = match c.pass_rate {
            Some(r) => format!("{}/{} {}", c.passes, c.n, pct(r)),
            None => "—".into(),
        };
        let ci = c
            .interval
            .map_or("—".into(), |i| format!("{}–{}", pct(i.low), pct(i.high)));
        let flag = match c.passed {
            Some(true) => "",
            Some(false) => "  FAIL",
            None => "  NO DATA",
        };
        let flaky = if c.flaky { " flaky" } else { "" };
        out.push_str(&format!(
            "{:case_w$}  {:model_w$}  {:12}  {:>14}  {:>13}  {:>7}  {:>7}  {:>8}{flag}{flaky}\n",
            c.case_id,
            model_label(&c.model),
            dots,
            pass,
            ci,
            c.latency.p50.map_or("—".into(), |v| format!("{v:.0}")),
            c.mean_tokens.map_or("—".into(), |v| format!("{v:.0}")),
            c.cost_usd.map_or("—".into(), |v| format!("${v:.4}")),
        ));
    }
    out.push('\n');
    if let (Some(r), Some(i)) = (s.pass_rate, s.interval) {
        out.push_str(&format!(
            "pass rate {} ({}/{}; 95% CI {}–{})",
            pct(r),
            s.passes,
            s.completed,
            pct(i.low),
            pct(i.high)
        ));
    }
    if let (Some(p), Some(r)) = (s.precision, s.recall) {
        out.push_str(&format!(
            " · tool calls precision {} recall {}",
            pct(p),
            pct(r)
        ));
    }
    match s.cost_usd {
        Some(c) => out.push_str(&format!(" · cost ${c:.4}")),
        None if s.unpriced > 0 => out.push_str(" · cost unknown (no price for a model)"),
        None => {}
    }
    for (who, u) in [("judge", &s.judge), ("simulated user", &s.simulated_user)] {
        out.push_str(&side_text(who, u));
    }
    if let Some(p95) = s.latency.p95 {
        out.push_str(&format!(
            " · latency p95 {p95:.0} ms (LLM p50 {} ms, MCP p50 {} ms)",
            s.llm.p50.map_or("—".into(), |v| format!("{v:.0}")),
            s.mcp.p50.map_or("—".into(), |v| format!("{v:.0}"))
        ));
    }
    out.push('\n');
    if !s.flaky.is_empty() {
        let list: Vec<String> = s.flaky.iter().map(|(c, m)| format!("{c} [{m}]")).collect();
        out.push_str(&format!("flaky: {}\n", list.join(", ")));
    }
    if let Some(g) = gates {
        out.push_str(&gates_text(g));
    }
    out
}

/// What the judge or simulated users spent (in the cost above, shown apart); empty when nothing.
fn side_text(who: &str, u: &SideUsage) -> String {
    if u.calls == 0 {
        return String::new();
    }
    let cost = u.cost_usd.map_or("no price".into(), |c| format!("${c:.4}"));
    format!(
        " · {who} {} in / {} out tokens, {cost}",
        u.input_tokens, u.output_tokens
    )
}

fn gates_text(g: &GateReport) -> String {
    let mut out = String::new();
    if !g.gates.is_empty() {
        out.push_str("\ngates:\n");
    }
    for r in &g.gates {
        let mark = match r.status {
            GateStatus::Pass => "✓",
            GateStatus::Fail => "✗",
            GateStatus::InsufficientData => "?",
        };
        out.push_str(&format!("  {mark} {}: {}\n", r.gate, r.reason));
    }
    for why in &g.invalid {
        out.push_str(&format!("  ! incomplete: {why}\n"));
    }
    let verdict = match g.exit_code {
        0 => "PASS",
        1 => "FAIL",
        _ => "INCOMPLETE",
    };
    out.push_str(&format!("\nresult: {verdict} (exit {})\n", g.exit_code));
    out
}

/// Writes `text` to `path`, saying which file failed. A new file is 0600: reports hold traces
/// (tool results, answers) that are nobody else's business (N10).
pub fn write(path: &Path, text: &str) -> Result<(), Failure> {
    use std::io::Write as _;
    private_file(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| Failure::usage(format!("cannot write {}: {e}", path.display())))
}

/// Opens `path` for writing from the start, creating it 0600 when it is new.
fn private_file(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
}

/// The report files a run asks for.
pub fn write_reports(
    file: &RunFile,
    junit: Option<&Path>,
    html: Option<&Path>,
    out: Option<&Path>,
) -> Result<(), Failure> {
    let xml = || junit_xml(&file.record, &file.summary);
    let page = || {
        html_report(
            &file.record,
            &file.summary,
            Some(&file.gates),
            file.comparison.as_ref(),
        )
    };
    if let Some(p) = junit {
        write(p, &xml())?;
    }
    if let Some(p) = html {
        write(p, &page())?;
    }
    if let Some(dir) = out {
        let json = serde_json::to_string_pretty(file).unwrap_or_default();
        write(&dir.join("run.json"), &format!("{json}\n"))?;
        write(&dir.join("junit.xml"), &xml())?;
        write(&dir.join("report.html"), &page())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcplab_evals::report::Progress;

    #[test]
    fn the_bar_counts_and_estimates() {
        let p = Progress {
            finished: 10,
            planned: 40,
            passed: 8,
            failed: 1,
            errored: 1,
        };
        let b = bar(&p, 20.0);
        assert!(b.starts_with("[######------------------] 10/40"), "{b}");
        assert!(
            b.contains("✓ 8  ✗ 1  ! 1") && b.ends_with("ETA 1m00s"),
            "{b}"
        );
    }
}

//! `mcplab check`: connects to one server, lets `mcplab_core::check` exercise and judge it,
//! and prints the findings (human, `--json`, and JUnit XML with `--junit FILE` for CI).
//! Exit 0 without errors, 1 with errors, 3 when connecting failed (the report is still
//! printed: what the server sent before failing is judged too).

use std::fmt::Write as _;

use mcplab_core::check::{CheckOptions, check_connection, check_failed_connect};
use mcplab_protocol::check::{CheckReport, Finding, Severity};
use mcplab_protocol::{ProtocolChoice, ServerTransport};
use serde_json::Value;

use crate::cli::CheckArgs;
use crate::failure::{EXIT_CALL, EXIT_CONNECT, Failure};
use crate::output::Stdout;
use crate::session::Session;
use crate::settings::Settings;
use crate::target;

pub async fn run(args: CheckArgs, settings: &Settings) -> Result<(), Failure> {
    let data = &settings.data;
    let calls = args
        .calls
        .iter()
        .map(|c| parse_call(c))
        .collect::<Result<Vec<_>, _>>()?;
    let opts = CheckOptions {
        calls,
        token_budget: args.token_budget,
        timeout: None,
    };
    let mut config = target::resolve(&settings.target, data)?;
    // The checker judges frames against the schemas of the handshake revisions (up to
    // 2025-11-25, and it probes `ping`, which 2026-07-28 removed): `auto` checks in that era.
    if config.protocol == ProtocolChoice::Auto {
        config.protocol = ProtocolChoice::V2025_11_25;
    }
    let label = target::label(&config);
    let stdio = matches!(config.transport, ServerTransport::Stdio { .. });
    let (report, connected) = match Session::open_recorded(settings, vec![config]).await {
        Ok(session) => {
            let report =
                check_connection(session.connection(), session.manager().traffic(), &opts).await;
            session.close().await;
            (report, true)
        }
        Err((failure, frames)) if failure.code == EXIT_CONNECT => {
            let error = failure.message.lines().next().unwrap_or("").to_owned();
            (check_failed_connect(&label, &frames, stdio, &error), false)
        }
        Err((failure, _)) => return Err(failure),
    };
    let report = CheckReport {
        server: label,
        ..report
    };
    let o = Stdout { raw: settings.raw };
    if settings.json {
        o.json(&serde_json::to_value(&report).unwrap_or(Value::Null))?;
    } else {
        o.print(&human(&report))?;
    }
    if let Some(path) = &args.junit {
        std::fs::write(path, junit(&report))
            .map_err(|e| Failure::usage(format!("cannot write {}: {e}", path.display())))?;
    }
    if !connected {
        return Err(Failure::silent(EXIT_CONNECT));
    }
    if report.count(Severity::Error) > 0 {
        return Err(Failure::silent(EXIT_CALL));
    }
    Ok(())
}

/// `NAME` or `NAME=JSON` (the tool's arguments, an object).
fn parse_call(text: &str) -> Result<(String, Value), Failure> {
    let Some((name, args)) = text.split_once('=') else {
        return Ok((text.to_owned(), Value::Object(Default::default())));
    };
    let args: Value = serde_json::from_str(args).map_err(|e| {
        Failure::usage(format!("--call {name}=…: the arguments are not JSON ({e})"))
    })?;
    if !args.is_object() {
        return Err(Failure::usage(format!(
            "--call {name}=…: the arguments must be a JSON object"
        )));
    }
    Ok((name.to_owned(), args))
}

fn label(s: Severity) -> &'static str {
    match s {
        Severity::Error => "ERROR",
        Severity::Warning => "WARN",
        Severity::Info => "INFO",
    }
}

/// The report for people: what was exercised, each finding with where, why and the fix.
pub fn human(r: &CheckReport) -> String {
    let mut out = String::new();
    let protocol = r.protocol_version.as_deref().unwrap_or("not negotiated");
    let _ = writeln!(out, "check of {} (protocol {protocol})", r.server);
    for e in &r.exercised {
        let _ = writeln!(out, "  · {e}");
    }
    out.push('\n');
    for f in &r.findings {
        finding(&mut out, f);
    }
    let _ = writeln!(
        out,
        "{} error(s), {} warning(s), {} note(s); {} rules checked",
        r.count(Severity::Error),
        r.count(Severity::Warning),
        r.count(Severity::Info),
        r.rules.len()
    );
    out
}

fn finding(out: &mut String, f: &Finding) {
    let _ = writeln!(out, "{:<5} {}: {}", label(f.severity), f.rule, f.message);
    match (f.frame_seq, &f.path) {
        (Some(seq), Some(p)) => {
            let _ = writeln!(out, "      at frame #{seq}, {p}");
        }
        (Some(seq), None) => {
            let _ = writeln!(out, "      at frame #{seq}");
        }
        (None, Some(p)) => {
            let _ = writeln!(out, "      at {p}");
        }
        (None, None) => {}
    }
    if let Some(x) = &f.excerpt {
        let _ = writeln!(out, "      > {x}");
    }
    if !f.fix.is_empty() {
        let _ = writeln!(out, "      fix: {}", f.fix);
    }
    let _ = writeln!(out, "      spec: {}\n", f.spec);
}

/// JUnit XML: one test case per rule checked; a rule with errors fails, warnings and notes
/// go to the case's output.
pub fn junit(r: &CheckReport) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let failing = r
        .rules
        .iter()
        .filter(|rule| {
            r.findings
                .iter()
                .any(|f| &f.rule == *rule && f.severity == Severity::Error)
        })
        .count();
    let _ = writeln!(
        out,
        "<testsuite name=\"mcplab check {}\" tests=\"{}\" failures=\"{failing}\" errors=\"0\">",
        xml(&r.server),
        r.rules.len()
    );
    for rule in &r.rules {
        let mine: Vec<&Finding> = r.findings.iter().filter(|f| &f.rule == rule).collect();
        let _ = writeln!(
            out,
            "  <testcase classname=\"mcplab.check\" name=\"{}\">",
            xml(rule)
        );
        for f in mine.iter().filter(|f| f.severity == Severity::Error) {
            let _ = writeln!(
                out,
                "    <failure message=\"{}\">{}</failure>",
                xml(&f.message),
                xml(&format!(
                    "{}\nfix: {}\nspec: {}",
                    f.excerpt.as_deref().unwrap_or(""),
                    f.fix,
                    f.spec
                ))
            );
        }
        let notes: Vec<String> = mine
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
    out.push_str("</testsuite>\n");
    out
}

/// Text for XML attributes and content; control characters XML 1.0 forbids are dropped.
fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' | '\t' | '\r' => out.push(c),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

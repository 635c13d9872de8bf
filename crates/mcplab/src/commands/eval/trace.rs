//! `mcplab eval show RUN --iteration N [--case ID] [--model M]`: one stored iteration's trace
//! (the value the Evals page shows, `mcplab_evalrun::iteration_trace`), as JSON with `--json`
//! or as text: per turn the user's message, each tool call with its arguments and result, the
//! answer, how it ended with tokens and clocks; then every check with its reason, the tool-call
//! differences, the judge and the error. Long values are cut for the terminal (the JSON is whole).

use mcplab_evalrun::{StoredRun, iteration_trace, pick_unit};
use mcplab_evals::trace::{TurnEnd, TurnTrace};
use mcplab_evals::verdict::{JudgeOutcome, JudgeVerdict, ScopedCheck, ScopedMatch};
use mcplab_store::Store;
use serde_json::Value;

use super::ShowArgs;
use crate::failure::Failure;
use crate::output::{out, outln};

/// Characters of a tool result or argument shown on the terminal.
const CUT: usize = 600;

pub fn show_iteration(
    store: &Store,
    run: &StoredRun,
    args: &ShowArgs,
    n: u32,
    json: bool,
) -> Result<(), Failure> {
    let unit = pick_unit(
        &run.header.planned,
        args.case_id.as_deref(),
        args.model.as_deref(),
        n,
    )
    .map_err(Failure::usage)?;
    let trace =
        iteration_trace(store, &run.row.id, &unit).map_err(|e| Failure::usage(e.to_string()))?;
    if json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&trace).unwrap_or_default()
        );
    } else {
        // Tool results, errors and answers are server and model text (N2).
        out!("{}", crate::output::safe(&trace_text(&trace)));
    }
    Ok(())
}

fn cut(text: String) -> String {
    match text.char_indices().nth(CUT) {
        Some((at, _)) => format!("{}… ({} more bytes)", &text[..at], text.len() - at),
        None => text,
    }
}

fn end_text(end: &TurnEnd) -> String {
    match end {
        TurnEnd::Finished { reason } => format!("finished ({reason:?})"),
        TurnEnd::Failed {
            error_kind,
            message,
        } => format!("failed ({error_kind}): {message}"),
        TurnEnd::Cancelled => "cancelled".into(),
        TurnEnd::TimedOut => "timed out (the iteration's deadline passed)".into(),
        TurnEnd::Unfinished => "unfinished (no end was recorded)".into(),
    }
}

fn turn_text(i: usize, t: &TurnTrace, out: &mut String) {
    out.push_str(&format!("\nturn {}: {}\n", i + 1, t.user));
    for c in &t.tool_calls {
        out.push_str(&format!(
            "  tool call {}/{} ({} ms)\n    arguments: {}\n",
            c.server,
            c.tool,
            c.duration_ms,
            cut(c.arguments.to_string())
        ));
        if let Some(e) = &c.error {
            out.push_str(&format!("    error: {}\n", cut(e.clone())));
        }
        if let Some(r) = &c.result {
            let label = if c.is_error {
                "result (isError)"
            } else {
                "result"
            };
            out.push_str(&format!("    {label}: {}\n", cut(r.to_string())));
        }
    }
    if !t.answer.is_empty() {
        out.push_str(&format!("  answer: {}\n", cut(t.answer.clone())));
    }
    out.push_str(&format!(
        "  {} · {} step(s) · {} in / {} out tokens · {} ms (LLM {} ms, MCP {} ms)\n",
        end_text(&t.end),
        t.steps,
        t.usage.input_tokens,
        t.usage.output_tokens,
        t.latency_ms,
        t.llm_ms,
        t.mcp_ms
    ));
}

fn scope(v: &Value) -> String {
    v["turn"]
        .as_u64()
        .map(|t| format!("turn {}: ", t + 1))
        .unwrap_or_default()
}

/// The trace as text (see the module doc).
pub fn trace_text(trace: &Value) -> String {
    let status = trace["outcome"]["status"].as_str().unwrap_or("?");
    let mut out = format!(
        "iteration {} of `{}` on {} in run {}: {status}\n",
        trace["iteration"].as_u64().unwrap_or(0) + 1,
        trace["caseId"].as_str().unwrap_or(""),
        trace["model"].as_str().unwrap_or(""),
        trace["runId"].as_str().unwrap_or("")
    );
    if let Some(reason) = trace["outcome"]["reason"].as_str() {
        out.push_str(&format!("error: {reason}\n"));
    }
    let turns: Vec<TurnTrace> = serde_json::from_value(trace["turns"].clone()).unwrap_or_default();
    for (i, t) in turns.iter().enumerate() {
        turn_text(i, t, &mut out);
    }
    let checks: Vec<ScopedCheck> =
        serde_json::from_value(trace["checks"].clone()).unwrap_or_default();
    let raw_checks = trace["checks"].as_array().cloned().unwrap_or_default();
    if !checks.is_empty() {
        out.push_str("\nchecks:\n");
    }
    for (c, raw) in checks.iter().zip(&raw_checks) {
        let mark = if c.result.passed { "✓" } else { "✗" };
        out.push_str(&format!(
            "  {mark} {}{}: {}\n",
            scope(raw),
            c.result.check,
            c.result.reason
        ));
    }
    let matches: Vec<ScopedMatch> =
        serde_json::from_value(trace["toolCalls"].clone()).unwrap_or_default();
    let raw_matches = trace["toolCalls"].as_array().cloned().unwrap_or_default();
    for (m, raw) in matches.iter().zip(&raw_matches) {
        let mark = if m.result.passed { "✓" } else { "✗" };
        out.push_str(&format!(
            "\n{mark} {}expected tool calls ({} matched)\n",
            scope(raw),
            m.result.matched
        ));
        for d in &m.result.diffs {
            out.push_str(&format!("  - {}\n", d.describe()));
        }
    }
    let judge: Option<JudgeOutcome> = serde_json::from_value(trace["judge"].clone()).ok();
    match judge.map(|j| j.verdict) {
        Some(JudgeVerdict::Scored { score, reason, .. }) => {
            out.push_str(&format!("\njudge: {score:.2}: {reason}\n"));
        }
        Some(JudgeVerdict::Error { message }) => {
            out.push_str(&format!("\njudge error: {message}\n"));
        }
        None => {}
    }
    out
}

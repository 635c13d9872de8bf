//! `mcplab eval show RUN --iteration N [--case ID] [--model M]`: one stored iteration's trace
//! (the value the Evals page shows, `mcplab_evalrun::iteration_trace`), as JSON with `--json`
//! or as text: per turn the user's message, each tool call with its arguments and result, the
//! answer, how it ended with tokens and clocks; then every check with its reason, the tool-call
//! differences, the judge and the error. Long values are cut for the terminal (the JSON is whole).

use mcplab_evalrun::{StoredRun, iteration_trace, pick_unit};
use mcplab_evals::matching::calls::describe;
use mcplab_evals::run::{model_label, part_word};
use mcplab_evals::trace::{TurnEnd, TurnTrace};
use mcplab_evals::verdict::{JudgeVerdict, Outcome, Scoped};
use mcplab_protocol::evals::IterationView;
use mcplab_store::Store;

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

fn turn_text(part: &str, i: usize, t: &TurnTrace, out: &mut String) {
    out.push_str(&format!("\n{part} {}: {}\n", i + 1, t.user));
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

fn scope(s: &Scoped, part: &str) -> String {
    match s {
        Scoped::Case => String::new(),
        Scoped::Turn { turn } => format!("{part} {}: ", turn + 1),
    }
}

/// The trace as text (see the module doc).
pub fn trace_text(trace: &IterationView) -> String {
    let mut out = format!(
        "iteration {} of `{}` on {} in run {}: {}\n",
        trace.iteration + 1,
        trace.case_id,
        model_label(&trace.model),
        trace.run_id,
        trace.outcome.as_str()
    );
    if let Outcome::Errored { reason } = &trace.outcome {
        out.push_str(&format!("error: {reason}\n"));
    }
    let part = part_word(&trace.model);
    for (i, t) in trace.turns.iter().enumerate() {
        turn_text(part, i, &t.trace, &mut out);
    }
    if !trace.checks.is_empty() {
        out.push_str("\nchecks:\n");
    }
    for c in &trace.checks {
        let mark = if c.result.passed { "✓" } else { "✗" };
        out.push_str(&format!(
            "  {mark} {}{}: {}\n",
            scope(&c.scope, part),
            c.result.check,
            c.result.reason
        ));
    }
    for m in &trace.tool_calls {
        let mark = if m.result.passed { "✓" } else { "✗" };
        out.push_str(&format!(
            "\n{mark} {}expected tool calls ({} matched)\n",
            scope(&m.scope, part),
            m.result.matched
        ));
        for d in &m.result.diffs {
            out.push_str(&format!("  - {}\n", describe(d)));
        }
    }
    match trace.judge.as_ref().map(|j| &j.verdict) {
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

//! Checks on an iteration's outcome (answer text, JSONPath on the answer and tool results,
//! tool errors, how turns ended, steps, tokens, cost, latency, first tool, tool results,
//! rendered apps (`apps`), external commands), each giving pass/fail with a reason that shows expected
//! vs actual. A check over something not measured (no price, no render report, a command not
//! run) fails closed: no signal is not a pass.

use regex::RegexBuilder;
use serde_json::Value;

use crate::matching::args::{self, ArgOptions, regex_error};
use crate::matching::calls::brief;
use crate::suite::{Check, TextNeedle, ToolResultCheck};
use crate::trace::{AppRender, ToolCallTrace, TurnEnd, TurnTrace};
pub use command::{CommandOutcome, command_input, read_verdict};
pub use json::json_in;
use mcplab_protocol::chat::StopReason;
pub use mcplab_protocol::evals::CheckResult;

mod apps;
mod command;
mod json;

/// What a check looks at: some turns (one, or all of them) and what belongs to them.
#[derive(Debug, Clone, Copy)]
pub struct Scope<'a> {
    pub turns: &'a [TurnTrace],
    /// The iteration's cost; `None` when unknown (or when the scope is a single turn).
    pub cost_usd: Option<f64>,
    pub app_renders: &'a [AppRender],
    /// What the check commands said (the runner ran them).
    pub commands: &'a [CommandOutcome],
}

/// Evaluate one check.
pub fn evaluate(check: &Check, scope: &Scope<'_>) -> CheckResult {
    let (passed, reason) = run(check, scope);
    CheckResult {
        check: serde_json::to_value(check).unwrap_or(Value::Null),
        passed,
        reason,
    }
}

fn run(check: &Check, s: &Scope<'_>) -> (bool, String) {
    let answer = s.turns.last().map_or("", |t| t.answer.as_str());
    let calls = || s.turns.iter().flat_map(|t| t.tool_calls.iter());
    match check {
        Check::AnswerContains(needle) => contains(needle, answer),
        Check::AnswerMatches(pattern) => match RegexBuilder::new(pattern).size_limit(1 << 20).build() {
            Ok(re) if re.is_match(answer) => (true, "the answer matches".into()),
            Ok(_) => (false, format!("the answer does not match /{pattern}/; answer: {}", quote(answer))),
            Err(e) => (false, format!("invalid regular expression: {}", regex_error(&e))),
        },
        Check::AnswerJson(j) => json::answer_json(j, answer),
        Check::JsonPath(j) => json::tool_json(j, calls().collect()),
        Check::IsError(true) => errored(calls().collect()),
        Check::NoToolErrors(_) | Check::IsError(false) => {
            let failed: Vec<String> = calls()
                .filter(|c| c.is_error)
                .map(|c| format!("{} ({})", c.tool, c.error.clone().unwrap_or_else(|| error_text(c))))
                .collect();
            match failed.is_empty() {
                true => (true, "no tool errors".into()),
                false => (false, format!("tool errors: {}", failed.join("; "))),
            }
        }
        Check::TurnFinished(_) => finished(s.turns),
        Check::MaxSteps(n) => at_most(s.turns.iter().map(|t| u64::from(t.steps)).sum(), *n as u64, "steps"),
        Check::MaxTokens(n) => {
            let tokens = s.turns.iter().map(|t| t.usage.input_tokens + t.usage.output_tokens).sum();
            at_most(tokens, *n, "tokens")
        }
        Check::MaxLatencyMs(n) => at_most(s.turns.iter().map(|t| t.latency_ms).sum(), *n, "ms"),
        Check::MaxCostUsd(max) => match s.cost_usd {
            Some(cost) if cost <= *max => (true, format!("cost ${cost:.6} ≤ ${max}")),
            Some(cost) => (false, format!("cost ${cost:.6} > ${max}")),
            None => (false, "cost unknown (no price for this model in the price table): cannot show it is under the limit".into()),
        },
        Check::FirstTool(tool) => match calls().next() {
            Some(c) if &c.tool == tool => (true, format!("first call was {tool}")),
            Some(c) => (false, format!("first call was {}, expected {tool}", c.tool)),
            None => (false, format!("no tool was called, expected {tool} first")),
        },
        Check::ToolResult(t) => tool_result(t, calls().collect()),
        Check::AppRendered(a) => apps::rendered(a, calls().collect(), s.app_renders),
        Check::NoConsoleErrors(_) => apps::no_console_errors(calls().collect(), s.app_renders),
        Check::MaxRenderMs(max) => apps::max_render_ms(*max, calls().collect(), s.app_renders),
        Check::Command(c) => command::from_outcomes(c, s.commands),
    }
}

fn quote(text: &str) -> String {
    brief(&Value::String(text.to_string()))
}

fn error_text(call: &ToolCallTrace) -> String {
    let text = call
        .result
        .as_ref()
        .and_then(|r| r.pointer("/content/0/text"))
        .and_then(Value::as_str)
        .unwrap_or("isError: true");
    text.chars().take(200).collect()
}

/// `isError: true`: there were calls and every one ended in an error.
fn errored(calls: Vec<&ToolCallTrace>) -> (bool, String) {
    let fine: Vec<&str> = calls
        .iter()
        .filter(|c| !c.is_error)
        .map(|c| c.tool.as_str())
        .collect();
    match (calls.is_empty(), fine.is_empty()) {
        (true, _) => (false, "no tool was called, expected an error".into()),
        (false, true) => {
            let texts: Vec<String> = calls
                .iter()
                .map(|c| c.error.clone().unwrap_or_else(|| error_text(c)))
                .collect();
            (
                true,
                format!("the call ended in an error: {}", texts.join("; ")),
            )
        }
        (false, false) => (
            false,
            format!("expected an error, but {} succeeded", fine.join(", ")),
        ),
    }
}

fn at_most(actual: u64, max: u64, unit: &str) -> (bool, String) {
    if actual <= max {
        (true, format!("{actual} {unit} ≤ {max}"))
    } else {
        (false, format!("{actual} {unit} > {max}"))
    }
}

fn contains(needle: &TextNeedle, answer: &str) -> (bool, String) {
    let found = if needle.case_sensitive() {
        answer.contains(needle.text())
    } else {
        answer
            .to_lowercase()
            .contains(&needle.text().to_lowercase())
    };
    match found {
        true => (
            true,
            format!("the answer contains {}", quote(needle.text())),
        ),
        false => (
            false,
            format!(
                "the answer does not contain {}; answer: {}",
                quote(needle.text()),
                quote(answer)
            ),
        ),
    }
}

fn finished(turns: &[TurnTrace]) -> (bool, String) {
    if turns.is_empty() {
        return (false, "no turn was recorded".into());
    }
    for (i, t) in turns.iter().enumerate() {
        let problem = match &t.end {
            TurnEnd::Finished {
                reason: StopReason::Completed,
            } => continue,
            TurnEnd::Finished {
                reason: StopReason::StepLimit,
            } => "stopped at the step limit".to_string(),
            TurnEnd::Finished {
                reason: StopReason::MaxTokens,
            } => "stopped at the output token limit".to_string(),
            TurnEnd::Failed {
                error_kind,
                message,
            } => format!("failed ({error_kind}): {message}"),
            TurnEnd::Cancelled => "was cancelled".to_string(),
            TurnEnd::TimedOut => "timed out".to_string(),
            TurnEnd::Unfinished => "has no end recorded".to_string(),
        };
        return (false, format!("turn {} {problem}", i + 1));
    }
    (true, "every turn finished".into())
}

fn tool_result(check: &ToolResultCheck, calls: Vec<&ToolCallTrace>) -> (bool, String) {
    let of_tool: Vec<&ToolCallTrace> = calls
        .into_iter()
        .filter(|c| c.tool == check.tool && check.server.as_ref().is_none_or(|s| s == &c.server))
        .collect();
    if of_tool.is_empty() {
        return (false, format!("{} was not called", check.tool));
    }
    let opts = ArgOptions::default();
    let mut best: Option<Vec<args::Mismatch>> = None;
    for call in &of_tool {
        let Some(result) = &call.result else { continue };
        let mismatches = args::match_value(&check.matches, Some(result), &opts);
        if mismatches.is_empty() {
            return (true, format!("a result of {} matches", check.tool));
        }
        if best.as_ref().is_none_or(|b| mismatches.len() < b.len()) {
            best = Some(mismatches);
        }
    }
    match best {
        None => (
            false,
            format!("no call of {} returned a result", check.tool),
        ),
        Some(m) => {
            let details: Vec<String> = m
                .iter()
                .map(|m| {
                    format!(
                        "{}: expected {}, got {}",
                        m.path,
                        brief(&m.expected),
                        m.actual.as_ref().map_or("nothing".into(), brief)
                    )
                })
                .collect();
            (
                false,
                format!(
                    "no result of {} matches: {}",
                    check.tool,
                    details.join("; ")
                ),
            )
        }
    }
}

//! Expected tool calls against actual ones: options layered (suite defaults → case → tool →
//! call), calls paired per the order mode (any: maximum bipartite pairing; in-order and exact:
//! the best subsequence alignment), then every difference explained as Missing, Extra, Out of
//! order, Argument mismatch (JSON path, expected vs actual) or Forbidden.

use serde_json::Value;

use super::args::{self, ArgOptions};
use super::bipartite;
use crate::suite::{
    ArgumentMode, ExpectedCall, ExtraCalls, Order, ToolCallExpectations, ToolCallOptions,
};
use crate::trace::ToolCallTrace;
pub use mcplab_protocol::evals::{CallDiff, CallMatch, CallView};

/// Expectations with every option resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Expectation {
    pub order: Order,
    pub extra_calls: ExtraCalls,
    pub forbidden: Vec<String>,
    pub none: bool,
    pub calls: Vec<(ExpectedCall, ArgOptions)>,
}

impl Expectation {
    /// Layer `case` over `defaults`; `None` when neither expects anything of tool calls.
    pub fn resolve(
        defaults: &ToolCallOptions,
        case: Option<&ToolCallExpectations>,
    ) -> Option<Expectation> {
        let forbidden_default = !defaults.forbidden.is_empty();
        let case = match case {
            Some(c) => c,
            None if forbidden_default => &ToolCallExpectations::default(),
            None => return None,
        };
        let own = case.options();
        let pick = |a: Option<bool>, b: Option<bool>| a.or(b).unwrap_or(false);
        let mut forbidden = defaults.forbidden.clone();
        forbidden.extend(own.forbidden.iter().cloned());
        let calls = case
            .expected
            .iter()
            .map(|call| {
                let tool = own
                    .per_tool
                    .get(&call.tool)
                    .or_else(|| defaults.per_tool.get(&call.tool));
                let opts = ArgOptions {
                    mode: call
                        .argument_mode
                        .or(tool.and_then(|t| t.arguments))
                        .or(own.arguments)
                        .or(defaults.arguments)
                        .unwrap_or(ArgumentMode::Partial),
                    ignore_case: pick(
                        tool.and_then(|t| t.ignore_case),
                        pick_opt(own.ignore_case, defaults.ignore_case),
                    ),
                    ignore_whitespace: pick(
                        tool.and_then(|t| t.ignore_whitespace),
                        pick_opt(own.ignore_whitespace, defaults.ignore_whitespace),
                    ),
                    tolerance: tool
                        .and_then(|t| t.number_tolerance)
                        .or(own.number_tolerance)
                        .or(defaults.number_tolerance)
                        .unwrap_or(0.0),
                };
                (call.clone(), opts)
            })
            .collect();
        Some(Expectation {
            order: own.order.or(defaults.order).unwrap_or(Order::Any),
            extra_calls: own
                .extra_calls
                .or(defaults.extra_calls)
                .unwrap_or(ExtraCalls::Unlimited),
            forbidden,
            none: case.none,
            calls,
        })
    }
}

fn pick_opt(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    a.or(b)
}

/// One line for people.
pub fn describe(diff: &CallDiff) -> String {
    let call = |c: &CallView| match &c.arguments {
        Some(a) => format!("{} {}", c.tool, brief(a)),
        None => c.tool.clone(),
    };
    match diff {
        CallDiff::Missing { expected } => format!("Missing: {}", call(expected)),
        CallDiff::Extra { actual, tolerated } => {
            let note = if *tolerated { " (tolerated)" } else { "" };
            format!("Extra: {} (call #{}){note}", call(actual), actual.index + 1)
        }
        CallDiff::OutOfOrder { expected, actual } => format!(
            "Out of order: {} (expected #{}) came as call #{}",
            expected.tool,
            expected.index + 1,
            actual.index + 1
        ),
        CallDiff::ArgumentMismatch {
            expected,
            actual,
            mismatches,
        } => {
            let details: Vec<String> = mismatches
                .iter()
                .map(|m| {
                    let got = m.actual.as_ref().map_or("nothing".to_string(), brief);
                    format!(
                        "{}: expected {}, got {} ({})",
                        m.path,
                        brief(&m.expected),
                        got,
                        m.reason
                    )
                })
                .collect();
            format!(
                "Argument mismatch in {} (call #{}): {}",
                expected.tool,
                actual.index + 1,
                details.join("; ")
            )
        }
        CallDiff::Forbidden { actual } => format!(
            "Forbidden: {} was called (call #{})",
            actual.tool,
            actual.index + 1
        ),
    }
}

/// Compact JSON, cut at 200 characters.
pub fn brief(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(200) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// Match `actual` calls against an expectation.
pub fn match_calls(exp: &Expectation, actual: &[&ToolCallTrace]) -> CallMatch {
    // Required calls first so optional ones never take a call a required one needs.
    let order: Vec<usize> = (0..exp.calls.len())
        .filter(|&i| !exp.calls[i].0.optional)
        .chain((0..exp.calls.len()).filter(|&i| exp.calls[i].0.optional))
        .collect();
    // Each (expected, actual) pair is judged once: alignment and diagnosis look it up.
    let table: Vec<Vec<bool>> = exp
        .calls
        .iter()
        .map(|call| actual.iter().map(|a| compatible(call, a)).collect())
        .collect();
    let compatible = |i: usize, j: usize| table[i][j];
    let pairs: Vec<Option<usize>> = match exp.order {
        Order::Any => {
            let sorted =
                bipartite::max_matching(order.len(), actual.len(), |a, j| compatible(order[a], j));
            let mut pairs = vec![None; exp.calls.len()];
            for (a, p) in sorted.into_iter().enumerate() {
                pairs[order[a]] = p;
            }
            pairs
        }
        Order::InOrder | Order::Exact => align(exp, actual.len(), compatible),
    };
    explain(exp, actual, &pairs, &table)
}

fn compatible((call, opts): &(ExpectedCall, ArgOptions), actual: &ToolCallTrace) -> bool {
    call.tool == actual.tool
        && call.server.as_ref().is_none_or(|s| s == &actual.server)
        && match (&call.arguments, opts.mode) {
            (None, _) | (_, ArgumentMode::Ignore) => true,
            (Some(want), _) => args::matches(want, Some(&actual.arguments), opts),
        }
}

/// The subsequence alignment with the most required, then optional, calls paired.
fn align(
    exp: &Expectation,
    n_actual: usize,
    compatible: impl Fn(usize, usize) -> bool,
) -> Vec<Option<usize>> {
    let n = exp.calls.len();
    let m = n_actual;
    // best[i][j]: (required, optional) paired using expected[i..] and actual[j..].
    let mut best = vec![vec![(0u32, 0u32); m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            let mut b = best[i + 1][j].max(best[i][j + 1]);
            if compatible(i, j) {
                let (r, o) = best[i + 1][j + 1];
                let take = if exp.calls[i].0.optional {
                    (r, o + 1)
                } else {
                    (r + 1, o)
                };
                b = b.max(take);
            }
            best[i][j] = b;
        }
    }
    let mut pairs = vec![None; n];
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        let (r, o) = best[i + 1][j + 1];
        let take = if exp.calls[i].0.optional {
            (r, o + 1)
        } else {
            (r + 1, o)
        };
        if compatible(i, j) && best[i][j] == take {
            pairs[i] = Some(j);
            i += 1;
            j += 1;
        } else if best[i][j] == best[i + 1][j] {
            i += 1;
        } else {
            j += 1;
        }
    }
    pairs
}

fn expected_view(i: usize, call: &ExpectedCall) -> CallView {
    CallView {
        index: i,
        tool: call.tool.clone(),
        server: call.server.clone(),
        arguments: call.arguments.clone(),
    }
}

fn actual_view(j: usize, call: &ToolCallTrace) -> CallView {
    CallView {
        index: j,
        tool: call.tool.clone(),
        server: Some(call.server.clone()),
        arguments: Some(call.arguments.clone()),
    }
}

fn explain(
    exp: &Expectation,
    actual: &[&ToolCallTrace],
    pairs: &[Option<usize>],
    table: &[Vec<bool>],
) -> CallMatch {
    let mut used = vec![false; actual.len()];
    for j in pairs.iter().flatten() {
        used[*j] = true;
    }

    let matched = pairs.iter().flatten().count() as u32;
    let mut diffs = Vec::new();
    let mut missed = 0;
    for (i, (call, opts)) in exp.calls.iter().enumerate() {
        if pairs[i].is_some() || call.optional {
            continue;
        }
        missed += 1;
        let expected = expected_view(i, call);
        // A call paired with (or explaining) another expectation is not this one out of order.
        let ordered = exp.order != Order::Any;
        if let Some(j) = (0..actual.len()).find(|&j| ordered && !used[j] && table[i][j]) {
            used[j] = true;
            diffs.push(CallDiff::OutOfOrder {
                expected,
                actual: actual_view(j, actual[j]),
            });
            continue;
        }
        let same_tool = (0..actual.len())
            .filter(|&j| !used[j] && actual[j].tool == call.tool)
            .filter(|&j| call.server.as_ref().is_none_or(|s| s == &actual[j].server))
            .map(|j| {
                let want = call.arguments.clone().unwrap_or(Value::Null);
                (
                    j,
                    args::match_value(&want, Some(&actual[j].arguments), opts),
                )
            })
            .min_by_key(|(_, m)| m.len());
        match same_tool {
            Some((j, mismatches)) => {
                used[j] = true;
                diffs.push(CallDiff::ArgumentMismatch {
                    expected,
                    actual: actual_view(j, actual[j]),
                    mismatches,
                });
            }
            None => diffs.push(CallDiff::Missing { expected }),
        }
    }
    let allowance = match (exp.none, exp.order, exp.extra_calls) {
        (true, _, _) | (_, Order::Exact, _) => 0,
        (_, _, ExtraCalls::AtMost(n)) => n as usize,
        (_, _, ExtraCalls::Unlimited) => usize::MAX,
    };
    let mut extras = 0usize;
    for (j, call) in actual.iter().enumerate() {
        if exp.forbidden.iter().any(|f| f == &call.tool) {
            diffs.push(CallDiff::Forbidden {
                actual: actual_view(j, call),
            });
        } else if !used[j] {
            extras += 1;
            diffs.push(CallDiff::Extra {
                actual: actual_view(j, call),
                tolerated: extras <= allowance,
            });
        }
    }
    let passed = diffs.iter().all(|d| !d.fails());
    CallMatch {
        passed,
        diffs,
        matched,
        unmatched_actual: actual.len() as u32 - matched,
        missed_expected: missed,
    }
}

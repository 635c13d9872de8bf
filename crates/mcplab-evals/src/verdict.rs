//! One iteration's verdict: the case's expectations resolved against the suite's defaults,
//! tool calls matched and checks run over the whole case and per turn, the judge's score
//! applied, and the outcome decided — passed, failed, or errored (the provider, a server or
//! the clock failed, so the model was not measured).

use crate::checks::{self, CommandOutcome, Scope};
use crate::matching::calls::describe;
use crate::matching::{Expectation, match_calls};
use crate::suite::{Case, Check, Judge, Suite};
use crate::trace::{Trace, TurnEnd};
use mcplab_protocol::chat::TurnFailureKind;
pub use mcplab_protocol::evals::{
    JudgeOutcome, JudgeVerdict, Outcome, Scoped, ScopedCheck, ScopedMatch, Verdict,
};

/// A case with everything it inherits resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedCase {
    pub id: String,
    pub whole: Option<Expectation>,
    pub checks: Vec<Check>,
    /// Per turn: its own expectation and checks.
    pub turns: Vec<(Option<Expectation>, Vec<Check>)>,
    pub judge: Option<Judge>,
    pub pass_threshold: f64,
    pub repeat: u32,
    pub models: Vec<String>,
}

impl ResolvedCase {
    /// The check commands of the case (each command line once).
    pub fn commands(&self) -> Vec<crate::suite::CommandCheck> {
        let mut out: Vec<crate::suite::CommandCheck> = Vec::new();
        for check in &self.checks {
            if let Check::Command(c) = check
                && !out.iter().any(|o| o.line() == c.line())
            {
                out.push(c.clone());
            }
        }
        out
    }
}

impl ResolvedCase {
    pub fn new(suite: &Suite, case: &Case) -> ResolvedCase {
        if case.is_model_free() {
            return Self::of_steps(suite, case);
        }
        let defaults = &suite.defaults;
        let no_defaults = crate::suite::ToolCallOptions::default();
        let mut checks = defaults.checks.clone();
        checks.extend(case.checks.iter().cloned());
        ResolvedCase {
            id: case.id.clone(),
            whole: Expectation::resolve(&defaults.tool_calls, case.tool_calls.as_ref()),
            checks,
            // Per-turn expectations take the defaults' options but not its forbidden list
            // (the whole-case expectation already enforces that over every turn).
            turns: case
                .turns
                .iter()
                .map(|t| {
                    let layered = crate::suite::ToolCallOptions {
                        forbidden: Vec::new(),
                        ..defaults.tool_calls.clone()
                    };
                    let base = if t.tool_calls().is_some() {
                        &layered
                    } else {
                        &no_defaults
                    };
                    (
                        Expectation::resolve(base, t.tool_calls()),
                        t.checks().to_vec(),
                    )
                })
                .collect(),
            judge: case.judge.clone().or_else(|| defaults.judge.clone()),
            pass_threshold: case
                .pass_threshold
                .or(defaults.pass_threshold)
                .unwrap_or(1.0),
            repeat: case.repeat.or(suite.repeat).unwrap_or(1),
            models: crate::run::with_hosts(&case_models(suite, case), &case_hosts(suite, case)),
        }
    }
}

impl ResolvedCase {
    /// A case of model-free steps: each step a turn with its `expect` checks (and
    /// `isError: false` unless it says otherwise); no expectation of calls, no judge, one
    /// column per host under [`NO_MODEL`](crate::run::NO_MODEL).
    fn of_steps(suite: &Suite, case: &Case) -> ResolvedCase {
        let mut checks = suite.defaults.checks.clone();
        checks.extend(case.checks.iter().cloned());
        let turns = case
            .steps
            .iter()
            .map(|step| {
                let mut checks = step.expect.clone();
                if !checks.iter().any(|c| matches!(c, Check::IsError(_))) {
                    checks.push(Check::IsError(false));
                }
                (None, checks)
            })
            .collect();
        let no_model = [crate::run::NO_MODEL.to_owned()];
        ResolvedCase {
            id: case.id.clone(),
            whole: None,
            checks,
            turns,
            judge: None,
            pass_threshold: case
                .pass_threshold
                .or(suite.defaults.pass_threshold)
                .unwrap_or(1.0),
            repeat: case.repeat.or(suite.repeat).unwrap_or(1),
            models: crate::run::with_hosts(&no_model, &case_hosts(suite, case)),
        }
    }
}

/// The models a case runs on: its `model`, else its `models`, else the suite's.
pub fn case_models(suite: &Suite, case: &Case) -> Vec<String> {
    match (&case.model, &case.models) {
        (Some(m), _) => vec![m.clone()],
        (None, Some(list)) => list.clone(),
        (None, None) => suite.models.clone(),
    }
}

/// The host profiles a case runs as: its `host`, else the suite's `hosts` (none: the suite's
/// own host).
pub fn case_hosts(suite: &Suite, case: &Case) -> Vec<String> {
    match &case.host {
        Some(h) => vec![h.clone()],
        None => suite.hosts.clone(),
    }
}

/// The failing parts of `verdict`, one line each (empty when passed); a turn's lines start
/// with `part` and its number (`turn 2: `, or `step 2: ` in a case of model-free steps).
pub fn failures(verdict: &Verdict, part: &str) -> Vec<String> {
    let scope = |s: &Scoped| match s {
        Scoped::Case => String::new(),
        Scoped::Turn { turn } => format!("{part} {}: ", turn + 1),
    };
    let mut out = Vec::new();
    if let Outcome::Errored { reason } = &verdict.outcome {
        out.push(format!("error: {reason}"));
    }
    for m in &verdict.tool_calls {
        out.extend(
            m.result
                .diffs
                .iter()
                .filter(|d| d.fails())
                .map(|d| format!("{}{}", scope(&m.scope), describe(d))),
        );
    }
    for c in verdict.checks.iter().filter(|c| !c.result.passed) {
        out.push(format!(
            "{}{}: {}",
            scope(&c.scope),
            c.result.check,
            c.result.reason
        ));
    }
    if let Some(JudgeOutcome {
        verdict: JudgeVerdict::Scored { score, reason, .. },
        threshold,
        gating: true,
        passed: Some(false),
    }) = &verdict.judge
    {
        out.push(format!("judge: {score:.2} < {threshold}: {reason}"));
    }
    out
}

/// Whether a turn failure says the provider or the host failed, not the model.
fn is_infrastructure(kind: TurnFailureKind) -> bool {
    use TurnFailureKind as K;
    match kind {
        K::Auth
        | K::RateLimit
        | K::Network
        | K::Server
        | K::NotConfigured
        | K::Internal
        | K::Truncated => true,
        K::ContextLength | K::BadResponse | K::Cancelled => false,
    }
}

/// Judge one iteration's trace against its case.
pub fn judge_iteration(case: &ResolvedCase, trace: &Trace, judge: Option<JudgeVerdict>) -> Verdict {
    judge_iteration_with(case, trace, judge, &[])
}

/// Judge one iteration's trace, with what its check commands said.
pub fn judge_iteration_with(
    case: &ResolvedCase,
    trace: &Trace,
    judge: Option<JudgeVerdict>,
    commands: &[CommandOutcome],
) -> Verdict {
    let all = Scope {
        turns: &trace.turns,
        cost_usd: trace.cost_usd,
        app_renders: &trace.app_renders,
        commands,
    };
    let mut tool_calls = Vec::new();
    let mut checks = Vec::new();
    if let Some(exp) = &case.whole {
        let calls: Vec<_> = trace.tool_calls().collect();
        tool_calls.push(ScopedMatch {
            scope: Scoped::Case,
            result: match_calls(exp, &calls),
        });
    }
    for check in &case.checks {
        checks.push(ScopedCheck {
            scope: Scoped::Case,
            result: checks::evaluate(check, &all),
        });
    }
    for (i, (exp, turn_checks)) in case.turns.iter().enumerate() {
        let turns = trace.turns.get(i..=i).unwrap_or_default();
        let scope = Scope {
            turns,
            cost_usd: None,
            app_renders: &trace.app_renders,
            commands,
        };
        if let Some(exp) = exp {
            let calls: Vec<_> = turns.iter().flat_map(|t| t.tool_calls.iter()).collect();
            tool_calls.push(ScopedMatch {
                scope: Scoped::Turn { turn: i },
                result: match_calls(exp, &calls),
            });
        }
        for check in turn_checks {
            checks.push(ScopedCheck {
                scope: Scoped::Turn { turn: i },
                result: checks::evaluate(check, &scope),
            });
        }
    }
    let judge = case.judge.as_ref().map(|j| apply_judge(j, judge));
    let part = case
        .models
        .first()
        .map_or("turn", |m| crate::run::part_word(m));
    let outcome = decide(trace, &tool_calls, &checks, judge.as_ref(), part);
    Verdict {
        outcome,
        tool_calls,
        checks,
        judge,
    }
}

fn apply_judge(config: &Judge, verdict: Option<JudgeVerdict>) -> JudgeOutcome {
    let verdict = verdict.unwrap_or(JudgeVerdict::Error {
        message: "the judge was not run".into(),
    });
    let passed = match &verdict {
        JudgeVerdict::Scored { score, .. } => Some(*score >= config.threshold()),
        JudgeVerdict::Error { .. } => None,
    };
    JudgeOutcome {
        verdict,
        threshold: config.threshold(),
        gating: config.gating,
        passed,
    }
}

fn decide(
    trace: &Trace,
    calls: &[ScopedMatch],
    checks: &[ScopedCheck],
    judge: Option<&JudgeOutcome>,
    part: &str,
) -> Outcome {
    for (i, t) in trace.turns.iter().enumerate() {
        let reason = match &t.end {
            TurnEnd::TimedOut => Some("the iteration timed out".to_string()),
            TurnEnd::Cancelled => Some("the turn was cancelled".to_string()),
            TurnEnd::Unfinished => Some("the turn has no end recorded".to_string()),
            TurnEnd::Failed {
                error_kind,
                message,
            } if is_infrastructure(*error_kind) => Some(format!("{error_kind}: {message}")),
            _ => None,
        };
        if let Some(reason) = reason {
            return Outcome::Errored {
                reason: format!("{part} {}: {reason}", i + 1),
            };
        }
    }
    if trace.turns.is_empty() {
        return Outcome::Errored {
            reason: "no turn was recorded".into(),
        };
    }
    if let Some(JudgeOutcome {
        gating: true,
        verdict: JudgeVerdict::Error { message },
        ..
    }) = judge
    {
        return Outcome::Errored {
            reason: format!("the gating judge could not grade: {message}"),
        };
    }
    let judge_ok = judge.is_none_or(|j| !j.gating || j.passed == Some(true));
    if calls.iter().all(|m| m.result.passed) && checks.iter().all(|c| c.result.passed) && judge_ok {
        Outcome::Passed
    } else {
        Outcome::Failed
    }
}

//! Outcome checks, the judge and the errored/failed distinction, on traces built the way the
//! runner builds them (from turn events).

use mcplab_evals::suite::parse_suite;
use mcplab_evals::trace::{AppRender, ToolCallTrace, Trace, TurnEnd, TurnTiming, TurnTrace};
use mcplab_evals::verdict::{JudgeVerdict, Outcome, ResolvedCase, Verdict, judge_iteration};
use mcplab_protocol::chat::{StopReason, TokenUsage, TurnEvent, TurnFailureKind};
use serde_json::{Value, json};

fn turn_from_events(
    answer: &str,
    calls: &[(&str, Value, Value, bool)],
    end: TurnEvent,
) -> TurnTrace {
    let s = |x: &str| x.to_string();
    let mut events = vec![TurnEvent::TurnStarted {
        turn_id: s("t"),
        model: s("m"),
    }];
    for (k, (tool, args, result, is_error)) in calls.iter().enumerate() {
        let call_id = format!("c{k}");
        events.push(TurnEvent::ToolCall {
            turn_id: s("t"),
            call_id: call_id.clone(),
            name: format!("demo__{tool}"),
            server: s("demo"),
            tool: s(tool),
            arguments: args.clone(),
        });
        events.push(TurnEvent::ToolResult {
            turn_id: s("t"),
            call_id,
            server: s("demo"),
            tool: s(tool),
            duration_ms: 20,
            is_error: *is_error,
            result: Some(result.clone()),
            error: None,
            requests: Vec::new(),
        });
    }
    events.push(TurnEvent::TraceStep {
        turn_id: s("t"),
        step: 1,
        model: s("m"),
        finish_reason: s("tool_calls"),
        usage: TokenUsage::default(),
    });
    events.push(TurnEvent::TextDelta {
        turn_id: s("t"),
        text: s(answer),
    });
    events.push(TurnEvent::TraceStep {
        turn_id: s("t"),
        step: 2,
        model: s("m"),
        finish_reason: s("stop"),
        usage: TokenUsage::default(),
    });
    events.push(end);
    mcplab_evals::trace::turn_from_events(
        "u",
        &events,
        TurnTiming {
            latency_ms: 2000,
            llm_ms: 1900,
        },
    )
}

fn finished(input: u64, output: u64) -> TurnEvent {
    TurnEvent::TurnFinished {
        turn_id: "t".into(),
        reason: StopReason::Completed,
        usage: TokenUsage {
            input_tokens: input,
            output_tokens: output,
            reasoning_tokens: 0,
        },
    }
}

fn judge(case_yaml: &str, trace: &Trace, judge: Option<JudgeVerdict>) -> Verdict {
    let text = format!("version: 1\nid: s\ncases:\n  - id: c\n{case_yaml}");
    let suite = parse_suite(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    judge_iteration(&ResolvedCase::new(&suite, &suite.cases[0]), trace, judge)
}

fn failures(v: &Verdict) -> Vec<String> {
    mcplab_evals::verdict::failures(v, "turn")
}

fn add_trace(answer: &str) -> Trace {
    let result = json!({"content": [{"type": "text", "text": "2 + 40 = 42"}], "structuredContent": {"sum": 42}});
    Trace {
        turns: vec![turn_from_events(
            answer,
            &[("add", json!({"a": 2, "b": 40}), result, false)],
            finished(1200, 300),
        )],
        cost_usd: Some(0.004),
        app_renders: vec![],
    }
}

#[test]
fn answer_checks() {
    let checks = "    turns: [q]\n    checks:\n      - answerContains: \"THE SUM\"\n      - answerMatches: '\\b42\\b'\n      - answerJson: { path: $.total, equals: { $approx: 42, $tolerance: 0.5 } }\n";
    let ok = add_trace("The sum is 42.\n```json\n{\"total\": 42.2}\n```");
    assert_eq!(
        judge(checks, &ok, None).outcome,
        Outcome::Passed,
        "{:?}",
        failures(&judge(checks, &ok, None))
    );
    let bad = add_trace("Forty-two: {\"total\": 40}");
    let v = judge(checks, &bad, None);
    let f = failures(&v);
    assert_eq!(f.len(), 3, "{f:?}");
    assert!(f[0].contains("does not contain \"THE SUM\""), "{f:?}");
    assert!(
        f[2].contains("$.total: expected {\"$approx\":42,\"$tolerance\":0.5}, found 40"),
        "{f:?}"
    );
    let case_sensitive = "    turns: [q]\n    checks:\n      - answerContains: { text: \"THE SUM\", caseSensitive: true }\n";
    assert_eq!(judge(case_sensitive, &ok, None).outcome, Outcome::Failed);
}

#[test]
fn budget_checks_and_tool_results() {
    let case = "    turns: [q]\n    checks:\n      - maxSteps: 2\n      - maxTokens: 1500\n      - maxCostUsd: 0.005\n      - maxLatencyMs: 2000\n      - noToolErrors: true\n      - turnFinished: true\n      - firstTool: add\n      - toolResult: { tool: add, matches: { structuredContent: { sum: 42 } } }\n";
    let t = add_trace("42");
    assert_eq!(
        judge(case, &t, None).outcome,
        Outcome::Passed,
        "{:?}",
        failures(&judge(case, &t, None))
    );
    let tight = "    turns: [q]\n    checks:\n      - maxSteps: 1\n      - maxTokens: 1499\n      - maxCostUsd: 0.003\n      - maxLatencyMs: 1999\n      - toolResult: { tool: add, matches: { structuredContent: { sum: 41 } } }\n      - firstTool: echo\n";
    let f = failures(&judge(tight, &t, None));
    assert_eq!(f.len(), 6, "{f:?}");
    assert!(f[0].ends_with("2 steps > 1"));
    assert!(f[1].ends_with("1500 tokens > 1499"));
    assert!(
        f[4].contains("$.structuredContent.sum: expected 41, got 42"),
        "{f:?}"
    );
    let mut unpriced = t.clone();
    unpriced.cost_usd = None;
    let f = failures(&judge(
        "    turns: [q]\n    checks:\n      - maxCostUsd: 1\n",
        &unpriced,
        None,
    ));
    assert!(f[0].contains("cost unknown"), "fails closed: {f:?}");
}

#[test]
fn tool_errors_and_unfinished_turns() {
    let err =
        json!({"content": [{"type": "text", "text": "This tool always fails."}], "isError": true});
    let t = Trace {
        turns: vec![turn_from_events(
            "it failed",
            &[("fail", json!({}), err, true)],
            finished(1, 1),
        )],
        cost_usd: None,
        app_renders: vec![],
    };
    let f = failures(&judge(
        "    turns: [q]\n    checks:\n      - noToolErrors: true\n",
        &t,
        None,
    ));
    assert_eq!(
        f,
        vec![r#"{"noToolErrors":true}: tool errors: fail (This tool always fails.)"#]
    );
    let step_limit = TurnEvent::TurnFinished {
        turn_id: "t".into(),
        reason: StopReason::StepLimit,
        usage: TokenUsage::default(),
    };
    let t = Trace {
        turns: vec![turn_from_events("", &[], step_limit)],
        cost_usd: None,
        app_renders: vec![],
    };
    let v = judge(
        "    turns: [q]\n    checks:\n      - turnFinished: true\n",
        &t,
        None,
    );
    assert_eq!(
        v.outcome,
        Outcome::Failed,
        "the step limit is the model's doing: failed, not errored"
    );
    assert!(failures(&v)[0].ends_with("turn 1 stopped at the step limit"));
}

#[test]
fn provider_failures_and_timeouts_are_errors_not_failures() {
    let failed = TurnEvent::TurnFailed {
        turn_id: "t".into(),
        kind: TurnFailureKind::RateLimit,
        message: "429".into(),
        usage: TokenUsage::default(),
    };
    let t = Trace {
        turns: vec![turn_from_events("", &[], failed)],
        cost_usd: None,
        app_renders: vec![],
    };
    let v = judge(
        "    turns: [q]\n    checks:\n      - answerContains: x\n",
        &t,
        None,
    );
    assert_eq!(
        v.outcome,
        Outcome::Errored {
            reason: "turn 1: rate_limit: 429".into()
        }
    );
    let mut timed_out = add_trace("42");
    timed_out.turns[0].end = TurnEnd::TimedOut;
    assert!(
        judge("    turns: [q]\n", &timed_out, None)
            .outcome
            .is_error()
    );
    let bad_response = TurnEvent::TurnFailed {
        turn_id: "t".into(),
        kind: TurnFailureKind::ContextLength,
        message: "too long".into(),
        usage: TokenUsage::default(),
    };
    let t = Trace {
        turns: vec![turn_from_events("", &[], bad_response)],
        cost_usd: None,
        app_renders: vec![],
    };
    assert_eq!(
        judge(
            "    turns: [q]\n    checks:\n      - turnFinished: true\n",
            &t,
            None
        )
        .outcome,
        Outcome::Failed
    );
    // A recorded iteration with fewer turns than the case fails its later turns' expectations.
    let two_turns = "    turns:\n      - q\n      - user: again\n        toolCalls: { expected: [{ tool: add }] }\n";
    let v = judge(two_turns, &add_trace("42"), None);
    assert_eq!(failures(&v), vec!["turn 2: Missing: add"]);
}

#[test]
fn app_rendered_fails_closed() {
    let mut t = add_trace("here is your counter");
    t.turns[0].tool_calls[0].tool = "show_counter_app".into();
    let case = "    turns: [q]\n    checks:\n      - appRendered: { tool: show_counter_app }\n";
    assert!(failures(&judge(case, &t, None))[0].contains("no render report"));
    let call_id = t.turns[0].tool_calls[0].call_id.clone();
    let render = |initialized, csp: Vec<String>| AppRender {
        call_id: call_id.clone(),
        server: "demo".into(),
        tool: "show_counter_app".into(),
        initialized,
        ready_ms: initialized.then_some(250),
        csp_violations: csp,
        errors: vec![],
        console_errors: vec![],
    };
    t.app_renders = vec![render(true, vec![])];
    assert_eq!(judge(case, &t, None).outcome, Outcome::Passed);
    t.app_renders[0].errors = vec!["TypeError: x is undefined".into()];
    assert!(failures(&judge(case, &t, None))[0].contains("1 error(s), first: TypeError"));
    t.app_renders = vec![render(true, vec!["img-src https://evil.example".into()])];
    assert!(failures(&judge(case, &t, None))[0].contains("1 CSP violation(s)"));
    t.app_renders = vec![render(false, vec![])];
    assert!(failures(&judge(case, &t, None))[0].contains("did not initialize"));
    let any = "    turns: [q]\n    checks:\n      - appRendered: {}\n";
    t.app_renders.clear();
    assert!(failures(&judge(any, &t, None))[0].contains("no app was rendered"));
    for other in ["noConsoleErrors: true", "maxRenderMs: 600000"] {
        let case = format!("    turns: [q]\n    checks:\n      - {other}\n");
        assert!(
            failures(&judge(&case, &t, None))[0].contains("no app was rendered"),
            "{other}"
        );
    }
}

/// `appRendered` tolerates console errors, `noConsoleErrors` does not; `maxRenderMs` compares
/// the ready time and fails an app that never became ready.
#[test]
fn console_errors_and_render_time_are_checks_of_their_own() {
    let mut t = add_trace("here is your counter");
    t.turns[0].tool_calls[0].tool = "show_counter_app".into();
    t.app_renders = vec![AppRender {
        call_id: t.turns[0].tool_calls[0].call_id.clone(),
        server: "demo".into(),
        tool: "show_counter_app".into(),
        initialized: true,
        ready_ms: Some(420),
        csp_violations: vec![],
        errors: vec![],
        console_errors: vec!["deprecated option".into()],
    }];
    let case = |check: &str| format!("    turns: [q]\n    checks:\n      - {check}\n");
    assert_eq!(
        judge(&case("appRendered: {}"), &t, None).outcome,
        Outcome::Passed
    );
    let noisy = failures(&judge(&case("noConsoleErrors: true"), &t, None));
    assert!(
        noisy[0].contains("logged 1 console error(s), first: deprecated option"),
        "{noisy:?}"
    );
    assert_eq!(
        judge(&case("maxRenderMs: 420"), &t, None).outcome,
        Outcome::Passed
    );
    let slow = failures(&judge(&case("maxRenderMs: 419"), &t, None));
    assert!(slow[0].contains("ready after 420 ms > 419 ms"), "{slow:?}");
    t.app_renders[0].console_errors.clear();
    assert_eq!(
        judge(&case("noConsoleErrors: true"), &t, None).outcome,
        Outcome::Passed
    );
    t.app_renders[0].ready_ms = None;
    let never = failures(&judge(&case("maxRenderMs: 600000"), &t, None));
    assert!(never[0].contains("never became ready"), "{never:?}");
}

#[test]
fn judge_is_advisory_unless_gating() {
    let t = add_trace("42");
    let low = Some(JudgeVerdict::Scored {
        score: 0.4,
        reason: "terse".into(),
        model: "openai::gpt-4.1-mini".into(),
    });
    let advisory = "    turns: [q]\n    judge: { rubric: r, model: openai::gpt-4.1-mini }\n";
    let v = judge(advisory, &t, low.clone());
    assert_eq!(v.outcome, Outcome::Passed);
    assert_eq!(v.judge.as_ref().unwrap().passed, Some(false));
    let gating = "    turns: [q]\n    judge: { rubric: r, model: openai::gpt-4.1-mini, threshold: 0.5, gating: true }\n";
    let v = judge(gating, &t, low);
    assert_eq!(v.outcome, Outcome::Failed);
    assert_eq!(failures(&v), vec!["judge: 0.40 < 0.5: terse"]);
    let high = Some(JudgeVerdict::Scored {
        score: 0.5,
        reason: "ok".into(),
        model: "m".into(),
    });
    assert_eq!(judge(gating, &t, high).outcome, Outcome::Passed);
    let broken = Some(JudgeVerdict::Error {
        message: "judge timed out".into(),
    });
    assert!(
        judge(gating, &t, broken).outcome.is_error(),
        "a gating judge that cannot grade leaves the iteration undecided"
    );
}

#[test]
fn cost_cannot_be_checked_per_turn() {
    let text = "version: 1\nid: s\ncases:\n  - id: c\n    turns:\n      - user: q\n        checks:\n          - maxCostUsd: 1\n";
    let e = parse_suite(text).unwrap_err();
    assert!(
        e.0[0].to_string().starts_with(
            "8:13: cases[0].turns[0].checks[0].maxCostUsd: cost is measured per iteration"
        ),
        "{e}"
    );
}

#[test]
fn trace_call_ids_pair_results() {
    let t = add_trace("x");
    let call: &ToolCallTrace = &t.turns[0].tool_calls[0];
    assert_eq!(
        call.result.as_ref().unwrap()["structuredContent"]["sum"],
        42
    );
    assert_eq!(t.turns[0].mcp_ms, 20);
    assert_eq!(t.turns[0].usage.input_tokens, 1200);
}

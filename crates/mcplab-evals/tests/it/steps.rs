//! Model-free steps: a case of `steps` (call a tool, check its result) is found by the
//! pre-flight, validated at its lines, resolved to one "no model" column, and judged with
//! the same checks as a turn (a step must succeed unless it expects `isError: true`).

use std::collections::BTreeMap;

use mcplab_evals::run::{
    NO_MODEL, Unit, judged as judged_record, model_label, plan, resolved_cases,
};
use mcplab_evals::steps::{StepCall, settle, step_events};
use mcplab_evals::suite::{Catalog, locate_problems, parse_suite, tool_refs, unknown_tools};
use mcplab_evals::trace::{Trace, TurnTiming, turn_from_events};
use mcplab_evals::verdict::{Outcome, Verdict, judge_iteration};
use serde_json::{Value, json};

const SUITE: &str = "version: 1
id: steps
hosts: [claude]
cases:
  - id: add
    steps:
      - call: add
        args: { a: 2, b: 40 }
        expect:
          - jsonPath: { path: $.structuredContent.sum, equals: 42 }
          - answerContains: \"42\"
      - call: ad
        args: { a: x }
        expect: [{ isError: true }]
";

fn failures(v: &Verdict) -> Vec<String> {
    mcplab_evals::verdict::failures(v, "step")
}

fn step(k: usize, tool: &str, outcome: Result<Value, String>) -> mcplab_evals::trace::TurnTrace {
    let events = step_events(StepCall {
        turn_id: format!("t{k}"),
        call_id: format!("c{k}"),
        server: "demo".into(),
        tool: tool.into(),
        arguments: json!({}),
        outcome,
        duration_ms: 3,
    });
    turn_from_events(&format!("call {tool}"), &events, TurnTiming::default())
}

fn sum(n: i64) -> Value {
    json!({"content": [{"type": "text", "text": format!("{n}")}], "structuredContent": {"sum": n}})
}

#[test]
fn a_case_of_steps_runs_with_no_model_per_host() {
    let suite = parse_suite(SUITE).unwrap();
    let cases = resolved_cases(&suite);
    assert_eq!(cases[0].models, [" @ claude"]);
    assert_eq!(model_label(&cases[0].models[0]), "no model @ claude");
    assert_eq!(model_label(NO_MODEL), "no model");
    assert_eq!(plan(&cases).len(), 1);
    assert!(cases[0].judge.is_none() && cases[0].whole.is_none());
}

#[test]
fn steps_are_judged_like_turns_and_must_succeed_unless_expected_to_fail() {
    let suite = parse_suite(SUITE).unwrap();
    let case = &resolved_cases(&suite)[0];
    let judged = |turns| {
        let mut trace = Trace {
            turns,
            cost_usd: None,
            app_renders: Vec::new(),
        };
        settle(&mut trace);
        assert_eq!(trace.cost_usd, Some(0.0), "no model costs nothing");
        judge_iteration(case, &trace, None)
    };
    let bad_args = Err("MCP error -32602: invalid params".to_owned());
    let v = judged(vec![step(0, "add", Ok(sum(42))), step(1, "ad", bad_args)]);
    assert_eq!(v.outcome, Outcome::Passed, "{:#?}", failures(&v));
    let v = judged(vec![step(0, "add", Ok(sum(41))), step(1, "ad", Ok(sum(0)))]);
    assert_eq!(v.outcome, Outcome::Failed);
    // The stored failure lines of the "no model" column (under a host) name steps, not turns.
    let unit = Unit {
        case_id: "add".into(),
        model: case.models[0].clone(),
        iteration: 0,
    };
    let f = judged_record(unit, &Trace::default(), &v).failures;
    assert_eq!(f.len(), 3, "{f:#?}");
    assert!(
        f[0].starts_with("step 1: ") && f[0].contains("41"),
        "{f:#?}"
    );
    assert!(f[2].starts_with("step 2: "), "{f:#?}");
    assert!(f[1].contains("does not contain \"42\""), "{f:#?}");
    assert!(
        f[2].contains("expected an error, but ad succeeded"),
        "{f:#?}"
    );
    // Without `isError` in its expect, a failing call fails the step.
    let plain =
        parse_suite("version: 1\nid: s\ncases:\n  - id: a\n    steps: [{ call: add }]\n").unwrap();
    let case = &resolved_cases(&plain)[0];
    let mut trace = Trace {
        turns: vec![step(
            0,
            "add",
            Ok(json!({"content": [{"type": "text", "text": "boom"}], "isError": true})),
        )],
        cost_usd: None,
        app_renders: Vec::new(),
    };
    settle(&mut trace);
    let v = judge_iteration(case, &trace, None);
    assert_eq!(v.outcome, Outcome::Failed);
    assert!(
        failures(&v)[0].contains("tool errors: add (boom)"),
        "{:?}",
        failures(&v)
    );
}

#[test]
fn a_misspelled_step_tool_is_found_at_its_line() {
    let suite = parse_suite(SUITE).unwrap();
    let refs = tool_refs(&suite);
    let catalog = Catalog {
        host: None,
        servers: BTreeMap::from([("demo".to_owned(), vec!["add".to_owned(), "echo".to_owned()])]),
    };
    let lines: Vec<String> = locate_problems(Some(SUITE), unknown_tools(&refs, &[catalog]))
        .0
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        lines,
        ["12:9: cases[0].steps[1].call: tool `ad` is not on server `demo`: did you mean `add`?"]
    );
}

#[test]
fn what_a_case_of_steps_cannot_have_is_an_error_at_its_line() {
    let text = "version: 1
id: s
cases:
  - id: none
  - id: both
    turns: [hi]
    steps: [{ call: add }]
  - id: modelled
    model: openai::x
    judge: { rubric: r, model: openai::j }
    steps:
      - call: add
        expect: [{ command: ./x.sh }]
";
    let lines: Vec<String> = parse_suite(text)
        .unwrap_err()
        .0
        .iter()
        .map(ToString::to_string)
        .collect();
    let has = |needle: &str| lines.iter().any(|l| l.contains(needle));
    assert!(has("4:5: cases[0]: a case needs `turns`"), "{lines:#?}");
    assert!(
        has("7:5: cases[1].steps: case `both` has both `turns` and `steps`"),
        "{lines:#?}"
    );
    assert!(
        has("9:5: cases[2].model: a case of `steps` runs no model"),
        "{lines:#?}"
    );
    assert!(
        has("10:5: cases[2].judge: a case of `steps` runs no model"),
        "{lines:#?}"
    );
    assert!(
        has("13:20: cases[2].steps[0].expect[0].command: a check command reads"),
        "{lines:#?}"
    );
}

#[test]
fn a_simulated_user_writes_the_turns_itself() {
    let text = "version: 1
id: s
models: [openai::m]
cases:
  - id: talk
    simulatedUser: { persona: p, goal: g, maxTurns: 3 }
    turns: [hi]
  - id: ok
    simulatedUser: { persona: p, goal: g, maxTurns: 3, model: openai::u }
";
    let lines: Vec<String> = parse_suite(text)
        .unwrap_err()
        .0
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        lines,
        [
            "7:5: cases[0].turns: the simulated user writes the turns: remove `turns` (or `simulatedUser`)"
        ]
    );
}

//! Tool-call matching and argument matchers, through suite YAML as a user writes it.

use mcplab_evals::matching::CallDiff;
use mcplab_evals::suite::parse_suite;
use mcplab_evals::trace::{ToolCallTrace, Trace, TurnEnd, TurnTrace};
use mcplab_evals::verdict::{Outcome, ResolvedCase, Verdict, judge_iteration};
use mcplab_protocol::chat::{StopReason, TokenUsage};
use serde_json::{Value, json};

fn call(tool: &str, args: Value) -> ToolCallTrace {
    ToolCallTrace {
        call_id: format!("c-{tool}-{args}"),
        server: "demo".into(),
        tool: tool.into(),
        arguments: args,
        result: Some(json!({"content": [{"type": "text", "text": "ok"}]})),
        is_error: false,
        error: None,
        duration_ms: 5,
    }
}

fn turn(calls: Vec<ToolCallTrace>, answer: &str) -> TurnTrace {
    TurnTrace {
        user: "u".into(),
        tool_calls: calls,
        answer: answer.into(),
        end: TurnEnd::Finished {
            reason: StopReason::Completed,
        },
        steps: 2,
        usage: TokenUsage {
            input_tokens: 100,
            output_tokens: 20,
            reasoning_tokens: 0,
        },
        latency_ms: 1000,
        llm_ms: 900,
        mcp_ms: 5,
    }
}

/// A one-case suite whose case has `tool_calls` (YAML, indented under `toolCalls:`).
fn verdict(tool_calls: &str, calls: Vec<ToolCallTrace>) -> Verdict {
    let text = format!(
        "version: 1\nid: s\ncases:\n  - id: c\n    turns: [go]\n    toolCalls:\n{tool_calls}"
    );
    let suite = parse_suite(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let case = ResolvedCase::new(&suite, &suite.cases[0]);
    let trace = Trace {
        turns: vec![turn(calls, "done")],
        cost_usd: None,
        app_renders: vec![],
    };
    judge_iteration(&case, &trace, None)
}

fn diffs(v: &Verdict) -> Vec<String> {
    v.tool_calls
        .iter()
        .flat_map(|m| {
            m.result
                .diffs
                .iter()
                .map(mcplab_evals::matching::calls::describe)
        })
        .collect()
}

#[test]
fn any_order_pairs_every_expected_call() {
    let spec =
        "      expected:\n        - { tool: add, arguments: { a: 1 } }\n        - { tool: echo }\n";
    let v = verdict(
        spec,
        vec![
            call("echo", json!({"message": "x"})),
            call("add", json!({"a": 1, "b": 2})),
        ],
    );
    assert_eq!(v.outcome, Outcome::Passed, "{:?}", diffs(&v));
}

#[test]
fn any_order_finds_the_pairing_a_greedy_matcher_misses() {
    // The loose expectation comes first; a first-fit matcher gives it the {a: 1} call and
    // then reports the strict one missing.
    let spec =
        "      expected:\n        - { tool: add }\n        - { tool: add, arguments: { a: 1 } }\n";
    let v = verdict(
        spec,
        vec![call("add", json!({"a": 1})), call("add", json!({"a": 2}))],
    );
    assert_eq!(v.outcome, Outcome::Passed, "{:?}", diffs(&v));
}

#[test]
fn in_order_reports_out_of_order() {
    let spec = "      order: in-order\n      expected:\n        - { tool: add }\n        - { tool: echo }\n";
    let v = verdict(spec, vec![call("echo", json!({})), call("add", json!({}))]);
    assert_eq!(v.outcome, Outcome::Failed);
    let m = &v.tool_calls[0].result;
    assert!(
        matches!(m.diffs[0], CallDiff::OutOfOrder { .. }),
        "{:?}",
        m.diffs
    );
    assert_eq!(
        diffs(&v)[0],
        "Out of order: add (expected #1) came as call #2"
    );
    // Interleaved extras are fine in order.
    let v = verdict(
        spec,
        vec![
            call("add", json!({})),
            call("get_image", json!({})),
            call("echo", json!({})),
        ],
    );
    assert_eq!(v.outcome, Outcome::Passed, "{:?}", diffs(&v));
}

#[test]
fn exact_order_allows_nothing_else() {
    let spec =
        "      order: exact\n      expected:\n        - { tool: add }\n        - { tool: echo }\n";
    let v = verdict(spec, vec![call("add", json!({})), call("echo", json!({}))]);
    assert_eq!(v.outcome, Outcome::Passed);
    let v = verdict(
        spec,
        vec![
            call("add", json!({})),
            call("add", json!({})),
            call("echo", json!({})),
        ],
    );
    assert_eq!(v.outcome, Outcome::Failed);
    assert_eq!(diffs(&v), vec![r#"Extra: add {} (call #2)"#]);
}

#[test]
fn argument_mismatch_names_the_path_and_both_values() {
    let spec = "      expected:\n        - tool: create_order\n          arguments:\n            customer: { name: Ada, email: ada@example.com }\n";
    let got =
        json!({"customer": {"name": "Ada", "email": "bob@example.com", "phone": "1"}, "items": []});
    let v = verdict(spec, vec![call("create_order", got)]);
    let m = &v.tool_calls[0].result;
    let CallDiff::ArgumentMismatch { mismatches, .. } = &m.diffs[0] else {
        panic!("{:?}", m.diffs)
    };
    assert_eq!(
        mismatches.len(),
        1,
        "partial matching ignores `phone` and `items`: {mismatches:?}"
    );
    assert_eq!(mismatches[0].path, "$.customer.email");
    assert_eq!(mismatches[0].expected, json!("ada@example.com"));
    assert_eq!(mismatches[0].actual, Some(json!("bob@example.com")));
    assert_eq!(m.matched, 0);
    assert_eq!(m.missed_expected, 1);
    assert_eq!(m.unmatched_actual, 1);
}

#[test]
fn exact_arguments_reject_extra_keys_at_any_depth() {
    let spec = "      arguments: exact\n      expected:\n        - { tool: add, arguments: { a: 1, b: { c: 2 } } }\n";
    assert_eq!(
        verdict(spec, vec![call("add", json!({"a": 1, "b": {"c": 2}}))]).outcome,
        Outcome::Passed
    );
    let v = verdict(
        spec,
        vec![call("add", json!({"a": 1, "b": {"c": 2, "d": 3}}))],
    );
    let CallDiff::ArgumentMismatch { mismatches, .. } = &v.tool_calls[0].result.diffs[0] else {
        panic!()
    };
    assert_eq!(mismatches[0].path, "$.b.d");
    assert!(mismatches[0].reason.contains("unexpected key"));
}

#[test]
fn matchers_alternatives_regex_tolerance_text_types_optional() {
    let spec = r#"      expected:
        - tool: t
          arguments:
            unit: { $anyOf: [celsius, fahrenheit] }
            city: { $regex: "^(?i)paris$" }
            temp: { $approx: 20, $tolerance: 0.5 }
            note: { $like: "  Bring   AN umbrella " }
            days: "<integer>"
            tags: "<array>"
            maybe: { $optional: "<string>" }
            never: { $absent: true }
            "weird key": { $literal: "<string>" }
"#;
    let good = json!({"unit": "celsius", "city": "PARIS", "temp": 20.4, "note": "bring an umbrella",
                      "days": 3, "tags": [], "weird key": "<string>"});
    let v = verdict(spec, vec![call("t", good.clone())]);
    assert_eq!(v.outcome, Outcome::Passed, "{:?}", diffs(&v));
    let mut bad = good;
    bad["unit"] = json!("kelvin");
    bad["temp"] = json!(21);
    bad["days"] = json!(3.5);
    bad["maybe"] = json!(7);
    bad["never"] = json!(null);
    bad["weird key"] = json!("text");
    let v = verdict(spec, vec![call("t", bad)]);
    let CallDiff::ArgumentMismatch { mismatches, .. } = &v.tool_calls[0].result.diffs[0] else {
        panic!()
    };
    let paths: Vec<&str> = mismatches.iter().map(|m| m.path.as_str()).collect();
    assert_eq!(
        paths,
        vec![
            "$.unit",
            "$.temp",
            "$.days",
            "$.maybe",
            "$.never",
            r#"$["weird key"]"#
        ]
    );
}

#[test]
fn nested_partial_matching_and_contains() {
    let spec = r#"      expected:
        - tool: create_order
          arguments:
            items:
              $contains:
                - { sku: TEE-XL }
                - { sku: MUG-01, quantity: 2 }
"#;
    let items = json!({"items": [{"sku": "MUG-01", "quantity": 2}, {"sku": "TEE-XL", "quantity": 1}, {"sku": "X", "quantity": 9}]});
    assert_eq!(
        verdict(spec, vec![call("create_order", items)]).outcome,
        Outcome::Passed
    );
    let v = verdict(
        spec,
        vec![call(
            "create_order",
            json!({"items": [{"sku": "MUG-01", "quantity": 3}]}),
        )],
    );
    assert_eq!(v.outcome, Outcome::Failed);
}

#[test]
fn case_and_whitespace_options_and_per_tool_overrides() {
    let spec = "      ignoreCase: true\n      perTool:\n        echo: { ignoreCase: false, ignoreWhitespace: true }\n      expected:\n        - { tool: add, arguments: { op: PLUS } }\n        - { tool: echo, arguments: { message: 'a b' } }\n";
    let ok = vec![
        call("add", json!({"op": "plus"})),
        call("echo", json!({"message": " a   b "})),
    ];
    assert_eq!(verdict(spec, ok).outcome, Outcome::Passed);
    let case_differs = vec![
        call("add", json!({"op": "plus"})),
        call("echo", json!({"message": "A B"})),
    ];
    assert_eq!(verdict(spec, case_differs).outcome, Outcome::Failed);
}

#[test]
fn numbers_compare_by_value_and_with_tolerance() {
    let spec = "      numberTolerance: 0.01\n      expected:\n        - { tool: add, arguments: { a: 0.3 } }\n";
    assert_eq!(
        verdict(spec, vec![call("add", json!({"a": 0.30000000000000004}))]).outcome,
        Outcome::Passed
    );
    assert_eq!(
        verdict(spec, vec![call("add", json!({"a": 0.305}))]).outcome,
        Outcome::Passed
    );
    assert_eq!(
        verdict(spec, vec![call("add", json!({"a": 0.32}))]).outcome,
        Outcome::Failed
    );
    let strict = "      expected:\n        - { tool: add, arguments: { a: 2 } }\n";
    assert_eq!(
        verdict(strict, vec![call("add", json!({"a": 2.0}))]).outcome,
        Outcome::Passed
    );
    assert_eq!(
        verdict(strict, vec![call("add", json!({"a": "2"}))]).outcome,
        Outcome::Failed
    );
}

#[test]
fn extra_call_allowance() {
    let spec = "      extraCalls: 1\n      expected:\n        - { tool: add }\n";
    let one_extra = vec![call("add", json!({})), call("echo", json!({}))];
    let v = verdict(spec, one_extra);
    assert_eq!(v.outcome, Outcome::Passed);
    assert!(matches!(
        v.tool_calls[0].result.diffs[0],
        CallDiff::Extra {
            tolerated: true,
            ..
        }
    ));
    let two_extra = vec![
        call("add", json!({})),
        call("echo", json!({})),
        call("add", json!({})),
    ];
    let v = verdict(spec, two_extra);
    assert_eq!(v.outcome, Outcome::Failed);
    assert_eq!(diffs(&v)[1], "Extra: add {} (call #3)");
}

#[test]
fn optional_calls_may_be_missing() {
    let spec = "      extraCalls: 0\n      expected:\n        - { tool: add }\n        - { tool: echo, optional: true }\n";
    assert_eq!(
        verdict(spec, vec![call("add", json!({}))]).outcome,
        Outcome::Passed
    );
    assert_eq!(
        verdict(spec, vec![call("add", json!({})), call("echo", json!({}))]).outcome,
        Outcome::Passed
    );
    assert_eq!(
        verdict(spec, vec![call("echo", json!({}))]).outcome,
        Outcome::Failed
    );
}

#[test]
fn forbidden_tools_and_negative_cases() {
    let spec = "      forbidden: [fail]\n      expected:\n        - { tool: add }\n";
    let v = verdict(spec, vec![call("add", json!({})), call("fail", json!({}))]);
    assert_eq!(v.outcome, Outcome::Failed);
    assert_eq!(diffs(&v), vec!["Forbidden: fail was called (call #2)"]);
    let none = "      none: true\n";
    assert_eq!(verdict(none, vec![]).outcome, Outcome::Passed);
    let v = verdict(none, vec![call("echo", json!({"message": "hi"}))]);
    assert_eq!(v.outcome, Outcome::Failed);
    assert_eq!(diffs(&v), vec![r#"Extra: echo {"message":"hi"} (call #1)"#]);
}

#[test]
fn missing_call_is_missing() {
    let v = verdict(
        "      expected:\n        - { tool: add, arguments: { a: 1 } }\n",
        vec![call("echo", json!({}))],
    );
    assert_eq!(
        diffs(&v),
        vec![
            r#"Missing: add {"a":1}"#,
            "Extra: echo {} (call #1) (tolerated)"
        ]
    );
    assert_eq!(
        mcplab_evals::verdict::failures(&v, "turn"),
        vec![r#"Missing: add {"a":1}"#]
    );
}

#[test]
fn server_name_narrows_the_match() {
    let spec = "      expected:\n        - { tool: add, server: other }\n";
    assert_eq!(
        verdict(spec, vec![call("add", json!({}))]).outcome,
        Outcome::Failed
    );
}

#[test]
fn a_second_call_that_never_happened_is_missing_not_out_of_order() {
    let spec = "      order: in-order\n      expected:\n        - { tool: add }\n        - { tool: add }\n";
    let v = verdict(spec, vec![call("add", json!({}))]);
    assert_eq!(diffs(&v), vec!["Missing: add"]);
}

#[test]
fn a_saved_session_becomes_a_case_its_own_trace_passes() {
    use mcplab_evals::suite::case_from_turns;
    use mcplab_protocol::chat::{StoredTurn, TurnEvent};
    let s = |x: &str| x.to_string();
    let args = json!({"message": "<b>hi</b>", "opts": {"$weird": 1}});
    let stored = vec![StoredTurn {
        turn_id: s("t1"),
        user: s("echo <b>hi</b>"),
        events: vec![
            TurnEvent::ToolCall {
                turn_id: s("t1"),
                call_id: s("c1"),
                name: s("demo__echo"),
                server: s("demo"),
                tool: s("echo"),
                arguments: args.clone(),
            },
            TurnEvent::ToolResult {
                turn_id: s("t1"),
                call_id: s("c1"),
                server: s("demo"),
                tool: s("echo"),
                duration_ms: 3,
                is_error: false,
                result: None,
                error: None,
                requests: Vec::new(),
            },
            TurnEvent::ToolCall {
                turn_id: s("t1"),
                call_id: s("c2"),
                name: s("demo__fail"),
                server: s("demo"),
                tool: s("fail"),
                arguments: json!({}),
            },
            TurnEvent::ToolResult {
                turn_id: s("t1"),
                call_id: s("c2"),
                server: s("demo"),
                tool: s("fail"),
                duration_ms: 3,
                is_error: true,
                result: None,
                error: None,
                requests: Vec::new(),
            },
        ],
    }];
    let case = case_from_turns("saved", Some("Saved from chat"), &stored);
    let mut suite = parse_suite("version: 1\nid: s\ncases:\n  - id: x\n    turns: [q]\n").unwrap();
    suite.cases = vec![case];
    // What is written loads back (the literal-looking values were escaped).
    let text = mcplab_evals::import::to_yaml(&suite, &[]);
    assert_eq!(
        parse_suite(&text).unwrap_or_else(|e| panic!("{e}\n{text}")),
        suite
    );
    let resolved = ResolvedCase::new(&suite, &suite.cases[0]);
    let replay = Trace {
        turns: vec![turn(vec![call("echo", args)], "done")],
        cost_usd: None,
        app_renders: vec![],
    };
    let v = judge_iteration(&resolved, &replay, None);
    assert_eq!(
        v.outcome,
        Outcome::Passed,
        "{:?}",
        mcplab_evals::verdict::failures(&v, "turn")
    );
    let different = Trace {
        turns: vec![turn(
            vec![call(
                "echo",
                json!({"message": "bye", "opts": {"$weird": 1}}),
            )],
            "done",
        )],
        cost_usd: None,
        app_renders: vec![],
    };
    assert_eq!(
        judge_iteration(&resolved, &different, None).outcome,
        Outcome::Failed
    );
}

#[test]
fn per_turn_expectations_count_toward_precision_and_recall() {
    use mcplab_evals::run::Unit;
    let text = "version: 1\nid: s\ncases:\n  - id: c\n    turns:\n      - user: a\n        toolCalls: { expected: [{ tool: add }] }\n      - user: b\n        toolCalls: { expected: [{ tool: echo }] }\n";
    let suite = parse_suite(text).unwrap();
    let case = ResolvedCase::new(&suite, &suite.cases[0]);
    let trace = Trace {
        turns: vec![
            turn(vec![call("add", json!({}))], "x"),
            turn(vec![call("get_image", json!({}))], "y"),
        ],
        cost_usd: None,
        app_renders: vec![],
    };
    let v = judge_iteration(&case, &trace, None);
    let r = mcplab_evals::run::judged(
        Unit {
            case_id: "c".into(),
            model: "m::m".into(),
            iteration: 0,
        },
        &trace,
        &v,
    );
    assert_eq!(
        (
            r.metrics.calls_matched,
            r.metrics.calls_unexpected,
            r.metrics.calls_missed
        ),
        (1, 1, 1)
    );
}

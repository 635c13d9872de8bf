//! Importing MCPJam suites (fixtures written by us in their formats): what maps, what is
//! reported, and that the YAML written loads back to the same suite.

use mcplab_evals::import::{Imported, NoteKind, SourceFormat, import, to_yaml};
use mcplab_evals::suite::{ArgumentMode, Check, Turn, parse_suite};
use mcplab_evals::trace::{ToolCallTrace, Trace, TurnEnd, TurnTrace};
use mcplab_evals::verdict::{Outcome, ResolvedCase, judge_iteration};
use mcplab_protocol::chat::{StopReason, TokenUsage};
use serde_json::{Value, json};

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn note<'a>(i: &'a Imported, path: &str) -> Vec<(&'a NoteKind, &'a str)> {
    i.notes
        .iter()
        .filter(|n| n.path == path)
        .map(|n| (&n.kind, n.message.as_str()))
        .collect()
}

fn roundtrip(i: &Imported) {
    let yaml = to_yaml(&i.suite, &i.notes);
    let back = parse_suite(&yaml).unwrap_or_else(|e| panic!("{e}\n{yaml}"));
    assert_eq!(back, i.suite, "{yaml}");
    assert!(yaml.starts_with("# Imported by `mcplab eval import`."));
}

#[test]
fn mcpjam_suite_v1_maps_and_reports() {
    let i = import(&fixture("mcpjam-suite-v1.yaml"), "ignored").unwrap();
    assert_eq!(i.format, SourceFormat::McpjamSuiteV1);
    let s = &i.suite;
    assert_eq!(s.id, "demo_suite-1");
    assert_eq!(s.title.as_deref(), Some("Demo arithmetic"));
    assert_eq!(s.servers, vec!["demo"]);
    assert_eq!(s.models, vec!["openai::gpt-4.1-mini"]);
    assert_eq!(s.repeat, Some(3));
    assert_eq!(s.defaults.pass_threshold, Some(0.8));
    assert_eq!(s.gates.max_error_rate, Some(0.1));

    // Case 1: the prompt's assert steps became that turn's expectations.
    let add = &s.cases[0];
    assert_eq!(add.repeat, Some(5));
    let Turn::Detailed(turn) = &add.turns[0] else {
        panic!("{:?}", add.turns)
    };
    assert_eq!(turn.user, "What is 2 + 40?");
    let call = &turn.tool_calls.as_ref().unwrap().expected[0];
    assert_eq!(call.tool, "add");
    assert_eq!(
        call.arguments,
        Some(json!({"a": 2, "b": "<number>", "opts": {"$literal": {"round": true}}}))
    );
    assert_eq!(
        turn.checks,
        vec![Check::AnswerContains(
            mcplab_evals::suite::TextNeedle::Text("42".into())
        )]
    );
    assert_eq!(
        add.checks.len(),
        2,
        "noToolErrors and maxTokens: {:?}",
        add.checks
    );
    assert!(add.checks.contains(&Check::MaxTokens(4999)));
    assert_eq!(
        note(&i, "cases[0].assertions[2]")[0].0,
        &NoteKind::Info,
        "turnCountUnder 3 with 1 turn always holds"
    );

    // Case 2: model override, exact args with minCount, and what cannot be represented.
    let echo = &s.cases[1];
    assert_eq!(echo.models, Some(vec!["openai::gpt-4.1".to_string()]));
    let calls = &echo.tool_calls.as_ref().unwrap().expected;
    assert_eq!(calls.len(), 2, "minCount 2 → two expected calls");
    assert_eq!(
        calls[0].arguments,
        Some(json!({"$literal": {"message": "<hello>"}}))
    );
    assert!(echo.checks.contains(&Check::FirstTool("echo".into())));
    assert_eq!(note(&i, "cases[1].steps[1]")[0].0, &NoteKind::Dropped);
    assert_eq!(note(&i, "cases[1].steps[2]")[0].0, &NoteKind::Dropped);
    assert!(
        note(&i, "cases[1].assertions[2]")[0]
            .1
            .contains("not valid in mcplab's regex syntax"),
        "look-behind"
    );
    assert_eq!(
        note(&i, "cases[1].assertions[3]")[0].0,
        &NoteKind::Approximated
    );
    assert_eq!(note(&i, "cases[1].assertions[4]")[0].0, &NoteKind::Dropped);

    // Case 3: negative, disabled, forbidden, non-empty answer.
    let quiet = &s.cases[2];
    assert!(quiet.skip);
    let tc = quiet.tool_calls.as_ref().unwrap();
    assert!(tc.none);
    assert_eq!(tc.forbidden, vec!["fail"]);
    assert_eq!(quiet.checks, vec![Check::AnswerMatches(r"\S".into())]);
    assert_eq!(note(&i, "cases[2].expectedOutput")[0].0, &NoteKind::Dropped);

    for path in [
        "target.environment",
        "defaults.toolPolicy",
        "defaults.validity.maxEvaluatorErrorRate",
    ] {
        assert_eq!(note(&i, path)[0].0, &NoteKind::Dropped, "{path}");
    }
    assert!(note(&i, "target.servers[0].id")[0].1.contains("srv_123"));
    roundtrip(&i);
}

fn trace_with(calls: Vec<(&str, Value)>) -> Trace {
    let tool_calls = calls
        .into_iter()
        .enumerate()
        .map(|(k, (tool, arguments))| ToolCallTrace {
            call_id: k.to_string(),
            server: "demo".into(),
            tool: tool.into(),
            arguments,
            result: None,
            is_error: false,
            error: None,
            duration_ms: 1,
        })
        .collect();
    let turn = TurnTrace {
        user: "u".into(),
        tool_calls,
        answer: "The answer is 42".into(),
        end: TurnEnd::Finished {
            reason: StopReason::Completed,
        },
        steps: 1,
        usage: TokenUsage::default(),
        latency_ms: 1,
        llm_ms: 1,
        mcp_ms: 1,
    };
    Trace {
        turns: vec![turn],
        cost_usd: None,
        app_renders: vec![],
    }
}

/// MCPJam partial matching compares nested values whole and types top-level bare words.
#[test]
fn imported_partial_arguments_keep_mcpjam_semantics() {
    let i = import(&fixture("mcpjam-suite-v1.yaml"), "x").unwrap();
    let case = ResolvedCase::new(&i.suite, &i.suite.cases[0]);
    let same = trace_with(vec![(
        "add",
        json!({"a": 2, "b": 40.5, "opts": {"round": true}, "extra": 1}),
    )]);
    assert_eq!(judge_iteration(&case, &same, None).outcome, Outcome::Passed);
    // A nested extra key fails (deep equality), as it does in MCPJam.
    let nested_extra = trace_with(vec![(
        "add",
        json!({"a": 2, "b": 1, "opts": {"round": true, "x": 1}}),
    )]);
    assert_eq!(
        judge_iteration(&case, &nested_extra, None).outcome,
        Outcome::Failed
    );
    let wrong_type = trace_with(vec![(
        "add",
        json!({"a": 2, "b": "40", "opts": {"round": true}}),
    )]);
    assert_eq!(
        judge_iteration(&case, &wrong_type, None).outcome,
        Outcome::Failed
    );
    // Exact matching with a literal "<hello>" and a minimum count of two.
    let echo = ResolvedCase::new(&i.suite, &i.suite.cases[1]);
    let twice = trace_with(vec![
        ("echo", json!({"message": "<hello>"})),
        ("echo", json!({"message": "<hello>"})),
    ]);
    let v = judge_iteration(&echo, &twice, None);
    assert!(
        v.tool_calls.iter().all(|m| m.result.passed),
        "{:?}",
        mcplab_evals::verdict::failures(&v, "turn")
    );
    let once = trace_with(vec![("echo", json!({"message": "<hello>"}))]);
    assert!(
        !judge_iteration(&echo, &once, None).tool_calls[0]
            .result
            .passed
    );
}

#[test]
fn tests_json_maps_and_reports() {
    let i = import(&fixture("tests.json"), "tests").unwrap();
    assert_eq!(i.format, SourceFormat::McpjamTestsJson);
    let s = &i.suite;
    assert_eq!(s.id, "tests");
    assert_eq!(s.models, vec!["openai::gpt-4.1-mini"]);
    assert_eq!(s.repeat, Some(2));
    let ids: Vec<&str> = s.cases.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        ids,
        vec!["workspace-test", "workspace-test-2", "no-expectations"]
    );
    assert_eq!(s.cases[2].repeat, Some(5));
    let first = &s.cases[0].tool_calls.as_ref().unwrap().expected;
    assert_eq!(
        first.len(),
        1,
        "duplicate names collapse: MCPJam needed each called once"
    );
    assert_eq!(first[0].argument_mode, None::<ArgumentMode>);
    assert!(s.cases[2].tool_calls.is_none());
    assert_eq!(note(&i, "[1].judgeRequirement")[0].0, &NoteKind::Dropped);
    assert!(
        note(&i, "[1].judgeRequirement")[0]
            .1
            .contains("Mentions the sum 3")
    );
    assert_eq!(
        note(&i, "[1].advancedConfig.system")[0].0,
        &NoteKind::Dropped
    );
    assert_eq!(
        note(&i, "[1].advancedConfig.temperature")[0].0,
        &NoteKind::Dropped
    );
    assert_eq!(note(&i, "[2]")[0].0, &NoteKind::Info);
    roundtrip(&i);
}

#[test]
fn unknown_formats_and_versions_are_refused() {
    assert!(
        import("schemaVersion: \"2\"\ncases: []\n", "x")
            .unwrap_err()
            .to_string()
            .contains("only \"1\"")
    );
    assert!(
        import("version: 1\nid: x\n", "x")
            .unwrap_err()
            .to_string()
            .contains("schemaVersion")
    );
    assert!(
        import("[1, 2", "x")
            .unwrap_err()
            .to_string()
            .contains("not valid JSON")
    );
    let unknown_key = "schemaVersion: \"1\"\nmode: agentWorkflow\nreportingMode: standard\nsuite: {id: s, name: S}\ntarget: {servers: [{name: d}]}\ndefaults: {model: m, repetitions: 1, passThreshold: 1, validity: {}}\nsurprise: 1\ncases:\n  - {id: a, title: A, steps: [{id: p, kind: prompt, prompt: hi}]}\n";
    let i = import(unknown_key, "x").unwrap();
    assert_eq!(note(&i, "surprise")[0].0, &NoteKind::Dropped);
    assert_eq!(
        note(&i, "defaults.model")[0].0,
        &NoteKind::Dropped,
        "no provider"
    );
}

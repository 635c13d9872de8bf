//! Reports: JUnit XML parses with an XML parser and names case and model; the HTML page is
//! self-contained and escapes hostile text; progress events are one JSON object per line.

use mcplab_evals::compare::compare;
use mcplab_evals::gates::evaluate;
use mcplab_evals::report::{Progress, RunEvent, html_report, junit_xml};
use mcplab_evals::run::{CaseInfo, IterationRecord, Metrics, RunRecord, Unit};
use mcplab_evals::stats::summarize;
use mcplab_evals::suite::Gates;
use mcplab_evals::verdict::Outcome;

const HOSTILE: &str = "<script>alert('x')</script> & \"quoted\" \u{1}bell";

fn it(case: &str, model: &str, i: u32, outcome: Outcome) -> IterationRecord {
    let failures = match &outcome {
        Outcome::Passed => vec![],
        Outcome::Failed => vec![format!("Missing: add {{\"a\":1}} {HOSTILE}")],
        Outcome::Errored { reason } => vec![reason.clone()],
    };
    IterationRecord {
        unit: Unit {
            case_id: case.into(),
            model: model.into(),
            iteration: i,
        },
        outcome,
        failures,
        metrics: Metrics {
            latency_ms: 1500,
            llm_ms: 1400,
            mcp_ms: 100,
            cost_usd: Some(0.002),
            input_tokens: 300,
            output_tokens: 40,
            ..Metrics::default()
        },
    }
}

fn run() -> RunRecord {
    let model_b = format!("evil::{HOSTILE}");
    let mut its = Vec::new();
    for i in 0..4 {
        its.push(it("add", "openai::gpt-4.1-mini", i, Outcome::Passed));
        its.push(it(
            "add",
            &model_b,
            i,
            if i < 1 {
                Outcome::Passed
            } else {
                Outcome::Failed
            },
        ));
        its.push(it(
            "echo",
            "openai::gpt-4.1-mini",
            i,
            Outcome::Errored {
                reason: format!("network: {HOSTILE}"),
            },
        ));
    }
    RunRecord {
        suite_id: "demo-basics".into(),
        suite_hash: "0123456789abcdef".into(),
        shard: None,
        cases: vec![
            CaseInfo {
                id: "add".into(),
                title: None,
                pass_threshold: 0.75,
            },
            CaseInfo {
                id: "echo".into(),
                title: None,
                pass_threshold: 1.0,
            },
        ],
        planned: its.iter().map(|i| i.unit.clone()).collect(),
        iterations: its,
    }
}

#[test]
fn junit_parses_and_names_case_and_model() {
    let run = run();
    let xml = junit_xml(&run, &summarize(&run));
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    assert_eq!(
        (
            root.attribute("tests"),
            root.attribute("failures"),
            root.attribute("errors")
        ),
        (Some("3"), Some("1"), Some("1"))
    );
    let cases: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    let names: Vec<&str> = cases.iter().filter_map(|c| c.attribute("name")).collect();
    let model_b = format!("evil::{}", HOSTILE.replace('\u{1}', "\u{FFFD}"));
    assert_eq!(
        names,
        vec![
            "add [openai::gpt-4.1-mini]".to_string(),
            format!("add [{model_b}]"),
            "echo [openai::gpt-4.1-mini]".to_string()
        ]
    );
    assert_eq!(cases[0].attribute("classname"), Some("demo-basics.add"));
    assert!(
        cases[0]
            .children()
            .all(|c| !c.has_tag_name("failure") && !c.has_tag_name("error"))
    );
    let failure = cases[1]
        .children()
        .find(|c| c.has_tag_name("failure"))
        .expect("failing cell has <failure>");
    assert_eq!(
        failure.attribute("message"),
        Some("pass rate 1/4 is under the threshold 75.0%")
    );
    let body = failure.text().unwrap_or_default();
    assert!(
        body.contains("iteration 2: Missing: add {\"a\":1} <script>alert('x')</script>"),
        "{body}"
    );
    let error = cases[2]
        .children()
        .find(|c| c.has_tag_name("error"))
        .expect("all-errored cell has <error>");
    assert_eq!(
        error.attribute("message"),
        Some("no iteration completed (4 errored)")
    );
    assert_eq!(cases[0].attribute("time"), Some("6.000"));
}

#[test]
fn html_is_self_contained_and_escaped() {
    let run = run();
    let s = summarize(&run);
    let gates = evaluate(
        &Gates {
            min_pass_rate: Some(0.9),
            ..Gates::default()
        },
        &s,
        None,
        &[],
    );
    let cmp = compare(&s, &s, 2);
    let html = html_report(&run, &s, Some(&gates), Some(&cmp));
    let lower = html.to_lowercase();
    assert!(
        !lower.contains("<script"),
        "no script, and hostile text is escaped"
    );
    for external in ["src=", "href=", "url(", "@import", "http://", "https://"] {
        assert!(!lower.contains(external), "{external} in the report");
    }
    assert!(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"));
    assert!(html.contains("default-src 'none'"));
    assert!(html.contains("Invalid run") && html.contains("FAIL"));
    // Every chart is well-formed XML on its own.
    let mut rest = html.as_str();
    let mut charts = 0;
    while let Some(start) = rest.find("<svg") {
        let end = rest[start..].find("</svg>").expect("closed svg") + start + 6;
        roxmltree::Document::parse(&rest[start..end])
            .unwrap_or_else(|e| panic!("{e}: {}", &rest[start..end]));
        charts += 1;
        rest = &rest[end..];
    }
    assert_eq!(charts, 2);
}

#[test]
fn events_are_single_json_lines() {
    let run = run();
    let mut progress = Progress {
        planned: run.planned.len() as u64,
        ..Progress::default()
    };
    let record = run.iterations[1].clone();
    progress.record(&record);
    let event = RunEvent::IterationFinished {
        record,
        verdict: None,
        progress,
    };
    let line = event.to_line();
    assert!(!line.contains('\n'));
    let back: RunEvent = serde_json::from_str(&line).unwrap();
    assert_eq!(back, event);
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["type"], "iterationFinished");
    assert_eq!(v["caseId"], "add");
    assert_eq!(v["progress"]["finished"], 1);
    let s = summarize(&run);
    let done = RunEvent::RunFinished {
        run_id: "r1".into(),
        summary: Box::new(s.clone()),
        gates: evaluate(&Gates::default(), &s, None, &[]),
    };
    let v: serde_json::Value = serde_json::from_str(&done.to_line()).unwrap();
    assert_eq!(v["type"], "runFinished");
    assert_eq!(
        v["gates"]["exitCode"], 3,
        "4 of 12 iterations errored: invalid"
    );
}

#[test]
fn an_iteration_event_carries_its_verdict() {
    use mcplab_evals::trace::{ToolCallTrace, Trace, TurnEnd, TurnTrace};
    use mcplab_evals::verdict::{ResolvedCase, judge_iteration};
    use mcplab_protocol::chat::{StopReason, TokenUsage};
    let suite = mcplab_evals::suite::parse_suite(
        "version: 1\nid: s\ncases:\n  - id: c\n    turns:\n      - user: q\n        checks: [{ answerContains: x }]\n    toolCalls:\n      expected: [{ tool: add, arguments: { a: 1 } }]\n",
    )
    .unwrap();
    let call = ToolCallTrace {
        call_id: "1".into(),
        server: "d".into(),
        tool: "add".into(),
        arguments: serde_json::json!({"a": 2}),
        result: None,
        is_error: false,
        error: None,
        duration_ms: 1,
    };
    let turn = TurnTrace {
        user: "q".into(),
        tool_calls: vec![call],
        answer: "y".into(),
        end: TurnEnd::Finished {
            reason: StopReason::Completed,
        },
        steps: 1,
        usage: TokenUsage::default(),
        latency_ms: 1,
        llm_ms: 1,
        mcp_ms: 0,
    };
    let trace = Trace {
        turns: vec![turn],
        cost_usd: None,
        app_renders: vec![],
    };
    let verdict = judge_iteration(&ResolvedCase::new(&suite, &suite.cases[0]), &trace, None);
    let unit = Unit {
        case_id: "c".into(),
        model: "m::x".into(),
        iteration: 0,
    };
    let record = mcplab_evals::run::judged(unit, &trace, &verdict);
    assert_eq!(record.failures.len(), 2, "{:?}", record.failures);
    let m = &record.metrics;
    assert_eq!(
        (m.calls_matched, m.calls_unexpected, m.calls_missed),
        (0, 1, 1)
    );
    let event = RunEvent::IterationFinished {
        record,
        verdict: Some(Box::new(verdict)),
        progress: Progress::default(),
    };
    let line = event.to_line();
    let back: RunEvent = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
    assert_eq!(back, event);
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(
        v["verdict"]["toolCalls"][0]["diffs"][0]["kind"],
        "argumentMismatch"
    );
    assert_eq!(
        v["verdict"]["toolCalls"][0]["diffs"][0]["mismatches"][0]["path"],
        "$.a"
    );
    assert_eq!(v["verdict"]["checks"][0]["scope"], "turn");
    assert_eq!(v["verdict"]["checks"][0]["turn"], 0);
}

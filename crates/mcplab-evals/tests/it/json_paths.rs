//! JSONPath checks on tool results (`jsonPath`, the whole `CallToolResult`) and on the answer
//! (`answerJson`): `equals` / `exists` / `matches`, each passing and failing with a reason;
//! a path that does not compile, or a check saying two things, is an error at its line.

use mcplab_evals::suite::{parse_suite, tool_refs};
use mcplab_evals::trace::{ToolCallTrace, Trace, TurnEnd, TurnTrace};
use mcplab_evals::verdict::{ResolvedCase, judge_iteration};
use mcplab_protocol::chat::{StopReason, TokenUsage};
use serde_json::{Value, json};

fn trace(calls: &[(&str, Value)], answer: &str) -> Trace {
    let tool_calls = calls
        .iter()
        .enumerate()
        .map(|(k, (tool, result))| ToolCallTrace {
            call_id: format!("c{k}"),
            server: "demo".into(),
            tool: (*tool).into(),
            arguments: json!({}),
            result: Some(result.clone()),
            is_error: false,
            error: None,
            duration_ms: 1,
        })
        .collect();
    Trace {
        turns: vec![TurnTrace {
            user: "u".into(),
            tool_calls,
            answer: answer.into(),
            end: TurnEnd::Finished {
                reason: StopReason::Completed,
            },
            steps: 1,
            usage: TokenUsage::default(),
            latency_ms: 1,
            llm_ms: 1,
            mcp_ms: 0,
        }],
        cost_usd: None,
        app_renders: vec![],
    }
}

/// Each check's (passed, reason), in order.
fn results(checks: &str, t: &Trace) -> Vec<(bool, String)> {
    let text =
        format!("version: 1\nid: s\ncases:\n  - id: c\n    turns: [q]\n    checks:\n{checks}");
    let suite = parse_suite(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let v = judge_iteration(&ResolvedCase::new(&suite, &suite.cases[0]), t, None);
    v.checks
        .iter()
        .map(|c| (c.result.passed, c.result.reason.clone()))
        .collect()
}

fn orders() -> Trace {
    let first = json!({"content": [{"type": "text", "text": "2 orders"}],
        "structuredContent": {"items": [{"id": 3, "status": "shipped"}, {"id": 4, "status": "open"}]}});
    let second = json!({"content": [], "structuredContent": {"items": []}});
    trace(
        &[
            ("list_orders", first),
            ("list_orders", second),
            ("add", json!({"structuredContent": {"sum": 42}})),
        ],
        "done",
    )
}

#[test]
fn equals_exists_and_matches_on_tool_results() {
    let checks = "      - jsonPath: { tool: list_orders, path: \"$.structuredContent.items[0].id\", equals: 3 }
      - jsonPath: { tool: list_orders, path: \"$.structuredContent.items[?@.status == 'open'].id\", equals: \"<integer>\" }
      - jsonPath: { tool: list_orders, path: \"$.content[0].text\", matches: '^\\d+ orders$' }
      - jsonPath: { tool: add, path: $.structuredContent.sum, exists: true }
      - jsonPath: { tool: add, path: $.structuredContent.error, exists: false }
      - jsonPath: { path: $.structuredContent.sum, equals: { $approx: 42.1, $tolerance: 0.5 } }
";
    let r = results(checks, &orders());
    assert!(r.iter().all(|(ok, _)| *ok), "{r:#?}");
}

#[test]
fn failures_say_what_was_found() {
    let checks = "      - jsonPath: { tool: list_orders, path: \"$.structuredContent.items[0].id\", equals: 5 }
      - jsonPath: { tool: add, path: $.structuredContent.total, exists: true }
      - jsonPath: { tool: add, path: $.structuredContent.sum, exists: false }
      - jsonPath: { tool: list_orders, path: \"$.structuredContent.items[*].status\", matches: ^cancel }
      - jsonPath: { tool: echo, path: $.content, exists: true }
";
    let r = results(checks, &orders());
    assert!(r.iter().all(|(ok, _)| !*ok), "{r:#?}");
    assert!(
        r[0].1.contains("none of 2 results of list_orders passes")
            && r[0]
                .1
                .contains("$.structuredContent.items[0].id: expected 5, found 3"),
        "{}",
        r[0].1
    );
    assert!(
        r[1].1.contains("$.structuredContent.total finds nothing"),
        "{}",
        r[1].1
    );
    assert!(
        r[2].1.contains("expected to find nothing but found 42"),
        "{}",
        r[2].1
    );
    assert!(
        r[3].1
            .contains("expected a match of /^cancel/, found \"shipped\", \"open\""),
        "{}",
        r[3].1
    );
    assert_eq!(r[4].1, "echo was not called");
}

#[test]
fn answer_json_takes_the_same_assertions() {
    let t = trace(&[], "```json\n{\"order\": {\"id\": \"A-17\"}}\n```");
    let checks = "      - answerJson: { path: $.order.id, matches: '^A-\\d+$' }
      - answerJson: { path: $.order.total, exists: false }
      - answerJson: { path: $.order, exists: false }
";
    let r = results(checks, &t);
    assert_eq!(
        r.iter().map(|(ok, _)| *ok).collect::<Vec<_>>(),
        [true, true, false],
        "{r:#?}"
    );
}

#[test]
fn a_bad_path_or_two_assertions_is_an_error_at_its_line() {
    let text = "version: 1
id: s
cases:
  - id: c
    turns: [q]
    checks:
      - jsonPath: { tool: add, path: \"$.structuredContent[\", equals: 1 }
      - jsonPath: { path: $.x, equals: 1, exists: true }
      - jsonPath: { path: $.x }
      - answerJson: { path: \"$..[?@.a ==]\", exists: true }
      - jsonPath: { path: $.x, matches: \"(\" }
";
    let lines: Vec<String> = parse_suite(text)
        .unwrap_err()
        .0
        .iter()
        .map(|e| e.to_string())
        .collect();
    assert_eq!(lines.len(), 5, "{lines:#?}");
    assert!(
        lines[0].starts_with("7:32: cases[0].checks[0].jsonPath.path: invalid JSONPath"),
        "{lines:#?}"
    );
    assert_eq!(
        lines[1],
        "8:9: cases[0].checks[1].jsonPath: write one of `equals`, `exists`, not several"
    );
    assert!(
        lines[2].starts_with("9:9: cases[0].checks[2].jsonPath: say what to check"),
        "{lines:#?}"
    );
    assert!(
        lines[3].starts_with("10:23: cases[0].checks[3].answerJson.path: invalid JSONPath"),
        "{lines:#?}"
    );
    assert!(
        lines[4]
            .starts_with("11:32: cases[0].checks[4].jsonPath.matches: invalid regular expression"),
        "{lines:#?}"
    );
}

#[test]
fn the_tool_a_json_path_check_names_is_checked_against_the_servers() {
    let suite = parse_suite("version: 1\nid: s\ncases:\n  - id: c\n    turns: [q]\n    checks:\n      - jsonPath: { tool: list_ordrs, server: shop, path: $.x, exists: true }\n").unwrap();
    let refs = tool_refs(&suite);
    assert_eq!(refs.len(), 1);
    assert_eq!(refs[0].pointer, "/cases/0/checks/0/jsonPath/tool");
    assert_eq!(
        (refs[0].tool.as_str(), refs[0].server.as_deref()),
        ("list_ordrs", Some("shop"))
    );
}

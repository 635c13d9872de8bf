//! Suite files: the shipped examples load, the published schema accepts them and rejects a
//! bad one, and a broken file gets every error at once with its line and column.

use std::path::PathBuf;

use mcplab_evals::suite::{LoadLimits, parse_suite, parse_suite_with, suite_schema};
use mcplab_yaml as yaml;

fn examples() -> Vec<(PathBuf, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/evals");
    let mut out: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("yaml" | "json")
            )
        })
        .map(|p| (p.clone(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    out.sort();
    assert!(
        out.len() >= 2,
        "examples/evals should hold the example suites"
    );
    out
}

#[test]
fn the_examples_load() {
    for (path, text) in examples() {
        let suite = parse_suite(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(!suite.cases.is_empty());
    }
}

#[test]
fn the_published_schema_accepts_the_examples_and_rejects_a_bad_suite() {
    let schema = suite_schema();
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let limits = yaml::Limits {
        max_depth: 64,
        max_nodes: 100_000,
    };
    for (path, text) in examples() {
        let (doc, _) = yaml::parse(&text, limits).unwrap();
        let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
    }
    let bad = serde_json::json!({
        "version": 1, "id": "x",
        "cases": [{ "id": "a", "turns": ["hi"], "checks": [{ "answerContains": "x", "maxSteps": 2 }] }],
        "extra": true
    });
    assert!(!validator.is_valid(&bad));
    let missing_cases = serde_json::json!({ "version": 1, "id": "x" });
    assert!(!validator.is_valid(&missing_cases));
    let wrong_version =
        serde_json::json!({ "version": 2, "id": "x", "cases": [{ "id": "a", "turns": ["hi"] }] });
    assert!(!validator.is_valid(&wrong_version));
}

const BROKEN: &str = r#"version: 1
id: bad suite
modles: [openai::x]
models: [gpt-4o, openai::gpt-4o, openai::gpt-4o]
repeat: 0
cases:
  - id: a
    turns: [hi]
    toolCalls:
      order: sideways
      none: true
      expected:
        - tool: add
          arguments: { a: { $regex: "(" }, b: "<strng>", c: { $approx: 1, $like: x } }
          extra: 1
    checks:
      - answerContain: x
      - answerMatches: "[a-"
      - maxSteps: -1
      - noToolErrors: false
  - id: a
    turns: []
  - title: no id
    turns:
      - user: hello
        chekcs: []
      - 42
"#;

#[test]
fn every_error_at_once_with_lines() {
    let errors = parse_suite(BROKEN).unwrap_err();
    let lines: Vec<String> = errors.0.iter().map(|e| e.to_string()).collect();
    let expect = [
        "2:1: id: \"bad suite\" is not a valid id",
        "3:1: modles: unknown key `modles`: did you mean `models`?",
        "4:10: models[0]: \"gpt-4o\" is not a model: write `provider::model`",
        "4:34: models[2]: model \"openai::gpt-4o\" is listed twice",
        "5:1: repeat: 0 is less than the minimum of 1",
        "10:7: cases[0].toolCalls.order: \"sideways\" is not one of",
        "11:7: cases[0].toolCalls.none: `none: true` (no tool call) contradicts the expected calls",
        "14:29: cases[0].toolCalls.expected[0].arguments.a.$regex: invalid regular expression: unclosed group",
        "14:44: cases[0].toolCalls.expected[0].arguments.b: `<strng>` is not a type placeholder",
        "14:58: cases[0].toolCalls.expected[0].arguments.c: one operator per object",
        "15:11: cases[0].toolCalls.expected[0].extra: unknown key `extra` (expected one of: tool, server, arguments, argumentMode, optional)",
        "17:9: cases[0].checks[0].answerContain: unknown check `answerContain` (expected one of: answerContains,",
        "18:9: cases[0].checks[1].answerMatches: invalid regular expression: unclosed character class",
        "19:9: cases[0].checks[2].maxSteps: -1 is less than the minimum of 0",
        "20:9: cases[0].checks[3].noToolErrors: write `true`",
        "21:5: cases[1].id: duplicate case id `a` (also case #1)",
        "22:5: cases[1].turns: a case needs `turns` (user messages a model answers), `steps`",
        "23:5: cases[2]: missing required key `id`",
        "26:9: cases[2].turns[0].chekcs: unknown key `chekcs`: did you mean `checks`?",
        "27:9: cases[2].turns[1]: expected string or object, found a number",
    ];
    for (i, want) in expect.iter().enumerate() {
        let got = lines.get(i).map(String::as_str).unwrap_or("<none>");
        assert!(
            got.starts_with(want),
            "error {i}:\n  got  {got}\n  want {want}…\nall:\n{}",
            lines.join("\n")
        );
    }
    assert_eq!(lines.len(), expect.len(), "{}", lines.join("\n"));
    let shown = errors.to_string();
    assert!(
        shown.starts_with("20 problems in the suite file:\n"),
        "{shown}"
    );
}

#[test]
fn syntax_errors_name_their_line() {
    let e = parse_suite("version: 1\nid: x\ncases:\n  - id: a\n    turns: [hi\n").unwrap_err();
    assert_eq!(e.0.len(), 1);
    assert!(e.0[0].position.is_some_and(|p| p.line >= 5), "{e}");
    assert!(e.0[0].message.starts_with("not valid YAML"), "{e}");
    let dup = parse_suite("version: 1\nid: x\nid: y\ncases: []\n").unwrap_err();
    assert_eq!(
        dup.0[0].to_string(),
        "3:1: duplicate key `id` (first at line 2)"
    );
}

#[test]
fn a_future_version_is_refused_alone() {
    let e = parse_suite("version: 2\nid: x\nwhatever: 1\ncases: []\n").unwrap_err();
    assert_eq!(e.0.len(), 1, "{e}");
    assert!(
        e.0[0]
            .to_string()
            .starts_with("1:1: version: suite version 2 is not supported"),
        "{e}"
    );
}

#[test]
fn input_is_bounded() {
    let limits = LoadLimits {
        max_bytes: 1000,
        ..LoadLimits::default()
    };
    let big = format!(
        "version: 1\nid: x\ndescription: {}\ncases: []\n",
        "x".repeat(2000)
    );
    let e = parse_suite_with(&big, limits).unwrap_err();
    assert!(e.0[0].message.contains("over the 1000-byte limit"), "{e}");
    let deep = format!(
        "version: 1\nid: x\ncases:\n  - id: a\n    turns: [hi]\n    toolCalls:\n      expected:\n        - tool: t\n          arguments: {{ a: {}1{} }}\n",
        "[".repeat(100),
        "]".repeat(100)
    );
    let e = parse_suite(&deep).unwrap_err();
    assert!(e.0[0].message.contains("nested deeper than"), "{e}");
}

#[test]
fn json_and_yaml_give_the_same_suite() {
    let yaml_text = "version: 1\nid: x\nmodels: [openai::gpt-4.1-mini]\ncases:\n  - id: a\n    turns: [hi]\n    checks:\n      - maxTokens: 10\n";
    let json_text = r#"{"version": 1, "id": "x", "models": ["openai::gpt-4.1-mini"],
        "cases": [{"id": "a", "turns": ["hi"], "checks": [{"maxTokens": 10}]}]}"#;
    assert_eq!(
        parse_suite(yaml_text).unwrap(),
        parse_suite(json_text).unwrap()
    );
}

#[test]
fn a_server_named_twice_is_an_error() {
    let text = "version: 1\nid: x\nservers: [demo, demo]\nmcpServers:\n  demo: { command: mcplab, args: [demo-server] }\ncases:\n  - id: a\n    turns: [hi]\n";
    let lines: Vec<String> = parse_suite(text)
        .unwrap_err()
        .0
        .iter()
        .map(|e| e.to_string())
        .collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines[0].starts_with("3:11: servers[0]: server `demo` is both a configured server"),
        "{lines:?}"
    );
    assert!(
        lines[1].starts_with("3:17: servers[1]: server \"demo\" is listed twice"),
        "{lines:?}"
    );
    assert!(
        lines[2].starts_with("3:17: servers[1]: server `demo` is both"),
        "{lines:?}"
    );
}

#[test]
fn command_line_gates_override_the_suite_gates() {
    use mcplab_evals::suite::Gates;
    let suite = Gates {
        min_pass_rate: Some(0.9),
        max_cost_usd: Some(1.0),
        ..Gates::default()
    };
    let cli = Gates {
        min_pass_rate: Some(0.5),
        no_regression: Some(true),
        ..Gates::default()
    };
    let g = suite.with_overrides(&cli);
    assert_eq!(
        (g.min_pass_rate, g.max_cost_usd, g.no_regression),
        (Some(0.5), Some(1.0), Some(true))
    );
}

/// The schema committed for editors (`# yaml-language-server: $schema=…`) is the generated
/// one. Regenerate with `MCPLAB_WRITE_SCHEMA=1 cargo test -p mcplab-evals --test it suite_file::`.
#[test]
fn the_committed_schema_is_current() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("suite.schema.json");
    let generated = format!(
        "{}\n",
        serde_json::to_string_pretty(&suite_schema()).unwrap()
    );
    if std::env::var_os("MCPLAB_WRITE_SCHEMA").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} is stale: regenerate it (MCPLAB_WRITE_SCHEMA=1 cargo test -p mcplab-evals --test it suite_file::)",
        path.display()
    );
}

#[test]
fn common_mistakes_read_plainly() {
    let text = "version: 1\nid: x\nrepeat: \"3\"\nhost: 5\ncases:\n  - id: a\n    turns: hi\n    toolCalls:\n      extraCalls: many\n    checks:\n      - maxSteps: \"3\"\n      - toolResult: { tool: add }\n";
    let lines: Vec<String> = parse_suite(text)
        .unwrap_err()
        .0
        .iter()
        .map(|e| e.to_string())
        .collect();
    assert_eq!(
        lines,
        vec![
            "3:1: repeat: expected integer, found a string",
            "4:1: host: expected string or object, found a number",
            "7:5: cases[0].turns: expected array, found a string",
            "9:7: cases[0].toolCalls.extraCalls: expected integer or \"unlimited\", found a string",
            "11:9: cases[0].checks[0].maxSteps: expected integer, found a string",
            "12:9: cases[0].checks[1].toolResult: missing required key `matches`",
        ]
    );
}

//! Black-box tests of the suite vocabulary beyond answers and expected calls, on the demo
//! server and the scripted LLM: check commands (the trace on stdin, a verdict on stdout; a
//! nonzero exit, no JSON or an overrun timeout failing the check with the reason; listed
//! before the run like the servers); per-case `host`, `systemPrompt` and `model`; datasets.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use mcplab_testkit::llm::{Rules, ScriptedLlm};

use crate::eval_support::*;

fn script(dir: &Path, name: &str, body: &str) {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[tokio::test]
async fn check_commands_read_the_trace_and_their_failures_say_why() {
    let llm = ScriptedLlm::start_with_rules(Rules::new(vec![good("gpt-good", "g")])).await;
    let dir = tempfile::tempdir().unwrap();
    // Passes when the trace on stdin holds a call of `add`; says which case it judged.
    script(
        dir.path(),
        "called_add.sh",
        r#"input=$(cat)
case "$input" in
  *'"tool":"add"'*'"case":"add"'*|*'"case":"add"'*'"tool":"add"'*) echo '{"pass": true, "score": 0.75, "reason": "add was called"}' ;;
  *) echo '{"pass": false, "reason": "no add call"}' ;;
esac"#,
    );
    script(
        dir.path(),
        "crashes.sh",
        "echo 'cannot open totals.db' >&2; exit 3",
    );
    script(dir.path(), "chatty.sh", "echo 'looks fine to me'");
    script(dir.path(), "slow.sh", "exec sleep 30");
    let body = "models: [openai::gpt-good]
cases:
  - id: add
    turns: [What is 2 + 40? Use the add tool.]
    checks:
      - command: ./called_add.sh
      - command: ./crashes.sh
      - command: sh chatty.sh
      - command: { run: ./slow.sh, timeoutSeconds: 1 }
";
    let path = suite(dir.path(), body);
    let o = output(eval(
        Some(&llm),
        dir.path(),
        &["run", path.to_str().unwrap(), "--json"],
    ))
    .await;
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("run `./called_add.sh (in ")
            && err.contains("(check at cases[0].checks[0] (add))"),
        "the commands are listed before the run: {err}"
    );
    let events = lines(&o);
    let failures = failures_of(&events, "openai::gpt-good");
    assert_eq!(failures.len(), 3, "{failures:#?}");
    assert!(
        failures[0]
            .contains("the check command exited with code 3; it said: cannot open totals.db"),
        "{failures:#?}"
    );
    assert!(
        failures[1].contains("printed no verdict") && failures[1].contains("looks fine to me"),
        "{failures:#?}"
    );
    assert!(
        failures[2].contains("took longer than 1 s and was stopped"),
        "{failures:#?}"
    );
    let id = run_id(&events);
    let args = ["show", &id, "--iteration", "1", "--case", "add", "--json"];
    let o = output(eval(None, dir.path(), &args)).await;
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("add was called (score 0.75)"),
        "the passing command saw the trace: {text}"
    );
}

#[tokio::test]
async fn a_command_on_a_turn_or_that_does_not_split_is_a_suite_error() {
    let dir = tempfile::tempdir().unwrap();
    let body = "models: [openai::gpt-good]
cases:
  - id: add
    turns:
      - user: What is 2 + 40?
        checks: [{ command: ./x.sh }]
    checks:
      - command: \"./x.sh 'unclosed\"
";
    let path = suite(dir.path(), body);
    let p = path.to_str().unwrap();
    let o = output(eval(None, dir.path(), &["run", p, "--check-only"])).await;
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("12:20: cases[0].turns[0].checks[0].command: a check command reads the whole"),
        "{err}"
    );
    assert!(
        err.contains("14:9: cases[0].checks[0].command: the command line does not split"),
        "{err}"
    );
}

#[tokio::test]
async fn a_case_can_set_its_own_host_system_prompt_and_model() {
    let llm =
        ScriptedLlm::start_with_rules(Rules::new(vec![good("gpt-a", "a"), good("gpt-b", "b")]))
            .await;
    let dir = tempfile::tempdir().unwrap();
    let body = "models: [openai::gpt-a]
host: { systemPrompt: Suite prompt. }
cases:
  - id: add
    turns: [What is 2 + 40? Use the add tool.]
  - id: add-as-claude
    model: openai::gpt-b
    host: claude
    systemPrompt: Case prompt, in French.
    turns: [What is 2 + 40? Use the add tool as Claude.]
";
    let path = suite(dir.path(), body);
    let (code, events) = run_json(Some(&llm), dir.path(), &[path.to_str().unwrap()]).await;
    assert_eq!(code, Some(0), "{events:#?}");
    let cells: Vec<(String, String)> = finished(&events)["summary"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["caseId"].as_str().unwrap().into(),
                c["model"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        cells,
        [
            ("add".to_string(), "openai::gpt-a".to_string()),
            ("add-as-claude".into(), "openai::gpt-b @ claude".into())
        ]
    );
    // Each model got its case's system prompt.
    let system_of = |model: &str| -> Vec<String> {
        llm.requests()
            .iter()
            .filter(|r| r.body["model"] == model)
            .filter_map(|r| r.body["messages"][0]["content"].as_str().map(str::to_owned))
            .collect()
    };
    let (a, b) = (system_of("gpt-a"), system_of("gpt-b"));
    assert!(
        !a.is_empty() && a.iter().all(|s| s.contains("Suite prompt.")),
        "{a:?}"
    );
    assert!(
        !b.is_empty() && b.iter().all(|s| s.contains("Case prompt, in French.")),
        "{b:?}"
    );
    // `model` and `models` together is a suite error.
    let both = suite_with(
        dir.path(),
        "both.yaml",
        BIN,
        "cases:\n  - id: x\n    model: openai::a\n    models: [openai::b]\n    turns: [hi]\n",
    );
    let o = output(eval(None, dir.path(), &["run", both.to_str().unwrap()])).await;
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("`model` and `models` both set"),
        "{}",
        stderr(&o)
    );
}

#[tokio::test]
async fn a_dataset_case_runs_once_per_row_of_its_csv() {
    let llm = ScriptedLlm::start_with_rules(Rules::new(vec![good("gpt-good", "g")])).await;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("rows.csv"),
        "name,a,b,sum\nright,2,40,42\n,2,40,43\n",
    )
    .unwrap();
    let body = "models: [openai::gpt-good]
cases:
  - id: add
    dataset: { file: rows.csv }
    turns: [\"What is {{a}} + {{b}}? Use the add tool.\"]
    toolCalls:
      expected: [{ tool: add, arguments: { a: \"{{a}}\", b: \"{{b}}\" } }]
    checks: [{ answerContains: \"{{sum}}\" }]
";
    let path = suite(dir.path(), body);
    let p = path.to_str().unwrap();
    let (code, events) = run_json(Some(&llm), dir.path(), &[p]).await;
    assert_eq!(code, Some(1), "{events:#?}");
    let cells: Vec<(String, f64)> = finished(&events)["summary"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["caseId"].as_str().unwrap().into(),
                c["passRate"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        cells,
        [("add[right]".to_string(), 1.0), ("add#2".into(), 0.0)]
    );
    // A malformed file is a suite error naming the file's line, nothing run.
    std::fs::write(
        dir.path().join("rows.csv"),
        "name,a,b,sum\nright,2,40,42\n2,40\n",
    )
    .unwrap();
    let o = output(eval(None, dir.path(), &["run", p, "--check-only"])).await;
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(
            "10:16: cases[0].dataset.file: rows.csv:3: this row has 2 fields, the header has 4"
        ),
        "{err}"
    );
}

#[tokio::test]
async fn model_free_steps_call_tools_directly_and_are_judged_stored_and_replayed() {
    let dir = tempfile::tempdir().unwrap();
    let body = "cases:
  - id: add
    steps:
      - call: add
        args: { a: 2, b: 40 }
        expect:
          - jsonPath: { path: $.structuredContent.sum, equals: 42 }
          - answerContains: \"2 + 40 = 42\"
      - call: create_order
        args: { items: [] }
        expect: [{ isError: true }, { answerContains: missing field }]
  - id: wrong
    steps:
      - call: add
        args: { a: 1, b: 1 }
        expect: [{ answerContains: \"= 3\" }]
";
    let path = suite(dir.path(), body);
    let p = path.to_str().unwrap();
    // No model anywhere, no key: nothing asks for one.
    let (code, events) = run_json(None, dir.path(), &[p, "--record"]).await;
    assert_eq!(code, Some(1), "{events:#?}");
    let cells: Vec<(String, String, f64)> = finished(&events)["summary"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap().to_owned();
            (s("caseId"), s("model"), c["passRate"].as_f64().unwrap())
        })
        .collect();
    assert_eq!(
        cells,
        [
            ("add".into(), String::new(), 1.0),
            ("wrong".into(), String::new(), 0.0)
        ]
    );
    let failures = failures_of(&events, "");
    assert_eq!(failures.len(), 1, "{failures:#?}");
    assert!(
        failures[0].starts_with("step 1: ") && failures[0].contains("1 + 1 = 2"),
        "{failures:#?}"
    );
    assert_eq!(
        finished(&events)["summary"]["costUsd"].as_f64(),
        Some(0.0),
        "no model costs nothing: {:#}",
        finished(&events)["summary"]
    );
    // Shown like any iteration, under "no model".
    let id = run_id(&events);
    let o = output(eval(None, dir.path(), &["show", &id])).await;
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("no model"), "{text}");
    let args = ["show", &id, "--iteration", "1", "--case", "add"];
    let o = output(eval(None, dir.path(), &args)).await;
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("step 1: call add") && text.contains("2 + 40 = 42"),
        "{text}"
    );
    // Replayed from the recording: the same verdicts, no server started.
    let (code, events) = run_json(None, dir.path(), &[p, "--replay", &id]).await;
    assert_eq!(code, Some(1), "{events:#?}");
    assert_eq!(failures_of(&events, "").len(), 1, "{events:#?}");
    // A misspelled step tool is caught before anything runs.
    std::fs::write(
        &path,
        std::fs::read_to_string(&path)
            .unwrap()
            .replace("call: create_order", "call: create_ordr"),
    )
    .unwrap();
    let o = output(eval(None, dir.path(), &["run", p, "--check-only"])).await;
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("15:9: cases[0].steps[1].call: tool `create_ordr` is not on server `demo`: did you mean `create_order`?"),
        "{err}"
    );
}

//! Black-box tests of `mcplab eval` with real parts: the built-in demo server (and npm's
//! server-everything) as child processes, the testkit's scripted LLM over HTTP playing models
//! that pass, call the wrong tool, use wrong arguments, call too often, answer inconsistently,
//! are slow or rate limited, and the run stored in a real SQLite file. Statistics are checked
//! against values worked out by hand, not against the implementation.

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::Duration;

use mcplab_testkit::llm::{Rule, Rules, ScriptedCall, ScriptedLlm, Step};
use serde_json::{Value, json};
use tokio::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_mcplab");

fn call(id: &str, name: &str, args: Value) -> Step {
    Step::call_tools([ScriptedCall::new(id, name, args)])
}

/// `mcplab eval …` against `llm` (OpenAI wire format), data in `data`.
fn eval(llm: Option<&ScriptedLlm>, data: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.arg("eval")
        .args(args)
        .env("MCPLAB_DATA_DIR", data)
        .env_remove("OPENAI_API_KEY")
        .env_remove("ANTHROPIC_API_KEY")
        .env("NO_PROXY", "127.0.0.1")
        .env("MCPLAB_CHROMIUM", "/nonexistent/chromium")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if let Some(llm) = llm {
        cmd.env("OPENAI_BASE_URL", llm.base_url())
            .env("OPENAI_API_KEY", "sk-test");
    }
    cmd
}

async fn output(mut cmd: Command) -> Output {
    tokio::time::timeout(Duration::from_secs(120), cmd.output())
        .await
        .expect("mcplab eval finished")
        .unwrap()
}

fn lines(o: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A suite file using the demo server (this binary) under the name `demo`.
fn suite(dir: &Path, body: &str) -> PathBuf {
    suite_with(dir, "suite.yaml", BIN, body)
}

fn suite_with(dir: &Path, name: &str, command: &str, body: &str) -> PathBuf {
    let text = format!(
        "version: 1\nid: demo-evals\nmcpServers:\n  demo:\n    command: {command}\n    args: [demo-server]\n{body}"
    );
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const ADD_CASE: &str = "cases:
  - id: add
    turns: [What is 2 + 40? Use the add tool.]
    toolCalls:
      extraCalls: 0
      expected:
        - { tool: add, arguments: { a: 2, b: 40 } }
    checks:
      - answerContains: \"42\"
";

fn good(model: &str, tag: &str) -> Rule {
    Rule::when(
        "2 + 40",
        vec![
            call(&format!("{tag}1"), "demo__add", json!({"a": 2, "b": 40})),
            Step::reply(["The sum is ", "42."]),
        ],
    )
    .for_model(model)
}

fn finished(events: &[Value]) -> &Value {
    events
        .iter()
        .find(|e| e["type"] == "runFinished")
        .expect("a runFinished event")
}

fn cell<'a>(summary: &'a Value, model: &str) -> &'a Value {
    summary["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["model"] == model)
        .unwrap_or_else(|| panic!("no cell for {model}"))
}

fn failures_of(events: &[Value], model: &str) -> Vec<String> {
    events
        .iter()
        .filter(|e| e["type"] == "iterationFinished" && e["model"] == model)
        .flat_map(|e| e["failures"].as_array().cloned().unwrap_or_default())
        .map(|f| f.as_str().unwrap_or_default().to_owned())
        .collect()
}

#[tokio::test]
async fn mistakes_fail_the_suite_with_what_went_wrong() {
    let llm = ScriptedLlm::start_with_rules(Rules::new(vec![
        good("gpt-good", "g"),
        Rule::when(
            "2 + 40",
            vec![
                call("w1", "demo__echo", json!({"message": "2 + 40"})),
                Step::reply(["42"]),
            ],
        )
        .for_model("gpt-wrong-tool"),
        Rule::when(
            "2 + 40",
            vec![
                call("a1", "demo__add", json!({"a": 2, "b": 41})),
                Step::reply(["43"]),
            ],
        )
        .for_model("gpt-wrong-args"),
        Rule::when(
            "2 + 40",
            vec![
                Step::call_tools([
                    ScriptedCall::new("t1", "demo__add", json!({"a": 2, "b": 40})),
                    ScriptedCall::new("t2", "demo__add", json!({"a": 40, "b": 2})),
                ]),
                Step::reply(["42"]),
            ],
        )
        .for_model("gpt-too-often"),
        // Right, wrong, right, wrong: half the iterations pass, whatever order they run in.
        good("gpt-flaky", "f").or(vec![Step::reply(["I cannot add."])]),
    ]))
    .await;
    let dir = tempfile::tempdir().unwrap();
    let path = suite(
        dir.path(),
        &format!("repeat: 4\nconcurrency: 4\n{ADD_CASE}"),
    );
    let junit = dir.path().join("junit.xml");
    let mut args = vec![
        "run",
        path.to_str().unwrap(),
        "--json",
        "--junit",
        junit.to_str().unwrap(),
    ];
    for m in [
        "gpt-good",
        "gpt-wrong-tool",
        "gpt-wrong-args",
        "gpt-too-often",
        "gpt-flaky",
    ] {
        args.push("--model");
        args.push(Box::leak(format!("openai::{m}").into_boxed_str()));
    }
    let o = output(eval(Some(&llm), dir.path(), &args)).await;
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let events = lines(&o);
    assert_eq!(events[0]["type"], "runStarted");
    assert_eq!(events[0]["planned"], 20);
    let summary = &finished(&events)["summary"];
    assert_eq!(summary["finished"], 20);
    assert_eq!(cell(summary, "openai::gpt-good")["passes"], 4);
    assert_eq!(cell(summary, "openai::gpt-good")["passed"], true);
    for model in ["gpt-wrong-tool", "gpt-wrong-args", "gpt-too-often"] {
        let c = cell(summary, &format!("openai::{model}"));
        assert_eq!(
            (c["passes"].as_u64(), c["n"].as_u64()),
            (Some(0), Some(4)),
            "{model}"
        );
    }
    let wrong_tool = failures_of(&events, "openai::gpt-wrong-tool");
    assert!(
        wrong_tool.iter().any(|f| f.starts_with("Missing: add")),
        "{wrong_tool:?}"
    );
    assert!(
        wrong_tool.iter().any(|f| f.starts_with("Extra: echo")),
        "{wrong_tool:?}"
    );
    let wrong_args = failures_of(&events, "openai::gpt-wrong-args");
    assert!(
        wrong_args
            .iter()
            .any(|f| f.contains("Argument mismatch in add") && f.contains("$.b")),
        "{wrong_args:?}"
    );
    let too_often = failures_of(&events, "openai::gpt-too-often");
    assert!(
        too_often.iter().any(|f| f.starts_with("Extra: add")),
        "{too_often:?}"
    );
    // 2 of 4 passed. pass@2 = 1 − C(2,2)/C(4,2) = 5/6; pass^2 = C(2,2)/C(4,2) = 1/6;
    // Wilson 95 % for 2/4: 0.15004–0.84996 (Newcombe 1998's method 3).
    let flaky = cell(summary, "openai::gpt-flaky");
    assert_eq!(
        (flaky["passes"].as_u64(), flaky["flaky"].as_bool()),
        (Some(2), Some(true))
    );
    let close = |v: &Value, x: f64| (v.as_f64().unwrap() - x).abs() < 1e-4;
    assert!(close(&flaky["passAtK"]["2"], 5.0 / 6.0), "{flaky}");
    assert!(close(&flaky["passHatK"]["2"], 1.0 / 6.0), "{flaky}");
    assert!(close(&flaky["interval"]["low"], 0.15004), "{flaky}");
    assert!(close(&flaky["interval"]["high"], 0.84996), "{flaky}");
    assert_eq!(summary["flaky"], json!([["add", "openai::gpt-flaky"]]));

    let xml = std::fs::read_to_string(&junit).unwrap();
    let doc = roxmltree::Document::parse(&xml).expect("JUnit XML parses");
    let cases: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    assert_eq!(cases.len(), 5);
    assert!(
        cases
            .iter()
            .any(|c| c.attribute("name") == Some("add [openai::gpt-good]"))
    );
    let failed = cases
        .iter()
        .filter(|c| c.children().any(|n| n.has_tag_name("failure")))
        .count();
    assert_eq!(failed, 4);

    // The run is in the store, with its iterations and their traces.
    let o = output(eval(None, dir.path(), &["show", "last", "--json"])).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let shown: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(shown["record"]["iterations"].as_array().unwrap().len(), 20);
    assert_eq!(shown["run"]["status"], "finished");
    assert_eq!(shown["run"]["hostHash"].as_str().unwrap().len(), 64);

    // One iteration's trace: the call the model made, its result, the check that failed and why.
    let show = |extra: &[&str]| {
        let mut a = vec!["show", "last", "--iteration", "2"];
        a.extend_from_slice(extra);
        eval(None, dir.path(), &a)
    };
    let o = output(show(&[])).await;
    assert_eq!(
        o.status.code(),
        Some(2),
        "several cells have an iteration 2"
    );
    assert!(stderr(&o).contains("--case"), "{}", stderr(&o));
    let o = output(show(&["--model", "openai::gpt-wrong-args", "--json"])).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let t: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (t["iteration"].as_u64(), t["outcome"]["status"].as_str()),
        (Some(1), Some("failed"))
    );
    let call = &t["turns"][0]["toolCalls"][0];
    assert_eq!(
        (call["tool"].as_str(), &call["arguments"]),
        (Some("add"), &json!({"a": 2, "b": 41}))
    );
    assert!(call["result"].to_string().contains("43"), "{call}");
    assert!(
        t["turns"][0]["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["type"] == "toolCall"),
        "{t}"
    );
    let check = &t["checks"][0];
    assert_eq!(check["passed"], false, "{t}");
    assert!(check["reason"].as_str().unwrap().contains("42"), "{check}");
    let o = output(show(&[
        "--model",
        "openai::gpt-wrong-args",
        "--case",
        "add",
    ]))
    .await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    for needle in [
        "tool call demo/add",
        "\"b\":41",
        "✗ {\"answerContains\":\"42\"}",
        "Argument mismatch in add",
        "in / ",
    ] {
        assert!(text.contains(needle), "{needle} in:\n{text}");
    }
}

#[tokio::test]
async fn slow_models_time_out_and_rate_limits_are_retried_so_the_run_is_incomplete() {
    // Far slower than the iteration timeout, which leaves room for the 1 s rate-limit wait.
    let slow = Step::reply(["a", "b", "c", "d", "e", "f", "g", "h"]).slow(1500);
    let limited = Step::Fail {
        status: 429,
        message: "slow down".into(),
        retry_after: Some(1),
    };
    // The first answer is a 429; the retry (a new request) gets the next variant.
    let mut limited_then_good = good("gpt-limited", "l");
    limited_then_good.variants.insert(0, vec![limited]);
    let llm = ScriptedLlm::start_with_rules(Rules::new(vec![
        Rule::when("2 + 40", vec![slow]).for_model("gpt-slow"),
        limited_then_good,
    ]))
    .await;
    let dir = tempfile::tempdir().unwrap();
    let path = suite(dir.path(), &format!("repeat: 1\n{ADD_CASE}"));
    let o = output(eval(
        Some(&llm),
        dir.path(),
        &[
            "run",
            path.to_str().unwrap(),
            "--json",
            "--iteration-timeout",
            "4",
            "--model",
            "openai::gpt-slow",
            "--model",
            "openai::gpt-limited",
        ],
    ))
    .await;
    let events = lines(&o);
    assert_eq!(
        o.status.code(),
        Some(3),
        "an invalid run, not a failed one: {}",
        stderr(&o)
    );
    let slow = events
        .iter()
        .find(|e| e["type"] == "iterationFinished" && e["model"] == "openai::gpt-slow")
        .unwrap();
    assert_eq!(slow["outcome"]["status"], "errored", "{slow}");
    assert!(
        slow["outcome"]["reason"]
            .as_str()
            .unwrap()
            .contains("timed out"),
        "{slow}"
    );
    let limited = events
        .iter()
        .find(|e| e["type"] == "iterationFinished" && e["model"] == "openai::gpt-limited")
        .unwrap();
    assert_eq!(limited["outcome"]["status"], "passed", "{limited}");
    assert!(
        events.iter().any(|e| e["type"] == "warning"
            && e["message"].as_str().unwrap_or("").contains("retrying in")),
        "a warning says the run backs off: {events:?}"
    );
    let gates = &finished(&events)["gates"];
    assert!(
        gates["invalid"][0]
            .as_str()
            .unwrap()
            .contains("ended in an error"),
        "{gates}"
    );
}

#[tokio::test]
async fn rate_limit_waits_do_not_count_against_the_iteration_timeout() {
    // Two 429s asking for 1 s each: 2 s of waiting, over the 1 s the iteration gets. The
    // waits are the provider's, not the model's or the server's: the iteration still passes.
    let limited = || Step::Fail {
        status: 429,
        message: "slow down".into(),
        retry_after: Some(1),
    };
    let mut rule = good("gpt-limited", "l");
    rule.variants.insert(0, vec![limited()]);
    rule.variants.insert(0, vec![limited()]);
    let llm = ScriptedLlm::start_with_rules(Rules::new(vec![rule])).await;
    let dir = tempfile::tempdir().unwrap();
    let path = suite(dir.path(), &format!("repeat: 1\n{ADD_CASE}"));
    let path = path.to_str().unwrap();
    let (code, events) = run_json(
        Some(&llm),
        dir.path(),
        &[
            path,
            "--iteration-timeout",
            "1",
            "--model",
            "openai::gpt-limited",
        ],
    )
    .await;
    let it = events
        .iter()
        .find(|e| e["type"] == "iterationFinished")
        .expect("an iteration finished");
    assert_eq!(it["outcome"]["status"], "passed", "{events:?}");
    assert_eq!(code, Some(0));
    let waits = events
        .iter()
        .filter(|e| {
            e["type"] == "warning" && e["message"].as_str().unwrap_or("").contains("retrying in")
        })
        .count();
    assert_eq!(waits, 2, "both 429s were waited out: {events:?}");
}

async fn run_json(
    llm: Option<&ScriptedLlm>,
    dir: &Path,
    args: &[&str],
) -> (Option<i32>, Vec<Value>) {
    let mut all = vec!["run"];
    all.extend_from_slice(args);
    all.push("--json");
    let o = output(eval(llm, dir, &all)).await;
    if o.status.code() == Some(2) {
        panic!("usage error: {}", stderr(&o));
    }
    (o.status.code(), lines(&o))
}

fn run_id(events: &[Value]) -> String {
    events[0]["runId"].as_str().unwrap().to_owned()
}

async fn shown(dir: &Path, id: &str) -> Value {
    let o = output(eval(None, dir, &["show", id, "--json"])).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[tokio::test]
async fn replay_reproduces_a_recorded_run_with_no_key_and_no_server() {
    let llm = ScriptedLlm::start_with_rules(Rules::new(vec![
        good("gpt-good", "g"),
        Rule::when(
            "2 + 40",
            vec![
                call("a1", "demo__add", json!({"a": 2, "b": 41})),
                Step::reply(["43"]),
            ],
        )
        .for_model("gpt-wrong-args"),
    ]))
    .await;
    let dir = tempfile::tempdir().unwrap();
    let path = suite(dir.path(), &format!("repeat: 2\n{ADD_CASE}"));
    let p = path.to_str().unwrap();
    let models = [
        "--model",
        "openai::gpt-good",
        "--model",
        "openai::gpt-wrong-args",
    ];
    let mut args = vec![p, "--record"];
    args.extend(models);
    let (code, recorded) = run_json(Some(&llm), dir.path(), &args).await;
    assert_eq!(code, Some(1));
    let asked = llm.requests().len();
    // The same suite, but its server cannot start and there is no API key: only the
    // recording can answer.
    let replay_path = suite_with(
        dir.path(),
        "replay.yaml",
        "/nonexistent/server",
        &format!("repeat: 2\n{ADD_CASE}"),
    );
    let id = run_id(&recorded);
    let mut args = vec![replay_path.to_str().unwrap(), "--replay", id.as_str()];
    args.extend(models);
    let (code, replayed) = run_json(None, dir.path(), &args).await;
    assert_eq!(code, Some(1));
    assert_eq!(llm.requests().len(), asked, "the replay asked no model");
    let (a, b) = (
        shown(dir.path(), &id).await,
        shown(dir.path(), &run_id(&replayed)).await,
    );
    assert_eq!(
        a["record"]["iterations"], b["record"]["iterations"],
        "the same records, metrics included"
    );
    assert_eq!(a["summary"], b["summary"]);
    let o = output(eval(
        None,
        dir.path(),
        &["compare", &id, &run_id(&replayed), "--traces", "--json"],
    ))
    .await;
    let compared: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        compared["traces"],
        json!([]),
        "no iteration differs: {compared}"
    );
}

#[tokio::test]
async fn shards_merge_into_the_unsharded_result() {
    let rules = || {
        Rules::new(vec![
            good("gpt-good", "g"),
            Rule::when(
                "2 + 40",
                vec![
                    call("a1", "demo__add", json!({"a": 2, "b": 41})),
                    Step::reply(["43"]),
                ],
            )
            .for_model("gpt-wrong-args"),
        ])
    };
    let dir = tempfile::tempdir().unwrap();
    let body = format!("repeat: 3\ngates: {{ minPassRate: 0.5 }}\n{ADD_CASE}");
    let path = suite(dir.path(), &body);
    let p = path.to_str().unwrap();
    let out = |n: &str| dir.path().join(n).to_str().unwrap().to_owned();
    let (all, s1, s2, merged) = (out("all"), out("s1"), out("s2"), out("merged"));
    let models = [
        "--model",
        "openai::gpt-good",
        "--model",
        "openai::gpt-wrong-args",
    ];
    for (out_dir, shard) in [(&all, None), (&s1, Some("1/2")), (&s2, Some("2/2"))] {
        let llm = ScriptedLlm::start_with_rules(rules()).await;
        let mut args = vec![p, "--out", out_dir.as_str()];
        args.extend(models);
        if let Some(s) = shard {
            args.extend(["--shard", s]);
        }
        let _ = run_json(Some(&llm), dir.path(), &args).await;
    }
    let o = output(eval(
        None,
        dir.path(),
        &[
            "merge",
            &format!("{s1}/run.json"),
            &format!("{s2}/run.json"),
            "--out",
            &merged,
        ],
    ))
    .await;
    assert!(o.status.code().is_some_and(|c| c != 2), "{}", stderr(&o));
    let read = |d: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(format!("{d}/run.json")).unwrap()).unwrap()
    };
    let (whole, joined) = (read(&all), read(&merged));
    assert_eq!(whole["record"]["planned"], joined["record"]["planned"]);
    let outcomes = |v: &Value| -> Vec<Value> {
        v["record"]["iterations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                json!([
                    i["caseId"],
                    i["model"],
                    i["iteration"],
                    i["outcome"],
                    i["failures"]
                ])
            })
            .collect()
    };
    assert_eq!(outcomes(&whole), outcomes(&joined));
    for key in [
        "passes",
        "completed",
        "passRate",
        "interval",
        "precision",
        "recall",
    ] {
        assert_eq!(whole["summary"][key], joined["summary"][key], "{key}");
    }
    assert_eq!(whole["gates"]["exitCode"], joined["gates"]["exitCode"]);
    assert!(Path::new(&format!("{merged}/junit.xml")).exists());
}

#[tokio::test]
async fn a_regression_against_the_baseline_fails_the_gate_and_too_few_samples_cannot_decide() {
    let dir = tempfile::tempdir().unwrap();
    // Only the regression gate decides here: no case threshold.
    let path = suite(
        dir.path(),
        &format!("repeat: 10\nconcurrency: 5\ndefaults: {{ passThreshold: 0 }}\n{ADD_CASE}"),
    );
    let p = path.to_str().unwrap();
    let passing = ScriptedLlm::start_with_rules(Rules::new(vec![good("gpt-x", "g")])).await;
    let (code, base) = run_json(Some(&passing), dir.path(), &[p, "--model", "openai::gpt-x"]).await;
    assert_eq!(code, Some(0));
    let base_id = run_id(&base);
    // The same model now answers without the tool.
    let broken = ScriptedLlm::start_with_rules(Rules::new(vec![Rule::when(
        "2 + 40",
        vec![Step::reply(["42"])],
    )]))
    .await;
    let (code, worse) = run_json(
        Some(&broken),
        dir.path(),
        &[
            p,
            "--model",
            "openai::gpt-x",
            "--baseline",
            &base_id,
            "--no-regression",
        ],
    )
    .await;
    assert_eq!(code, Some(1), "{worse:?}");
    let gates = &finished(&worse)["gates"]["gates"];
    let regression = gates
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["gate"] == "noRegression")
        .unwrap();
    assert_eq!(regression["status"], "fail");
    assert!(
        regression["reason"]
            .as_str()
            .unwrap()
            .contains("significant regressions"),
        "{regression}"
    );
    // Three iterations cannot show a regression either way.
    let (code, few) = run_json(
        Some(&broken),
        dir.path(),
        &[
            p,
            "--model",
            "openai::gpt-x",
            "--repeat",
            "3",
            "--baseline",
            &base_id,
            "--no-regression",
        ],
    )
    .await;
    assert_eq!(code, Some(3));
    let gates = &finished(&few)["gates"]["gates"];
    assert!(gates.to_string().contains("insufficientData"), "{gates}");
}

/// Child processes of `parent` whose command line contains `needle`.
fn children_with(parent: u32, needle: &str) -> Vec<i32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let ppid = stat
            .rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        let cmdline = std::fs::read_to_string(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        if ppid == Some(parent) && cmdline.contains(needle) {
            out.push(pid);
        }
    }
    out
}

#[tokio::test]
async fn a_server_that_crashes_mid_run_is_reconnected_and_its_iteration_errored() {
    let llm = ScriptedLlm::start_with_rules(Rules::new(vec![
        Rule::when(
            "slow task",
            vec![
                call(
                    "s1",
                    "demo__slow_task",
                    json!({"steps": 100, "step_ms": 300}),
                ),
                Step::reply(["done"]),
            ],
        )
        .or(vec![Step::reply(["done without the tool"])]),
    ]))
    .await;
    let dir = tempfile::tempdir().unwrap();
    let path = suite(
        dir.path(),
        "repeat: 2\nconcurrency: 1\ngates: { maxErrorRate: 0.5 }\ncases:\n  - id: slow\n    turns: [Run the slow task.]\n    checks: [answerContains: done]\n",
    );
    let mut cmd = eval(
        Some(&llm),
        dir.path(),
        &[
            "run",
            path.to_str().unwrap(),
            "--json",
            "--model",
            "openai::gpt-x",
        ],
    );
    let child = cmd.spawn().unwrap();
    let pid = child.id().unwrap();
    // Once the model asked for the slow task, kill the server under it.
    tokio::time::timeout(Duration::from_secs(60), async {
        while llm.requests().is_empty() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the model is asked");
    let servers = children_with(pid, "demo-server");
    assert_eq!(servers.len(), 1, "one demo server: {servers:?}");
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(servers[0]),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
    let o = tokio::time::timeout(Duration::from_secs(120), child.wait_with_output())
        .await
        .expect("the run ends")
        .unwrap();
    let events = lines(&o);
    let its: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "iterationFinished")
        .collect();
    assert_eq!(its.len(), 2, "{}", stderr(&o));
    let first = its.iter().find(|i| i["iteration"] == 0).unwrap();
    let second = its.iter().find(|i| i["iteration"] == 1).unwrap();
    assert_eq!(first["outcome"]["status"], "errored", "{first}");
    assert!(
        first["outcome"]["reason"]
            .as_str()
            .unwrap()
            .contains("went away"),
        "{first}"
    );
    assert_eq!(second["outcome"]["status"], "passed", "{second}");
    assert!(
        events.iter().any(|e| e["type"] == "warning"
            && e["message"].as_str().unwrap_or("").contains("reconnected")),
        "{events:?}"
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[tokio::test]
async fn server_everything_runs_as_a_child_process() {
    let everything = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(everything.exists(), "run `npm ci` in tests/npm");
    let llm = ScriptedLlm::start_with_rules(Rules::new(vec![Rule::when(
        "sum",
        vec![
            call("e1", "everything__get-sum", json!({"a": 19, "b": 23})),
            Step::reply(["It is 42."]),
        ],
    )]))
    .await;
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "version: 1\nid: everything\nmcpServers:\n  everything:\n    command: node\n    args: [{}, stdio]\nmodels: [openai::gpt-x]\ncases:\n  - id: sum\n    turns: [What is the sum of 19 and 23?]\n    toolCalls:\n      expected: [{{ tool: get-sum, arguments: {{ a: 19, b: 23 }} }}]\n    checks:\n      - toolResult: {{ tool: get-sum, matches: {{ content: [{{ text: {{ $regex: \"42\" }} }}] }} }}\n",
        everything.display()
    );
    let path = dir.path().join("everything.yaml");
    std::fs::write(&path, text).unwrap();
    let (code, events) = run_json(Some(&llm), dir.path(), &[path.to_str().unwrap()]).await;
    assert_eq!(code, Some(0), "{events:?}");
    assert_eq!(finished(&events)["summary"]["passes"], 1);
}

#[tokio::test]
async fn a_malformed_suite_gets_every_error_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.yaml");
    std::fs::write(
        &path,
        "version: 1\nid: bad\nrepeat: many\ncases:\n  - id: a\n    turns: [hi]\n    checks:\n      - answerContainz: x\n",
    )
    .unwrap();
    let o = output(eval(None, dir.path(), &["run", path.to_str().unwrap()])).await;
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("2 problems") && err.contains("3:") && err.contains("8:"),
        "{err}"
    );
}

#[tokio::test]
async fn an_app_check_without_chromium_is_errored_not_passed() {
    let llm = ScriptedLlm::start_with_rules(Rules::new(vec![Rule::when(
        "counter",
        vec![
            call("c1", "demo__show_counter_app", json!({})),
            Step::reply(["Here it is."]),
        ],
    )]))
    .await;
    let dir = tempfile::tempdir().unwrap();
    let path = suite(
        dir.path(),
        "models: [openai::gpt-x]\ncases:\n  - id: app\n    turns: [Show the counter.]\n    checks: [appRendered: {}]\n",
    );
    let (code, events) = run_json(Some(&llm), dir.path(), &[path.to_str().unwrap()]).await;
    let it = events
        .iter()
        .find(|e| e["type"] == "iterationFinished")
        .unwrap();
    assert_eq!(it["outcome"]["status"], "errored", "{it}");
    assert!(
        it["outcome"]["reason"]
            .as_str()
            .unwrap()
            .contains("Chromium"),
        "{it}"
    );
    assert_eq!(code, Some(3));
}

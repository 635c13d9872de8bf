//! Black-box tests of `mcplab eval` with real parts: the built-in demo server (and npm's
//! server-everything) as child processes, the testkit's scripted LLM over HTTP playing models
//! that pass, call the wrong tool, use wrong arguments, call too often, answer inconsistently,
//! are slow or rate limited, and the run stored in a real SQLite file. Statistics are checked
//! against values worked out by hand, not against the implementation.
//! Stored runs (replay, shards, baselines) and servers that crash are in eval_runs.rs.

use mcplab_testkit::llm::{Rule, Rules, ScriptedCall, ScriptedLlm, Step};
use serde_json::{Value, json};

use crate::eval_support::*;

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
        wrong_args(),
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

    // N10 (security review 3): reports hold traces; a new one is the user's only.
    let mode =
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&junit).unwrap().permissions());
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
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

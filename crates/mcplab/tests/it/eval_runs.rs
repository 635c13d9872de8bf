//! Black-box tests of `mcplab eval` on stored runs and live servers: a recorded run replayed
//! with no key and no server, shards merged into the unsharded result, a regression against a
//! baseline gated (and too few samples undecided), a server killed mid-run reconnected with
//! its iteration errored, and npm's server-everything as a child process.

use std::path::{Path, PathBuf};
use std::time::Duration;

use mcplab_testkit::llm::{Rule, Rules, ScriptedLlm, Step};
use serde_json::{Value, json};

use crate::eval_support::*;

#[tokio::test]
async fn replay_reproduces_a_recorded_run_with_no_key_and_no_server() {
    let llm =
        ScriptedLlm::start_with_rules(Rules::new(vec![good("gpt-good", "g"), wrong_args()])).await;
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
    let rules = || Rules::new(vec![good("gpt-good", "g"), wrong_args()]);
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
    // A merge takes a baseline and gates like a run, and is stored as a run of its own kind.
    let base_id = whole["runId"].as_str().unwrap().to_owned();
    let o = output(eval(
        None,
        dir.path(),
        &[
            "merge",
            &format!("{s1}/run.json"),
            &format!("{s2}/run.json"),
            "--baseline",
            &base_id,
            "--no-regression",
            "--json",
        ],
    ))
    .await;
    let judged: Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&o)));
    let cells = judged["comparison"]["cells"].as_array().unwrap();
    assert!(
        cells
            .iter()
            .all(|c| c["change"] != "new" && c["change"] != "removed"),
        "{judged}"
    );
    assert_eq!(
        judged["gates"]["gates"][1]["gate"], "noRegression",
        "{judged}"
    );
    let merged_id = judged["runId"].as_str().unwrap();
    let stored = shown(dir.path(), merged_id).await;
    assert_eq!(
        stored["run"]["kind"],
        json!({"kind": "merged", "shards": 2})
    );
    assert_eq!(
        stored["record"]["iterations"],
        joined["record"]["iterations"]
    );
    let o = output(eval(None, dir.path(), &["runs", "--json"])).await;
    let runs: Value = serde_json::from_slice(&o.stdout).unwrap();
    let mut kinds: Vec<String> = runs
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["kind"]["kind"].as_str().unwrap().to_owned())
        .collect();
    kinds.sort();
    assert_eq!(kinds, ["full", "merged", "merged", "shard", "shard"]);
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
    // The scripted LLM keeps its requests in a list: polled, bounded at 60 s.
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

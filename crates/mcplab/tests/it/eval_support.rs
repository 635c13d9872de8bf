//! Shared by the `mcplab eval` black-box tests (eval.rs, eval_runs.rs): the command with a
//! private data dir and the scripted LLM, suite files, and readers for its JSON Lines output.

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::Duration;

use mcplab_testkit::llm::{Rule, ScriptedCall, ScriptedLlm, Step};
use serde_json::{Value, json};
use tokio::process::Command;

pub const BIN: &str = env!("CARGO_BIN_EXE_mcplab");

pub fn call(id: &str, name: &str, args: Value) -> Step {
    Step::call_tools([ScriptedCall::new(id, name, args)])
}

/// `mcplab eval …` against `llm` (OpenAI wire format), data in `data`.
pub fn eval(llm: Option<&ScriptedLlm>, data: &Path, args: &[&str]) -> Command {
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

pub async fn output(mut cmd: Command) -> Output {
    tokio::time::timeout(Duration::from_secs(120), cmd.output())
        .await
        .expect("mcplab eval finished")
        .unwrap()
}

pub fn lines(o: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A suite file using the demo server (this binary) under the name `demo`.
pub fn suite(dir: &Path, body: &str) -> PathBuf {
    suite_with(dir, "suite.yaml", BIN, body)
}

pub fn suite_with(dir: &Path, name: &str, command: &str, body: &str) -> PathBuf {
    let text = format!(
        "version: 1\nid: demo-evals\nmcpServers:\n  demo:\n    command: {command}\n    args: [demo-server]\n{body}"
    );
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

pub const ADD_CASE: &str = "cases:
  - id: add
    turns: [What is 2 + 40? Use the add tool.]
    toolCalls:
      extraCalls: 0
      expected:
        - { tool: add, arguments: { a: 2, b: 40 } }
    checks:
      - answerContains: \"42\"
";

pub fn good(model: &str, tag: &str) -> Rule {
    Rule::when(
        "2 + 40",
        vec![
            call(&format!("{tag}1"), "demo__add", json!({"a": 2, "b": 40})),
            Step::reply(["The sum is ", "42."]),
        ],
    )
    .for_model(model)
}

/// `gpt-wrong-args` adds 2 and 41 and says 43.
pub fn wrong_args() -> Rule {
    Rule::when(
        "2 + 40",
        vec![
            call("a1", "demo__add", json!({"a": 2, "b": 41})),
            Step::reply(["43"]),
        ],
    )
    .for_model("gpt-wrong-args")
}

pub fn finished(events: &[Value]) -> &Value {
    events
        .iter()
        .find(|e| e["type"] == "runFinished")
        .expect("a runFinished event")
}

pub fn cell<'a>(summary: &'a Value, model: &str) -> &'a Value {
    summary["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["model"] == model)
        .unwrap_or_else(|| panic!("no cell for {model}"))
}

pub fn failures_of(events: &[Value], model: &str) -> Vec<String> {
    events
        .iter()
        .filter(|e| e["type"] == "iterationFinished" && e["model"] == model)
        .flat_map(|e| e["failures"].as_array().cloned().unwrap_or_default())
        .map(|f| f.as_str().unwrap_or_default().to_owned())
        .collect()
}

pub async fn run_json(
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

pub fn run_id(events: &[Value]) -> String {
    events[0]["runId"].as_str().unwrap().to_owned()
}

pub async fn shown(dir: &Path, id: &str) -> Value {
    let o = output(eval(None, dir, &["show", id, "--json"])).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

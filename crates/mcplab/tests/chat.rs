//! Black-box tests of `mcplab chat` against the testkit's scripted LLM server (real HTTP,
//! OpenAI and Anthropic formats) and the built-in demo server.

use std::process::{Output, Stdio};
use std::time::Duration;

use mcplab_testkit::llm::{ScriptedCall, ScriptedLlm, Step};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_mcplab");

fn chat(llm: &ScriptedLlm, args: &[&str]) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.arg("chat")
        .args(args)
        .env_remove("MCPLAB_MODEL")
        .env("OPENAI_BASE_URL", llm.base_url())
        .env("OPENAI_API_KEY", "sk-test")
        .env("ANTHROPIC_BASE_URL", llm.base_url())
        .env("ANTHROPIC_API_KEY", "sk-ant-test")
        .env("NO_PROXY", "127.0.0.1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    cmd
}

async fn finish(mut cmd: Command, data: &std::path::Path, stdin: &str) -> Output {
    cmd.env("MCPLAB_DATA_DIR", data);
    let mut child = cmd.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.as_bytes()).await.unwrap();
    drop(input);
    tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
        .await
        .expect("mcplab chat finished")
        .unwrap()
}

#[tokio::test]
async fn a_chat_turn_calls_a_demo_tool_and_streams_the_answer() {
    for (provider, model) in [("openai", "gpt-4o-mini"), ("anthropic", "claude-haiku-4-5")] {
        let llm = ScriptedLlm::start(vec![
            Step::call_tools([ScriptedCall::new("c1", "cli__add", json!({"a": 2, "b": 3}))]),
            Step::reply(["The sum ", "is 5."]),
        ])
        .await;
        let dir = tempfile::tempdir().unwrap();
        let m = format!("{provider}::{model}");
        let o = finish(
            chat(&llm, &["--demo", "--model", &m, "add 2 and 3"]),
            dir.path(),
            "",
        )
        .await;
        let (out, err) = (
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr),
        );
        assert_eq!(o.status.code(), Some(0), "{provider}: {err}");
        assert_eq!(out.trim(), "The sum is 5.", "{provider}");
        assert!(
            err.contains("→ cli/add") && err.contains("✓ cli/add"),
            "{err}"
        );
        assert!(llm.requests()[1].body.to_string().contains("2 + 3 = 5"));
    }
}

#[tokio::test]
async fn json_lines_carry_the_turn_events() {
    let llm = ScriptedLlm::start(vec![Step::reply(["hello"])]).await;
    let dir = tempfile::tempdir().unwrap();
    let o = finish(
        chat(&llm, &["--json", "--model", "openai::gpt-4o-mini", "hi"]),
        dir.path(),
        "",
    )
    .await;
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let events: Vec<Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(events.first().unwrap()["type"], "turnStarted");
    assert_eq!(events.last().unwrap()["type"], "turnFinished");
    assert!(
        events
            .iter()
            .any(|e| e["type"] == "textDelta" && e["text"] == "hello")
    );
}

#[tokio::test]
async fn failures_and_missing_models_are_explained() {
    let llm = ScriptedLlm::start(vec![Step::reply(["a", "b", "c"]).cut_off(2)]).await;
    let dir = tempfile::tempdir().unwrap();
    let o = finish(
        chat(&llm, &["--model", "openai::gpt-4o-mini", "hi"]),
        dir.path(),
        "",
    )
    .await;
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("turn failed (truncated)"));

    let mut cmd = chat(&llm, &["--model", "openai::gpt-4o-mini", "hi"]);
    cmd.env_remove("OPENAI_API_KEY");
    let o = finish(cmd, dir.path(), "").await;
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("OPENAI_API_KEY"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );

    let o = finish(chat(&llm, &["--model", "gpt-4o", "hi"]), dir.path(), "").await;
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("provider::model"));
}

#[tokio::test]
async fn interactive_keeps_the_conversation() {
    let llm = ScriptedLlm::start(vec![
        Step::reply(["first answer"]),
        Step::reply(["second answer"]),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let o = finish(
        chat(&llm, &["-i", "--model", "openai::gpt-4o-mini"]),
        dir.path(),
        "first question\nsecond question\n",
    )
    .await;
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("first answer") && out.contains("second answer"),
        "{out}"
    );
    let second = llm.requests()[1].body.to_string();
    assert!(
        second.contains("first question") && second.contains("first answer"),
        "history is sent: {second}"
    );
}

#[tokio::test]
async fn ctrl_c_cancels_the_turn() {
    let llm = ScriptedLlm::start(vec![
        Step::reply(["a", "b", "c", "d", "e", "f", "g"]).slow(400),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = chat(&llm, &["--model", "openai::gpt-4o-mini", "hi"]);
    cmd.env("MCPLAB_DATA_DIR", dir.path());
    let child = cmd.spawn().unwrap();
    let pid = child.id().unwrap() as i32;
    tokio::time::sleep(Duration::from_millis(900)).await;
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(pid),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let o = tokio::time::timeout(Duration::from_secs(10), child.wait_with_output())
        .await
        .expect("exits after Ctrl-C")
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("cancelled"));
}

#[tokio::test]
async fn approve_asks_before_each_tool_call() {
    for (answer, ran) in [("y\n", true), ("n\n", false)] {
        let llm = ScriptedLlm::start(vec![
            Step::call_tools([ScriptedCall::new("c1", "cli__add", json!({"a": 2, "b": 3}))]),
            Step::reply(["done"]),
        ])
        .await;
        let dir = tempfile::tempdir().unwrap();
        let o = finish(
            chat(
                &llm,
                &[
                    "--demo",
                    "--approve",
                    "--model",
                    "openai::gpt-4o-mini",
                    "add",
                ],
            ),
            dir.path(),
            answer,
        )
        .await;
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{err}");
        assert!(err.contains("allow cli/add"), "{err}");
        let fed_back = llm.requests()[1].body.to_string();
        assert_eq!(fed_back.contains("2 + 3 = 5"), ran, "{fed_back}");
        assert_eq!(fed_back.contains("denied"), !ran, "{fed_back}");
    }
}

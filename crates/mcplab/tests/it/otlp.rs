//! `--otlp` black box: `eval run` and `chat` send their spans to a real OTLP/HTTP receiver
//! the test starts on loopback (protobuf decoded), with the GenAI names, parent links and
//! attributes a collector needs; a collector nobody runs costs a warning, not the run.

use std::time::Duration;

use mcplab_otlp::receiver::{ReceivedSpan, Receiver};
use mcplab_testkit::llm::{Rules, ScriptedCall, ScriptedLlm, Step};
use serde_json::json;

use crate::eval_support::*;

const WAIT: Duration = Duration::from_secs(30);

fn children<'a>(spans: &'a [ReceivedSpan], parent: &ReceivedSpan) -> Vec<&'a ReceivedSpan> {
    spans
        .iter()
        .filter(|s| s.parent_span_id == parent.span_id && s.trace_id == parent.trace_id)
        .collect()
}

/// `mcplab eval run --json --otlp URL` of a suite that runs [`ADD_CASE`] twice, against a
/// scripted model that passes it.
async fn run_add_twice_exporting_to(url: &str) -> std::process::Output {
    let llm = ScriptedLlm::start_with_rules(Rules::new(vec![good("gpt-good", "g")])).await;
    let dir = tempfile::tempdir().unwrap();
    let path = suite(dir.path(), &format!("repeat: 2\n{ADD_CASE}"));
    let args = [
        "run",
        path.to_str().unwrap(),
        "--json",
        "--model",
        "openai::gpt-good",
        "--otlp",
        url,
    ];
    output(eval(Some(&llm), dir.path(), &args)).await
}

#[tokio::test]
async fn eval_run_exports_each_iteration_with_its_turns_and_tool_calls() {
    let receiver = Receiver::start().await;
    let o = run_add_twice_exporting_to(&receiver.url()).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let run = run_id(&lines(&o));
    // Sent before the command exits: 2 iterations × (agent + chat + execute_tool).
    let spans = receiver.wait_for(6, WAIT).await;
    let roots: Vec<_> = spans
        .iter()
        .filter(|s| s.name == "invoke_agent add")
        .collect();
    assert_eq!(roots.len(), 2, "{spans:#?}");
    for root in roots {
        assert!(root.parent_span_id.is_empty());
        let a = &root.attributes;
        assert_eq!(a["gen_ai.operation.name"], "invoke_agent");
        assert_eq!(a["gen_ai.provider.name"], "openai");
        assert_eq!(a["gen_ai.request.model"], "gpt-good");
        assert_eq!(a["mcplab.eval.outcome"], "passed");
        assert_eq!(a["mcplab.eval.run_id"], run);
        assert_eq!(a["mcplab.eval.suite_id"], "demo-evals");
        assert!(a["gen_ai.usage.input_tokens"].parse::<u64>().unwrap() > 0);
        let turns = children(&spans, root);
        assert_eq!(turns.len(), 1, "one turn");
        assert_eq!(turns[0].name, "chat gpt-good");
        let calls = children(&spans, turns[0]);
        assert_eq!(calls.len(), 1, "one tool call");
        assert_eq!(calls[0].name, "execute_tool add");
        assert_eq!(calls[0].attributes["gen_ai.tool.name"], "add");
        assert_eq!(calls[0].attributes["mcplab.mcp.server"], "demo");
    }
    assert!(spans.iter().all(|s| s.service == "mcplab"));
}

#[tokio::test]
async fn a_chat_turn_is_exported_as_a_chat_span_with_its_tool_call() {
    let receiver = Receiver::start().await;
    let llm = ScriptedLlm::start(vec![
        Step::call_tools([ScriptedCall::new("c1", "cli__add", json!({"a": 2, "b": 3}))]),
        Step::reply(["The sum is 5."]),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = tokio::process::Command::new(BIN);
    cmd.args(["chat", "--demo", "--model", "openai::gpt-4o-mini", "--otlp"])
        .arg(receiver.url())
        .arg("add 2 and 3")
        .env_remove("MCPLAB_MODEL")
        .env("MCPLAB_DATA_DIR", dir.path())
        .env("OPENAI_BASE_URL", llm.base_url())
        .env("OPENAI_API_KEY", "sk-test")
        .env("NO_PROXY", "127.0.0.1")
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true);
    let o = output(cmd).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let spans = receiver.wait_for(2, WAIT).await;
    let chat = spans
        .iter()
        .find(|s| s.name == "chat gpt-4o-mini")
        .unwrap_or_else(|| panic!("{spans:#?}"));
    assert!(chat.parent_span_id.is_empty());
    assert_eq!(chat.attributes["gen_ai.operation.name"], "chat");
    assert_eq!(
        chat.attributes["gen_ai.response.finish_reasons"],
        "completed"
    );
    assert!(chat.attributes.contains_key("mcplab.chat.session_id"));
    let calls = children(&spans, chat);
    assert_eq!(calls.len(), 1, "{spans:#?}");
    assert_eq!(calls[0].name, "execute_tool add");
}

#[tokio::test]
async fn a_collector_nobody_runs_is_one_warning_and_the_run_passes() {
    let port = mcplab_testkit::ports::spare_port();
    let o = run_add_twice_exporting_to(&format!("http://127.0.0.1:{port}")).await;
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert_eq!(err.matches("OTLP export to").count(), 1, "told once: {err}");
    assert!(err.contains("could not be sent"), "{err}");
}

#[tokio::test]
async fn an_otlp_address_that_is_not_http_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = suite(dir.path(), ADD_CASE);
    let o = output(eval(
        None,
        dir.path(),
        &[
            "run",
            path.to_str().unwrap(),
            "--model",
            "openai::m",
            "--otlp",
            "localhost:4318",
        ],
    ))
    .await;
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("http://127.0.0.1:4318"),
        "{}",
        stderr(&o)
    );
}

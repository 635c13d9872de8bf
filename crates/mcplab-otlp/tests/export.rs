//! The exporter against a real OTLP/HTTP receiver on loopback: what a collector receives for
//! an eval iteration and a chat turn (names, parent links, GenAI attributes), and that an
//! endpoint nobody listens on costs the caller nothing but a counted failure, told once.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, SystemTime};

use mcplab_otlp::receiver::{ReceivedSpan, Receiver};
use mcplab_otlp::{ChatTurnSpans, Exporter, IterationSpans};
use mcplab_protocol::chat::{StopReason, TokenUsage};
use mcplab_protocol::evals::{
    IterationRecord, Metrics, Outcome, ToolCallTrace, Trace, TurnEnd, TurnTrace, Unit,
};
use serde_json::json;

const WAIT: Duration = Duration::from_secs(60);

fn call(id: &str, tool: &str, error: Option<&str>) -> ToolCallTrace {
    ToolCallTrace {
        call_id: id.into(),
        server: "demo".into(),
        tool: tool.into(),
        arguments: json!({"a": 2}),
        result: error.is_none().then(|| json!({"content": []})),
        is_error: error.is_some(),
        error: error.map(str::to_owned),
        duration_ms: 40,
    }
}

fn turn(calls: Vec<ToolCallTrace>) -> TurnTrace {
    TurnTrace {
        user: "add 2 and 3".into(),
        tool_calls: calls,
        answer: "5".into(),
        end: TurnEnd::Finished {
            reason: StopReason::Completed,
        },
        steps: 2,
        usage: TokenUsage {
            input_tokens: 120,
            output_tokens: 30,
            reasoning_tokens: 0,
        },
        latency_ms: 900,
        llm_ms: 700,
        mcp_ms: 80,
    }
}

fn named<'a>(spans: &'a [ReceivedSpan], name: &str) -> &'a ReceivedSpan {
    spans
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no span {name} in {:?}", names(spans)))
}

fn names(spans: &[ReceivedSpan]) -> Vec<&str> {
    spans.iter().map(|s| s.name.as_str()).collect()
}

#[tokio::test]
async fn an_iteration_arrives_as_an_agent_span_with_turn_and_tool_children() {
    let receiver = Receiver::start().await;
    let exporter = Exporter::start(&receiver.url(), Arc::new(|_| {})).unwrap();
    let record = IterationRecord {
        unit: Unit {
            case_id: "add".into(),
            model: "openai::gpt-4o-mini".into(),
            iteration: 2,
        },
        outcome: Outcome::Failed,
        failures: vec!["expected add, got echo".into()],
        metrics: Metrics {
            input_tokens: 120,
            output_tokens: 30,
            cost_usd: Some(0.0025),
            latency_ms: 900,
            ..Metrics::default()
        },
    };
    let trace = Trace {
        turns: vec![turn(vec![
            call("c1", "add", None),
            call("c2", "echo", Some("MCP error -32602: bad arguments")),
        ])],
        cost_usd: Some(0.0025),
        app_renders: Vec::new(),
    };
    exporter.iteration(&IterationSpans {
        run_id: "r1",
        suite_id: "math",
        record: &record,
        trace: Some(&trace),
        ended: SystemTime::now(),
    });
    let report = exporter.flush(WAIT).await;
    assert_eq!(report.failed_batches, 0, "{report:?}");
    let spans = receiver.wait_for(4, WAIT).await;
    assert_eq!(spans.len(), 4, "{:?}", names(&spans));
    assert!(
        receiver
            .content_types()
            .iter()
            .all(|c| c == "application/x-protobuf")
    );

    let root = named(&spans, "invoke_agent add");
    let chat = named(&spans, "chat gpt-4o-mini");
    let add = named(&spans, "execute_tool add");
    let echo = named(&spans, "execute_tool echo");
    assert!(
        root.parent_span_id.is_empty(),
        "the iteration is a root span"
    );
    assert_eq!(chat.parent_span_id, root.span_id);
    assert_eq!(add.parent_span_id, chat.span_id);
    assert_eq!(echo.parent_span_id, chat.span_id);
    assert!(spans.iter().all(|s| s.trace_id == root.trace_id));
    assert!(spans.iter().all(|s| s.service == "mcplab"));

    let a = &root.attributes;
    assert_eq!(a["gen_ai.operation.name"], "invoke_agent");
    assert_eq!(a["gen_ai.request.model"], "gpt-4o-mini");
    assert_eq!(a["gen_ai.provider.name"], "openai");
    assert_eq!(a["gen_ai.usage.input_tokens"], "120");
    assert_eq!(a["gen_ai.usage.output_tokens"], "30");
    assert_eq!(a["mcplab.cost_usd"], "0.0025");
    assert_eq!(a["mcplab.eval.outcome"], "failed");
    assert_eq!(a["mcplab.eval.failures"], "expected add, got echo");
    assert_eq!(a["mcplab.eval.suite_id"], "math");
    assert_eq!(a["mcplab.eval.iteration"], "2");

    assert_eq!(chat.attributes["gen_ai.operation.name"], "chat");
    assert_eq!(
        chat.attributes["gen_ai.response.finish_reasons"],
        "completed"
    );
    assert_eq!(add.attributes["gen_ai.operation.name"], "execute_tool");
    assert_eq!(add.attributes["gen_ai.tool.name"], "add");
    assert_eq!(add.attributes["gen_ai.tool.call.id"], "c1");
    assert_eq!(add.attributes["mcplab.mcp.server"], "demo");
    assert_eq!(add.status_code, 0);
    assert_eq!(echo.status_code, 2, "a failed call is an error span");
    assert!(echo.status_message.contains("bad arguments"));
    for child in [chat, add, echo] {
        assert!(child.start_ns >= root.start_ns && child.end_ns <= root.end_ns);
    }
}

#[tokio::test]
async fn a_chat_turn_is_a_root_chat_span_with_its_calls() {
    let receiver = Receiver::start().await;
    let exporter = Exporter::start(&receiver.url(), Arc::new(|_| {})).unwrap();
    let t = turn(vec![call("c1", "add", None)]);
    exporter.chat_turn(&ChatTurnSpans {
        session_id: "s1",
        turn_id: "t1",
        model: "anthropic::claude-sonnet-4-5",
        turn: &t,
        cost_usd: None,
        ended: SystemTime::now(),
    });
    exporter.flush(WAIT).await;
    let spans = receiver.wait_for(2, WAIT).await;
    let chat = named(&spans, "chat claude-sonnet-4-5");
    assert!(chat.parent_span_id.is_empty());
    assert_eq!(chat.attributes["gen_ai.provider.name"], "anthropic");
    assert_eq!(chat.attributes["mcplab.chat.session_id"], "s1");
    assert_eq!(
        named(&spans, "execute_tool add").parent_span_id,
        chat.span_id
    );
}

#[tokio::test]
async fn an_endpoint_nobody_listens_on_is_a_counted_failure_told_once() {
    // A port that was free a moment ago: connecting to it is refused.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let told = Arc::new(AtomicUsize::new(0));
    let counter = told.clone();
    let exporter = Exporter::start(
        &format!("http://127.0.0.1:{port}"),
        Arc::new(move |_| {
            counter.fetch_add(1, Ordering::SeqCst);
        }),
    )
    .unwrap();
    let t = turn(Vec::new());
    for _ in 0..2 {
        exporter.chat_turn(&ChatTurnSpans {
            session_id: "s",
            turn_id: "t",
            model: "openai::m",
            turn: &t,
            cost_usd: None,
            ended: SystemTime::now(),
        });
        // Pushing returned at once; the send fails in the background.
        exporter.flush(WAIT).await;
    }
    let report = exporter.report();
    assert_eq!(report.failed_batches, 2, "{report:?}");
    assert_eq!(report.sent_spans, 0);
    assert!(report.first_error.is_some());
    assert_eq!(told.load(Ordering::SeqCst), 1, "told once");
    let line = report.problem(exporter.endpoint()).unwrap();
    assert!(line.contains("2 batch(es) could not be sent"), "{line}");
}

#[tokio::test]
async fn a_bad_url_is_refused_with_what_to_give() {
    let err = Exporter::start("127.0.0.1:4318", Arc::new(|_| {}))
        .err()
        .unwrap();
    assert!(err.to_string().contains("http://127.0.0.1:4318"), "{err}");
}

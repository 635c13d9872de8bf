//! mcplab's own MCP server side (`tool_server`, what `mcplab mcp` serves) against a scripted
//! 2026-07-28 client over a byte stream: a call that asks the client (an `input_required`
//! round) and then reports progress sends that progress on the retry's token, the request it
//! answers now (issue 25's gap: it went to the first request's, which was already answered).

use std::sync::Arc;
use std::time::Duration;

use futures::FutureExt;
use futures::future::BoxFuture;
use mcplab_mcp::tool_server::{CallScope, HostIdentity, ToolHost, ToolReply, ToolSpec, serve_io};
use mcplab_protocol::HumanRequestKind;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf};

type Lines = tokio::io::Lines<BufReader<ReadHalf<DuplexStream>>>;

/// Far below any request timeout: a test that needs one fails.
const AT_ONCE: Duration = Duration::from_secs(30);

/// One tool: asks the client for a name, then reports progress, then answers.
struct AskThenReport {
    tools: Vec<ToolSpec>,
}

impl ToolHost for AskThenReport {
    fn identity(&self) -> HostIdentity {
        HostIdentity {
            name: "rounds".into(),
            version: "1".into(),
            instructions: String::new(),
        }
    }

    fn tools(&self) -> &[ToolSpec] {
        &self.tools
    }

    fn call(
        &self,
        name: &str,
        _: Value,
        scope: CallScope,
    ) -> Option<BoxFuture<'static, ToolReply>> {
        (name == "ask_then_report").then(|| {
            async move {
                let form = json!({"mode": "form", "message": "Your name?", "requestedSchema":
                    {"type": "object", "properties": {"name": {"type": "string"}}}});
                let answer = scope
                    .client
                    .ask(HumanRequestKind::Elicitation, form, AT_ONCE)
                    .await;
                scope
                    .progress
                    .report(1.0, Some(1.0), Some("after the answer".into()))
                    .await;
                ToolReply {
                    summary: format!("{answer:?}"),
                    structured: json!({}),
                    images: Vec::new(),
                    is_error: false,
                }
            }
            .boxed()
        })
    }
}

fn host() -> Arc<dyn ToolHost> {
    Arc::new(AskThenReport {
        tools: vec![ToolSpec {
            name: "ask_then_report".into(),
            title: "Ask, then report".into(),
            description: "Asks the client, then reports progress.".into(),
            input_schema: json!({"type": "object"}),
            output_schema: json!({"type": "object"}),
            read_only: true,
        }],
    })
}

/// A `tools/call` of 2026-07-28 (its metadata inline) with progress token `token`.
fn call(id: u64, token: &str, extra: Value) -> String {
    let mut params = json!({"name": "ask_then_report", "arguments": {}, "_meta": {
        "progressToken": token,
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
        "io.modelcontextprotocol/clientInfo": {"name": "scripted", "version": "1"}}});
    if let (Some(p), Value::Object(more)) = (params.as_object_mut(), extra) {
        p.extend(more);
    }
    let frame = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
    format!("{frame}\n")
}

/// Reads frames until the answer to `id`, keeping the progress notifications on the way.
async fn answer_to(lines: &mut Lines, id: u64, progress: &mut Vec<Value>) -> Value {
    loop {
        let line = tokio::time::timeout(AT_ONCE, lines.next_line()).await;
        let line = line.expect("a frame in time").unwrap().expect("open");
        let frame: Value = serde_json::from_str(&line).unwrap();
        if frame["method"] == "notifications/progress" {
            progress.push(frame["params"].clone());
        } else if frame["id"] == id {
            return frame;
        }
    }
}

#[tokio::test]
async fn progress_after_an_input_required_round_goes_to_the_retrys_token() {
    let (client, server) = tokio::io::duplex(1 << 16);
    let (sr, sw) = tokio::io::split(server);
    tokio::spawn(serve_io(host(), sr, sw));
    let (cr, mut cw) = tokio::io::split(client);
    let mut lines = BufReader::new(cr).lines();
    let mut progress = Vec::new();

    cw.write_all(call(1, "first", json!({})).as_bytes())
        .await
        .unwrap();
    let round = answer_to(&mut lines, 1, &mut progress).await;
    let result = &round["result"];
    let state = result["requestState"]
        .as_str()
        .expect("input_required")
        .to_owned();
    let keys: Vec<&String> = result["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(keys.len(), 1, "{round}");
    let responses = json!({ keys[0].as_str(): {"action": "accept", "content": {"name": "Ada"}} });

    let retry = json!({"requestState": state, "inputResponses": responses});
    cw.write_all(call(2, "second", retry).as_bytes())
        .await
        .unwrap();
    let done = answer_to(&mut lines, 2, &mut progress).await;
    let text = done["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.contains("Ada"), "{done}");
    let tokens: Vec<&Value> = progress.iter().map(|p| &p["progressToken"]).collect();
    assert_eq!(tokens, [&json!("second")], "{progress:?}");
}

//! Playing a recorded run back with no API key and no live server: the model is a provider
//! that streams each recorded step again, and each server is a small in-process MCP server
//! (newline-delimited JSON-RPC, connected through the connection manager like any stdio
//! server) that answers `initialize` and `tools/list` as recorded and each `tools/call` with
//! the recorded result of the same call. It always speaks the handshake era (2025-11-25, the
//! version the client asks for), whichever era the recorded server spoke: a tool call's result
//! is the same in both. Every iteration gets its own model and servers, so
//! concurrency cannot mix two iterations' recordings. The turn loop in between is the real one.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use futures::StreamExt;
use futures::stream::BoxStream;
use mcplab_llm::{ChatRequest, LlmError, LlmProvider, StreamEvent};
use mcplab_mcp::{ConnectionManager, ManagerOptions};
use mcplab_protocol::ProtocolChoice;
use parking_lot::Mutex;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio_util::sync::CancellationToken;

use crate::observe::RecordedStep;

/// What a replay needs of each server, recorded once per run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RunRecording {
    pub servers: BTreeMap<String, ServerRecording>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ServerRecording {
    /// The server's `initialize` result (capabilities, instructions).
    pub initialize: Value,
    /// Its `tools/list`, every page merged.
    pub tools: Vec<Value>,
}

/// One tool call as it happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RecordedCall {
    pub call_id: String,
    pub server: String,
    pub tool: String,
    pub arguments: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub duration_ms: u64,
}

/// One turn's clocks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RecordedTiming {
    pub latency_ms: u64,
    pub llm_ms: u64,
}

/// One iteration's recording.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct IterationRecording {
    pub steps: Vec<RecordedStep>,
    pub calls: Vec<RecordedCall>,
    pub timings: Vec<RecordedTiming>,
}

/// Streams the recorded steps in order; a step beyond the recording is an error that says
/// the suite no longer matches it.
pub(crate) struct ReplayProvider {
    id: String,
    steps: Mutex<VecDeque<RecordedStep>>,
}

impl ReplayProvider {
    pub(crate) fn new(provider_id: &str, steps: Vec<RecordedStep>) -> Self {
        Self {
            id: provider_id.to_owned(),
            steps: Mutex::new(steps.into()),
        }
    }
}

impl LlmProvider for ReplayProvider {
    fn id(&self) -> &str {
        &self.id
    }

    fn stream(
        &self,
        _request: ChatRequest,
        _cancel: CancellationToken,
    ) -> BoxStream<'static, Result<StreamEvent, LlmError>> {
        let next = self.steps.lock().pop_front();
        let Some(step) = next else {
            return futures::stream::once(async {
                Err(LlmError::BadResponse {
                    message: "the recording has no further model step for this iteration: the \
                              suite asks for more than was recorded (record the run again)"
                        .into(),
                })
            })
            .boxed();
        };
        let mut items: Vec<Result<StreamEvent, LlmError>> =
            step.events.iter().map(|e| Ok(e.to_event())).collect();
        if let Some(error) = &step.error {
            items.push(Err(error.to_error()));
        }
        futures::stream::iter(items).boxed()
    }
}

/// A fresh connection manager whose servers answer from `run` and `calls`.
pub(crate) async fn replay_servers(
    run: &RunRecording,
    calls: &[RecordedCall],
) -> Result<Arc<ConnectionManager>, String> {
    let manager = ConnectionManager::new(ManagerOptions::default());
    for (name, recorded) in &run.servers {
        let (client, server) = tokio::io::duplex(1 << 16);
        let mine: Vec<RecordedCall> = calls
            .iter()
            .filter(|c| &c.server == name)
            .cloned()
            .collect();
        tokio::spawn(serve(server, recorded.clone(), mine));
        let (read, write) = tokio::io::split(client);
        manager
            .connect_io_with(name, ProtocolChoice::V2025_11_25, read, write)
            .await
            .map_err(|e| format!("the recorded server `{name}` did not start: {e}"))?;
    }
    Ok(manager)
}

/// Answers JSON-RPC lines until the client goes away.
async fn serve(io: tokio::io::DuplexStream, recorded: ServerRecording, calls: Vec<RecordedCall>) {
    let (read, mut write) = tokio::io::split(io);
    let mut lines = BufReader::new(read).lines();
    let mut unused: Vec<Option<RecordedCall>> = calls.into_iter().map(Some).collect();
    while let Ok(Some(line)) = lines.next_line().await {
        let Ok(msg) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let Some(id) = msg.get("id").cloned() else {
            continue; // a notification
        };
        let params = msg.get("params").cloned().unwrap_or(Value::Null);
        let answer = match msg["method"].as_str().unwrap_or_default() {
            "initialize" => Ok(initialize(&recorded.initialize, &params)),
            "ping" => Ok(json!({})),
            "tools/list" => Ok(json!({ "tools": recorded.tools })),
            "tools/call" => call(&mut unused, &params),
            other => Err((-32601, format!("`{other}` is not part of the recording"))),
        };
        let reply = match answer {
            Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
            Err((code, message)) => {
                json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
            }
        };
        let mut text = reply.to_string();
        text.push('\n');
        if write.write_all(text.as_bytes()).await.is_err() {
            return;
        }
    }
}

/// The recorded `initialize` result (or a 2026-07-28 discovery's initialize-shaped summary)
/// answering with the version the client asked for.
fn initialize(recorded: &Value, params: &Value) -> Value {
    let mut result = recorded.clone();
    if let (Some(fields), Some(asked)) = (result.as_object_mut(), params.get("protocolVersion")) {
        fields.insert("protocolVersion".into(), asked.clone());
    }
    result
}

/// The arguments as the turn loop sends them (`{}` for anything but an object).
fn sent(arguments: &Value) -> Value {
    if arguments.is_object() {
        arguments.clone()
    } else {
        json!({})
    }
}

fn call(unused: &mut [Option<RecordedCall>], params: &Value) -> Result<Value, (i64, String)> {
    let tool = params["name"].as_str().unwrap_or_default();
    let arguments = sent(params.get("arguments").unwrap_or(&Value::Null));
    let slot = unused.iter_mut().find(|c| {
        c.as_ref()
            .is_some_and(|c| c.tool == tool && sent(&c.arguments) == arguments)
    });
    let Some(found) = slot.and_then(Option::take) else {
        return Err((
            -32602,
            format!(
                "the recording has no further call of `{tool}` with these arguments: the model \
                 now calls differently than when it was recorded"
            ),
        ));
    };
    match (found.result, found.error) {
        (Some(result), _) => Ok(result),
        (None, error) => Err((
            -32000,
            error.unwrap_or_else(|| "the recorded call had no result".into()),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recorded(tool: &str, a: i64, result: Option<Value>, error: Option<&str>) -> RecordedCall {
        RecordedCall {
            call_id: format!("c{a}"),
            server: "demo".into(),
            tool: tool.into(),
            arguments: json!({ "a": a }),
            result,
            error: error.map(str::to_owned),
            duration_ms: 1,
        }
    }

    #[test]
    fn calls_are_answered_by_tool_and_arguments_once_each() {
        let mut unused = vec![
            Some(recorded("add", 1, Some(json!({"n": 1})), None)),
            Some(recorded("add", 2, None, Some("boom"))),
            Some(recorded("add", 1, Some(json!({"n": 11})), None)),
        ];
        let p = |a: i64| json!({ "name": "add", "arguments": { "a": a } });
        assert_eq!(call(&mut unused, &p(2)), Err((-32000, "boom".into())));
        assert_eq!(call(&mut unused, &p(1)), Ok(json!({"n": 1})));
        assert_eq!(call(&mut unused, &p(1)), Ok(json!({"n": 11})));
        assert!(
            call(&mut unused, &p(1))
                .unwrap_err()
                .1
                .contains("no further call")
        );
    }
}

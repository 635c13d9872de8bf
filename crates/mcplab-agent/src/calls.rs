//! The tools that send one request to a connected server — `list`, `call_tool`,
//! `read_resource`, `get_prompt`, `complete` — and return the server's result exactly as sent,
//! with the time it took. A call's progress goes on to the agent as progress of its own call;
//! cancelling the agent's call sends `notifications/cancelled` to the server.

use std::time::{Duration, Instant};

use mcplab_mcp::tool_server::{CallScope, Progress, ToolReply};
use mcplab_mcp::{Listing, McpError, RequestOptions};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use tokio::sync::mpsc;

use crate::Agent;
use crate::reply::{self, cut, fail, fail_with, ok};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListArgs {
    server: String,
    kind: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct CallArgs {
    server: String,
    tool: String,
    #[serde(default)]
    arguments: Map<String, Value>,
    timeout_secs: Option<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RequestArgs {
    server: String,
    uri: Option<String>,
    prompt: Option<String>,
    arguments: Option<Map<String, Value>>,
    argument: Option<String>,
    value: Option<String>,
    context: Option<Map<String, Value>>,
}

impl Agent {
    pub(crate) async fn list_tool(&self, arguments: Value, scope: &CallScope) -> ToolReply {
        let args: ListArgs = match reply::args("list", arguments) {
            Ok(a) => a,
            Err(r) => return *r,
        };
        let listings: &[Listing] = match args.kind.as_deref().unwrap_or("all") {
            "all" => &Listing::STANDARD,
            "tools" => &[Listing::Tools],
            "resources" => &[Listing::Resources],
            "templates" => &[Listing::ResourceTemplates],
            "prompts" => &[Listing::Prompts],
            other => {
                return fail(format!(
                    "`kind` is all, tools, resources, templates or prompts, not `{other}`"
                ));
            }
        };
        let conn = match self.connection(&args.server) {
            Ok(c) => c,
            Err(r) => return *r,
        };
        let caps = conn.initialize_result()["capabilities"].clone();
        let mut out = Map::new();
        let mut counts = Vec::new();
        for listing in listings {
            let declared = listing.capability().is_some_and(|c| caps.get(c).is_some());
            if !declared {
                counts.push(format!("no {} (not declared)", listing.key()));
                continue;
            }
            match conn.list_all(*listing, options(scope)).await {
                Ok(list) => {
                    let items = list[listing.key()].clone();
                    counts.push(format!(
                        "{} {}",
                        items.as_array().map_or(0, Vec::len),
                        listing.key()
                    ));
                    out.insert(listing.key().to_owned(), items);
                }
                Err(e) => return mcp_failure(&args.server, listing.method(), &e),
            }
        }
        ok(
            format!("`{}`: {}", args.server, counts.join(", ")),
            Value::Object(out),
        )
    }

    pub(crate) async fn call_tool(&self, arguments: Value, scope: &CallScope) -> ToolReply {
        let args: CallArgs = match reply::args("call_tool", arguments) {
            Ok(a) => a,
            Err(r) => return *r,
        };
        let params = json!({ "name": args.tool, "arguments": args.arguments });
        let mut opts = options(scope);
        opts.timeout = args
            .timeout_secs
            .filter(|s| s.is_finite() && *s > 0.0)
            .map(Duration::from_secs_f64);
        let reply = self
            .send(&args.server, "tools/call", Some(params), opts, scope)
            .await;
        match reply {
            Ok((result, ms)) => {
                let verdict = if result["isError"] == true {
                    "returned isError"
                } else {
                    "ok"
                };
                let text = first_text(&result);
                let summary = format!("{} → {verdict} in {ms} ms{text}", args.tool);
                ok(summary, json!({ "result": result, "ms": ms }))
            }
            Err(r) => *r,
        }
    }

    /// `read_resource`, `get_prompt` and `complete`.
    pub(crate) async fn request_tool(
        &self,
        tool: &str,
        arguments: Value,
        scope: &CallScope,
    ) -> ToolReply {
        let args: RequestArgs = match reply::args(tool, arguments) {
            Ok(a) => a,
            Err(r) => return *r,
        };
        let (method, params) = match request_params(tool, &args) {
            Ok(p) => p,
            Err(why) => return fail(why),
        };
        match self
            .send(&args.server, method, Some(params), options(scope), scope)
            .await
        {
            Ok((result, ms)) => ok(
                format!("{method} → ok in {ms} ms{}", first_text(&result)),
                json!({ "result": result, "ms": ms }),
            ),
            Err(r) => *r,
        }
    }

    /// Sends one request with the agent's progress and cancellation; the exact result and ms.
    async fn send(
        &self,
        server: &str,
        method: &str,
        params: Option<Value>,
        mut opts: RequestOptions,
        scope: &CallScope,
    ) -> Result<(Value, u64), Box<ToolReply>> {
        let conn = self.connection(server)?;
        let forwarding = scope.progress.wanted().then(|| {
            let (tx, rx) = mpsc::unbounded_channel();
            opts.progress = Some(tx);
            tokio::spawn(forward_progress(rx, scope.progress.clone()))
        });
        let started = Instant::now();
        let result = conn.request(method, params, opts).await;
        let ms = started.elapsed().as_millis() as u64;
        if let Some(task) = forwarding {
            drain(task).await;
        }
        result
            .map(|r| (r, ms))
            .map_err(|e| Box::new(mcp_failure(server, method, &e)))
    }
}

fn options(scope: &CallScope) -> RequestOptions {
    RequestOptions {
        cancel: Some(scope.cancel.clone()),
        ..Default::default()
    }
}

fn request_params(tool: &str, a: &RequestArgs) -> Result<(&'static str, Value), String> {
    let need = |v: &Option<String>, what: &str| {
        v.clone().ok_or_else(|| format!("`{tool}` needs `{what}`"))
    };
    match tool {
        "read_resource" => Ok(("resources/read", json!({ "uri": need(&a.uri, "uri")? }))),
        "get_prompt" => {
            let mut p = json!({ "name": need(&a.prompt, "prompt")? });
            if let Some(args) = &a.arguments {
                p["arguments"] = Value::Object(args.clone());
            }
            Ok(("prompts/get", p))
        }
        _ => {
            let reference = match (&a.prompt, &a.uri) {
                (Some(name), None) => json!({ "type": "ref/prompt", "name": name }),
                (None, Some(uri)) => json!({ "type": "ref/resource", "uri": uri }),
                _ => return Err("`complete` needs `prompt` or `uri` (one of them)".into()),
            };
            let mut p = json!({ "ref": reference, "argument": {
                "name": need(&a.argument, "argument")?,
                "value": a.value.clone().unwrap_or_default() } });
            if let Some(c) = &a.context {
                p["context"] = json!({ "arguments": c });
            }
            Ok(("completion/complete", p))
        }
    }
}

/// The most a result waits for the progress before it to reach the agent.
const DRAIN: std::time::Duration = std::time::Duration::from_secs(10);

/// Waits for a progress-forwarding `task` whose sender is gone: it ends once it has passed on
/// what came before the result, so the agent gets all of it first (bounded by [`DRAIN`]).
pub(crate) async fn drain(mut task: tokio::task::JoinHandle<()>) {
    if tokio::time::timeout(DRAIN, &mut task).await.is_err() {
        task.abort();
    }
}

/// Passes a server's progress on as the agent call's own (which must only grow).
async fn forward_progress(
    mut rx: mpsc::UnboundedReceiver<mcplab_mcp::ProgressUpdate>,
    progress: Progress,
) {
    let mut last = f64::NEG_INFINITY;
    while let Some(update) = rx.recv().await {
        if update.progress > last {
            last = update.progress;
            progress
                .report(update.progress, update.total, update.message)
                .await;
        }
    }
}

/// `: <the first text content>`, cut, when the result has one.
fn first_text(result: &Value) -> String {
    let content = result["content"].as_array().into_iter().flatten();
    let messages = result["messages"].as_array().into_iter().flatten();
    let text = content
        .chain(messages.map(|m| &m["content"]))
        .chain(result["contents"].as_array().into_iter().flatten())
        .find_map(|c| c["text"].as_str());
    text.map(|t| format!(": {}", cut(t, 200)))
        .unwrap_or_default()
}

fn mcp_failure(server: &str, method: &str, e: &McpError) -> ToolReply {
    let message = format!("`{server}` {method} failed: {e}");
    match e {
        McpError::Server { code, data, .. } => {
            fail_with(message, json!({ "code": code, "data": data }))
        }
        McpError::Cancelled => fail(format!("{method} cancelled; the server was told")),
        McpError::Timeout { .. } => fail(format!(
            "{message}; a longer deadline needs `mcplab mcp --timeout SECS` (the person starts it)"
        )),
        _ => fail(message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: Value) -> RequestArgs {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn completion_references_a_prompt_or_a_template() {
        let (method, p) = request_params(
            "complete",
            &args(json!({"server": "s", "prompt": "greet", "argument": "name", "value": "A"})),
        )
        .unwrap();
        assert_eq!(method, "completion/complete");
        assert_eq!(p["ref"], json!({"type": "ref/prompt", "name": "greet"}));
        assert_eq!(p["argument"], json!({"name": "name", "value": "A"}));
        let err = request_params("complete", &args(json!({"server": "s", "argument": "x"})));
        assert!(err.unwrap_err().contains("`prompt` or `uri`"));
        let err = request_params("read_resource", &args(json!({"server": "s"})));
        assert_eq!(err.unwrap_err(), "`read_resource` needs `uri`");
    }

    #[test]
    fn the_summary_quotes_the_first_text() {
        let r = json!({"content": [{"type": "image"}, {"type": "text", "text": "hi"}]});
        assert_eq!(first_text(&r), ": hi");
        let p = json!({"messages": [{"role": "user", "content": {"type": "text", "text": "yo"}}]});
        assert_eq!(first_text(&p), ": yo");
        assert_eq!(first_text(&json!({})), "");
    }
}

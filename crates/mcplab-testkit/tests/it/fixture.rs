//! Drives the fixture server in process over `tokio::io::duplex` with raw newline-delimited
//! JSON-RPC, the way any client sees it: handshake, tool schemas, tool results, progress,
//! cancellation, server-to-client requests, resources, subscriptions and completion.

use std::{collections::HashMap, time::Duration};

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines, ReadHalf, WriteHalf};

type Stream = tokio::io::DuplexStream;

/// Guards against a hang; never a timing assertion.
const GUARD: Duration = Duration::from_secs(20);

/// A raw JSON-RPC client that answers server-to-client requests from canned results and keeps
/// every notification it sees.
struct RawClient {
    lines: Lines<BufReader<ReadHalf<Stream>>>,
    writer: WriteHalf<Stream>,
    next_id: i64,
    notifications: Vec<Value>,
    answers: HashMap<&'static str, Value>,
}

impl RawClient {
    /// Start a server and complete the handshake as a 2025-11-25 client.
    async fn connect(capabilities: Value) -> (Self, Value) {
        Self::connect_as("2025-11-25", capabilities).await
    }

    async fn connect_as(version: &str, capabilities: Value) -> (Self, Value) {
        let (client, server) = tokio::io::duplex(1 << 16);
        let (server_read, server_write) = tokio::io::split(server);
        tokio::spawn(async move {
            if let Err(error) = mcplab_testkit::serve_io(server_read, server_write).await {
                eprintln!("fixture server ended: {error}");
            }
        });
        let (read, writer) = tokio::io::split(client);
        let mut client = Self {
            lines: BufReader::new(read).lines(),
            writer,
            next_id: 0,
            notifications: Vec::new(),
            answers: HashMap::new(),
        };
        let init = client
            .request(
                "initialize",
                json!({
                    "protocolVersion": version,
                    "capabilities": capabilities,
                    "clientInfo": { "name": "raw-test-client", "version": "0.0.0" }
                }),
            )
            .await;
        client
            .send(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
            .await;
        (client, init)
    }

    async fn send(&mut self, frame: Value) {
        let mut line = serde_json::to_vec(&frame).unwrap();
        line.push(b'\n');
        self.writer.write_all(&line).await.unwrap();
        self.writer.flush().await.unwrap();
    }

    async fn next_frame(&mut self) -> Value {
        let line = tokio::time::timeout(GUARD, self.lines.next_line())
            .await
            .expect("server went silent")
            .expect("read failed")
            .expect("server closed the stream");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    /// Send a request and return its `result`, answering server requests and recording
    /// notifications on the way. Panics on a JSON-RPC error.
    async fn request(&mut self, method: &str, params: Value) -> Value {
        let response = self.request_raw(method, params).await;
        if let Some(error) = response.get("error") {
            panic!("{method} failed: {error}");
        }
        response["result"].clone()
    }

    async fn request_raw(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .await;
        loop {
            let frame = self.next_frame().await;
            match (frame.get("id"), frame.get("method")) {
                (Some(got), None) if *got == json!(id) => return frame,
                (Some(server_id), Some(server_method)) => {
                    let method = server_method.as_str().unwrap_or_default();
                    let reply = match self.answers.get(method) {
                        Some(result) => {
                            json!({ "jsonrpc": "2.0", "id": server_id, "result": result })
                        }
                        None => json!({ "jsonrpc": "2.0", "id": server_id,
                                        "error": { "code": -32601, "message": "not here" } }),
                    };
                    self.send(reply).await;
                }
                (None, Some(_)) => self.notifications.push(frame),
                _ => panic!("unexpected frame: {frame}"),
            }
        }
    }

    async fn call(&mut self, tool: &str, arguments: Value) -> Value {
        self.request(
            "tools/call",
            json!({ "name": tool, "arguments": arguments }),
        )
        .await
    }

    fn notifications_named(&self, method: &str) -> Vec<&Value> {
        self.notifications
            .iter()
            .filter(|n| n["method"] == method)
            .collect()
    }
}

fn text_of(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn initialize_answers_the_requested_version_with_instructions() {
    let (_client, init) = RawClient::connect(json!({})).await;
    assert_eq!(init["protocolVersion"], "2025-11-25");
    assert_eq!(init["serverInfo"]["name"], "mcplab-demo");
    assert!(
        init["instructions"]
            .as_str()
            .is_some_and(|s| s.contains("echo"))
    );
    let caps = &init["capabilities"];
    assert_eq!(caps["tools"]["listChanged"], true);
    assert_eq!(caps["resources"]["subscribe"], true);
    assert!(caps["logging"].is_object());
    assert!(caps["completions"].is_object());
    assert!(caps["prompts"].is_object());
}

#[tokio::test]
async fn older_versions_are_echoed_too() {
    for version in ["2025-06-18", "2025-03-26"] {
        let (_client, init) = RawClient::connect_as(version, json!({})).await;
        assert_eq!(init["protocolVersion"], version);
    }
}

#[tokio::test]
async fn tools_list_has_every_tool_with_rich_schemas() {
    let (mut client, _) = RawClient::connect(json!({})).await;
    let listed = client.request("tools/list", json!({})).await;
    let tools: HashMap<&str, &Value> = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["name"].as_str().unwrap(), t))
        .collect();
    for name in [
        "echo",
        "add",
        "create_order",
        "get_image",
        "get_audio",
        "get_resource_link",
        "get_embedded_resource",
        "fail",
        "slow_task",
        "elicit_form",
        "elicit_url",
        "sample_llm",
        "list_roots",
        "log_all_levels",
        "toggle_extra_tool",
        "app_only_increment",
        "show_counter_app",
        "bump_counter",
        "show_probe_app",
        "show_csp_breaker",
        "show_broken_app",
        "show_noisy_app",
        "show_env_app",
        "secret_model_only",
        "show_openai_widget",
        "widget_increment",
        "show_mcp_ui",
        "show_mcp_ui_url",
    ] {
        assert!(tools.contains_key(name), "missing tool {name}");
    }
    assert!(!tools.contains_key("extra_tool"));

    assert_eq!(
        tools["echo"]["inputSchema"]["properties"]["message"]["type"],
        "string"
    );
    assert_eq!(
        tools["add"]["outputSchema"]["properties"]["sum"]["type"],
        "number"
    );

    let order = &tools["create_order"]["inputSchema"];
    let props = &order["properties"];
    assert_eq!(props["customer"]["type"], "object");
    assert_eq!(props["customer"]["properties"]["email"]["type"], "string");
    assert_eq!(props["customer"]["properties"]["email"]["format"], "email");
    assert_eq!(props["items"]["type"], "array");
    assert_eq!(
        props["items"]["items"]["properties"]["quantity"]["type"],
        "integer"
    );
    assert_eq!(
        props["items"]["items"]["properties"]["quantity"]["minimum"],
        1
    );
    assert_eq!(
        props["shipping"]["enum"],
        json!(["standard", "express", "overnight"])
    );
    assert_eq!(props["shipping"]["default"], "standard");
    assert_eq!(props["gift"]["type"], "boolean");
    assert_eq!(props["gift"]["default"], false);
    let required: Vec<&str> = order["required"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(required.contains(&"customer") && required.contains(&"items"));
    assert!(!required.contains(&"shipping"));
    assert!(tools["create_order"]["outputSchema"].is_object());

    let slow = &tools["slow_task"]["inputSchema"]["properties"];
    assert_eq!(slow["steps"]["default"], 5);
    assert_eq!(slow["step_ms"]["default"], 200);

    let show = &tools["show_counter_app"]["_meta"];
    assert_eq!(show["ui"]["resourceUri"], "ui://mcplab-demo/counter.html");
    assert_eq!(show["ui/resourceUri"], "ui://mcplab-demo/counter.html");
    assert_eq!(
        tools["app_only_increment"]["_meta"]["ui"]["visibility"],
        json!(["app"])
    );
}

#[tokio::test]
async fn tool_calls_return_text_structured_content_and_errors() {
    let (mut client, _) = RawClient::connect(json!({})).await;

    let echo = client.call("echo", json!({ "message": "hi there" })).await;
    assert_eq!(text_of(&echo), "Echo: hi there");

    let add = client.call("add", json!({ "a": 2, "b": 3.5 })).await;
    assert_eq!(add["structuredContent"], json!({ "sum": 5.5 }));
    assert!(text_of(&add).contains("5.5"));
    assert_ne!(add["isError"], true);

    let order = client
        .call(
            "create_order",
            json!({ "customer": { "name": "Ada", "email": "ada@example.com" },
                    "items": [{ "sku": "MUG-01", "quantity": 2 }, { "sku": "TEE-02", "quantity": 1 }] }),
        )
        .await;
    assert_eq!(order["structuredContent"]["shipping"], "standard");
    assert_eq!(order["structuredContent"]["gift"], false);
    assert_eq!(order["structuredContent"]["totalQuantity"], 3);

    let fail = client.call("fail", json!({})).await;
    assert_eq!(fail["isError"], true);
    assert!(!text_of(&fail).is_empty());

    let image = client.call("get_image", json!({})).await;
    assert_eq!(image["content"][1]["type"], "image");
    assert_eq!(image["content"][1]["mimeType"], "image/png");
    let audio = client.call("get_audio", json!({})).await;
    assert_eq!(audio["content"][1]["type"], "audio");
    let link = client.call("get_resource_link", json!({})).await;
    assert_eq!(link["content"][1]["type"], "resource_link");
    assert_eq!(link["content"][1]["uri"], "demo://readme");
    let embedded = client.call("get_embedded_resource", json!({})).await;
    assert_eq!(embedded["content"][0]["type"], "resource");
    assert!(embedded["content"][0]["resource"]["text"].is_string());
}

#[tokio::test]
async fn slow_task_reports_progress_for_each_step() {
    let (mut client, _) = RawClient::connect(json!({})).await;
    let result = client
        .request(
            "tools/call",
            json!({ "name": "slow_task", "arguments": { "steps": 3, "step_ms": 1 },
                    "_meta": { "progressToken": "tok-1" } }),
        )
        .await;
    assert_ne!(result["isError"], true);
    let progress = client.notifications_named("notifications/progress");
    assert_eq!(progress.len(), 3, "{progress:?}");
    for (i, note) in progress.iter().enumerate() {
        assert_eq!(note["params"]["progressToken"], "tok-1");
        assert_eq!(note["params"]["progress"], json!(i as f64 + 1.0));
        assert_eq!(note["params"]["total"], json!(3.0));
        assert!(note["params"]["message"].is_string());
    }
}

#[tokio::test]
async fn slow_task_stops_when_cancelled() {
    let (mut client, _) = RawClient::connect(json!({})).await;
    // Without cancellation this call would run for 1000 s and the guard would fail the test.
    client
        .send(
            json!({ "jsonrpc": "2.0", "id": "slow", "method": "tools/call",
                      "params": { "name": "slow_task",
                                  "arguments": { "steps": 100, "step_ms": 10000 } } }),
        )
        .await;
    client
        .send(
            json!({ "jsonrpc": "2.0", "method": "notifications/cancelled",
                      "params": { "requestId": "slow", "reason": "test" } }),
        )
        .await;
    let log = loop {
        let frame = client.next_frame().await;
        assert_ne!(
            frame.get("id"),
            Some(&json!("slow")),
            "a cancelled request got a response"
        );
        if frame["method"] == "notifications/message" {
            break frame;
        }
    };
    let message = log["params"]["data"]["message"].as_str().unwrap();
    assert!(message.contains("cancelled after 0 of 100"), "{message}");
    // The server keeps serving after the cancellation.
    let echo = client
        .call("echo", json!({ "message": "still here" }))
        .await;
    assert_eq!(text_of(&echo), "Echo: still here");
}

#[tokio::test]
async fn client_requests_round_trip() {
    let (mut client, _) = RawClient::connect(json!({
        "elicitation": { "form": {}, "url": {} }, "sampling": {}, "roots": { "listChanged": true }
    }))
    .await;
    client.answers.insert(
        "elicitation/create",
        json!({ "action": "accept", "content": { "name": "Ada", "color": "blue" } }),
    );
    client.answers.insert(
        "sampling/createMessage",
        json!({ "role": "assistant", "model": "test-model",
                "content": { "type": "text", "text": "Forty-two." } }),
    );
    client.answers.insert(
        "roots/list",
        json!({ "roots": [{ "uri": "file:///work", "name": "work" }] }),
    );

    let form = client.call("elicit_form", json!({})).await;
    assert_eq!(form["structuredContent"]["action"], "accept");
    assert_eq!(form["structuredContent"]["content"]["name"], "Ada");

    let url = client.call("elicit_url", json!({})).await;
    assert_eq!(url["structuredContent"]["action"], "accept");
    assert_eq!(
        client
            .notifications_named("notifications/elicitation/complete")
            .len(),
        1
    );

    let sample = client
        .call(
            "sample_llm",
            json!({ "prompt": "What is six times seven?" }),
        )
        .await;
    assert_eq!(text_of(&sample), "Forty-two.");

    let roots = client.call("list_roots", json!({})).await;
    assert_eq!(
        roots["structuredContent"]["roots"][0]["uri"],
        "file:///work"
    );

    // With no canned answer the client replies with a JSON-RPC error, as when a user declines.
    client.answers.remove("sampling/createMessage");
    let declined = client
        .call("sample_llm", json!({ "prompt": "again" }))
        .await;
    assert_eq!(declined["isError"], true);
}

#[tokio::test]
async fn missing_client_capabilities_give_tool_errors() {
    let (mut client, _) = RawClient::connect(json!({})).await;
    for tool in ["elicit_form", "elicit_url", "sample_llm", "list_roots"] {
        let result = client.call(tool, json!({ "prompt": "x" })).await;
        assert_eq!(result["isError"], true, "{tool}: {result}");
    }
}

#[tokio::test]
async fn logging_respects_set_level() {
    let (mut client, _) = RawClient::connect(json!({})).await;
    client.call("log_all_levels", json!({})).await;
    assert_eq!(client.notifications_named("notifications/message").len(), 8);
    client.notifications.clear();
    client
        .request("logging/setLevel", json!({ "level": "error" }))
        .await;
    client.call("log_all_levels", json!({})).await;
    let levels: Vec<&Value> = client
        .notifications_named("notifications/message")
        .iter()
        .map(|n| &n["params"]["level"])
        .collect();
    assert_eq!(
        levels,
        [
            &json!("error"),
            &json!("critical"),
            &json!("alert"),
            &json!("emergency")
        ]
    );
}

#[tokio::test]
async fn toggling_the_extra_tool_changes_the_list() {
    let (mut client, _) = RawClient::connect(json!({})).await;
    client.call("toggle_extra_tool", json!({})).await;
    assert_eq!(
        client
            .notifications_named("notifications/tools/list_changed")
            .len(),
        1
    );
    let listed = client.request("tools/list", json!({})).await;
    assert!(
        listed["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "extra_tool")
    );
    let extra = client.call("extra_tool", json!({})).await;
    assert!(text_of(&extra).contains("extra_tool"));
    client.call("toggle_extra_tool", json!({})).await;
    let listed = client.request("tools/list", json!({})).await;
    assert!(
        !listed["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "extra_tool")
    );
}

#[tokio::test]
async fn resources_read_templates_and_subscriptions() {
    let (mut client, _) = RawClient::connect(json!({})).await;
    let templates = client.request("resources/templates/list", json!({})).await;
    assert_eq!(
        templates["resourceTemplates"][0]["uriTemplate"],
        "demo://items/{id}"
    );

    let item = client
        .request("resources/read", json!({ "uri": "demo://items/item-7" }))
        .await;
    let contents = &item["contents"][0];
    assert_eq!(contents["uri"], "demo://items/item-7");
    assert_eq!(contents["mimeType"], "application/json");
    let body: Value = serde_json::from_str(contents["text"].as_str().unwrap()).unwrap();
    assert_eq!(body["id"], "item-7");

    let missing = client
        .request_raw("resources/read", json!({ "uri": "demo://items/nope" }))
        .await;
    assert!(missing.get("error").is_some());

    let ui = client
        .request(
            "resources/read",
            json!({ "uri": "ui://mcplab-demo/counter.html" }),
        )
        .await;
    let page = &ui["contents"][0];
    assert_eq!(page["mimeType"], "text/html;profile=mcp-app");
    assert_eq!(page["_meta"]["ui"]["csp"], json!({}));
    assert_eq!(page["_meta"]["ui"]["prefersBorder"], true);
    assert!(page["text"].as_str().unwrap().contains("ui/initialize"));

    let logo = client
        .request("resources/read", json!({ "uri": "demo://logo.png" }))
        .await;
    assert!(logo["contents"][0]["blob"].is_string());

    client
        .request("resources/subscribe", json!({ "uri": "demo://counter" }))
        .await;
    let bumped = client.call("bump_counter", json!({ "by": 2 })).await;
    assert_eq!(bumped["structuredContent"]["count"], 2);
    let updates = client.notifications_named("notifications/resources/updated");
    assert_eq!(updates.len(), 1);
    assert_eq!(updates[0]["params"]["uri"], "demo://counter");
    let counter = client
        .request("resources/read", json!({ "uri": "demo://counter" }))
        .await;
    assert!(
        counter["contents"][0]["text"]
            .as_str()
            .unwrap()
            .contains('2')
    );

    client
        .request("resources/unsubscribe", json!({ "uri": "demo://counter" }))
        .await;
    client.call("app_only_increment", json!({})).await;
    assert_eq!(
        client
            .notifications_named("notifications/resources/updated")
            .len(),
        1
    );
}

#[tokio::test]
async fn completion_filters_by_prefix() {
    let (mut client, _) = RawClient::connect(json!({})).await;
    let items = client
        .request(
            "completion/complete",
            json!({ "ref": { "type": "ref/resource", "uri": "demo://items/{id}" },
                    "argument": { "name": "id", "value": "item-1" } }),
        )
        .await;
    let values = items["completion"]["values"].as_array().unwrap();
    assert_eq!(values.len(), 11);
    assert!(
        values
            .iter()
            .all(|v| v.as_str().unwrap().starts_with("item-1"))
    );

    let languages = client
        .request(
            "completion/complete",
            json!({ "ref": { "type": "ref/prompt", "name": "code_review" },
                    "argument": { "name": "language", "value": "ru" } }),
        )
        .await;
    assert_eq!(languages["completion"]["values"], json!(["ruby", "rust"]));
}

#[tokio::test]
async fn prompts_list_and_get() {
    let (mut client, _) = RawClient::connect(json!({})).await;
    let listed = client.request("prompts/list", json!({})).await;
    let names: Vec<&str> = listed["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert_eq!(names, ["greeting", "code_review"]);
    let greeting = client
        .request(
            "prompts/get",
            json!({ "name": "greeting", "arguments": { "name": "Ada" } }),
        )
        .await;
    assert!(
        greeting["messages"][0]["content"]["text"]
            .as_str()
            .unwrap()
            .contains("Ada")
    );
}

//! The fixture server's UIs as a host sees them, over the in-process connection: the tools'
//! linkage and visibility `_meta` (MCP Apps, OpenAI Apps SDK), the `ui://` resources' MIME
//! types and `_meta`, and the legacy MCP-UI resources embedded in tool results. The pages'
//! behaviour is covered by the browser tests; here only the contract they are served under.

use std::{collections::HashMap, sync::Arc};

use mcplab_mcp::{Connection, ConnectionManager, Listing, ManagerOptions, RequestOptions};
use serde_json::{Value, json};

const MCP_APP: &str = "text/html;profile=mcp-app";

async fn fixture() -> (Arc<ConnectionManager>, Arc<Connection>) {
    let manager = ConnectionManager::new(ManagerOptions::default());
    let (client_io, server_io) = tokio::io::duplex(1 << 16);
    let (sr, sw) = tokio::io::split(server_io);
    tokio::spawn(async move {
        let _ = mcplab_testkit::serve_io(sr, sw).await;
    });
    let (cr, cw) = tokio::io::split(client_io);
    let conn = manager.connect_io("demo", cr, cw).await.expect("connects");
    (manager, conn)
}

async fn call(conn: &Connection, name: &str, args: Value) -> Value {
    conn.request(
        "tools/call",
        Some(json!({ "name": name, "arguments": args })),
        RequestOptions::default(),
    )
    .await
    .unwrap_or_else(|e| panic!("{name} failed: {e}"))
}

async fn tools_by_name(conn: &Connection) -> HashMap<String, Value> {
    let listed = conn
        .list_all(Listing::Tools, RequestOptions::default())
        .await
        .unwrap();
    listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["name"].as_str().unwrap().to_owned(), t.clone()))
        .collect()
}

/// The single content item of `resources/read`.
async fn read(conn: &Connection, uri: &str) -> Value {
    let result = conn
        .request(
            "resources/read",
            Some(json!({ "uri": uri })),
            RequestOptions::default(),
        )
        .await
        .unwrap_or_else(|e| panic!("read {uri}: {e}"));
    let contents = result["contents"].as_array().unwrap();
    assert_eq!(contents.len(), 1, "{uri}: {result}");
    assert_eq!(contents[0]["uri"], uri);
    contents[0].clone()
}

#[tokio::test]
async fn ui_tools_carry_linkage_and_visibility_meta() {
    let (_m, conn) = fixture().await;
    let tools = tools_by_name(&conn).await;

    for (tool, uri) in [
        ("show_counter_app", "ui://mcplab-demo/counter.html"),
        ("show_probe_app", "ui://mcplab-demo/probe.html"),
        ("show_csp_breaker", "ui://mcplab-demo/csp-breaker.html"),
        ("show_broken_app", "ui://mcplab-demo/broken.html"),
        ("show_noisy_app", "ui://mcplab-demo/noisy.html"),
        ("show_env_app", "ui://mcplab-demo/env.html"),
    ] {
        let meta = &tools[tool]["_meta"];
        assert_eq!(meta["ui"]["resourceUri"], uri, "{tool}");
        assert_eq!(meta["ui/resourceUri"], uri, "{tool}");
    }
    let probe = &tools["show_probe_app"]["inputSchema"];
    for arg in ["hostOrigin", "probeUrl", "otherTool"] {
        assert!(probe["properties"][arg].is_object(), "{arg}: {probe}");
    }
    assert!(probe["required"].as_array().is_none_or(Vec::is_empty));
    assert!(tools["show_csp_breaker"]["inputSchema"]["properties"]["probeUrl"].is_object());

    assert_eq!(
        tools["secret_model_only"]["_meta"]["ui"]["visibility"],
        json!(["model"])
    );

    assert_eq!(
        tools["show_openai_widget"]["_meta"],
        json!({
            "openai/outputTemplate": "ui://mcplab-demo/openai-widget.html",
            "openai/widgetAccessible": true,
            "openai/toolInvocation/invoking": "Preparing widget…",
            "openai/toolInvocation/invoked": "Widget ready",
        })
    );
    assert!(tools["show_openai_widget"]["inputSchema"]["properties"]["topic"].is_object());
    assert_eq!(
        tools["widget_increment"]["_meta"],
        json!({ "openai/widgetAccessible": true, "openai/visibility": "private" })
    );
    assert!(tools["echo"]["_meta"]["openai/widgetAccessible"].is_null());

    assert!(tools.contains_key("show_mcp_ui"));
    let url = &tools["show_mcp_ui_url"]["inputSchema"];
    assert_eq!(url["properties"]["url"]["type"], "string");
    assert_eq!(url["required"], json!(["url"]));
}

#[tokio::test]
async fn ui_resources_are_listed_and_read_with_their_meta() {
    let (_m, conn) = fixture().await;
    let listed = conn
        .list_all(Listing::Resources, RequestOptions::default())
        .await
        .unwrap();
    let mimes: HashMap<&str, &str> = listed["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["uri"].as_str().unwrap(), r["mimeType"].as_str().unwrap()))
        .collect();

    let expected = [
        (
            "ui://mcplab-demo/counter.html",
            MCP_APP,
            json!({ "ui": { "csp": {}, "prefersBorder": true } }),
            &[
                "id=\"host-context\"",
                "id=\"display-mode-answer\"",
                "id=\"teardown-state\"",
            ][..],
        ),
        (
            "ui://mcplab-demo/probe.html",
            MCP_APP,
            json!({ "ui": { "csp": { "connectDomains": [] } } }),
            &[
                "id=\"probe-cookie\"",
                "id=\"probe-otherServer\"",
                "id=\"probes-done\"",
            ][..],
        ),
        (
            "ui://mcplab-demo/csp-breaker.html",
            MCP_APP,
            json!({ "ui": { "csp": { "connectDomains": ["https://allowed.example"] } } }),
            &["id=\"fetch-outcome\"", "id=\"img-outcome\""][..],
        ),
        (
            "ui://mcplab-demo/broken.html",
            MCP_APP,
            json!({ "ui": { "csp": {} } }),
            &["throw new Error(\"mcplab-demo broken app"][..],
        ),
        (
            "ui://mcplab-demo/env.html",
            MCP_APP,
            json!({ "ui": { "csp": {} } }),
            &["color-scheme: light dark", "logger: \"env-app\""][..],
        ),
        (
            "ui://mcplab-demo/openai-widget.html",
            "text/html+skybridge",
            json!({
                "openai/widgetCSP": { "connect_domains": [], "resource_domains": [] },
                "openai/widgetPrefersBorder": true,
                "openai/widgetDescription": "A test widget",
            }),
            &[
                "window.openai",
                "openai:set_globals",
                "id=\"call-forbidden\"",
            ][..],
        ),
    ];
    for (uri, mime, meta, markers) in expected {
        assert_eq!(mimes.get(uri), Some(&mime), "{uri} listed");
        let content = read(&conn, uri).await;
        assert_eq!(content["mimeType"], mime, "{uri}");
        assert_eq!(content["_meta"], meta, "{uri}");
        let html = content["text"].as_str().unwrap();
        assert!(html.starts_with("<!doctype html>"), "{uri}");
        for marker in markers {
            assert!(html.contains(marker), "{uri} lacks {marker}");
        }
    }
}

#[tokio::test]
async fn mcp_ui_tools_embed_legacy_resources() {
    let (_m, conn) = fixture().await;
    let result = call(&conn, "show_mcp_ui", json!({})).await;
    let content = result["content"].as_array().unwrap();
    assert_eq!(content.len(), 3, "{result}");
    assert_eq!(content[0]["type"], "text");

    let actions = &content[1];
    assert_eq!(actions["type"], "resource");
    assert_eq!(
        actions["resource"]["uri"],
        "ui://mcplab-demo/mcp-ui/actions"
    );
    assert_eq!(actions["resource"]["mimeType"], "text/html");
    assert_eq!(
        actions["resource"]["_meta"]["mcpui.dev/ui-initial-render-data"],
        json!({ "source": "mcplab-demo" })
    );
    let html = actions["resource"]["text"].as_str().unwrap();
    for id in [
        "act-tool",
        "act-prompt",
        "act-intent",
        "act-link",
        "act-notify",
        "responses",
        "render-data",
    ] {
        assert!(
            html.contains(&format!("id=\"{id}\"")),
            "actions page lacks #{id}"
        );
    }

    let remote = &content[2];
    assert_eq!(remote["type"], "resource");
    assert_eq!(
        remote["resource"]["uri"],
        "ui://mcplab-demo/mcp-ui/remote-dom"
    );
    assert_eq!(
        remote["resource"]["mimeType"],
        "application/vnd.mcp-ui.remote-dom+javascript; framework=react"
    );
    let script = remote["resource"]["text"].as_str().unwrap();
    for marker in [
        "\"ui-text\"",
        "\"ui-button\"",
        "\"press\"",
        "Remote DOM says hi",
    ] {
        assert!(script.contains(marker), "remote DOM script lacks {marker}");
    }

    let url = "http://127.0.0.1:9/page";
    let result = call(&conn, "show_mcp_ui_url", json!({ "url": url })).await;
    let embedded = &result["content"][1]["resource"];
    assert_eq!(embedded["uri"], "ui://mcplab-demo/mcp-ui/url");
    assert_eq!(embedded["mimeType"], "text/uri-list");
    assert_eq!(embedded["text"], url);
}

#[tokio::test]
async fn widget_and_probe_tools_answer() {
    let (_m, conn) = fixture().await;
    let widget = call(&conn, "show_openai_widget", json!({ "topic": "otters" })).await;
    assert_eq!(
        widget["structuredContent"],
        json!({ "topic": "otters", "items": ["alpha", "beta"] })
    );
    assert_eq!(widget["_meta"]["mcplab/secret"], "for the widget only");
    let default = call(&conn, "show_openai_widget", json!({})).await;
    assert_eq!(default["structuredContent"]["topic"], "mcplab");

    let first = call(&conn, "widget_increment", json!({})).await;
    let second = call(&conn, "widget_increment", json!({})).await;
    assert_eq!(first["structuredContent"]["count"], 1);
    assert_eq!(second["structuredContent"]["count"], 2);

    let secret = call(&conn, "secret_model_only", json!({})).await;
    assert_eq!(secret["content"][0]["text"], "model-only secret");

    let args = json!({ "hostOrigin": "http://127.0.0.1:1", "probeUrl": "http://127.0.0.1:2" });
    let probe = call(&conn, "show_probe_app", args.clone()).await;
    assert_eq!(probe["structuredContent"], args);
    let breaker = call(&conn, "show_csp_breaker", json!({})).await;
    assert_ne!(breaker["isError"], true);
}

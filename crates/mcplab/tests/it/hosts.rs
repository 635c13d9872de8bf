//! `mcplab hosts` and `/api/hosts`: the built-in profiles listed, shown and compared with their
//! sources, a person's own profile read from the data directory, a malformed one named with its
//! file and line (exit 2 / 400), and an unknown name refused with the names there are.

use std::process::Command;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use mcplab_server::router;
use serde_json::Value;
use tower::ServiceExt;

use crate::router_support::{TOKEN, authed, state};

const BIN: &str = env!("CARGO_BIN_EXE_mcplab");

fn hosts(data: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let o = Command::new(BIN)
        .arg("hosts")
        .args(args)
        .env("MCPLAB_DATA_DIR", data)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn the_cli_lists_shows_diffs_and_exports_profiles() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = hosts(dir.path(), &["list", "--json"]);
    assert_eq!(code, 0, "{err}");
    let list: Vec<Value> = serde_json::from_str(&out).unwrap();
    let names: Vec<_> = list.iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["mcplab", "claude", "chatgpt", "vscode", "cursor", "goose"]
    );

    let (code, out, _) = hosts(dir.path(), &["diff", "claude", "chatgpt", "--json"]);
    assert_eq!(code, 0);
    let diff: Vec<Value> = serde_json::from_str(&out).unwrap();
    let sc = diff
        .iter()
        .find(|d| d["field"] == "toolResults.structuredContent")
        .unwrap();
    assert_eq!(
        (sc["a"].as_str(), sc["b"].as_str()),
        (Some("whenNoText"), Some("always"))
    );
    assert_eq!(sc["sourceA"], "unknown");
    assert!(
        sc["sourceB"]["url"]
            .as_str()
            .unwrap()
            .starts_with("https://developers.openai.com/")
    );

    let (code, out, _) = hosts(dir.path(), &["show", "cursor"]);
    assert_eq!(code, 0);
    assert!(out.contains("toolCatalog.maxTools = 40"), "{out}");
    assert!(out.contains("forum.cursor.com"), "{out}");

    // An export saved under another name is a profile of the person's own.
    let (code, exported, _) = hosts(dir.path(), &["export", "vscode"]);
    assert_eq!(code, 0);
    let mut mine: Value = serde_json::from_str(&exported).unwrap();
    mine["name"] = "my-vscode".into();
    mine["toolCatalog"]["maxTools"] = 5.into();
    std::fs::create_dir(dir.path().join("hosts")).unwrap();
    let text = serde_json::to_string_pretty(&mine).unwrap();
    std::fs::write(dir.path().join("hosts/my-vscode.json"), text).unwrap();
    let (code, out, err) = hosts(dir.path(), &["diff", "vscode", "my-vscode"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("1 fields differ") && out.contains("toolCatalog.maxTools"),
        "{out}"
    );

    // A malformed file is left out with a warning naming its line; the others still list
    // (security review 3, N9: one bad file hid every profile).
    std::fs::write(
        dir.path().join("hosts/bad.json"),
        "{\n  \"name\": \"bad\",\n  \"stepLimt\": 3\n}",
    )
    .unwrap();
    let (code, out, err) = hosts(dir.path(), &["list"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning") && err.contains("bad.json:3") && err.contains("stepLimt"),
        "{err}"
    );
    assert!(out.contains("my-vscode") && !out.contains("bad "), "{out}");
    std::fs::remove_file(dir.path().join("hosts/bad.json")).unwrap();
    let (code, _, err) = hosts(dir.path(), &["show", "claud"]);
    assert_eq!(code, 2);
    assert!(err.contains("there are: mcplab, claude"), "{err}");
}

#[tokio::test]
async fn the_api_lists_profiles_and_what_differs() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("mine.json"),
        r#"{"name": "mine", "approval": {"mode": "always"}}"#,
    )
    .unwrap();
    let state = state();
    state.hosts_dir.set(dir.path().to_owned()).unwrap();
    let app = router(state);
    let (status, list) = authed(&app, "GET", "/api/hosts", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list.as_array().unwrap().len(), 7, "six built in and mine");
    let (status, view) = authed(&app, "GET", "/api/hosts/chatgpt", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(view["against"], "mcplab");
    let fields: Vec<_> = view["diff"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["field"].as_str().unwrap())
        .collect();
    assert!(fields.contains(&"appHost.windowOpenai"), "{fields:?}");
    let (_, view) = authed(&app, "GET", "/api/hosts/mine?against=claude", None).await;
    assert_eq!(view["against"], "claude");
    let (status, body) = authed(&app, "GET", "/api/hosts/nope", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
}

/// `chat --compare --host A --host B`: one model, one column per host; what each column's
/// model got back from `add` follows its host (judged on the scripted LLM's request log).
#[tokio::test]
async fn compare_runs_one_model_under_two_hosts() {
    use mcplab_testkit::llm::{Rule, Rules, ScriptedCall, ScriptedLlm, Step};
    let llm = ScriptedLlm::start_with_rules(Rules::new(vec![Rule::when(
        "2 and 40",
        vec![
            Step::call_tools([ScriptedCall::new(
                "c1",
                "cli__add",
                serde_json::json!({"a": 2, "b": 40}),
            )]),
            Step::reply(["42."]),
        ],
    )]))
    .await;
    let dir = tempfile::tempdir().unwrap();
    let run = tokio::process::Command::new(BIN)
        .args([
            "chat",
            "--demo",
            "--compare",
            "--host",
            "mcplab",
            "--host",
            "chatgpt",
        ])
        .args(["-m", "openai::gpt-4o-mini", "add 2 and 40"])
        .env("MCPLAB_DATA_DIR", dir.path())
        .env_remove("MCPLAB_MODEL")
        .env("OPENAI_BASE_URL", llm.base_url())
        .env("OPENAI_API_KEY", "sk-test")
        .env("NO_PROXY", "127.0.0.1")
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true)
        .output();
    let o = tokio::time::timeout(std::time::Duration::from_secs(60), run)
        .await
        .expect("the compare ends in time")
        .unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert_eq!(o.status.code(), Some(0), "{err}\n{out}");
    assert!(
        out.contains("1 openai::gpt-4o-mini @ mcplab")
            && out.contains("2 openai::gpt-4o-mini @ chatgpt"),
        "{out}"
    );
    let fed_back: Vec<String> = llm
        .requests()
        .iter()
        .filter_map(|r| {
            let messages = r.body["messages"].as_array()?;
            messages
                .iter()
                .find(|m| m["role"] == "tool")
                .map(|m| m["content"].to_string())
        })
        .collect();
    assert_eq!(fed_back.len(), 2, "{fed_back:?}");
    assert_eq!(
        fed_back.iter().filter(|t| t.contains("sum\\\":42")).count(),
        1,
        "only the chatgpt column's model sees structuredContent: {fed_back:?}"
    );
}

/// The capabilities and revision of every `initialize` the server `name` was sent, in order.
async fn initializes(app: &axum::Router, name: &str) -> Vec<Value> {
    let (_, traffic) = authed(app, "GET", &format!("/api/servers/{name}/traffic"), None).await;
    traffic["frames"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["direction"] == "outbound")
        .filter_map(|f| serde_json::from_str::<Value>(f["text"].as_str()?).ok())
        .filter(|v| v["method"] == "initialize")
        .map(|v| v["params"].clone())
        .collect()
}

/// The web's servers are shared by every session: `POST /connect {host}` connects one "as" a
/// host profile. The demo server (a child process) is then sent that profile's revision and
/// capabilities, the view says which declaration it runs with, a reconnect keeps it, and
/// `host: null` goes back to mcplab's own.
#[tokio::test]
async fn a_server_can_be_connected_as_a_host() {
    use mcplab_core::session::profiles::HostProfiles;
    use mcplab_mcp::modern::declared_capabilities;
    let state = state();
    let app = router(state.clone());
    let demo = serde_json::json!({"name": "demo", "type": "stdio", "command": BIN, "args": ["demo-server"]});
    let (status, _) = authed(&app, "POST", "/api/servers", Some(demo)).await;
    assert_eq!(status, StatusCode::CREATED);
    let claude = HostProfiles::builtin()
        .unwrap()
        .get("claude")
        .unwrap()
        .host_config
        .client
        .clone();

    let connect = serde_json::json!({"host": "claude"});
    let (status, view) = authed(&app, "POST", "/api/servers/demo/connect", Some(connect)).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["status"]["state"], "connected", "{view}");
    assert_eq!(view["connectedAs"], "claude");
    let sent = initializes(&app, "demo").await;
    assert_eq!(sent.len(), 1, "{sent:#?}");
    assert_eq!(sent[0]["capabilities"], declared_capabilities(&claude));
    assert_eq!(sent[0]["protocolVersion"], claude.protocol.as_str());

    let (_, view) = authed(&app, "POST", "/api/servers/demo/reconnect", None).await;
    assert_eq!(
        view["connectedAs"], "claude",
        "a reconnect keeps the declaration"
    );
    let sent = initializes(&app, "demo").await;
    assert_eq!(sent[1]["capabilities"], declared_capabilities(&claude));

    let own = serde_json::json!({"host": null});
    let (_, view) = authed(&app, "POST", "/api/servers/demo/connect", Some(own)).await;
    assert!(view.get("connectedAs").is_none(), "{view}");
    // mcplab's own `auto` speaks 2026-07-28 to the demo server: no `initialize`, the
    // capabilities ride in each request's `_meta`.
    let (_, traffic) = authed(&app, "GET", "/api/servers/demo/traffic", None).await;
    let last = traffic["frames"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .filter(|f| f["direction"] == "outbound")
        .filter_map(|f| serde_json::from_str::<Value>(f["text"].as_str()?).ok())
        .find_map(|v| {
            let meta = &v["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"];
            let init = &v["params"]["capabilities"];
            [meta, init].into_iter().find(|c| !c.is_null()).cloned()
        });
    assert_eq!(last, Some(declared_capabilities(&Default::default())));

    let nope = serde_json::json!({"host": "nope"});
    let (status, body) = authed(&app, "POST", "/api/servers/demo/connect", Some(nope)).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let bad = serde_json::json!({"host": 3});
    let (status, body) = authed(&app, "POST", "/api/servers/demo/connect", Some(bad)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");

    // A JSON content type with an empty body (what `fetch` with a default JSON header sends)
    // is a plain connect, not a parse error.
    let req = Request::builder()
        .method("POST")
        .uri("/api/servers/demo/connect")
        .header(header::HOST, "127.0.0.1:6274")
        .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::empty())
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    state.manager.shutdown().await;
}

//! `hosts:` in an eval suite (issue 18): each case runs on each model under each host profile,
//! the matrix columns read `model @ host`, and what each iteration's model received follows
//! its host — judged on the scripted LLM's logged requests, with the demo server as a child
//! process.

use std::time::Duration;

use mcplab_testkit::llm::{Rule, Rules, ScriptedCall, ScriptedLlm, Step};
use serde_json::{Value, json};

use crate::eval_support::{self, good};

const BIN: &str = env!("CARGO_BIN_EXE_mcplab");

#[tokio::test]
async fn a_suite_runs_each_case_under_each_host() {
    let llm = ScriptedLlm::start_with_rules(Rules::new(vec![good("gpt-4o-mini", "c")])).await;
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite.yaml");
    let text = format!(
        "version: 1\nid: hosts-matrix\nmcpServers:\n  demo:\n    command: {BIN}\n    args: [demo-server]\n\
         models: [openai::gpt-4o-mini]\nhosts: [mcplab, chatgpt]\ncases:\n  - id: add\n    \
         turns: [What is 2 + 40? Use the add tool.]\n    toolCalls:\n      expected:\n        \
         - {{ tool: add, arguments: {{ a: 2, b: 40 }} }}\n"
    );
    std::fs::write(&suite, text).unwrap();
    let run = eval_support::eval(
        Some(&llm),
        dir.path(),
        &["run", suite.to_str().unwrap(), "--json"],
    );
    let o = eval_support::output(run).await;
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    let events: Vec<Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(events[0]["planned"], 2, "case × model × host");
    let summary = &events.iter().find(|e| e["type"] == "runFinished").unwrap()["summary"];
    let columns: Vec<&str> = summary["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["model"].as_str().unwrap())
        .collect();
    assert_eq!(
        columns,
        [
            "openai::gpt-4o-mini @ mcplab",
            "openai::gpt-4o-mini @ chatgpt"
        ],
        "{summary:#}"
    );
    // What the model got back from `add` follows each host: ChatGPT reads structuredContent.
    let fed_back: Vec<String> = llm
        .requests()
        .iter()
        .filter_map(|r| {
            r.body["messages"]
                .as_array()?
                .iter()
                .find(|m| m["role"] == "tool")
                .map(|m| m["content"].to_string())
        })
        .collect();
    assert_eq!(fed_back.len(), 2, "one tool result per host: {fed_back:?}");
    assert_eq!(
        fed_back.iter().filter(|t| t.contains("sum\\\":42")).count(),
        1,
        "only the chatgpt iteration sees structuredContent: {fed_back:?}"
    );
}

/// Progress nobody reads.
struct Quiet;
impl mcplab_evalrun::RunSink for Quiet {
    fn event(&self, _: &mcplab_evals::report::RunEvent) {}
}

/// A two-host suite connects the demo server once per host declaration: the `initialize`
/// frames the server was sent (the run manager's traffic log, shared with the per-host
/// connections) carry each host's capabilities and revision. Before this, both hosts'
/// iterations ran on one connection that declared mcplab's own capabilities.
#[tokio::test]
async fn each_host_declares_its_own_capabilities_to_the_servers() {
    use mcplab_core::session::profiles::HostProfiles;
    use mcplab_mcp::modern::declared_capabilities;
    use mcplab_mcp::{ConnectionManager, ManagerOptions};

    let llm = ScriptedLlm::start_with_rules(Rules::new(vec![Rule::when(
        "hi",
        vec![Step::reply(["hello"])],
    )]))
    .await;
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "version: 1\nid: declared\nmcpServers:\n  demo:\n    command: {BIN}\n    args: [demo-server]\n\
         models: [openai::gpt-4o-mini]\nhosts: [chatgpt, claude]\ncases:\n  - id: hi\n    turns: [hi]\n"
    );
    let store =
        std::sync::Arc::new(mcplab_store::Store::open(&dir.path().join("mcplab.db")).unwrap());
    let file = mcplab_evalrun::SuiteText { text, path: None };
    let prepared = mcplab_evalrun::prepare(&file, &store, &Default::default()).unwrap();
    let manager = ConnectionManager::new(ManagerOptions {
        client: mcplab_evalrun::first_declaration(&prepared),
        ..ManagerOptions::default()
    });
    let env: std::collections::HashMap<String, String> = [
        ("OPENAI_BASE_URL".to_owned(), llm.base_url()),
        ("OPENAI_API_KEY".to_owned(), "sk-test".to_owned()),
    ]
    .into();
    let run_env = mcplab_evalrun::RunEnv {
        store,
        manager: manager.clone(),
        providers: mcplab_llm::ProviderSettings::from_vars(&env),
        http: mcplab_net::tls::client(),
        prices: mcplab_llm::prices::PriceTable::shipped().unwrap(),
        renderer: Err("no renderer in this test".into()),
    };
    let spec = mcplab_evalrun::RunSpec::new(prepared);
    let run = mcplab_evalrun::run(
        spec,
        run_env,
        std::sync::Arc::new(Quiet),
        Default::default(),
    );
    let outcome = tokio::time::timeout(Duration::from_secs(120), run)
        .await
        .expect("the run ends in time")
        .unwrap();
    assert_eq!(outcome.record.iterations.len(), 2);
    let sent: Vec<Value> = manager
        .traffic()
        .snapshot("demo")
        .frames
        .iter()
        .filter(|f| f.direction == mcplab_protocol::Direction::Outbound)
        .filter_map(|f| serde_json::from_str::<Value>(&f.text).ok())
        .filter(|v| v["method"] == "initialize")
        .map(|v| v["params"].clone())
        .collect();
    let profiles = HostProfiles::builtin().unwrap();
    for host in ["chatgpt", "claude"] {
        let client = &profiles.get(host).unwrap().host_config.client;
        let expected = declared_capabilities(client);
        assert!(
            sent.iter().any(|p| p["capabilities"] == expected
                && p["protocolVersion"] == client.protocol.as_str()),
            "no initialize declared {host}'s {expected}: {sent:#?}"
        );
    }
    assert_eq!(sent.len(), 2, "one connection per declaration: {sent:#?}");
}

/// `hosts:` may name the person's own profile (`<data dir>/hosts/NAME.json`), as `chat --host`
/// does: its structuredContent rule reaches the model (the scripted LLM's log).
#[tokio::test]
async fn a_suite_runs_under_the_persons_own_profile() {
    let llm = ScriptedLlm::start_with_rules(Rules::new(vec![good("gpt-4o-mini", "c")])).await;
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("hosts")).unwrap();
    std::fs::write(
        dir.path().join("hosts/mine.json"),
        r#"{"name": "mine", "toolResults": {"structuredContent": "always"}}"#,
    )
    .unwrap();
    let suite = dir.path().join("suite.yaml");
    let text = format!(
        "version: 1\nid: own-host\nmcpServers:\n  demo:\n    command: {BIN}\n    args: [demo-server]\n\
         models: [openai::gpt-4o-mini]\nhosts: [mine]\ncases:\n  - id: add\n    \
         turns: [What is 2 + 40? Use the add tool.]\n"
    );
    std::fs::write(&suite, text).unwrap();
    let run = eval_support::eval(
        Some(&llm),
        dir.path(),
        &["run", suite.to_str().unwrap(), "--json"],
    );
    let o = eval_support::output(run).await;
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let fed_back: Vec<String> = llm
        .requests()
        .iter()
        .filter_map(|r| {
            let messages = r.body["messages"].as_array()?;
            let tool = messages.iter().find(|m| m["role"] == "tool")?;
            Some(tool["content"].to_string())
        })
        .collect();
    assert_eq!(fed_back.len(), 1, "{fed_back:?}");
    assert!(fed_back[0].contains("sum\\\":42"), "{fed_back:?}");
}

/// An `appRendered` check under two hosts renders each cell's app through that host's own
/// connection: the demo server's read log (one line per `resources/read`, with the
/// `initialize` of the connection that sent it) shows the `ui://` read of the Claude cell on a
/// connection declaring Claude's capabilities (no elicitation) and the ChatGPT cell's on one
/// declaring ChatGPT's (form elicitation). Before, every render read through the first host's
/// connection. Real Chromium renders the real render page (`web/dist`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_hosts_app_is_read_through_its_own_connection() {
    let chromium = std::env::var("MCPLAB_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    assert!(
        std::path::Path::new(&chromium).is_file(),
        "this test needs Chromium at {chromium} (apt-get install chromium)"
    );
    let llm = ScriptedLlm::start_with_rules(Rules::new(vec![Rule::when(
        "counter",
        vec![
            Step::call_tools([ScriptedCall::new("c1", "demo__show_counter_app", json!({}))]),
            Step::reply(["Here it is."]),
        ],
    )]))
    .await;
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("reads.jsonl");
    let suite = dir.path().join("suite.yaml");
    let text = format!(
        "version: 1\nid: render-hosts\nmcpServers:\n  demo:\n    command: {BIN}\n    \
         args: [demo-server, --read-log, {}]\nmodels: [openai::gpt-4o-mini]\n\
         hosts: [claude, chatgpt]\nconcurrency: 1\ncases:\n  - id: app\n    \
         turns: [Show the counter.]\n    checks: [appRendered: {{}}]\n",
        log.display()
    );
    std::fs::write(&suite, text).unwrap();
    let run = eval_support::eval(
        Some(&llm),
        dir.path(),
        &[
            "run",
            suite.to_str().unwrap(),
            "--json",
            "--chromium",
            &chromium,
        ],
    );
    let o = eval_support::output(run).await;
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{stderr}\n{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let reads: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|r: &Value| r["uri"].as_str().is_some_and(|u| u.starts_with("ui://")))
        .collect();
    let declares_elicitation: Vec<bool> = reads
        .iter()
        .map(|r| r["client"]["capabilities"].get("elicitation").is_some())
        .collect();
    assert!(
        declares_elicitation.contains(&true) && declares_elicitation.contains(&false),
        "one cell's app was read on Claude's connection (no elicitation), the other's on \
         ChatGPT's (elicitation): {reads:#?}"
    );
}

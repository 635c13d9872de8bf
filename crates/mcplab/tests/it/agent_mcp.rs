//! `mcplab mcp` (issue 25) driven end to end by independently written clients: the official
//! Python SDK 1.x (the handshake era, 2025-11-25) and 2.x (which negotiates 2026-07-28 with
//! `server/discover`), through `tests/python/agent_client.py` — connect the demo server, call a
//! tool with progress, read its notifications, have its sampling request answered by the
//! agent's own client, lint it with `check`, restart it, a refused command, both eras of the
//! server under test, and no process left when the client goes away; `render_app` with real
//! Chromium (the PNG as the client decoded it); `eval_run` against the scripted LLM (failing
//! traces, progress, a cancelled run stored as cancelled); `--timeout` and `--limit`; `--attach`
//! (the agent's frames in a running `mcplab serve`'s traffic, as the agent's; the person's call
//! there in the agent's `traffic`, as the person's, and a cursor). Judged by
//! what the demo server answered, the stored runs and `/proc`, not by mcplab's own verdicts.
//! Needs tests/python/setup.sh (feature `peer-tests`) and Chromium.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::peer_support::{BIN, python, repo};

fn script() -> PathBuf {
    repo().join("tests/python/agent_client.py")
}

/// Runs the client with SDK `major` in `scenario`; its JSON output.
fn client(major: u8, data: &std::path::Path, scenario: &str) -> Value {
    client_with(major, data, scenario, &[])
}

/// [`client`], with more `mcplab mcp` arguments.
fn client_with(major: u8, data: &std::path::Path, scenario: &str, extra: &[&str]) -> Value {
    let out = Command::new(python(major))
        .arg(script())
        .args([BIN, &data.display().to_string(), scenario])
        .args(extra)
        .output()
        .expect("python runs");
    reported(&out, scenario)
}

/// What agent_client.py reported on its last line, once it succeeded in `scenario`.
fn reported(out: &std::process::Output, scenario: &str) -> Value {
    assert!(
        out.status.success(),
        "agent_client.py {scenario} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or_default();
    serde_json::from_str(last).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// What every session must show, whichever era the client speaks.
fn assert_session(out: &Value, data: &std::path::Path) {
    let tools = out["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 17, "{tools:?}");
    assert_eq!(out["withOutputSchema"], 17);
    // The whole tools/list, as the client parsed it, by `mcplab check`'s estimate.
    let tokens = out["toolListBytes"].as_u64().unwrap() / 4;
    assert!(tokens < 3000, "tools/list costs about {tokens} tokens");

    let refused = &out["refused"];
    assert_eq!(refused["isError"], true);
    assert!(
        refused["text"]
            .as_str()
            .unwrap()
            .contains("--allow-command")
    );
    assert!(!data.join("pwned").exists(), "the refused command ran");

    assert_eq!(out["connect"]["structured"]["protocol"], "2025-11-25");
    let echoed = &out["echo"]["structured"]["result"]["content"][0]["text"];
    assert_eq!(echoed, "Echo: hi there");
    let progress = out["progress"].as_array().unwrap();
    assert_eq!(progress.len(), 3, "{progress:?}");
    assert_eq!(progress[2][2], "Step 3 of 3");

    let events = out["notifications"]["structured"]["events"]
        .as_array()
        .unwrap();
    let logs = events.iter().filter(|e| e["type"] == "log").count();
    assert_eq!(logs, 8, "{events:?}");

    // elicit_form's request, forwarded to the client (policy `auto`, then `forward`), was
    // answered by its elicitation callback: servers of both eras saw the client's answer.
    for key in ["elicited", "elicited26"] {
        let result = &out[key]["structured"]["result"];
        assert_eq!(result["isError"], false, "{key}: {result:#}");
        let text = result["content"][0]["text"].as_str().unwrap_or_default();
        assert!(
            text.contains("accepted") && text.contains("Ada"),
            "{key}: {result:#}"
        );
    }
    // elicit_form was asked after `policy {elicitation: decline}`: the server saw a decline.
    let declined = out["declined"]["structured"]["result"]["content"][0]["text"].as_str();
    assert_eq!(declined, Some("The user declined."));
    let frames = out["traffic"]["structured"]["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 4);
    assert!(
        frames
            .iter()
            .all(|f| f["text"].as_str().unwrap().contains("jsonrpc"))
    );
    assert_eq!(out["restart"]["isError"], false);
    assert!(
        out["restart"]["text"]
            .as_str()
            .unwrap()
            .contains("nothing changed")
    );
    assert_eq!(out["check"]["structured"]["counts"]["error"], 0);
    assert!(out["hosts"]["structured"]["diff"].as_array().unwrap().len() > 1);
    assert_eq!(out["modern"]["structured"]["protocol"], "2026-07-28");
    let echoed = &out["echo26"]["structured"]["result"]["content"][0]["text"];
    assert_eq!(echoed, "Echo: new era");
    assert_eq!(out["afterDisconnect"]["isError"], true);
}

/// The demo server's sample_llm got the answer the agent's client wrote.
fn assert_sampled(out: &Value) {
    let sampled = &out["sampled"]["structured"]["result"];
    assert_eq!(sampled["isError"], false, "{sampled}");
    let text = sampled["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("agent model says: 2+2?"), "{text}");
}

fn data_dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temp dir")
}

#[test]
fn the_python_sdk_1_drives_a_session_and_answers_the_servers_sampling() {
    let data = data_dir();
    let out = client(1, data.path(), "session");
    assert_eq!(out["protocol"], "2025-11-25");
    assert_session(&out, data.path());
    assert_sampled(&out);
}

#[test]
fn the_python_sdk_2_drives_a_session_in_2026_07_28() {
    let data = data_dir();
    let out = client(2, data.path(), "session");
    assert_eq!(out["protocol"], "2026-07-28");
    assert_session(&out, data.path());
    // 2026-07-28 lets no server ask its client outside input_required: the request went back
    // in the call's `input_required` result, and the SDK's retry carried the client's answer.
    assert_sampled(&out);
}

fn chromium() -> String {
    let path = std::env::var("MCPLAB_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    assert!(
        std::path::Path::new(&path).is_file(),
        "this test needs Chromium at {path} (apt-get install chromium)"
    );
    path
}

/// The PNG's width and height from its first 24 bytes (signature, IHDR length and type, size).
fn png_head(hex: &str) -> (u32, u32) {
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    assert_eq!(bytes[..8], *b"\x89PNG\r\n\x1a\n", "not a PNG: {hex}");
    assert_eq!(bytes[12..16], *b"IHDR", "no IHDR first: {hex}");
    let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

#[test]
fn render_app_returns_the_apps_png_as_image_content() {
    let data = data_dir();
    let c = chromium();
    let out = client_with(1, data.path(), "render", &["--chromium", &c]);
    let render = &out["render"];
    assert_eq!(render["isError"], false, "{render:#}");
    // The image as the client decoded it: a PNG of a phone's width, not a blank stub.
    let images = render["images"].as_array().unwrap();
    assert_eq!(images.len(), 1, "{render:#}");
    assert_eq!(images[0]["mimeType"], "image/png");
    let (w, h) = png_head(images[0]["head"].as_str().unwrap());
    assert_eq!(w, 430, "the mobile device's width");
    assert!((100..=932).contains(&h), "height {h}");
    assert!(images[0]["bytes"].as_u64().unwrap() > 2_000, "{images:?}");

    let s = &render["structured"];
    assert_eq!(s["initialized"], true, "{s:#}");
    assert_eq!(s["png"]["width"], 430);
    assert!(s["readyMs"].as_f64().unwrap() > 0.0, "{s:#}");
    let bridge: Vec<&str> = s["bridge"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["method"].as_str())
        .collect();
    assert!(bridge.contains(&"ui/initialize"), "{bridge:?}");
    assert!(
        bridge.contains(&"ui/notifications/initialized"),
        "{bridge:?}"
    );
    assert_eq!(s["consoleErrors"], serde_json::json!([]), "{s:#}");
    assert!(!out["progress"].as_array().unwrap().is_empty());

    let no_ui = &out["noUi"];
    assert_eq!(no_ui["isError"], true);
    assert!(
        no_ui["text"].as_str().unwrap().contains("has no UI"),
        "{no_ui}"
    );
}

/// `true` while `pid` exists (a zombie counts as gone: it no longer runs).
pub(crate) fn alive(pid: u64) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| {
            !s.rsplit(')')
                .next()
                .unwrap_or_default()
                .trim_start()
                .starts_with('Z')
        })
        .unwrap_or(false)
}

#[test]
fn nothing_outlives_mcplab_mcp_when_its_client_goes_away() {
    let data = data_dir();
    for major in [1, 2] {
        let out = client(major, data.path(), "vanish");
        let pids = [&out["demoPid"], &out["mcplabPid"]].map(|p| p.as_u64().unwrap());
        let deadline = Instant::now() + Duration::from_secs(20);
        while pids.iter().any(|p| alive(*p)) {
            assert!(
                Instant::now() < deadline,
                "SDK {major}.x: still running after the client left: {pids:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// The eval scenario with SDK `major`: the suite file, a suite whose server is not allowed,
/// and models on the scripted LLM.
async fn eval_session(major: u8) -> Value {
    use crate::eval_support::{ADD_CASE, call, good, suite, suite_with};
    use mcplab_testkit::llm::{Rule, Rules, ScriptedLlm, Step};

    let hangs = good("gpt-hangs", "h").or(vec![Step::reply(["42"]).slow(120_000)]);
    let wrong = Rule::when(
        "2 + 40",
        vec![
            call("w1", "demo__echo", serde_json::json!({"message": "2 + 40"})),
            Step::reply(["It is 42."]),
        ],
    )
    .for_model("gpt-wrong");
    let rules = Rules::new(vec![good("gpt-good", "g"), wrong, hangs]);
    let llm = ScriptedLlm::start_with_rules(rules).await;
    let dir = data_dir();
    let path = suite(dir.path(), &format!("concurrency: 1\n{ADD_CASE}"));
    let bad = suite_with(dir.path(), "bad.yaml", "/bin/touch", ADD_CASE);
    let mut cmd = tokio::process::Command::new(python(major));
    cmd.arg(script())
        .args([BIN, &dir.path().display().to_string(), "eval"])
        .env("AGENT_SUITE", &path)
        .env("AGENT_BAD_SUITE", &bad)
        .env("OPENAI_BASE_URL", llm.base_url())
        .env("OPENAI_API_KEY", "sk-test")
        .env("NO_PROXY", "127.0.0.1")
        .kill_on_drop(true);
    let out = tokio::time::timeout(Duration::from_secs(180), cmd.output())
        .await
        .expect("the eval scenario ends")
        .expect("python runs");
    reported(&out, "eval")
}

fn assert_eval(out: &Value) {
    let r = &out["eval"];
    assert_eq!(r["isError"], false, "{r:#}");
    let s = &r["structured"];
    assert_eq!(s["verdict"], "fail", "{s:#}");
    assert_eq!(
        (s["planned"].as_u64(), s["finished"].as_u64()),
        (Some(4), Some(4))
    );
    let cells = s["cells"].as_array().unwrap();
    let passes = |m: &str| {
        let c = cells.iter().find(|c| c["model"] == m).unwrap();
        (c["passes"].as_u64().unwrap(), c["n"].as_u64().unwrap())
    };
    assert_eq!(passes("openai::gpt-good"), (2, 2), "{cells:?}");
    assert_eq!(passes("openai::gpt-wrong"), (0, 2), "{cells:?}");
    // The failing iterations say why, with the trace of what the model did.
    let failing = s["failing"].as_array().unwrap();
    assert_eq!(failing.len(), 2, "{failing:?}");
    for f in failing {
        assert_eq!(f["model"], "openai::gpt-wrong");
        assert!(!f["why"].as_array().unwrap().is_empty(), "{f}");
        assert!(f["trace"].to_string().contains("demo__echo"), "{f}");
    }
    assert!(r["text"].as_str().unwrap().contains("fail"), "{r}");
    // One progress notification per iteration, of the planned four.
    let progress = out["evalProgress"].as_array().unwrap();
    assert_eq!(progress.len(), 4, "{progress:?}");
    assert!(progress.iter().all(|p| p[1] == 4.0), "{progress:?}");
    assert_eq!(progress[3][0], 4.0);

    let refused = &out["refused"];
    assert_eq!(refused["isError"], true);
    assert!(
        refused["text"]
            .as_str()
            .unwrap()
            .contains("--allow-command"),
        "{refused}"
    );

    // The cancelled run is stored as cancelled (not left hanging at the model for minutes),
    // next to the finished one.
    let runs = out["cancelled"]["runs"]
        .as_array()
        .unwrap_or_else(|| panic!("the run was not stored as ended: {}", out["cancelled"]));
    let mut statuses: Vec<&str> = runs.iter().filter_map(|r| r["status"].as_str()).collect();
    statuses.sort_unstable();
    assert_eq!(statuses, ["cancelled", "finished"], "{runs:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eval_run_reports_failing_traces_and_progress_and_stops_when_cancelled_sdk_1() {
    assert_eval(&eval_session(1).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eval_run_reports_failing_traces_and_progress_and_stops_when_cancelled_sdk_2() {
    assert_eval(&eval_session(2).await);
}

#[test]
fn timeout_and_limit_bound_the_servers_under_test() {
    let data = data_dir();
    let flags = [
        "--timeout",
        "1",
        "--connect-timeout",
        "60",
        "--limit",
        "message=4KiB",
    ];
    let out = client_with(1, data.path(), "limits", &flags);
    assert_eq!(out["connect"]["isError"], false, "{:#}", out["connect"]);
    // slow_task takes three seconds and sends no progress (none was asked for).
    let slow = &out["slow"];
    assert_eq!(slow["isError"], true, "{slow:#}");
    let text = slow["text"].as_str().unwrap();
    assert!(
        text.contains("no response within 1s") && text.contains("--timeout SECS"),
        "{slow:#}"
    );
    // The echo of 10,000 bytes is over the 4 KiB message limit: skipped, and the call says so.
    let big = &out["big"];
    assert_eq!(big["isError"], true, "{big:#}");
    let text = big["text"].as_str().unwrap();
    assert!(
        text.contains("over the 4 KiB limit") && text.contains("--limit message=SIZE"),
        "{big:#}"
    );
    // The connection lives on.
    let small = &out["small"]["structured"]["result"]["content"][0]["text"];
    assert_eq!(small, "Echo: small");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attach_shows_the_agents_calls_in_the_running_inspector() {
    let data = data_dir();
    let run = crate::serve::start(data.path(), &["--port", "0"]).await;
    // The person connects the demo server (configured on first start) and calls a tool.
    let http = mcplab_net::tls::client();
    let post = |path: &str, body: Value| {
        http.post(format!("{}{path}", run.base))
            .bearer_auth(&run.token)
            .json(&body)
            .send()
    };
    let connected = post("/api/servers/demo/connect", serde_json::json!({}));
    let connected: Value = connected.await.unwrap().json().await.unwrap();
    assert_eq!(connected["status"]["state"], "connected", "{connected:#}");
    let call = serde_json::json!({"name": "echo", "arguments": {"message": "the person's call"}});
    let called: Value = post("/api/servers/demo/tools/call", call)
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(called["error"].is_null(), "{called:#}");
    let logs = serde_json::json!({"name": "log_all_levels"});
    let logged: Value = post("/api/servers/demo/tools/call", logs)
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(logged["error"].is_null(), "{logged:#}");

    let dir = data.path().to_owned();
    let out = tokio::task::spawn_blocking(move || client_with(1, &dir, "attach", &["--attach"]))
        .await
        .unwrap();
    let echoed = &out["echo"]["structured"]["result"]["content"][0]["text"];
    assert_eq!(echoed, "Echo: seen live", "{out:#}");
    assert_person_and_agent_traffic(&out);

    // The agent's session, labelled as the agent's, ended once mcplab mcp stopped.
    let deadline = Instant::now() + Duration::from_secs(20);
    let session = loop {
        let taps = run.get("/api/taps").await;
        let agent = taps
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["host"]["name"] == "mcplab-agent" && t["ended"].is_object());
        if let Some(s) = agent {
            break s.clone();
        }
        assert!(
            Instant::now() < deadline,
            "no ended agent session: {taps:#}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(
        session["target"].as_str().unwrap().starts_with("demo: "),
        "{session:#}"
    );
    let key = session["key"].as_str().unwrap();
    let traffic = run.get(&format!("/api/servers/{key}/traffic")).await;
    let texts: Vec<&str> = traffic["frames"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["text"].as_str())
        .collect();
    assert!(
        texts.iter().any(|t| t.contains("Echo: seen live")),
        "{texts:#?}"
    );
    // What the server under test was told: the agent's name (initialize or each request's _meta).
    assert!(
        texts.iter().any(|t| t.contains("mcplab-agent")),
        "{texts:#?}"
    );
    run.stop().await;
}

/// `--attach`: the agent's `traffic` holds the person's call (made through the inspector's
/// API) marked as the person's, its own marked as its own, and its `cursor` leaves out what
/// came before it; `servers` lists the inspector's servers.
fn assert_person_and_agent_traffic(out: &Value) {
    let person = out["servers"]["structured"]["person"].as_array().unwrap();
    assert!(
        person
            .iter()
            .any(|s| s["name"] == "demo" && s["status"] == "connected"),
        "{person:#?}"
    );
    // The log lines the person's call made the server send, marked as the person's.
    let events = out["notifications"]["structured"]["events"]
        .as_array()
        .unwrap();
    let person_logs = events
        .iter()
        .filter(|e| e["by"] == "person" && e["method"] == "notifications/message")
        .count();
    assert!(person_logs >= 1, "{events:#?}");
    let frames = out["traffic"]["structured"]["frames"].as_array().unwrap();
    let by = |needle: &str| -> Vec<&str> {
        frames
            .iter()
            .filter(|f| f["text"].as_str().unwrap().contains(needle))
            .map(|f| f["by"].as_str().unwrap())
            .collect()
    };
    // The request and its response each.
    assert_eq!(by("the person's call"), ["person", "person"], "{frames:#?}");
    assert_eq!(by("seen live"), ["agent", "agent"], "{frames:#?}");
    let newer = out["since"]["structured"]["frames"].as_array().unwrap();
    let texts: Vec<&str> = newer.iter().map(|f| f["text"].as_str().unwrap()).collect();
    assert!(texts.iter().any(|t| t.contains("after")), "{texts:#?}");
    assert!(
        !texts
            .iter()
            .any(|t| t.contains("seen live") || t.contains("the person's call")),
        "{texts:#?}"
    );
}

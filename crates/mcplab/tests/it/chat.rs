//! Black-box tests of `mcplab chat` against the testkit's scripted LLM server (real HTTP,
//! OpenAI and Anthropic formats) and the built-in demo server.

use std::process::{Output, Stdio};
use std::time::Duration;

use mcplab_testkit::llm::{ScriptedCall, ScriptedLlm, Step};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::process::Command;

use super::eval_support::lines;
use super::peer_support::{code, err};

const BIN: &str = env!("CARGO_BIN_EXE_mcplab");

fn chat(llm: &ScriptedLlm, args: &[&str]) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.arg("chat")
        .args(args)
        .env_remove("MCPLAB_MODEL")
        .env("OPENAI_BASE_URL", llm.base_url())
        .env("OPENAI_API_KEY", "sk-test")
        .env("ANTHROPIC_BASE_URL", llm.base_url())
        .env("ANTHROPIC_API_KEY", "sk-ant-test")
        .env("NO_PROXY", "127.0.0.1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    cmd
}

/// The demo's `add` of 2 and `b`, called by the model.
fn add(b: i64) -> ScriptedCall {
    ScriptedCall::new("c1", "cli__add", json!({"a": 2, "b": b}))
}

/// The demo's `echo` of `message`, called by the model.
fn echo(message: &str) -> ScriptedCall {
    ScriptedCall::new("c1", "cli__echo", json!({ "message": message }))
}

/// `mcplab chat ARGS` with a data folder of its own and nothing on stdin, finished.
async fn chat_in_new_dir(llm: &ScriptedLlm, args: &[&str]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    finish(chat(llm, args), dir.path(), "").await
}

async fn finish(mut cmd: Command, data: &std::path::Path, stdin: &str) -> Output {
    cmd.env("MCPLAB_DATA_DIR", data);
    let mut child = cmd.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.as_bytes()).await.unwrap();
    drop(input);
    tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
        .await
        .expect("mcplab chat finished")
        .unwrap()
}

#[tokio::test]
async fn a_chat_turn_calls_a_demo_tool_and_streams_the_answer() {
    for (provider, model) in [("openai", "gpt-4o-mini"), ("anthropic", "claude-haiku-4-5")] {
        let llm = ScriptedLlm::start(vec![
            Step::call_tools([add(3)]),
            Step::reply(["The sum ", "is 5."]),
        ])
        .await;
        let dir = tempfile::tempdir().unwrap();
        let m = format!("{provider}::{model}");
        let o = finish(
            chat(&llm, &["--demo", "--model", &m, "add 2 and 3"]),
            dir.path(),
            "",
        )
        .await;
        let (out, err) = (String::from_utf8_lossy(&o.stdout), err(&o));
        assert_eq!(o.status.code(), Some(0), "{provider}: {err}");
        assert_eq!(out.trim(), "The sum is 5.", "{provider}");
        assert!(
            err.contains("→ cli/add") && err.contains("✓ cli/add"),
            "{err}"
        );
        assert!(llm.requests()[1].body.to_string().contains("2 + 3 = 5"));
    }
}

#[tokio::test]
async fn json_lines_carry_the_turn_events() {
    let llm = ScriptedLlm::start(vec![Step::reply(["hello"])]).await;
    let o = chat_in_new_dir(&llm, &["--json", "--model", "openai::gpt-4o-mini", "hi"]).await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    let events: Vec<Value> = lines(&o);
    assert_eq!(events.first().unwrap()["type"], "turnStarted");
    assert_eq!(events.last().unwrap()["type"], "turnFinished");
    assert!(
        events
            .iter()
            .any(|e| e["type"] == "textDelta" && e["text"] == "hello")
    );
}

#[tokio::test]
async fn failures_and_missing_models_are_explained() {
    let llm = ScriptedLlm::start(vec![Step::reply(["a", "b", "c"]).cut_off(2)]).await;
    let dir = tempfile::tempdir().unwrap();
    let o = finish(
        chat(&llm, &["--model", "openai::gpt-4o-mini", "hi"]),
        dir.path(),
        "",
    )
    .await;
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("turn failed (truncated)"));

    let mut cmd = chat(&llm, &["--model", "openai::gpt-4o-mini", "hi"]);
    cmd.env_remove("OPENAI_API_KEY");
    let o = finish(cmd, dir.path(), "").await;
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("OPENAI_API_KEY"), "{}", err(&o));

    let o = finish(chat(&llm, &["--model", "gpt-4o", "hi"]), dir.path(), "").await;
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("provider::model"));
}

#[tokio::test]
async fn interactive_keeps_the_conversation() {
    let llm = ScriptedLlm::start(vec![
        Step::reply(["first answer"]),
        Step::reply(["second answer"]),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let o = finish(
        chat(&llm, &["-i", "--model", "openai::gpt-4o-mini"]),
        dir.path(),
        "first question\nsecond question\n",
    )
    .await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("first answer") && out.contains("second answer"),
        "{out}"
    );
    let second = llm.requests()[1].body.to_string();
    assert!(
        second.contains("first question") && second.contains("first answer"),
        "history is sent: {second}"
    );
}

#[tokio::test]
async fn ctrl_c_cancels_the_turn() {
    use tokio::io::AsyncBufReadExt;
    let llm = ScriptedLlm::start(vec![
        Step::reply(["a", "b", "c", "d", "e", "f", "g"]).slow(400),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = chat(&llm, &["--json", "--model", "openai::gpt-4o-mini", "hi"]);
    cmd.env("MCPLAB_DATA_DIR", dir.path());
    let mut child = cmd.spawn().unwrap();
    let pid = child.id().unwrap() as i32;
    // The turn is streaming (so the signal handler is in place) once a text delta is out.
    let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let mut seen = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(line) = lines.next_line().await.unwrap() {
            let event: Value = serde_json::from_str(&line).unwrap();
            let text = event["type"] == "textDelta";
            seen.push(event);
            if text {
                return;
            }
        }
        panic!("stdout ended before a text delta: {seen:?}");
    })
    .await
    .expect("a text delta arrives");
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(pid),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    while let Some(line) = lines.next_line().await.unwrap() {
        seen.push(serde_json::from_str(&line).unwrap());
    }
    let o = tokio::time::timeout(Duration::from_secs(10), child.wait_with_output())
        .await
        .expect("exits after Ctrl-C")
        .unwrap();
    assert_eq!(code(&o), 130, "{}", err(&o));
    assert_eq!(seen.last().unwrap()["type"], "turnCancelled", "{seen:?}");
}

#[tokio::test]
async fn approve_asks_before_each_tool_call() {
    for (answer, ran) in [("y\n", true), ("n\n", false)] {
        let llm = ScriptedLlm::start(vec![Step::call_tools([add(3)]), Step::reply(["done"])]).await;
        let dir = tempfile::tempdir().unwrap();
        let o = finish(
            chat(
                &llm,
                &[
                    "--demo",
                    "--approve",
                    "--model",
                    "openai::gpt-4o-mini",
                    "add",
                ],
            ),
            dir.path(),
            answer,
        )
        .await;
        let err = err(&o);
        assert_eq!(o.status.code(), Some(0), "{err}");
        assert!(err.contains("allow cli/add"), "{err}");
        let fed_back = llm.requests()[1].body.to_string();
        assert_eq!(fed_back.contains("2 + 3 = 5"), ran, "{fed_back}");
        assert_eq!(fed_back.contains("denied"), !ran, "{fed_back}");
    }
}

/// A host config file drives the run: its deny list keeps a tool from the model, its
/// temperature reaches the provider, and the flags override its model.
#[tokio::test]
async fn a_host_config_file_drives_the_run() {
    let llm = ScriptedLlm::start(vec![Step::reply(["ok"])]).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("host.yaml");
    std::fs::write(
        &file,
        "model: anthropic::claude-haiku-4-5\ntemperature: 0.5\nsystemPrompt: Answer in French.\n\
         servers:\n  cli:\n    deny: [echo, add]\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let o = finish(
        chat(
            &llm,
            &[
                "--demo",
                "--host-config",
                path,
                "-m",
                "openai::gpt-4o-mini",
                "hi",
            ],
        ),
        dir.path(),
        "",
    )
    .await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    let body = &llm.requests()[0].body;
    assert_eq!(body["model"], "gpt-4o-mini", "the flag wins over the file");
    assert_eq!(body["temperature"], 0.5);
    let tools: Vec<&str> = body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert!(tools.contains(&"cli__slow_task"), "{tools:?}");
    assert!(
        !tools.contains(&"cli__echo") && !tools.contains(&"cli__add"),
        "{tools:?}"
    );
    assert!(body.to_string().contains("Answer in French."));

    std::fs::write(&file, "stepLimt: 3\n").unwrap();
    let o = finish(chat(&llm, &["--host-config", path, "hi"]), dir.path(), "").await;
    assert_eq!(o.status.code(), Some(2));
    let err = err(&o);
    assert!(
        err.contains("host.yaml") && err.contains("stepLimt"),
        "{err}"
    );
}

/// `--save` keeps the session: a web server on the same data directory lists it with its
/// HostConfig and hash, the same hash `--print-host-config` printed.
#[tokio::test]
async fn saved_cli_sessions_show_up_in_the_api() {
    let llm = ScriptedLlm::start(vec![Step::reply(["saved answer"])]).await;
    let dir = tempfile::tempdir().unwrap();
    let args = ["--demo", "-m", "openai::gpt-4o-mini", "--max-steps", "4"];
    let mut printed = args.to_vec();
    printed.push("--print-host-config");
    let o = finish(chat(&llm, &printed), dir.path(), "").await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    let canonical: Value = serde_json::from_slice(&o.stdout).expect("canonical JSON");
    assert_eq!(canonical["stepLimit"], 4);
    let hash = err(&o)
        .split_whitespace()
        .last()
        .expect("the hash is printed")
        .to_owned();
    assert!(llm.requests().is_empty(), "printing runs nothing");

    let mut saved = args.to_vec();
    saved.extend(["--save", "remember this"]);
    let o = finish(chat(&llm, &saved), dir.path(), "").await;
    assert_eq!(code(&o), 0, "{}", err(&o));

    let sessions = api_get(dir.path(), "/api/sessions").await;
    let list = sessions.as_array().unwrap();
    assert_eq!(list.len(), 1, "{sessions}");
    assert_eq!(list[0]["title"], "remember this");
    assert_eq!(list[0]["hostHash"], hash.as_str());
    assert_eq!(list[0]["hostConfig"], canonical);
    let id = list[0]["id"].as_str().unwrap();
    let view = api_get(dir.path(), &format!("/api/sessions/{id}")).await;
    assert!(view.to_string().contains("saved answer"), "{view}");

    // Without --save nothing is kept.
    let o = finish(
        chat(&llm, &["-m", "openai::gpt-4o-mini", "gone"]),
        dir.path(),
        "",
    )
    .await;
    assert_eq!(
        o.status.code(),
        Some(1),
        "the script is used up: the turn fails"
    );
    let sessions = api_get(dir.path(), "/api/sessions").await;
    assert_eq!(sessions.as_array().unwrap().len(), 1);
}

/// GET `path` from a web server over the store in `data` (as `mcplab serve` would run it).
async fn api_get(data: &std::path::Path, path: &str) -> Value {
    use std::sync::Arc;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let store = Arc::new(mcplab_store::Store::open(&data.join("mcplab.db")).unwrap());
    let manager = mcplab_mcp::ConnectionManager::new(mcplab_mcp::ManagerOptions::default());
    let state = mcplab_server::AppState::new(
        manager,
        store,
        mcplab_server::Security::new("t".into(), port, None),
        mcplab_llm::ProviderSettings::default(),
    );
    let server = tokio::spawn(axum::serve(listener, mcplab_server::router(state)).into_future());
    let client = mcplab_net::tls::client_builder()
        .no_proxy()
        .build()
        .unwrap();
    let resp = client
        .get(format!("http://127.0.0.1:{port}{path}"))
        .bearer_auth("t")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let v = resp.json().await.unwrap();
    server.abort();
    v
}

/// Two scripted "models" behind two providers: one calls the right tool with the right
/// arguments, the other the same tool with wrong ones. The comparison shows both, marks the
/// differing call, and prices the turns from the table (hand-computed from the servers' usage).
#[tokio::test]
async fn compare_runs_two_models_side_by_side() {
    let right = ScriptedLlm::start(vec![
        Step::call_tools([add(3)]),
        Step::reply(["The sum is 5."]),
    ])
    .await;
    let wrong =
        ScriptedLlm::start(vec![Step::call_tools([add(4)]), Step::reply(["It is 6."])]).await;
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--demo",
        "--compare",
        "-m",
        "openai::gpt-5-mini",
        "-m",
        "anthropic::claude-haiku-4-5",
        "add 2 and 3",
    ];
    let mut cmd = chat(&right, &args);
    cmd.env("ANTHROPIC_BASE_URL", wrong.base_url());
    let o = finish(cmd, dir.path(), "").await;
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(code(&o), 0, "{}\n{out}", err(&o));
    assert!(
        out.contains("The sum is 5.") && out.contains("It is 6."),
        "{out}"
    );
    let line = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no `{name}` row: {out}"))
            .to_owned()
    };
    let call = line("call 1");
    assert!(
        call.contains(r#"≠ cli/add {"a":2,"b":4}"#) && call.contains(r#"cli/add {"a":2,"b":3}"#),
        "{call}"
    );
    assert!(line("steps").contains("2  ") && line("ended").matches("completed").count() == 2);
    // By hand: gpt-5-mini $0.25/$2.00, claude-haiku-4-5 $1/$5 per million tokens.
    let cost = |llm: &ScriptedLlm, input: f64, output: f64| -> f64 {
        llm.requests()
            .iter()
            .map(|r| r.usage.unwrap())
            .map(|u| {
                f64::from(u.input_tokens) * input / 1e6 + f64::from(u.output_tokens) * output / 1e6
            })
            .sum()
    };
    let (a, b) = (cost(&right, 0.25, 2.0), cost(&wrong, 1.0, 5.0));
    let row = line("cost");
    assert!(
        row.contains(&format!("${a:.6}")) && row.contains(&format!("${b:.6}")),
        "{row} vs ${a:.6} ${b:.6}"
    );

    // The same as JSON Lines: every event tagged with its column, then the comparison.
    let right = ScriptedLlm::start(vec![Step::reply(["one"])]).await;
    let wrong = ScriptedLlm::start(vec![Step::reply(["two"])]).await;
    let mut cmd = chat(
        &right,
        &[
            "--json",
            "--compare",
            "-m",
            "openai::gpt-4o-mini",
            "-m",
            "anthropic::claude-haiku-4-5",
            "hi",
        ],
    );
    cmd.env("ANTHROPIC_BASE_URL", wrong.base_url());
    let o = finish(cmd, dir.path(), "").await;
    assert_eq!(code(&o), 0, "{}", err(&o));
    let lines = lines(&o);
    let (last, events) = lines.split_last().unwrap();
    assert!(
        events
            .iter()
            .any(|e| e["column"] == 1 && e["event"]["type"] == "turnFinished")
    );
    assert!(
        events
            .iter()
            .any(|e| e["column"] == 2 && e["model"] == "anthropic::claude-haiku-4-5")
    );
    let columns = last["comparison"]["columns"].as_array().unwrap();
    assert_eq!(columns[0]["answer"], "one");
    assert_eq!(columns[1]["answer"], "two");
}

/// `--xray` prints the request as the scripted server received it, byte for byte, with the
/// API key masked.
#[tokio::test]
async fn xray_prints_what_the_provider_received() {
    let llm = ScriptedLlm::start(vec![Step::reply(["hello"])]).await;
    let o = chat_in_new_dir(&llm, &["--xray", "--model", "openai::gpt-4o-mini", "hi"]).await;
    let err = err(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let received = String::from_utf8(llm.requests()[0].raw_body.clone()).unwrap();
    assert!(
        err.contains(&received),
        "the body as received:\n{received}\n---\n{err}"
    );
    assert!(
        err.contains("── x-ray step 1 · openai::gpt-4o-mini"),
        "{err}"
    );
    assert!(err.contains("data: [DONE]"), "the raw stream: {err}");
    assert!(!err.contains("sk-test"), "the key is masked: {err}");
    assert!(err.contains("authorization: Bearer "), "{err}");
}

/// Four "models" that behave differently — the right call, the wrong tool, the wrong
/// arguments, the right call slowly — compared from the CLI in one run: every column ends, and
/// each deviation from the first column is marked where it happened.
#[tokio::test]
async fn compare_four_models_right_wrong_tool_wrong_args_slow() {
    let right = ScriptedLlm::start(vec![Step::call_tools([add(3)]), Step::reply(["5"])]).await;
    let wrong_tool =
        ScriptedLlm::start(vec![Step::call_tools([echo("2+3")]), Step::reply(["2+3"])]).await;
    let wrong_args = ScriptedLlm::start(vec![Step::call_tools([add(4)]), Step::reply(["6"])]).await;
    let slow = ScriptedLlm::start(vec![
        Step::call_tools([add(3)]).slow(150),
        Step::reply(["5"]).slow(150),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--demo",
        "--compare",
        "-m",
        "openai::right",
        "-m",
        "anthropic::wrong-tool",
        "-m",
        "deepseek::wrong-args",
        "-m",
        "xai::slow",
        "add 2 and 3",
    ];
    let mut cmd = chat(&right, &args);
    cmd.env("ANTHROPIC_BASE_URL", wrong_tool.base_url())
        .env("DEEPSEEK_BASE_URL", wrong_args.base_url())
        .env("DEEPSEEK_API_KEY", "sk-ds-test")
        .env("XAI_BASE_URL", slow.base_url())
        .env("XAI_API_KEY", "sk-xai-test");
    let o = finish(cmd, dir.path(), "").await;
    let (out, err) = (String::from_utf8_lossy(&o.stdout), err(&o));
    assert_eq!(o.status.code(), Some(0), "{err}\n{out}");
    let call = out
        .lines()
        .find(|l| l.starts_with("call 1"))
        .unwrap_or_else(|| panic!("{out}"));
    let cells: Vec<&str> = call
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(
        cells,
        [
            "call 1",
            r#"≠ cli/add {"a":2,"b":3}"#,
            r#"≠ cli/echo {"message":"2+3"}"#,
            r#"≠ cli/add {"a":2,"b":4}"#,
            r#"cli/add {"a":2,"b":3}"#,
        ],
        "{out}"
    );
    let ended = out.lines().find(|l| l.starts_with("ended")).unwrap();
    assert_eq!(ended.matches("completed").count(), 4, "{ended}");
    // Test model names are not in the price table: no price, never a guess.
    let cost = out.lines().find(|l| l.starts_with("cost")).unwrap();
    assert_eq!(cost.matches("no price").count(), 4, "{cost}");
}

/// N2 (security review 3): model text and tool results reached the terminal raw (OSC title,
/// OSC 52 clipboard, clear screen); they are shown with visible escapes like the inspector's.
#[tokio::test]
async fn model_and_tool_text_cannot_drive_the_terminal() {
    let llm = ScriptedLlm::start(vec![
        Step::call_tools([echo("\u{1b}]0;PWNED\u{7} tool")]),
        Step::reply(["answer \u{1b}]52;c;ZWNobyBwd25lZA==\u{7} \u{1b}[2J done"]),
    ])
    .await;
    let o = chat_in_new_dir(&llm, &["--demo", "--model", "openai::gpt-4o-mini", "go"]).await;
    let (out, err) = (String::from_utf8_lossy(&o.stdout), err(&o));
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        !o.stdout.contains(&0x1b) && !o.stderr.contains(&0x1b),
        "{out:?}\n{err:?}"
    );
    assert!(out.contains("answer \\x1b]52;c;"), "{out}");
    assert!(err.contains("\\x1b]0;PWNED"), "{err}");
}

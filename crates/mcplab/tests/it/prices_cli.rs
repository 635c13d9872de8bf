//! The user's price file, black box: `<data dir>/prices.json` overrides and extends the shipped
//! table (`mcplab chat --print-prices` shows each row's origin), a malformed file is refused
//! with its name and line, and a chat's cost follows the user's price.

use std::path::Path;
use std::process::Output;
use std::time::Duration;

use mcplab_testkit::llm::{ScriptedLlm, Step};
use serde_json::Value;
use tokio::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_mcplab");

async fn mcplab(data: &Path, args: &[&str], llm: Option<&ScriptedLlm>) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .env("MCPLAB_DATA_DIR", data)
        .env_remove("MCPLAB_MODEL")
        .env("NO_PROXY", "127.0.0.1")
        .kill_on_drop(true);
    if let Some(llm) = llm {
        cmd.env("OPENAI_BASE_URL", llm.base_url())
            .env("OPENAI_API_KEY", "sk-test");
    }
    tokio::time::timeout(Duration::from_secs(60), cmd.output())
        .await
        .expect("mcplab finished")
        .unwrap()
}

async fn rows(data: &Path) -> Vec<Value> {
    let o = mcplab(data, &["chat", "--print-prices", "--json"], None).await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    v["prices"].as_array().unwrap().clone()
}

fn row<'a>(rows: &'a [Value], model: &str) -> &'a Value {
    rows.iter()
        .find(|r| r["model"] == model)
        .unwrap_or_else(|| panic!("no {model}: {rows:?}"))
}

const USER: &str = r#"{
  "version": 1,
  "prices": {
    "openai::gpt-5-mini": {"input": 9.0, "output": 90.0, "source": "https://example.test/mine", "date": "2026-12-01"},
    "openai::gpt-4o-mini": {"input": 0.15, "output": 0.6, "cachedInput": 0.075, "source": "https://example.test/4o", "date": "2026-12-01"}
  }
}"#;

#[tokio::test]
async fn the_user_file_overrides_and_extends_the_shipped_table() {
    let dir = tempfile::tempdir().unwrap();
    let shipped = rows(dir.path()).await;
    assert_eq!(row(&shipped, "openai::gpt-5-mini")["origin"], "shipped");
    assert!(shipped.iter().all(|r| r["model"] != "openai::gpt-4o-mini"));

    std::fs::write(dir.path().join("prices.json"), USER).unwrap();
    let all = rows(dir.path()).await;
    let mine = row(&all, "openai::gpt-5-mini");
    assert_eq!(
        (mine["origin"].as_str(), mine["input"].as_f64()),
        (Some("user"), Some(9.0))
    );
    assert_eq!(row(&all, "openai::gpt-4o-mini")["origin"], "user");
    assert_eq!(
        row(&all, "anthropic::claude-sonnet-4-5")["origin"],
        "shipped"
    );
    let text = mcplab(dir.path(), &["chat", "--print-prices"], None).await;
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.lines()
            .any(|l| l.starts_with("openai::gpt-4o-mini\t") && l.contains("\tuser\t")),
        "{text}"
    );
}

#[tokio::test]
async fn a_malformed_file_is_refused_with_its_name_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("prices.json");
    let cases = [
        // A syntax error on line 3 (the missing comma).
        ("{\n  \"version\": 1\n  \"prices\": {}\n}", 3),
        // A negative price in the entry that starts on line 4.
        (
            "{\n  \"version\": 1,\n  \"prices\": {\n    \"openai::x\": {\"input\": -1, \"output\": 1, \"source\": \"s\", \"date\": \"d\"}\n  }\n}",
            4,
        ),
    ];
    // `eval run` reads the same file (before it connects anything).
    let suite = dir.path().join("suite.yaml");
    let body = format!(
        "version: 1\nid: s\nmcpServers:\n  demo:\n    command: {BIN}\n    args: [demo-server]\n\
         models: [openai::gpt-4o-mini]\ncases:\n  - id: c\n    turns: [hi]\n"
    );
    std::fs::write(&suite, body).unwrap();
    let suite = suite.to_str().unwrap();
    for (text, line) in cases {
        std::fs::write(&file, text).unwrap();
        for args in [&["chat", "--print-prices"][..], &["eval", "run", suite]] {
            let o = mcplab(dir.path(), args, None).await;
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
            assert!(
                err.contains(&format!("{}:{line}:", file.display())),
                "{args:?}, line {line}: {err}"
            );
        }
    }
}

#[tokio::test]
async fn a_chat_is_costed_with_the_user_price() {
    let llm = ScriptedLlm::start(vec![Step::reply(["Hello."])]).await;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("prices.json"), USER).unwrap();
    let o = mcplab(
        dir.path(),
        &[
            "chat",
            "--demo",
            "--xray",
            "-m",
            "openai::gpt-4o-mini",
            "hi",
        ],
        Some(&llm),
    )
    .await;
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success(), "{out}");
    // By hand: the user's gpt-4o-mini at $0.15 in, $0.60 out per million.
    let u = llm.requests()[0].usage.unwrap();
    let usd = (f64::from(u.input_tokens) * 0.15 + f64::from(u.output_tokens) * 0.6) / 1e6;
    assert!(out.contains(&format!("${usd:.6}")), "${usd:.6} in {out}");
}

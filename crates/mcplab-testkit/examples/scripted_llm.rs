//! The scripted LLM server as a standalone process, for benchmarks (`benches/chat.sh`) and
//! manual poking: it serves a script of `--steps` identical replies, each `--chunks` pieces of
//! `--chunk-text`, optionally `--delay-ms` before every streamed event, on 127.0.0.1 (OpenAI
//! Chat Completions and Anthropic Messages, streaming or not), prints `listening <base_url>`
//! on stdout and runs until it is killed (SIGINT/SIGTERM). `--script FILE` serves a JSON
//! script instead (browser tests): an array of `{"reply": ["chunk", …]}` and
//! `{"call": [{"id": …, "name": …, "arguments": {…}}], "text": ["…"]}` steps; `--rules FILE`
//! answers by content (`[{"model"?, "contains"?, "steps": […]}]`, see `llm::Rules`), for
//! concurrent conversations (eval runs).
//!
//! ```sh
//! cargo run --release -p mcplab-testkit --example scripted_llm -- --steps 100 --chunks 2000
//! ```

use std::io::Write;
use std::process::ExitCode;

use mcplab_testkit::llm::{Rules, ScriptedLlm, Step, step_from_json};

struct Args {
    script: Option<String>,
    rules: Option<String>,
    steps: usize,
    chunks: usize,
    chunk_text: String,
    delay_ms: u64,
}

const USAGE: &str = "usage: scripted_llm [--steps N] [--chunks C] [--chunk-text TEXT] \
                     [--delay-ms MS] | --script FILE.json | --rules FILE.json";

/// Steps from a JSON script file.
fn load_script(path: &str) -> Result<Vec<Step>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let steps: Vec<serde_json::Value> =
        serde_json::from_str(&text).map_err(|e| format!("{path} is not a JSON array: {e}"))?;
    steps.iter().map(step_from_json).collect()
}

/// Rules from a JSON rules file.
fn load_rules(path: &str) -> Result<Rules, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let doc: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{path} is not JSON: {e}"))?;
    Rules::from_json(&doc).map_err(|e| format!("{path}: {e}"))
}

fn parse() -> Result<Args, String> {
    let mut args = Args {
        script: None,
        rules: None,
        steps: 100,
        chunks: 20,
        chunk_text: "tok ".into(),
        delay_ms: 0,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "-h" || flag == "--help" {
            return Err(USAGE.into());
        }
        let value = it
            .next()
            .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
        let number = |v: &str| {
            v.parse::<u64>()
                .map_err(|_| format!("{flag}: `{v}` is not a number"))
        };
        match flag.as_str() {
            "--steps" => args.steps = number(&value)? as usize,
            "--chunks" => args.chunks = number(&value)? as usize,
            "--chunk-text" => args.chunk_text = value,
            "--delay-ms" => args.delay_ms = number(&value)?,
            "--script" => args.script = Some(value),
            "--rules" => args.rules = Some(value),
            _ => return Err(format!("unknown argument `{flag}`\n{USAGE}")),
        }
    }
    Ok(args)
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match parse() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let script = match &args.script {
        Some(path) => match load_script(path) {
            Ok(steps) => steps,
            Err(message) => {
                eprintln!("{message}");
                return ExitCode::from(2);
            }
        },
        None => {
            let reply = Step::reply(vec![args.chunk_text.clone(); args.chunks]);
            let step = if args.delay_ms > 0 {
                reply.slow(args.delay_ms)
            } else {
                reply
            };
            vec![step; args.steps]
        }
    };
    let llm = match &args.rules {
        Some(path) => match load_rules(path) {
            Ok(rules) => ScriptedLlm::start_with_rules(rules).await,
            Err(message) => {
                eprintln!("{message}");
                return ExitCode::from(2);
            }
        },
        None => ScriptedLlm::start(script).await,
    };
    {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "listening {}", llm.base_url());
        let _ = out.flush();
    }
    // Until killed: SIGTERM ends the process as is, Ctrl-C stops the server first.
    let _ = tokio::signal::ctrl_c().await;
    drop(llm);
    ExitCode::SUCCESS
}

//! The scripted LLM server as a standalone process, for benchmarks (`benches/chat.sh`) and
//! manual poking: it serves a script of `--steps` identical replies, each `--chunks` pieces of
//! `--chunk-text`, optionally `--delay-ms` before every streamed event, on 127.0.0.1 (OpenAI
//! Chat Completions and Anthropic Messages, streaming or not), prints `listening <base_url>`
//! on stdout and runs until it is killed (SIGINT/SIGTERM).
//!
//! ```sh
//! cargo run --release -p mcplab-testkit --example scripted_llm -- --steps 100 --chunks 2000
//! ```

use std::io::Write;
use std::process::ExitCode;

use mcplab_testkit::llm::{ScriptedLlm, Step};

struct Args {
    steps: usize,
    chunks: usize,
    chunk_text: String,
    delay_ms: u64,
}

const USAGE: &str =
    "usage: scripted_llm [--steps N] [--chunks C] [--chunk-text TEXT] [--delay-ms MS]";

fn parse() -> Result<Args, String> {
    let mut args = Args {
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
    let reply = Step::reply(vec![args.chunk_text.clone(); args.chunks]);
    let step = if args.delay_ms > 0 {
        reply.slow(args.delay_ms)
    } else {
        reply
    };
    let llm = ScriptedLlm::start(vec![step; args.steps]).await;
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

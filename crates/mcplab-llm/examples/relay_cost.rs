//! What the x-ray relay costs per model step (`benches/relay.sh`): streams `--steps` model
//! steps from a running scripted LLM server (`--url`, the testkit's `scripted_llm` example)
//! through the provider layer, each with an x-ray capture (`--mode relay`: genai → the step's
//! loopback relay → the server) or without one (`--mode direct`: genai → the server), and prints
//! one JSON line: time to the first event and to the end of each step (median, p90), and this
//! process's resident memory after the warm-up, at the end, and at its peak.
//!
//! ```sh
//! cargo run --release -p mcplab-llm --example relay_cost -- --url http://127.0.0.1:PORT/v1/ --mode relay
//! ```

use std::process::ExitCode;
use std::time::{Duration, Instant};

use futures::StreamExt;
use mcplab_llm::xray::Capture;
use mcplab_llm::{
    ChatRequest, LlmProvider, Message, ModelRef, ProviderConfig, ProviderKind, RetryPolicy,
    ToolSpec, build_provider,
};
use serde_json::json;
use tokio_util::sync::CancellationToken;

struct Args {
    url: String,
    relay: bool,
    steps: usize,
    warmup: usize,
}

const USAGE: &str = "usage: relay_cost --url BASE_URL --mode relay|direct [--steps N] [--warmup N]";

fn parse() -> Result<Args, String> {
    let mut args = Args {
        url: String::new(),
        relay: true,
        steps: 200,
        warmup: 20,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))
        };
        match flag.as_str() {
            "--url" => args.url = value()?,
            "--mode" => args.relay = value()? == "relay",
            "--steps" => args.steps = value()?.parse().map_err(|e| format!("--steps: {e}"))?,
            "--warmup" => args.warmup = value()?.parse().map_err(|e| format!("--warmup: {e}"))?,
            _ => return Err(USAGE.into()),
        }
    }
    if args.url.is_empty() {
        return Err(USAGE.into());
    }
    Ok(args)
}

fn request(relay: bool) -> ChatRequest {
    ChatRequest {
        model: ModelRef::parse("scripted::gpt-4o-mini").expect("a valid model ref"),
        system: vec!["You are a benchmark.".into()],
        messages: vec![Message::user("Say something.")],
        tools: vec![ToolSpec {
            name: "demo__echo".into(),
            description: "Echo the text back".into(),
            input_schema: json!({"type": "object", "properties": {"text": {"type": "string"}}}),
        }],
        temperature: None,
        max_tokens: Some(1000),
        capture: relay.then(Capture::new),
    }
}

/// One step: (time to the first event, time to the end).
async fn step(provider: &dyn LlmProvider, relay: bool) -> Result<(Duration, Duration), String> {
    let start = Instant::now();
    let mut stream = provider.stream(request(relay), CancellationToken::new());
    let mut first = None;
    while let Some(event) = stream.next().await {
        first.get_or_insert_with(|| start.elapsed());
        event.map_err(|e| e.to_string())?;
    }
    Ok((first.unwrap_or_default(), start.elapsed()))
}

/// `VmRSS` and `VmHWM` of this process in KiB.
fn memory() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn quantiles(mut xs: Vec<Duration>) -> (f64, f64) {
    xs.sort();
    let at = |q: f64| {
        let i = ((xs.len() as f64 * q).ceil() as usize).clamp(1, xs.len()) - 1;
        xs[i].as_secs_f64() * 1000.0
    };
    (at(0.5), at(0.9))
}

async fn run(args: Args) -> Result<String, String> {
    let http = mcplab_net::tls::client_builder()
        .no_proxy()
        .build()
        .map_err(|e| e.to_string())?;
    let config = ProviderConfig {
        id: "scripted".into(),
        kind: ProviderKind::OpenAi,
        base_url: Some(args.url.clone()),
        api_key: Some("sk-bench".into()),
        models: vec![],
    };
    let provider =
        build_provider(&config, &http, RetryPolicy::none()).map_err(|e| e.to_string())?;
    for _ in 0..args.warmup {
        step(provider.as_ref(), args.relay).await?;
    }
    let (rss_warm, _) = memory();
    let (mut firsts, mut totals) = (Vec::new(), Vec::new());
    for _ in 0..args.steps {
        let (first, total) = step(provider.as_ref(), args.relay).await?;
        firsts.push(first);
        totals.push(total);
    }
    let (rss_end, hwm) = memory();
    let (first50, first90) = quantiles(firsts);
    let (total50, total90) = quantiles(totals);
    Ok(json!({
        "mode": if args.relay { "relay" } else { "direct" },
        "steps": args.steps,
        "firstEventMs": {"p50": first50, "p90": first90},
        "stepMs": {"p50": total50, "p90": total90},
        "rssKiB": {"afterWarmup": rss_warm, "end": rss_end, "peak": hwm},
    })
    .to_string())
}

fn main() -> ExitCode {
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(args)) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("a step failed: {e}");
            ExitCode::FAILURE
        }
    }
}

//! Writes a sample HTML report of a simulated run of `examples/evals/demo.yaml` (for looking
//! at the page): `cargo run -p mcplab-evals --example sample_report > report.html`.
use mcplab_evals::gates::evaluate;
use mcplab_evals::report::html_report;
use mcplab_evals::run::{
    IterationRecord, Metrics, RunRecord, case_infos, plan, resolved_cases, suite_hash,
};
use mcplab_evals::stats::summarize;
use mcplab_evals::verdict::Outcome;

fn main() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/evals/demo.yaml"
    );
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let Ok(suite) = mcplab_evals::suite::parse_suite(&text) else {
        eprintln!("{path}: does not load");
        std::process::exit(2);
    };
    let units = plan(&resolved_cases(&suite));
    let iterations = units
        .iter()
        .enumerate()
        .map(|(k, u)| {
            let h = (k * 7919) % 13;
            let outcome = match h {
                0 => Outcome::Errored {
                    reason: "rate_limit: try later".into(),
                },
                1..=3 => Outcome::Failed,
                _ => Outcome::Passed,
            };
            let failures = if h > 0 && h <= 3 {
                vec!["Missing: add {\"a\":2,\"b\":40}".to_string()]
            } else {
                vec![]
            };
            let latency = 800 + (h as u64) * 150;
            IterationRecord {
                unit: u.clone(),
                outcome,
                failures,
                metrics: Metrics {
                    latency_ms: latency,
                    llm_ms: latency - 60,
                    mcp_ms: 60,
                    input_tokens: 900,
                    output_tokens: 80,
                    cost_usd: Some(0.0005),
                    calls_matched: 1,
                    ..Metrics::default()
                },
            }
        })
        .collect();
    let run = RunRecord {
        suite_id: suite.id.clone(),
        suite_hash: suite_hash(&suite),
        shard: None,
        cases: case_infos(&suite),
        planned: units,
        iterations,
    };
    let s = summarize(&run);
    let gates = evaluate(&suite.gates, &s, None, &[]);
    print!("{}", html_report(&run, &s, Some(&gates), None));
}

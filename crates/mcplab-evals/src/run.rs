//! The records a run is made of: its plan (the (case, model, iteration) units a suite asks
//! for), one `IterationRecord` per finished unit (outcome, failures, metrics) and the
//! `RunRecord` that carries them with what statistics and reports need about the suite.
//! These are what the runner stores, shards write and `merge` combines; the shapes are the
//! wire contract's (`mcplab_protocol::evals`), the rules that fill them are here.

use crate::suite::Suite;
use crate::trace::Trace;
use crate::verdict::{ResolvedCase, Verdict};
pub use mcplab_protocol::evals::{
    CaseInfo, IterationRecord, Metrics, RunHeader, RunRecord, Shard, SideUsage, Unit,
};

/// The record of a judged iteration.
pub fn judged(unit: Unit, trace: &Trace, verdict: &Verdict) -> IterationRecord {
    // Tool-call counts from the whole-case expectation, else summed over the turns'
    // (never both: they judge the same calls).
    let whole: Vec<_> = verdict
        .tool_calls
        .iter()
        .filter(|m| m.scope == crate::verdict::Scoped::Case)
        .collect();
    let scoped = if whole.is_empty() {
        verdict.tool_calls.iter().collect()
    } else {
        whole
    };
    let count = |f: fn(&crate::matching::CallMatch) -> u32| {
        scoped.iter().map(|m| f(&m.result)).sum::<u32>()
    };
    let usage = trace.usage();
    let failures = crate::verdict::failures(verdict, part_word(&unit.model));
    IterationRecord {
        unit,
        outcome: verdict.outcome.clone(),
        failures,
        metrics: Metrics {
            input_tokens: usage.input_tokens,
            output_tokens: usage.output_tokens,
            cost_usd: trace.cost_usd,
            latency_ms: trace.latency_ms(),
            llm_ms: trace.llm_ms(),
            mcp_ms: trace.mcp_ms(),
            steps: trace.steps(),
            calls_matched: count(|m| m.matched),
            calls_unexpected: count(|m| m.unmatched_actual),
            calls_missed: count(|m| m.missed_expected),
            judge: SideUsage::default(),
            simulated_user: SideUsage::default(),
        },
    }
}

/// What was spent beside the model under test in one iteration.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Spent {
    pub judge: SideUsage,
    pub simulated_user: SideUsage,
}

/// Adds `spent` to a record fresh from [`judged`] (whose cost is the model's alone): the
/// judge's and simulated user's tokens apart, their cost into the iteration's total, which is
/// unknown when any part's is (so the cost gate cannot pass on a guess).
pub fn charge(metrics: &mut Metrics, spent: Spent) {
    let model = SideUsage {
        calls: 1,
        cost_usd: metrics.cost_usd,
        ..SideUsage::default()
    };
    metrics.cost_usd = model.plus(spent.judge).plus(spent.simulated_user).cost_usd;
    metrics.judge = spent.judge;
    metrics.simulated_user = spent.simulated_user;
}

/// The cases to run, with their resolved settings (skipped cases left out).
pub fn resolved_cases(suite: &Suite) -> Vec<ResolvedCase> {
    suite
        .cases
        .iter()
        .filter(|c| !c.skip)
        .map(|c| ResolvedCase::new(suite, c))
        .collect()
}

/// Every unit of a suite, in canonical order (cases in file order, models, iterations).
pub fn plan(cases: &[ResolvedCase]) -> Vec<Unit> {
    let mut units = Vec::new();
    for case in cases {
        for model in &case.models {
            for iteration in 0..case.repeat {
                units.push(Unit {
                    case_id: case.id.clone(),
                    model: model.clone(),
                    iteration,
                });
            }
        }
    }
    units
}

/// The model column of a case of model-free steps: no model (shown as "no model").
pub const NO_MODEL: &str = "";

/// What a part of an iteration is called in its failure lines: a `step` for the model-free
/// column ([`NO_MODEL`], also under a host), else a `turn`.
pub fn part_word(model_label: &str) -> &'static str {
    match model_and_host(model_label).0 {
        NO_MODEL => "step",
        _ => "turn",
    }
}

/// How a model column reads to a person: `no model` for [`NO_MODEL`] (also under a host).
pub fn model_label(label: &str) -> String {
    match model_and_host(label) {
        ("", Some(host)) => format!("no model{HOST_SEPARATOR}{host}"),
        ("", None) => "no model".into(),
        _ => label.to_owned(),
    }
}

/// Between a model and a host profile in a matrix column (`openai::gpt-4.1 @ claude`).
pub const HOST_SEPARATOR: &str = " @ ";

/// Each model under each host (`model @ host`), or the models alone when no host is listed.
pub fn with_hosts(models: &[String], hosts: &[String]) -> Vec<String> {
    if hosts.is_empty() {
        return models.to_vec();
    }
    models
        .iter()
        .flat_map(|m| hosts.iter().map(move |h| format!("{m}{HOST_SEPARATOR}{h}")))
        .collect()
}

/// A matrix column's model and host profile (`None`: the suite's own host).
pub fn model_and_host(label: &str) -> (&str, Option<&str>) {
    match label.rsplit_once(HOST_SEPARATOR) {
        Some((model, host)) => (model, Some(host)),
        None => (label, None),
    }
}

/// The case infos of a suite.
pub fn case_infos(suite: &Suite) -> Vec<CaseInfo> {
    resolved_cases(suite)
        .into_iter()
        .zip(suite.cases.iter().filter(|c| !c.skip))
        .map(|(r, c)| CaseInfo {
            id: r.id,
            title: c.title.clone(),
            pass_threshold: r.pass_threshold,
        })
        .collect()
}

/// A stable hash of a suite: SHA-256 of its canonical JSON (keys in a fixed order).
pub fn suite_hash(suite: &Suite) -> String {
    let value = serde_json::to_value(suite).unwrap_or_default();
    let canonical = canonical_json(&value);
    // ring, as for the HostConfig hash: one SHA-256 implementation in the workspace.
    let digest = ring::digest::digest(&ring::digest::SHA256, canonical.as_bytes());
    digest.as_ref().iter().map(|b| format!("{b:02x}")).collect()
}

fn canonical_json(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let parts: Vec<String> = keys
                .into_iter()
                .map(|k| {
                    format!(
                        "{}:{}",
                        serde_json::Value::String(k.clone()),
                        canonical_json(&map[k])
                    )
                })
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        serde_json::Value::Array(items) => format!(
            "[{}]",
            items
                .iter()
                .map(canonical_json)
                .collect::<Vec<_>>()
                .join(",")
        ),
        other => other.to_string(),
    }
}

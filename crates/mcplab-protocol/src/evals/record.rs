//! The records a run is made of: its plan (the (case, model, iteration) units a suite asks
//! for), one `IterationRecord` per finished unit (outcome, failures, metrics) and the
//! `RunRecord` that carries them with what statistics and reports need about the suite, and
//! the header a stored run starts with.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// One iteration to run: a case on a model, the n-th time (0-based).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Unit {
    pub case_id: String,
    pub model: String,
    pub iteration: u32,
}

/// What a report needs to know about a case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CaseInfo {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub title: Option<String>,
    pub pass_threshold: f64,
}

/// Measurements of one iteration.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Metrics {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_usd: Option<f64>,
    pub latency_ms: u64,
    pub llm_ms: u64,
    pub mcp_ms: u64,
    pub steps: u32,
    /// Tool calls: expected calls paired (true positives) …
    pub calls_matched: u32,
    /// … actual calls nobody expected (false positives) …
    pub calls_unexpected: u32,
    /// … and required calls that did not happen (false negatives).
    pub calls_missed: u32,
    /// What the judge spent grading this iteration (its cost is part of `cost_usd`).
    #[serde(default)]
    pub judge: SideUsage,
    /// What a simulated user spent playing its part (its cost is part of `cost_usd`).
    #[serde(default)]
    pub simulated_user: SideUsage,
}

/// Tokens and cost spent beside the model under test (by the judge or a simulated user):
/// counted in the iteration's cost and the cost gate, shown apart.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SideUsage {
    /// Model calls made (0: nothing was spent).
    pub calls: u32,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// `None` when the model has no price (and calls were made).
    pub cost_usd: Option<f64>,
}

impl SideUsage {
    /// The sum of two; the cost is unknown when either's is.
    pub fn plus(self, other: SideUsage) -> SideUsage {
        let cost = |u: &SideUsage| if u.calls == 0 { Some(0.0) } else { u.cost_usd };
        SideUsage {
            calls: self.calls + other.calls,
            input_tokens: self.input_tokens + other.input_tokens,
            output_tokens: self.output_tokens + other.output_tokens,
            cost_usd: match (cost(&self), cost(&other)) {
                (Some(a), Some(b)) => Some(a + b),
                _ => None,
            },
        }
    }
}

/// How an iteration came out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "status",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Outcome {
    Passed,
    Failed,
    /// Not a measurement of the model: counted apart from pass rates.
    Errored {
        reason: String,
    },
}

impl Outcome {
    pub fn is_pass(&self) -> bool {
        matches!(self, Outcome::Passed)
    }
    pub fn is_error(&self) -> bool {
        matches!(self, Outcome::Errored { .. })
    }
    /// `passed`, `failed` or `errored` (the store's column).
    pub fn as_str(&self) -> &'static str {
        match self {
            Outcome::Passed => "passed",
            Outcome::Failed => "failed",
            Outcome::Errored { .. } => "errored",
        }
    }
}

/// One finished iteration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct IterationRecord {
    #[serde(flatten)]
    pub unit: Unit,
    pub outcome: Outcome,
    /// Why it did not pass, one line each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub failures: Vec<String>,
    pub metrics: Metrics,
}

impl IterationRecord {
    /// An iteration that could not run (server unreachable, provider down, …).
    pub fn errored(unit: Unit, reason: String) -> IterationRecord {
        IterationRecord {
            unit,
            outcome: Outcome::Errored {
                reason: reason.clone(),
            },
            failures: vec![reason],
            metrics: Metrics::default(),
        }
    }
}

/// `--shard i/n` (1-based `index`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

/// A run (or one shard of it): its suite, plan and finished iterations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RunRecord {
    pub suite_id: String,
    /// Hash of the suite file's canonical content (shards of one run must agree on it).
    pub suite_hash: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub shard: Option<Shard>,
    pub cases: Vec<CaseInfo>,
    /// Every unit this run (or shard) was asked to run.
    pub planned: Vec<Unit>,
    pub iterations: Vec<IterationRecord>,
}

/// What a stored run's header holds: written when the run starts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RunHeader {
    pub suite_title: Option<String>,
    pub cases: Vec<CaseInfo>,
    pub planned: Vec<Unit>,
    pub models: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub shard: Option<Shard>,
    pub concurrency: u32,
    pub record: bool,
    /// The run this one replays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub replay_of: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub baseline: Option<String>,
    /// The HostConfig the turns ran under, canonical (kept as written: a later HostConfig
    /// must still read an old run).
    pub host_config: Value,
    /// The suite as loaded (before the run's overrides).
    pub suite: Value,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub notes: Vec<String>,
    /// What part of the suite's plan the run covers (runs stored before it was written read
    /// it from `shard` and `replayOf`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub kind: Option<RunKind>,
}

impl RunHeader {
    /// The run's kind, for runs stored before it was written too.
    pub fn run_kind(&self) -> RunKind {
        if let Some(k) = &self.kind {
            return k.clone();
        }
        match (&self.replay_of, self.shard) {
            (Some(of), _) => RunKind::Replay { of: of.clone() },
            (None, Some(s)) => RunKind::Shard {
                index: s.index,
                count: s.count,
            },
            (None, None) => RunKind::Full,
        }
    }
}

/// What part of a suite's plan a run covers. Only full and merged runs cover the whole plan,
/// so only they are pooled on the trend.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum RunKind {
    /// Every case of the suite, live.
    Full,
    /// The i-th of n slices of the plan (`--shard i/n`).
    Shard { index: u32, count: u32 },
    /// Shards merged back into the whole plan (`eval merge`).
    Merged { shards: u32 },
    /// A recorded run played back (`--replay`).
    Replay { of: String },
    /// Some of the suite's cases (`--case`).
    Subset { cases: u32, of: u32 },
}

impl RunKind {
    /// The kind in a word or three: `full`, `shard 2/4`, `merged (4 shards)`, …
    pub fn label(&self) -> String {
        match self {
            RunKind::Full => "full".into(),
            RunKind::Shard { index, count } => format!("shard {index}/{count}"),
            RunKind::Merged { shards } => format!("merged ({shards} shards)"),
            RunKind::Replay { of } => format!("replay of {of}"),
            RunKind::Subset { cases, of } => format!("subset ({cases} of {of} cases)"),
        }
    }

    /// Whether the run covers the whole plan live (and so compares with others like it).
    pub fn is_whole(&self) -> bool {
        matches!(self, RunKind::Full | RunKind::Merged { .. })
    }
}

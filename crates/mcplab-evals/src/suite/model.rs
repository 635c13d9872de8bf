//! The suite file's top level: version, servers, host, models, run settings, defaults and
//! gates. Plain serde + schemars types; every object denies unknown keys so the published JSON
//! Schema and the loader agree. Semantics that a schema cannot say (duplicate ids, regexes
//! that compile, operators inside argument matchers) live in `validate`.

use std::borrow::Cow;

use mcplab_protocol::evals::{Correction, RegressionMethod};
use mcplab_protocol::host::HostConfig;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::case::{Case, Judge, ToolCallOptions};
use super::check::Check;

/// A suite file: servers, host, models and cases (the source of truth, kept in the user's repo).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(title = "mcplab eval suite", extend("$id" = SCHEMA_ID))]
pub struct Suite {
    /// The suite file format version: always 1.
    pub version: SuiteVersion,
    /// Stable identity: runs and history join on it. Letters, digits, `-`, `_`, `.`.
    #[schemars(regex(pattern = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$"))]
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Configured servers by name (as in `mcplab servers list`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub servers: Vec<String>,
    /// Servers defined here, in the `mcpServers` shape Claude Desktop, Cursor and VS Code use.
    /// Their tools join those of `servers`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp_servers: Option<Map<String, Value>>,
    /// How turns run (model settings, system prompt, limits, tool filters, approval, app host
    /// profile): a HostConfig object inline, or the path of a file saved from the chat
    /// (relative to the suite file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<HostSpec>,
    /// Host profiles to run as (`mcplab hosts list`: claude, chatgpt, vscode, cursor, goose,
    /// mcplab): each case runs on each model under each host, whose client, tool catalog, tool
    /// results, approval and app host sections go over `host`. The matrix's model column
    /// reads `provider::model @ host`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(inner(regex(pattern = r"^[A-Za-z0-9_-]+$")))]
    pub hosts: Vec<String>,
    /// Models to run, as `provider::model`; each case runs on each. `--model` replaces them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(inner(regex(pattern = r"^[A-Za-z0-9_.-]+::\S.*$")))]
    pub models: Vec<String>,
    /// Iterations per case × model (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub repeat: Option<u32>,
    /// Iterations running at once (default 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 256))]
    pub concurrency: Option<u32>,
    /// Per-iteration deadline in seconds (default 120); an iteration over it is an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 86400))]
    pub timeout_seconds: Option<u32>,
    #[serde(default, skip_serializing_if = "Defaults::is_empty")]
    pub defaults: Defaults,
    #[serde(default, skip_serializing_if = "Gates::is_empty")]
    pub gates: Gates,
    #[schemars(length(min = 1))]
    pub cases: Vec<Case>,
}

/// The `$id` of the published schema.
pub const SCHEMA_ID: &str = "urn:mcplab:eval-suite:v1";

/// What every case inherits unless it says otherwise.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Defaults {
    /// How expected tool calls are matched (cases and tools may override).
    #[serde(default, skip_serializing_if = "ToolCallOptions::is_empty")]
    pub tool_calls: ToolCallOptions,
    /// Checks every case gets in addition to its own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<Check>,
    /// A judge every case gets unless it has its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<Judge>,
    /// Fraction of a case × model's iterations that must pass for it to pass (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub pass_threshold: Option<f64>,
}

impl Defaults {
    fn is_empty(&self) -> bool {
        *self == Defaults::default()
    }
}

/// Conditions a run must meet; each evaluates to pass, fail or insufficient data.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Gates {
    /// Lowest acceptable pass rate over all completed iterations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub min_pass_rate: Option<f64>,
    /// Lowest acceptable pass^k for every case × model (the chance that k tries all pass).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_pass_hat_k: Option<PassHatKGate>,
    /// Most the whole run may cost, in US dollars (unknown prices make it undecidable).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0))]
    pub max_cost_usd: Option<f64>,
    /// Highest acceptable 95th percentile of iteration latency, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0))]
    pub max_p95_latency_ms: Option<u64>,
    /// Fail when a case × model got significantly worse than in the baseline run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_regression: Option<bool>,
    /// How `noRegression` allows for testing many case × model cells at once: `holm` (default:
    /// the chance of any false alarm stays under 5 %), `benjamini-hochberg` (the expected share
    /// of false alarms among the flagged cells stays under 5 %) or `none`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regression_correction: Option<Correction>,
    /// Smallest drop in pass rate that counts as a regression, as a fraction (default 0.1:
    /// 10 points). A smaller drop is not flagged however significant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub min_effect: Option<f64>,
    /// Fail when the whole run's pass rate dropped against the baseline by at least the
    /// minimum effect, significantly, with the iterations of a case counted as one cluster
    /// (repeats of a hard case are not independent evidence).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_run_regression: Option<bool>,
    /// Lowest acceptable lower bound of the whole run's 95 % interval of the pass rate (cases as
    /// clusters): passes only when the run is convincingly above it, not just by luck.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub min_pass_rate_lower_bound: Option<f64>,
    /// Iterations each side needs before a regression can be decided (default 10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub min_samples: Option<u32>,
    /// Largest fraction of iterations that may end in an error (provider, server, timeout)
    /// before the run is invalid rather than failed (default 0.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub max_error_rate: Option<f64>,
}

impl Gates {
    fn is_empty(&self) -> bool {
        *self == Gates::default()
    }

    /// These gates with every gate `overrides` sets replacing ours (command-line gates over
    /// the suite's).
    pub fn with_overrides(&self, overrides: &Gates) -> Gates {
        Gates {
            min_pass_rate: overrides.min_pass_rate.or(self.min_pass_rate),
            min_pass_hat_k: overrides
                .min_pass_hat_k
                .clone()
                .or_else(|| self.min_pass_hat_k.clone()),
            max_cost_usd: overrides.max_cost_usd.or(self.max_cost_usd),
            max_p95_latency_ms: overrides.max_p95_latency_ms.or(self.max_p95_latency_ms),
            no_regression: overrides.no_regression.or(self.no_regression),
            regression_correction: overrides
                .regression_correction
                .or(self.regression_correction),
            min_effect: overrides.min_effect.or(self.min_effect),
            no_run_regression: overrides.no_run_regression.or(self.no_run_regression),
            min_pass_rate_lower_bound: overrides
                .min_pass_rate_lower_bound
                .or(self.min_pass_rate_lower_bound),
            min_samples: overrides.min_samples.or(self.min_samples),
            max_error_rate: overrides.max_error_rate.or(self.max_error_rate),
        }
    }
}

impl Gates {
    /// How regressions are decided under these gates.
    pub fn regression_method(&self) -> RegressionMethod {
        let default = RegressionMethod::default();
        RegressionMethod {
            correction: self.regression_correction.unwrap_or(default.correction),
            alpha: default.alpha,
            min_effect: self.min_effect.unwrap_or(default.min_effect),
        }
    }
}

/// `minPassHatK: { k: 3, min: 0.8 }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PassHatKGate {
    #[schemars(range(min = 1))]
    pub k: u32,
    #[schemars(range(min = 0.0, max = 1.0))]
    pub min: f64,
}

/// The host a suite runs under: inline, or a file reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum HostSpec {
    /// Path of a HostConfig JSON/YAML file (as the Chat page exports it, or `mcplab chat
    /// --print-host-config` prints it), relative to the suite file.
    File(String),
    /// A HostConfig, the session runtime's shape: every key optional, unknown keys refused.
    Inline(Box<HostConfig>),
}

/// The format version; only 1 exists.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SuiteVersion;

impl Serialize for SuiteVersion {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u32(1)
    }
}

impl<'de> Deserialize<'de> for SuiteVersion {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match u64::deserialize(deserializer)? {
            1 => Ok(SuiteVersion),
            other => Err(serde::de::Error::custom(format!(
                "suite version {other} is not supported: this mcplab reads version 1"
            ))),
        }
    }
}

impl JsonSchema for SuiteVersion {
    fn schema_name() -> Cow<'static, str> {
        "SuiteVersion".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "const": 1, "description": "The suite file format version: always 1." })
    }
}

/// `true`: the only value a switch-like check takes (`noToolErrors: true`). `false` would
/// read as "checked" to a skimmer while checking nothing, so it is an error.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct On;

impl Serialize for On {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bool(true)
    }
}

impl<'de> Deserialize<'de> for On {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if bool::deserialize(deserializer)? {
            Ok(On)
        } else {
            Err(serde::de::Error::custom(
                "`false` turns nothing on: write `true` or remove the check",
            ))
        }
    }
}

impl JsonSchema for On {
    fn schema_name() -> Cow<'static, str> {
        "On".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "const": true })
    }
}

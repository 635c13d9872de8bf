//! One case of a suite: its user turns and what is expected of the model (tool calls,
//! checks, an optional judge), plus the matching options those expectations use. Types only;
//! matching lives in `matching`, checks in `checks`.

use std::borrow::Cow;
use std::collections::BTreeMap;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::check::Check;

/// A case: `id` (stable; history joins on it), title, user turns, expectations.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Case {
    #[schemars(regex(pattern = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$"))]
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The user's messages, one turn each, in order. A case has `turns` (a model answers
    /// them) or `steps` (tools called directly, no model).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turns: Vec<Turn>,
    /// Model-free steps, in order: each calls a tool with the arguments given and checks its
    /// result. No model runs and no tokens are spent; the case's iterations are listed under
    /// "no model". Instead of `turns`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<Step>,
    /// Expected tool calls over the whole case (all turns).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<ToolCallExpectations>,
    /// A model plays the user and writes every turn (instead of `turns`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub simulated_user: Option<SimulatedUser>,
    /// Checks on the outcome, added to the suite's default checks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<Check>,
    /// A model-graded rubric (replaces the suite's default judge).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<Judge>,
    /// Models for this case only (replaces the suite's list).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(inner(regex(pattern = r"^[A-Za-z0-9_.-]+::\S.*$")))]
    pub models: Option<Vec<String>>,
    /// The one model for this case (`models: [x]` in short; not both).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^[A-Za-z0-9_.-]+::\S.*$"))]
    pub model: Option<String>,
    /// The host profile this case runs as (`mcplab hosts list`: claude, chatgpt, vscode, …, or
    /// your own), as the chat's host picker runs a session; replaces the suite's `hosts`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^[A-Za-z0-9_-]+$"))]
    pub host: Option<String>,
    /// The system prompt for this case (replaces the host config's `systemPrompt`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_prompt: Option<String>,
    /// Iterations for this case (replaces the suite's `repeat`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub repeat: Option<u32>,
    /// Fraction of iterations that must pass (replaces the suite default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub pass_threshold: Option<f64>,
    /// A table of inputs: the case runs once per row (as `id[name]` by the row's `name`
    /// column, else `id#N`), with `{{column}}` replaced in its turns, title, expectations and
    /// checks. Rows inline, or `{ file: rows.csv }` / `rows.jsonl` beside the suite.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset: Option<super::dataset::Dataset>,
    /// Kept in the file but not run.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub skip: bool,
}

impl Case {
    /// A case of model-free `steps` (no model runs it).
    pub fn is_model_free(&self) -> bool {
        !self.steps.is_empty() && self.turns.is_empty()
    }
}

/// `- call: add  args: { a: 2, b: 40 }  expect: [ { jsonPath: … } ]`: one tool call made
/// directly, its result checked like a turn's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Step {
    /// The MCP tool to call.
    #[schemars(length(min = 1))]
    pub call: String,
    /// The server's name, when several servers have a tool of that name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// The call's arguments (default `{}`).
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub args: Map<String, Value>,
    /// Checks on this step's result, the same as a turn's: `jsonPath`, `toolResult`,
    /// `isError`, `maxLatencyMs`, and `answerContains` / `answerMatches` / `answerJson` on the
    /// result's text. Without an `isError` check the call must succeed (`isError: false`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expect: Vec<Check>,
}

/// `simulatedUser: { persona, goal, maxTurns }`: a model writes each user message in
/// character until it says the goal is met (it answers the stop word `GOAL_MET`) or
/// `maxTurns` turns have run. Its tokens are counted apart from the model's, priced, and in the
/// run's cost and its gate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SimulatedUser {
    /// Who the user is (how they write, what they know).
    #[schemars(length(min = 1))]
    pub persona: String,
    /// What the user wants done; met when the assistant has done it.
    #[schemars(length(min = 1))]
    pub goal: String,
    /// Most turns the conversation may take.
    #[schemars(range(min = 1, max = 50))]
    pub max_turns: u32,
    /// The model playing the user, `provider::model` (default: the model under test).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^[A-Za-z0-9_.-]+::\S.*$"))]
    pub model: Option<String>,
}

/// A user turn: the message alone, or the message with expectations about that turn only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Turn {
    Text(String),
    Detailed(DetailedTurn),
}

impl Turn {
    pub fn user(&self) -> &str {
        match self {
            Turn::Text(text) => text,
            Turn::Detailed(turn) => &turn.user,
        }
    }
    pub fn tool_calls(&self) -> Option<&ToolCallExpectations> {
        match self {
            Turn::Text(_) => None,
            Turn::Detailed(turn) => turn.tool_calls.as_ref(),
        }
    }
    pub fn checks(&self) -> &[Check] {
        match self {
            Turn::Text(_) => &[],
            Turn::Detailed(turn) => &turn.checks,
        }
    }
}

/// `{ user: "...", toolCalls: {...}, checks: [...] }`: judged against this turn alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DetailedTurn {
    pub user: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<ToolCallExpectations>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<Check>,
}

/// What tool calls a case (or a turn) expects; the options are those of `ToolCallOptions`,
/// over the suite's defaults (written out rather than flattened so unknown keys stay errors).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ToolCallExpectations {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<Order>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<ArgumentMode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra_calls: Option<ExtraCalls>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ignore_case: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ignore_whitespace: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0))]
    pub number_tolerance: Option<f64>,
    /// Tools the model must not call (added to the defaults' list).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forbidden: Vec<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub per_tool: BTreeMap<String, ToolOverride>,
    /// The calls the model should make.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expected: Vec<ExpectedCall>,
    /// A negative case: the model must call no tool at all.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub none: bool,
}

/// Matching options; each layer (suite defaults → case → tool) overrides what it sets.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ToolCallOptions {
    /// `any` (default): each expected call somewhere; `in-order`: as a subsequence;
    /// `exact`: exactly these calls in this order, nothing else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<Order>,
    /// `partial` (default): expected keys only, nested; `exact`: no other keys at any level;
    /// `ignore`: the tool name is enough.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<ArgumentMode>,
    /// Calls beyond the expected ones that are tolerated: a number or `unlimited` (default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra_calls: Option<ExtraCalls>,
    /// Compare strings ignoring case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ignore_case: Option<bool>,
    /// Compare strings with runs of whitespace collapsed and ends trimmed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ignore_whitespace: Option<bool>,
    /// Numbers within this absolute distance are equal (default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0))]
    pub number_tolerance: Option<f64>,
    /// Tools the model must not call (added to the defaults' list).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forbidden: Vec<String>,
    /// Per-tool overrides, by MCP tool name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub per_tool: BTreeMap<String, ToolOverride>,
}

impl ToolCallExpectations {
    /// The options part, to layer over the defaults.
    pub fn options(&self) -> ToolCallOptions {
        ToolCallOptions {
            order: self.order,
            arguments: self.arguments,
            extra_calls: self.extra_calls,
            ignore_case: self.ignore_case,
            ignore_whitespace: self.ignore_whitespace,
            number_tolerance: self.number_tolerance,
            forbidden: self.forbidden.clone(),
            per_tool: self.per_tool.clone(),
        }
    }
}

impl ToolCallOptions {
    pub(crate) fn is_empty(&self) -> bool {
        *self == ToolCallOptions::default()
    }
}

/// Options for one tool's calls.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ToolOverride {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<ArgumentMode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ignore_case: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ignore_whitespace: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0))]
    pub number_tolerance: Option<f64>,
}

/// One expected call. `arguments` is a matcher: plain JSON values compare (nested, per the
/// argument mode); strings `"<string>"`, `"<number>"`, `"<integer>"`, `"<boolean>"`,
/// `"<object>"`, `"<array>"`, `"<null>"`, `"<any>"` check types; operator objects
/// `{$anyOf: [..]}`, `{$regex: ".."}`, `{$approx: 3.1, $tolerance: 0.1}`, `{$like: ".."}`
/// (case/whitespace-insensitive), `{$optional: ..}`, `{$absent: true}`, `{$exact: ..}`,
/// `{$partial: ..}` and `{$literal: ..}` say more.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExpectedCall {
    /// The MCP tool name.
    #[schemars(length(min = 1))]
    pub tool: String,
    /// The server's name, when several servers have a tool of that name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// Expected arguments (a matcher); absent means any arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Value>,
    /// Argument mode for this call only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub argument_mode: Option<ArgumentMode>,
    /// The call may be missing without failing the case.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    Any,
    InOrder,
    Exact,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ArgumentMode {
    Ignore,
    Partial,
    Exact,
}

/// How many unexpected calls are tolerated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExtraCalls {
    Unlimited,
    AtMost(u32),
}

impl Serialize for ExtraCalls {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ExtraCalls::Unlimited => serializer.serialize_str("unlimited"),
            ExtraCalls::AtMost(n) => serializer.serialize_u32(*n),
        }
    }
}

impl<'de> Deserialize<'de> for ExtraCalls {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Value::deserialize(deserializer)? {
            Value::String(s) if s == "unlimited" => Ok(ExtraCalls::Unlimited),
            Value::Number(n) => n
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .map(ExtraCalls::AtMost)
                .ok_or_else(|| serde::de::Error::custom("extraCalls must be a whole number ≥ 0")),
            other => Err(serde::de::Error::custom(format!(
                "extraCalls must be a whole number or \"unlimited\", not {other}"
            ))),
        }
    }
}

impl JsonSchema for ExtraCalls {
    fn schema_name() -> Cow<'static, str> {
        "ExtraCalls".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Unexpected calls tolerated: a number, or \"unlimited\".",
            "anyOf": [
                { "type": "integer", "minimum": 0, "maximum": 4294967295u64 },
                { "const": "unlimited" }
            ]
        })
    }
}

/// A rubric graded by a model: a 0–1 score with its reason. Advisory unless `gating`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Judge {
    /// What a good answer does, in the user's words.
    #[schemars(length(min = 1))]
    pub rubric: String,
    /// The grading model, `provider::model` (any provider).
    #[schemars(regex(pattern = r"^[A-Za-z0-9_.-]+::\S.*$"))]
    pub model: String,
    /// Lowest passing score (default 0.7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub threshold: Option<f64>,
    /// A score under the threshold fails the iteration (default: advisory only).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub gating: bool,
}

impl Judge {
    pub fn threshold(&self) -> f64 {
        self.threshold.unwrap_or(0.7)
    }
}

//! One iteration's verdict: how its tool calls matched each expectation (with every
//! difference), each check's result with its reason, the judge's score, and the outcome.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use super::record::Outcome;

/// A call as shown in a diff.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CallView {
    /// Position in the expected list, or among the actual calls (0-based).
    pub index: usize,
    pub tool: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub server: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub arguments: Option<Value>,
}

/// One place where the actual arguments differ from what was expected.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Mismatch {
    /// JSONPath of the spot, e.g. `$.customer.email`.
    pub path: String,
    /// What was expected there, as written (a matcher).
    pub expected: Value,
    /// What was there (`None`: nothing).
    pub actual: Option<Value>,
    /// Why it does not match, in words.
    pub reason: String,
}

/// One difference between the expected and the actual calls.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum CallDiff {
    /// An expected call that did not happen (nor anything like it).
    Missing { expected: CallView },
    /// A call nobody expected; `tolerated` when within the allowance of extra calls.
    Extra { actual: CallView, tolerated: bool },
    /// The expected call happened, but not where the order required.
    OutOfOrder {
        expected: CallView,
        actual: CallView,
    },
    /// The tool was called, with different arguments.
    ArgumentMismatch {
        expected: CallView,
        actual: CallView,
        mismatches: Vec<Mismatch>,
    },
    /// A forbidden tool was called.
    Forbidden { actual: CallView },
}

impl CallDiff {
    /// Whether this difference fails the expectation.
    pub fn fails(&self) -> bool {
        !matches!(
            self,
            CallDiff::Extra {
                tolerated: true,
                ..
            }
        )
    }
}

/// The result of matching one expectation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CallMatch {
    pub passed: bool,
    pub diffs: Vec<CallDiff>,
    /// Expected calls paired with an actual one (true positives).
    pub matched: u32,
    /// Actual calls not paired (false positives).
    pub unmatched_actual: u32,
    /// Required expected calls not paired (false negatives).
    pub missed_expected: u32,
}

/// One check's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CheckResult {
    /// The check as written, e.g. `{"answerContains":"42"}`.
    pub check: Value,
    pub passed: bool,
    pub reason: String,
}

/// Where an expectation or check applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "scope", rename_all = "camelCase")]
pub enum Scoped {
    Case,
    /// 0-based turn index.
    Turn {
        turn: usize,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ScopedMatch {
    #[serde(flatten)]
    pub scope: Scoped,
    #[serde(flatten)]
    pub result: CallMatch,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ScopedCheck {
    #[serde(flatten)]
    pub scope: Scoped,
    #[serde(flatten)]
    pub result: CheckResult,
}

/// What the judge model said.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "status",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum JudgeVerdict {
    Scored {
        score: f64,
        reason: String,
        model: String,
    },
    /// The judge could not grade (provider error, unparsable reply).
    Error { message: String },
}

/// The judge's part of a verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct JudgeOutcome {
    pub verdict: JudgeVerdict,
    pub threshold: f64,
    pub gating: bool,
    /// Whether the score reached the threshold (`None`: not graded).
    pub passed: Option<bool>,
}

/// Everything decided about one iteration (`EvalVerdict` in TypeScript, beside the checker's
/// `Verdict`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "EvalVerdict")]
pub struct Verdict {
    pub outcome: Outcome,
    pub tool_calls: Vec<ScopedMatch>,
    pub checks: Vec<ScopedCheck>,
    pub judge: Option<JudgeOutcome>,
}

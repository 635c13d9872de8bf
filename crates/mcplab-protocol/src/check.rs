//! What `mcplab check` (and `POST /api/servers/{name}/check`) reports about a server: findings,
//! each with a severity, the rule it broke, the spec section, the offending frame and a fix.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// How bad a finding is: errors break the spec (and `mcplab check` exits 1), warnings are
/// SHOULDs or likely trouble, info is worth knowing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

/// One deviation from the spec revision the server negotiated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    pub severity: Severity,
    /// A stable rule id, e.g. `schema`, `tool-name`, `output-schema`.
    pub rule: String,
    pub message: String,
    /// The spec section (a URL into the negotiated revision).
    pub spec: String,
    /// What the server's author should change.
    pub fix: String,
    /// The traffic frame the finding is about (its `seq` in the traffic log).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame_seq: Option<u64>,
    /// The offending part of the frame (or the whole frame), cut to a readable length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<String>,
    /// Where in the message (a JSON pointer), when it is one place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

/// The result of checking one server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CheckReport {
    pub server: String,
    /// The revision the server negotiated (None when connecting failed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol_version: Option<String>,
    /// What was exercised, in order (e.g. `tools/list: 2 pages, 14 tools`).
    pub exercised: Vec<String>,
    /// Every rule that was checked (JUnit test cases), passed or not.
    pub rules: Vec<String>,
    pub findings: Vec<Finding>,
}

impl CheckReport {
    pub fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == severity)
            .count()
    }
}

/// One tool the checker should call, with its arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CheckCall {
    pub name: String,
    #[serde(default)]
    #[ts(type = "unknown")]
    pub arguments: serde_json::Value,
}

/// `POST /api/servers/{name}/check`: what to exercise besides the listings.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CheckRequest {
    /// Tools to call (none by default: tools may have side effects).
    #[serde(default)]
    pub calls: Vec<CheckCall>,
    /// Estimated tokens of the tool list per turn above which it warns (default 10000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_budget: Option<u64>,
}

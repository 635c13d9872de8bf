//! What `mcplab check` (and `POST /api/servers/{name}/check`) reports about a server: per era
//! the server speaks, what was exercised and which rules were applied; findings, each with its
//! rule set, rule, severity, source, the frames that show it and a fix; and the server's
//! surface as a versioned baseline (`Baseline`) that a later check compares against.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::Era;

/// A family of rules. The spec and security sets always run; the baseline set runs when a
/// baseline is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum RuleSet {
    /// The MCP specification of the negotiated revision: every frame against its JSON
    /// Schema, plus the behaviour rules the schema cannot express.
    Spec,
    /// Tool poisoning, hidden Unicode, shadowing, secrets in URLs, plain-HTTP auth.
    Security,
    /// Differences from a recorded baseline of the server's surface.
    Baseline,
    /// How the server fares in each host profile asked for (`--host`): one verdict each.
    Hosts,
    /// The published requirements of Anthropic's connector directory.
    ReadinessClaude,
    /// The published requirements of OpenAI's app directory.
    ReadinessOpenai,
    /// Schema-driven inputs to the tools that are safe to call (`--fuzz`).
    Fuzz,
}

impl RuleSet {
    pub const ALL: [RuleSet; 7] = [
        RuleSet::Spec,
        RuleSet::Security,
        RuleSet::Baseline,
        RuleSet::Hosts,
        RuleSet::ReadinessClaude,
        RuleSet::ReadinessOpenai,
        RuleSet::Fuzz,
    ];

    /// The wire name (`spec`, `security`, `baseline`, `hosts`, `readiness-claude`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            RuleSet::Spec => "spec",
            RuleSet::Security => "security",
            RuleSet::Baseline => "baseline",
            RuleSet::Hosts => "hosts",
            RuleSet::ReadinessClaude => "readiness-claude",
            RuleSet::ReadinessOpenai => "readiness-openai",
            RuleSet::Fuzz => "fuzz",
        }
    }
}

/// How bad a finding is: errors break a MUST (and `mcplab check` exits 1), warnings a SHOULD
/// or likely trouble, info is worth knowing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

/// One deviation found in one era.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    pub rule_set: RuleSet,
    /// A stable rule id, e.g. `schema`, `tool-name`, `hidden-unicode`.
    pub rule: String,
    pub severity: Severity,
    /// The revision of the era it was found in (e.g. `2026-07-28`); none for findings about
    /// the server as a whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub era: Option<String>,
    pub message: String,
    /// Where the rule comes from: the spec section of that revision, or a public page.
    pub source: String,
    /// When `source` is a page that may change: the date (YYYY-MM-DD) it was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub source_read: Option<String>,
    /// What the server's author should change.
    pub fix: String,
    /// The traffic frames (their `seq` in the era's `traffic` log) that show it.
    #[serde(default)]
    pub frames: Vec<u64>,
    /// The offending part of the frame (or the text), cut to a readable length, with
    /// invisible characters made visible (`<U+200B>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub excerpt: Option<String>,
    /// Where in the message (a JSON pointer), when it is one place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub path: Option<String>,
    /// The exact call that shows it (a fuzz input), to make again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub call: Option<CheckCall>,
    /// The tool whose definition it is about, when it is about one tool (the Tools page marks
    /// that tool with it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tool: Option<String>,
}

/// `GET /api/servers/{name}/tools/findings`: what `mcplab check`'s rules about tool
/// definitions say of the tools the connection listed last (nothing is sent to the server for
/// it unless it has not listed its tools yet). Only findings about one tool are kept.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ToolFindings {
    pub server: String,
    /// The revision the definitions were judged against.
    pub revision: String,
    /// The rule sets that ran.
    pub rule_sets: Vec<RuleSet>,
    /// How many tool definitions were judged.
    pub judged: u32,
    /// Each tool with at least one finding, in the order listed; tools without are left out.
    pub tools: Vec<ToolMarks>,
}

/// One tool's findings, worst first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ToolMarks {
    pub tool: String,
    pub findings: Vec<Finding>,
}

/// A rule by its set and id.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RuleRef {
    pub rule_set: RuleSet,
    pub rule: String,
}

/// One era the server was checked in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EraCheck {
    pub era: Era,
    /// The revision negotiated, or for a connection that failed, the one what it sent was
    /// judged against. Findings of this era carry it as their `era`.
    pub revision: String,
    pub connected: bool,
    /// The traffic log (server name) the findings' frame numbers refer to.
    pub traffic: String,
    /// What was exercised, in order (e.g. `tools/list: 14 in 2 page(s)`).
    pub exercised: Vec<String>,
    /// Every rule that was applied in this era (JUnit test cases), passed or not.
    pub rules: Vec<RuleRef>,
}

/// The result of checking one server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CheckReport {
    pub server: String,
    /// The eras checked, newest revision first.
    pub eras: Vec<EraCheck>,
    /// Facts about the check itself (e.g. "2026-07-28: not spoken (…)").
    #[serde(default)]
    pub notes: Vec<String>,
    /// Every finding, worst first.
    pub findings: Vec<Finding>,
    /// One verdict per host profile asked for (`--host`), in the order asked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<HostVerdict>>", optional)]
    pub hosts: Vec<HostVerdict>,
}

impl CheckReport {
    pub fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == severity)
            .count()
    }

    /// Whether no era could be connected.
    pub fn unreachable(&self) -> bool {
        !self.eras.iter().any(|e| e.connected)
    }
}

/// How a server fares in a host: it works, works with less (a view not shown, a tool left
/// out), does not work, or cannot be told because the host profile does not know the field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Works,
    Degraded,
    Blocked,
    Unknown,
}

impl Verdict {
    /// How bad: works < unknown < degraded < blocked.
    pub fn rank(self) -> u8 {
        match self {
            Verdict::Works => 0,
            Verdict::Unknown => 1,
            Verdict::Degraded => 2,
            Verdict::Blocked => 3,
        }
    }

    /// The worse of two.
    pub fn worst(self, other: Verdict) -> Verdict {
        if other.rank() > self.rank() {
            other
        } else {
            self
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Works => "works",
            Verdict::Degraded => "degraded",
            Verdict::Blocked => "blocked",
            Verdict::Unknown => "unknown",
        }
    }
}

/// One reason behind a verdict: what was compared, the host profile field it rests on and
/// where that field's value comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HostReason {
    pub verdict: Verdict,
    pub message: String,
    /// The profile field, e.g. `client.sampling`, `toolCatalog.maxTools`.
    pub field: String,
    /// Where the field's value comes from: a public page with the day it was read, or
    /// `"unknown"`; none when the profile names no source (mcplab's defaults, a user profile).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub source: Option<crate::host_profile::FieldSource>,
}

/// What a host verdict is about besides the server as a whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum HostItemKind {
    Tool,
    App,
}

/// The verdict on one tool or app (`ui://` resource) in one host.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HostItem {
    pub kind: HostItemKind,
    /// The tool's name or the app's resource URI.
    pub name: String,
    pub verdict: Verdict,
    pub reasons: Vec<HostReason>,
}

/// How the server fares in one host profile: overall (the worst of its reasons and items),
/// with the reasons about the server as a whole, and per tool and app.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HostVerdict {
    /// The profile's name (`claude`, `chatgpt`, …).
    pub host: String,
    pub title: String,
    pub profile_version: u32,
    /// The revision the verdict was judged in (the era this host would speak).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub revision: Option<String>,
    pub verdict: Verdict,
    pub reasons: Vec<HostReason>,
    pub items: Vec<HostItem>,
}

/// `POST /api/check/export`: a check report rendered as the CLI's `--junit`, `--sarif` or
/// `--markdown` file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CheckExport {
    pub report: CheckReport,
    pub format: CheckExportFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum CheckExportFormat {
    Junit,
    Sarif,
    Markdown,
}

/// The rendered file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CheckExported {
    pub file_name: String,
    pub mime_type: String,
    pub text: String,
}

/// One tool the checker should call, with its arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CheckCall {
    pub name: String,
    #[serde(default)]
    #[ts(type = "unknown")]
    pub arguments: Value,
}

/// `POST /api/servers/{name}/check`: what to exercise besides the listings, and the rule
/// sets to run besides the ones always on (spec, security) — the options of `mcplab check`.
/// Without `protocol` the live connection is checked in its era; with it, the configured
/// server is connected afresh for the check (`auto`: every era it speaks).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CheckRequest {
    /// Tools to call (none by default: tools may have side effects).
    #[serde(default)]
    pub calls: Vec<CheckCall>,
    /// Estimated tokens of the tool list per turn above which it warns (default 10000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub token_budget: Option<u64>,
    /// Optional rule sets to run as well (those that need no other input).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rule_sets: Vec<RuleSet>,
    /// A baseline to compare the server's surface with (runs the `baseline` set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub baseline: Option<Baseline>,
    /// Check on fresh connections in this protocol choice (`--protocol`; `auto`: every era
    /// the server speaks) instead of the live connection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub protocol: Option<crate::ProtocolChoice>,
    /// Host profiles to give a verdict for, by name (`--host`; `all`: every profile).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub hosts: Vec<String>,
    /// With hosts: judge apps from a static scan of their HTML only, rendering none live
    /// (`--no-render`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub no_render: bool,
    /// Schema-driven inputs to the tools safe to call (`--fuzz N --seed S --fuzz-tool`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub fuzz: Option<CheckFuzz>,
}

/// What to fuzz: inputs per tool, the seed that makes them, and tools besides the
/// `readOnlyHint: true` ones that may be called.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CheckFuzz {
    pub per_tool: u32,
    #[serde(default)]
    pub seed: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub tools: Vec<String>,
}

/// The value of [`Baseline::format`] this version writes and reads.
pub const BASELINE_FORMAT: &str = "mcplab-check-baseline/1";

/// A server's surface at one time, as `mcplab check --write-baseline FILE` writes it and
/// `--baseline FILE` compares with: what its clients depend on, per era it speaks. The JSON
/// form is versioned by `format`; readers refuse formats they do not know.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Baseline {
    /// Always [`BASELINE_FORMAT`] for this version.
    pub format: String,
    /// Who the surface is of (a label for people; not compared).
    pub server: String,
    /// When it was taken, milliseconds since the Unix epoch.
    pub taken_ms: u64,
    /// One surface per era the server spoke.
    pub surfaces: Vec<Surface>,
}

/// What a server offered in one era.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Surface {
    pub era: Era,
    /// The revision negotiated.
    pub revision: String,
    /// The server's capabilities as it declared them.
    #[ts(type = "unknown")]
    pub capabilities: Value,
    /// Tool definitions as listed (name, title, description, inputSchema, outputSchema,
    /// annotations, …).
    #[ts(type = "unknown[]")]
    pub tools: Vec<Value>,
    #[ts(type = "unknown[]")]
    pub resources: Vec<Value>,
    #[ts(type = "unknown[]")]
    pub resource_templates: Vec<Value>,
    #[ts(type = "unknown[]")]
    pub prompts: Vec<Value>,
}

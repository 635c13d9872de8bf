//! The checks a case can make on an iteration's outcome, as written in a suite file: one
//! key per check (`- answerContains: "42"`). Evaluation lives in `checks`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::model::On;

/// One check on the outcome of a case (or of one turn, when written on the turn).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub enum Check {
    /// The final answer contains this text (case-insensitive unless `caseSensitive`).
    AnswerContains(TextNeedle),
    /// The final answer matches this regular expression (Rust `regex` syntax; `(?i)` for
    /// case-insensitive).
    AnswerMatches(String),
    /// The final answer is JSON (whole, or in a ```json block) and the value at `path`
    /// (RFC 9535 JSONPath, e.g. `$.total`) matches `equals` (an argument matcher), `exists`
    /// or `matches` (a regular expression).
    AnswerJson(JsonPathCheck),
    /// A tool result (the `CallToolResult`: `$.structuredContent.items[0].id`,
    /// `$.content[0].text`) of `tool` (any tool without it) has a value at `path` (RFC 9535
    /// JSONPath) that `equals` (an argument matcher) or `matches` (a regular expression), or
    /// `exists: true|false`. Passes when some call's result does (`exists: false`: none does).
    JsonPath(ToolJsonPathCheck),
    /// No tool call ended in an error (`isError: true`, an MCP error or a timeout).
    NoToolErrors(On),
    /// `true`: every tool call ended in an error (`isError: true`, an MCP error or a timeout)
    /// and there was one; `false`: none did (as `noToolErrors`).
    IsError(bool),
    /// The turn finished: not failed, not cancelled, not stopped at the step or token limit.
    TurnFinished(On),
    /// At most this many model steps (summed over the turns checked).
    MaxSteps(u32),
    /// At most this many tokens, input plus output.
    MaxTokens(u64),
    /// At most this cost in US dollars (fails when the model has no price).
    MaxCostUsd(f64),
    /// At most this wall time in milliseconds.
    MaxLatencyMs(u64),
    /// The first tool call was this tool.
    FirstTool(String),
    /// Some call of `tool` returned a result matching `matches` (a matcher over the
    /// `CallToolResult`, e.g. `{ structuredContent: { sum: 42 } }`).
    ToolResult(ToolResultCheck),
    /// Every call of `tool` (or of any tool with a UI, without `tool`) rendered its app in
    /// headless Chromium under the host profile: it initialized, with no CSP violation and no
    /// uncaught exception or unhandled rejection (console errors are `noConsoleErrors`'s).
    AppRendered(AppRenderedCheck),
    /// No app rendered for the checked calls logged with `console.error` (stricter than
    /// `appRendered`). Fails when no app was rendered.
    NoConsoleErrors(On),
    /// Every app rendered for the checked calls was ready (it sent
    /// `ui/notifications/initialized`) within this many milliseconds of the render page's
    /// start, as `mcplab apps render` reports `readyMs`. Fails when no app was rendered or one
    /// never initialized.
    MaxRenderMs(u64),
    /// An external command judges the iteration: it gets `{case, model, iteration, trace}` as
    /// JSON on stdin and prints `{"pass": true|false, "score": 0.8, "reason": "…"}` (score
    /// optional). A nonzero exit, no JSON, or no answer within the timeout (default 30 s)
    /// fails the check with what went wrong. It runs in the suite file's folder, with the
    /// environment a stdio server gets, and is listed with the servers before a run starts.
    /// Case-level only (it sees every turn).
    Command(CommandCheck),
}

/// `answerContains: "42"` or `answerContains: { text: "42", caseSensitive: true }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum TextNeedle {
    Text(String),
    Detailed(DetailedNeedle),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DetailedNeedle {
    #[schemars(length(min = 1))]
    pub text: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub case_sensitive: bool,
}

impl TextNeedle {
    pub fn text(&self) -> &str {
        match self {
            TextNeedle::Text(text) => text,
            TextNeedle::Detailed(d) => &d.text,
        }
    }
    pub fn case_sensitive(&self) -> bool {
        matches!(self, TextNeedle::Detailed(d) if d.case_sensitive)
    }
}

/// `answerJson: { path: $.total, equals: 42 }`: one of `equals`, `exists`, `matches`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JsonPathCheck {
    /// An RFC 9535 JSONPath, e.g. `$.total` or `$.items[?@.id == 3].name`.
    #[schemars(length(min = 1))]
    pub path: String,
    /// The value there matches this (an argument matcher: plain JSON, `"<number>"`, `$regex` …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub equals: Option<Value>,
    /// `true`: the path finds something; `false`: it finds nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exists: Option<bool>,
    /// The value there is a string (numbers and booleans as written in JSON) matching this
    /// regular expression (Rust `regex` syntax).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matches: Option<String>,
}

/// `jsonPath: { tool: list_orders, path: "$.structuredContent.items[0].id", equals: 3 }`:
/// one of `equals`, `exists`, `matches`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ToolJsonPathCheck {
    /// The tool whose results are looked at (every call of it); without it, every call's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The server's name, when several servers have a tool of that name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// An RFC 9535 JSONPath over the `CallToolResult`, e.g. `$.structuredContent.total`.
    #[schemars(length(min = 1))]
    pub path: String,
    /// The value there matches this (an argument matcher: plain JSON, `"<number>"`, `$regex` …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub equals: Option<Value>,
    /// `true`: some result has something there; `false`: no result has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exists: Option<bool>,
    /// The value there is a string (numbers and booleans as written in JSON) matching this
    /// regular expression (Rust `regex` syntax).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matches: Option<String>,
}

impl ToolJsonPathCheck {
    /// The assertion part, as `answerJson` writes it.
    pub fn assertion(&self) -> JsonPathCheck {
        JsonPathCheck {
            path: self.path.clone(),
            equals: self.equals.clone(),
            exists: self.exists,
            matches: self.matches.clone(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ToolResultCheck {
    #[schemars(length(min = 1))]
    pub tool: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    pub matches: Value,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AppRenderedCheck {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
}

/// Seconds a check command gets when the suite does not say.
pub const DEFAULT_COMMAND_TIMEOUT_SECS: u32 = 30;

/// `command: python3 checks/totals.py` or `command: { run: …, timeoutSeconds: 10 }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum CommandCheck {
    /// The command line (split as a shell would split words; no shell runs it).
    Line(#[schemars(length(min = 1))] String),
    Detailed(DetailedCommand),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DetailedCommand {
    /// The command line (split as a shell would split words; no shell runs it).
    #[schemars(length(min = 1))]
    pub run: String,
    /// Seconds it may take (default 30); past them it is killed and the check fails.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 3600))]
    pub timeout_seconds: Option<u32>,
}

impl CommandCheck {
    /// The command line as written.
    pub fn line(&self) -> &str {
        match self {
            CommandCheck::Line(line) => line,
            CommandCheck::Detailed(d) => &d.run,
        }
    }

    /// The program and its arguments; `Err` says why the line does not split.
    pub fn argv(&self) -> Result<Vec<String>, String> {
        let words = shell_words::split(self.line())
            .map_err(|e| format!("the command line does not split into words: {e}"))?;
        if words.is_empty() {
            return Err("the command line is empty".into());
        }
        Ok(words)
    }

    pub fn timeout_seconds(&self) -> u32 {
        match self {
            CommandCheck::Line(_) => DEFAULT_COMMAND_TIMEOUT_SECS,
            CommandCheck::Detailed(d) => d.timeout_seconds.unwrap_or(DEFAULT_COMMAND_TIMEOUT_SECS),
        }
    }
}

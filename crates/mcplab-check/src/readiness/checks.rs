//! The checks both directories share, each a plain function over the listed tools: explicit
//! annotations, annotations that contradict the tool's name or description, catch-all tools
//! that mix safe and unsafe HTTP methods, custom query tools, input properties that ask for
//! conversation data or secrets, name length, descriptions, and the transport and URL a
//! directory connects to.

use std::sync::LazyLock;

use mcplab_protocol::ServerTransport;
use mcplab_protocol::check::Severity;
use regex::Regex;
use serde_json::Value;

use crate::findings::{At, Findings};
use crate::recording::Recording;
use crate::rule::Rule;

/// A tool as listed, with the frame and JSON path that carried it when the recorded frame
/// holds it (a frame too large for the traffic log is kept only in part).
pub(super) struct Listed<'a> {
    pub name: String,
    pub tool: Value,
    pub place: Option<(&'a mcplab_protocol::TrafficFrame, String)>,
}

impl Listed<'_> {
    /// Where a finding about this tool (or `sub`, a path below it) points.
    pub(super) fn at(&self, sub: &str) -> At {
        match &self.place {
            Some((frame, path)) => At::frame(frame).path(format!("{path}{sub}")),
            None => {
                let part = if sub.is_empty() {
                    Some(&self.tool)
                } else {
                    self.tool.pointer(sub)
                };
                At::default().excerpt(part.map(Value::to_string).unwrap_or_default())
            }
        }
    }

    pub(super) fn description(&self) -> &str {
        self.tool
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    /// An annotation hint as given (None when left out).
    pub(super) fn hint(&self, key: &str) -> Option<bool> {
        self.tool.pointer(&format!("/annotations/{key}"))?.as_bool()
    }

    /// The input properties: (name, schema).
    pub(super) fn properties(&self) -> Vec<(&str, &Value)> {
        self.tool
            .pointer("/inputSchema/properties")
            .and_then(Value::as_object)
            .map(|m| m.iter().map(|(k, v)| (k.as_str(), v)).collect())
            .unwrap_or_default()
    }
}

/// Every tool listed, in order, each with the frame that carried it when it can be found.
pub(super) fn tools(rec: &Recording) -> Vec<Listed<'_>> {
    let mut places: Vec<(&mcplab_protocol::TrafficFrame, String, Value)> = Vec::new();
    for answer in rec
        .results()
        .into_iter()
        .filter(|a| a.method == "tools/list")
    {
        let items = answer.result.get("tools").and_then(Value::as_array);
        for (i, tool) in items.into_iter().flatten().enumerate() {
            places.push((answer.frame, format!("/result/tools/{i}"), tool.clone()));
        }
    }
    rec.tools()
        .iter()
        .map(|tool| Listed {
            name: tool
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("?")
                .to_owned(),
            tool: tool.clone(),
            place: places
                .iter()
                .find(|(_, _, t)| t == tool)
                .map(|(frame, path, _)| (*frame, path.clone())),
        })
        .collect()
}

/// Words in names or descriptions that say a tool changes things.
static WRITES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:^|[_\-\s.])(delete|remove|drop|destroy|purge|erase|wipe|update|create|write|send|post|put|patch|insert|modify|edit|move|rename|upload|publish|cancel|revoke|grant|pay|transfer|execute|submit|set|add)(?:[_\-\s.]|e?s\b|$)").expect("regex")
});
/// Words that say a tool only reads.
static READS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(get|list|search|read|fetch|find|query|lookup|show|describe|view|count|check)(?:[_\-.]|$)").expect("regex")
});
static DESTROYS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:^|[_\-.])(delete|remove|drop|destroy|purge|erase|wipe)(?:[_\-.]|$)")
        .expect("regex")
});

/// A name with its camelCase humps split by `_` (`sendEmail` → `send_Email`).
fn words(name: &str) -> String {
    let mut out = String::new();
    let mut lower = false;
    for c in name.chars() {
        if c.is_uppercase() && lower {
            out.push('_');
        }
        lower = c.is_lowercase() || c.is_ascii_digit();
        out.push(c);
    }
    out
}

/// Annotations that contradict the tool's name: read-only yet named for writing, or
/// not destructive yet named for deleting, or both read-only and destructive.
pub(super) fn dishonest(t: &Listed, rule: &Rule, f: &mut Findings) {
    let (ro, destructive) = (t.hint("readOnlyHint"), t.hint("destructiveHint"));
    let name = &t.name;
    let split = words(name);
    let sub = "/annotations";
    if ro == Some(true) && destructive == Some(true) {
        f.add(
            rule,
            format!("tool `{name}` is annotated both readOnlyHint: true and destructiveHint: true"),
            t.at(sub),
        );
    } else if ro == Some(true) && WRITES.is_match(&split) && !READS.is_match(&split) {
        f.add(
            rule,
            format!(
                "tool `{name}` is annotated readOnlyHint: true, but its name says it changes things"
            ),
            t.at(sub),
        );
    } else if destructive == Some(false) && DESTROYS.is_match(&split) {
        f.add(
            rule,
            format!(
                "tool `{name}` is annotated destructiveHint: false, but its name says it deletes"
            ),
            t.at(sub),
        );
    }
}

/// Properties whose name asks for an HTTP method.
const METHOD_KEYS: &[&str] = &["method", "http_method", "httpMethod", "verb", "http_verb"];
const SAFE: &[&str] = &["GET", "HEAD", "OPTIONS"];
const UNSAFE: &[&str] = &["POST", "PUT", "PATCH", "DELETE"];
/// Properties that take a free-form endpoint.
const ENDPOINT_KEYS: &[&str] = &["endpoint", "path", "api_path", "url_path", "route"];

/// A catch-all tool: one HTTP method parameter that allows both safe and unsafe methods (an
/// enum of both, or a free string beside a free endpoint).
pub(super) fn catch_all(t: &Listed) -> Option<String> {
    let props = t.properties();
    let has_endpoint = props.iter().any(|(k, _)| ENDPOINT_KEYS.contains(k));
    for (k, schema) in &props {
        if !METHOD_KEYS.contains(k) {
            continue;
        }
        let Some(values) = schema.get("enum").and_then(Value::as_array) else {
            if has_endpoint {
                return Some(format!("`{k}` takes any HTTP method for any endpoint"));
            }
            continue;
        };
        let upper: Vec<String> = values
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_uppercase)
            .collect();
        let safe = upper.iter().any(|m| SAFE.contains(&m.as_str()));
        let unsafe_ = upper.iter().any(|m| UNSAFE.contains(&m.as_str()));
        if safe && unsafe_ {
            return Some(format!(
                "`{k}` allows both safe and unsafe HTTP methods ({})",
                upper.join(", ")
            ));
        }
    }
    None
}

/// A custom query tool (a free endpoint) whose description names no API or link.
pub(super) fn unreferenced_query(t: &Listed) -> Option<String> {
    let props = t.properties();
    let key = props
        .iter()
        .map(|(k, _)| *k)
        .find(|k| ENDPOINT_KEYS.contains(k))?;
    let d = t.description();
    let names_api = d.contains("http://") || d.contains("https://") || d.contains("API");
    (!names_api).then(|| {
        format!("takes a free-form `{key}`, and its description names no API or documentation link")
    })
}

static CONVERSATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(conversation|conversation_history|chat_history|chathistory|chat_log|history|messages|transcript|full_context|conversation_context|chat_context|memory|memories)$").expect("regex")
});
static SECRET: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(password|passwd|passcode|pin|ssn|social_security(_number)?|credit_card(_number)?|card_number|cvv|cvc|api_?key|access_token|secret|client_secret|private_key)$").expect("regex")
});

static MONEY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:^|[_\-.])(?:pay|payout|withdraw)(?:[_\-.]|$)|(?:transfer|send|wire)[_\-]?(?:money|funds|payment|crypto|coins?|bitcoin)").expect("regex")
});

/// A tool whose name says it moves money.
pub(super) fn moves_money(t: &Listed) -> bool {
    MONEY.is_match(&words(&t.name))
}

/// An input property that asks for conversation data.
pub(super) fn asks_conversation<'a>(t: &'a Listed) -> Option<&'a str> {
    t.properties()
        .into_iter()
        .map(|(k, _)| k)
        .find(|k| CONVERSATION.is_match(k))
}

/// An input property that asks for a secret or sensitive identifier.
pub(super) fn asks_secret<'a>(t: &'a Listed) -> Option<&'a str> {
    t.properties()
        .into_iter()
        .map(|(k, _)| k)
        .find(|k| SECRET.is_match(k))
}

/// A remote URL's problem for a directory: not remote, not HTTPS, or only on this machine.
enum Reach {
    Stdio,
    Sse(String),
    PlainHttp(String),
    Loopback(String),
    Fine,
}

fn reach(rec: &Recording) -> Reach {
    let url = match &rec.config.transport {
        ServerTransport::Stdio { .. } => return Reach::Stdio,
        ServerTransport::Sse { url, .. } => return Reach::Sse(url.clone()),
        ServerTransport::Http { url, .. } => url.clone(),
    };
    let Ok(u) = url::Url::parse(&url) else {
        return Reach::Fine;
    };
    let loopback = matches!(
        u.host_str(),
        Some("localhost" | "127.0.0.1" | "[::1]" | "::1")
    );
    if loopback {
        Reach::Loopback(url)
    } else if u.scheme() != "https" {
        Reach::PlainHttp(url)
    } else {
        Reach::Fine
    }
}

/// Reports under `rule` how a directory would reach the server: a stdio server at the
/// rule's own severity (`stdio` says what the directory takes instead), the old HTTP+SSE
/// transport as a warning, plain HTTP as an error, a loopback URL as information.
pub(super) fn report_reach(rec: &Recording, rule: &Rule, stdio: &str, f: &mut Findings) {
    let (severity, message) = match reach(rec) {
        Reach::Stdio => (rule.severity(), format!("a stdio server: {stdio}")),
        Reach::Sse(url) => (
            Severity::Warning,
            format!("{url} uses the old HTTP+SSE transport"),
        ),
        Reach::PlainHttp(url) => (Severity::Error, format!("{url} is not HTTPS")),
        Reach::Loopback(url) => (
            Severity::Info,
            format!("{url} is on this machine: check the deployed URL too"),
        ),
        Reach::Fine => return,
    };
    f.add_with(rule, severity, message, At::default());
}

/// Whether the config sends a static Authorization header (a pasted bearer token).
pub(super) fn static_bearer(rec: &Recording) -> bool {
    let headers = match &rec.config.transport {
        ServerTransport::Http { headers, .. } | ServerTransport::Sse { headers, .. } => headers,
        ServerTransport::Stdio { .. } => return false,
    };
    headers
        .keys()
        .any(|k| k.eq_ignore_ascii_case("authorization"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_words() {
        assert!(WRITES.is_match("delete_file") && WRITES.is_match(&words("sendEmail")));
        assert!(WRITES.is_match("send-email") && WRITES.is_match("files.update"));
        assert!(!WRITES.is_match("get_settings") && !WRITES.is_match("search"));
        assert!(READS.is_match("get_updates") && DESTROYS.is_match("remove_user"));
        assert!(CONVERSATION.is_match("chat_history") && !CONVERSATION.is_match("message_id"));
        assert!(SECRET.is_match("apiKey") && !SECRET.is_match("page_token"));
        assert!(MONEY.is_match(&words("transferFunds")) && MONEY.is_match("pay"));
        assert!(!MONEY.is_match("send_email") && !MONEY.is_match("get_payment_status"));
    }
}

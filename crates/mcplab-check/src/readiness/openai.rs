//! OpenAI's app directory (`--readiness openai`): the requirements of its app submission
//! guidelines and Apps SDK reference that can be checked from outside the server. Read on
//! 2026-12-06 through search excerpts of the pages and of a mirror of the Apps SDK docs
//! (the pages themselves were not fetched); each rule cites the page.

use std::collections::HashMap;

use mcplab_protocol::check::RuleSet;

use super::checks;
use crate::apps::csp;
use crate::findings::{At, Findings};
use crate::options::CheckOptions;
use crate::recording::Recording;
use crate::rule::{Level, Rule, RuleTable, Source};

const OPENAI: RuleTable = RuleTable::new(RuleSet::ReadinessOpenai).read_on("2026-12-06");
const GUIDELINES: Source =
    OPENAI.page("https://developers.openai.com/apps-sdk/app-developer-guidelines");
const REFERENCE: Source = OPENAI.page("https://developers.openai.com/apps-sdk/reference");

pub(crate) const ANNOTATIONS: Rule = OPENAI.rule(
    "openai-annotations",
    Level::Must,
    "every tool sets readOnlyHint, destructiveHint and openWorldHint explicitly (true or false, not left out)",
    GUIDELINES,
    "set all three hints on every tool, from what the tool actually does",
);
pub(crate) const HONEST: Rule = OPENAI.rule(
    "openai-annotation-honesty",
    Level::Must,
    "annotations match the tool's behaviour (a tool that writes is not read-only)",
    GUIDELINES,
    "set readOnlyHint: true only for tools that strictly read; destructiveHint: true for anything that deletes or overwrites",
);
pub(crate) const NAMES: Rule = OPENAI.rule(
    "openai-tool-names",
    Level::Must,
    "tool names are specific, descriptive and unique within the app",
    GUIDELINES,
    "name each tool for the one action it performs (search_tickets, not run)",
);
pub(crate) const DESCRIPTION: Rule = OPENAI.rule(
    "openai-tool-description",
    Level::Must,
    "every tool has a description that matches what it does",
    GUIDELINES,
    "describe what the tool does and when to use it; no promotion, no steering away from other apps",
);
pub(crate) const CATCH_ALL: Rule = OPENAI.rule(
    "openai-catch-all",
    Level::Must,
    "no catch-all tool that takes any HTTP method or endpoint",
    GUIDELINES,
    "give each action its own tool, read and write separated",
);
pub(crate) const MINIMAL_INPUTS: Rule = OPENAI.rule(
    "openai-minimal-inputs",
    Level::Must,
    "tools do not ask for the conversation, chat history or broad context",
    GUIDELINES,
    "ask only for the fields the action needs",
);
pub(crate) const SENSITIVE: Rule = OPENAI.rule(
    "openai-sensitive-data",
    Level::Must,
    "tools do not collect passwords, API keys, payment card or government identifiers in their inputs",
    GUIDELINES,
    "use OAuth for access; never ask the model to pass secrets or regulated identifiers",
);
pub(crate) const REMOTE: Rule = OPENAI.rule(
    "openai-remote",
    Level::Must,
    "the app is a remote MCP server at a public HTTPS URL",
    GUIDELINES,
    "deploy the server over streamable HTTP at a public HTTPS domain",
);
pub(crate) const WIDGET_CSP: Rule = OPENAI.rule(
    "openai-widget-csp",
    Level::Must,
    "every widget declares its CSP (openai/widgetCSP or _meta.ui.csp)",
    REFERENCE,
    "declare connect and resource domains for the widget, even when empty",
);
pub(crate) const OUTPUT_SCHEMA: Rule = OPENAI.rule(
    "openai-output-schema",
    Level::Note,
    "tools declare an outputSchema (the submission review warns without one)",
    REFERENCE,
    "declare outputSchema and return matching structuredContent",
);

pub(crate) const RULES: &[Rule] = &[
    ANNOTATIONS,
    HONEST,
    NAMES,
    DESCRIPTION,
    CATCH_ALL,
    MINIMAL_INPUTS,
    SENSITIVE,
    REMOTE,
    WIDGET_CSP,
    OUTPUT_SCHEMA,
];

/// Names that say nothing about the action.
const GENERIC: &[&str] = &[
    "tool", "run", "execute", "exec", "do", "action", "call", "api", "request", "query", "invoke",
    "handle", "process", "main", "test",
];

pub(crate) fn judge(rec: &Recording, _: &CheckOptions, f: &mut Findings) {
    let listed = checks::tools(rec);
    let mut seen: HashMap<String, usize> = HashMap::new();
    for t in &listed {
        let name = &t.name;
        let missing: Vec<&str> = ["readOnlyHint", "destructiveHint", "openWorldHint"]
            .into_iter()
            .filter(|h| t.hint(h).is_none())
            .collect();
        if !missing.is_empty() {
            f.add(
                &ANNOTATIONS,
                format!("tool `{name}` does not set {}", missing.join(", ")),
                t.at(""),
            );
        }
        checks::dishonest(t, &HONEST, f);
        if GENERIC.contains(&name.to_lowercase().as_str()) {
            f.add(
                &NAMES,
                format!("tool `{name}` has a generic name that does not say what it does"),
                t.at("/name"),
            );
        }
        *seen.entry(name.clone()).or_default() += 1;
        if t.description().trim().is_empty() {
            f.add(
                &DESCRIPTION,
                format!("tool `{name}` has no description"),
                t.at(""),
            );
        }
        if let Some(why) = checks::catch_all(t) {
            f.add(
                &CATCH_ALL,
                format!("tool `{name}` is a catch-all: {why}"),
                t.at("/inputSchema"),
            );
        }
        if let Some(p) = checks::asks_conversation(t) {
            f.add(
                &MINIMAL_INPUTS,
                format!("tool `{name}` asks for `{p}`"),
                t.at("/inputSchema/properties"),
            );
        }
        if let Some(p) = checks::asks_secret(t) {
            f.add(
                &SENSITIVE,
                format!("tool `{name}` asks for `{p}`"),
                t.at("/inputSchema/properties"),
            );
        }
        if t.tool.get("outputSchema").is_none() {
            f.add(
                &OUTPUT_SCHEMA,
                format!("tool `{name}` declares no outputSchema"),
                t.at(""),
            );
        }
    }
    for (name, n) in seen.into_iter().filter(|(_, n)| *n > 1) {
        f.add(
            &NAMES,
            format!("tool name `{name}` is listed {n} times"),
            At::default(),
        );
    }
    checks::report_reach(
        rec,
        &REMOTE,
        "ChatGPT connects only to remote MCP servers",
        f,
    );
    for app in rec.apps.iter().flatten() {
        if let Some(c) = app.content()
            && !csp(&c.meta).declared
        {
            f.add(
                &WIDGET_CSP,
                format!(
                    "widget {} (for {}) declares no CSP",
                    app.uri,
                    app.tools.join(", ")
                ),
                At::default(),
            );
        }
    }
}

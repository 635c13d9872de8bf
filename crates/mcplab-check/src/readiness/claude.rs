//! Anthropic's connector directory (`--readiness claude`): the requirements of its review
//! criteria, its software directory policy and its authentication page that can be checked
//! from outside the server. Read on 2026-12-06 through search excerpts of the pages (the
//! pages themselves were not fetched); each rule cites the page.

use mcplab_protocol::check::RuleSet;

use super::checks;
use crate::findings::{At, Findings};
use crate::options::CheckOptions;
use crate::recording::Recording;
use crate::rule::{Level, Rule, RuleTable, Source};

const CLAUDE: RuleTable = RuleTable::new(RuleSet::ReadinessClaude).read_on("2026-12-06");
const CRITERIA: Source = CLAUDE.page("https://claude.com/docs/connectors/building/review-criteria");
const POLICY: Source = CLAUDE
    .page("https://support.claude.com/en/articles/13145358-anthropic-software-directory-policy");
const AUTH: Source = CLAUDE.page("https://claude.com/docs/connectors/building/authentication");

pub(crate) const ANNOTATIONS: Rule = CLAUDE.rule(
    "claude-annotations",
    Level::Must,
    "every tool has a title and the applicable hint (readOnlyHint or destructiveHint)",
    CRITERIA,
    "add annotations.title and readOnlyHint: true (read-only tools) or destructiveHint (tools that modify or delete)",
);
pub(crate) const HONEST: Rule = CLAUDE.rule(
    "claude-annotation-honesty",
    Level::Must,
    "annotations match what the tool does (no read-only tool named for writing, no harmless delete)",
    CRITERIA,
    "set the hints from what the tool does: reviewers call every tool and compare",
);
pub(crate) const NAME_LENGTH: Rule = CLAUDE.rule(
    "claude-tool-name-length",
    Level::Must,
    "tool names are 64 characters or fewer",
    CRITERIA,
    "shorten the tool name",
);
pub(crate) const SPLIT: Rule = CLAUDE.rule(
    "claude-read-write-split",
    Level::Must,
    "no catch-all tool that takes both safe and unsafe HTTP methods",
    CRITERIA,
    "split it into a read-only tool and one tool per kind of write",
);
pub(crate) const API_DOCS: Rule = CLAUDE.rule(
    "claude-query-api-docs",
    Level::Must,
    "a tool that takes a free-form endpoint names the target API or links its docs",
    CRITERIA,
    "name the API in the description, e.g. \"Queries the Slack Web API — see https://api.slack.com/methods\"",
);
pub(crate) const DESCRIPTION: Rule = CLAUDE.rule(
    "claude-tool-description",
    Level::Must,
    "every tool has a description that says what it does and when to use it",
    CRITERIA,
    "write a narrow description: what the tool does and when the model should call it",
);
pub(crate) const CONVERSATION: Rule = CLAUDE.rule(
    "claude-conversation-data",
    Level::Must,
    "tools do not ask for chat history, memory or conversation data",
    POLICY,
    "take only the arguments the tool needs; never the conversation",
);
pub(crate) const FINANCIAL: Rule = CLAUDE.rule(
    "claude-financial-transactions",
    Level::Should,
    "no tools that transfer money or execute financial transactions",
    CLAUDE.page("https://support.claude.com/en/articles/11697096-anthropic-mcp-directory-policy"),
    "remove tools that move money; the directory does not accept them",
);
pub(crate) const REMOTE: Rule = CLAUDE.rule(
    "claude-remote-transport",
    Level::Should,
    "the connector is a remote server over streamable HTTP at a public HTTPS URL",
    CRITERIA,
    "serve streamable HTTP over HTTPS (SSE is the old transport; local servers ship as desktop extensions)",
);
pub(crate) const STATIC_BEARER: Rule = CLAUDE.rule(
    "claude-auth",
    Level::Must,
    "authentication is OAuth (or none): Claude does not take pasted bearer tokens",
    AUTH,
    "protect the server with OAuth (client ID metadata documents or dynamic client registration)",
);

pub(crate) const RULES: &[Rule] = &[
    ANNOTATIONS,
    HONEST,
    NAME_LENGTH,
    SPLIT,
    API_DOCS,
    DESCRIPTION,
    CONVERSATION,
    FINANCIAL,
    REMOTE,
    STATIC_BEARER,
];

pub(crate) fn judge(rec: &Recording, _: &CheckOptions, f: &mut Findings) {
    for t in checks::tools(rec) {
        let name = &t.name;
        let title = t
            .tool
            .get("title")
            .or_else(|| t.tool.pointer("/annotations/title"));
        let hint = t.hint("readOnlyHint").is_some() || t.hint("destructiveHint").is_some();
        if title.is_none() || !hint {
            let missing = match (title.is_none(), hint) {
                (true, false) => "no title and neither readOnlyHint nor destructiveHint",
                (true, true) => "no title",
                _ => "neither readOnlyHint nor destructiveHint",
            };
            f.add(
                &ANNOTATIONS,
                format!("tool `{name}` has {missing}"),
                t.at(""),
            );
        }
        checks::dishonest(&t, &HONEST, f);
        if name.chars().count() > 64 {
            f.add(
                &NAME_LENGTH,
                format!("tool `{name}` is {} characters long", name.chars().count()),
                t.at("/name"),
            );
        }
        if let Some(why) = checks::catch_all(&t) {
            f.add(
                &SPLIT,
                format!("tool `{name}` is a catch-all: {why}"),
                t.at("/inputSchema"),
            );
        }
        if let Some(why) = checks::unreferenced_query(&t) {
            f.add(
                &API_DOCS,
                format!("tool `{name}` {why}"),
                t.at("/description"),
            );
        }
        if t.description().trim().is_empty() {
            f.add(
                &DESCRIPTION,
                format!("tool `{name}` has no description"),
                t.at(""),
            );
        }
        if let Some(p) = checks::asks_conversation(&t) {
            f.add(
                &CONVERSATION,
                format!("tool `{name}` asks for `{p}`"),
                t.at("/inputSchema/properties"),
            );
        }
        if checks::moves_money(&t) {
            f.add(
                &FINANCIAL,
                format!("tool `{name}` looks like it moves money"),
                t.at(""),
            );
        }
    }
    checks::report_reach(
        rec,
        &REMOTE,
        "the connector directory lists remote servers (local ones ship as desktop extensions)",
        f,
    );
    if checks::static_bearer(rec) {
        f.add(
            &STATIC_BEARER,
            "the server is reached with a static Authorization header".into(),
            At::default(),
        );
    }
}

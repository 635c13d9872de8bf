//! The security set's rules with their sources: the MCP specification where it states a
//! requirement (authorization, security best practices), and public write-ups of the attacks
//! with the date they were read.

use mcplab_protocol::check::RuleSet;

use crate::rule::{Level, Rule, RuleTable, Source};

const SECURITY: RuleTable = RuleTable::new(RuleSet::Security).read_on("2026-12-06");

const INVARIANT: Source =
    SECURITY.page("https://invariantlabs.ai/blog/mcp-security-notification-tool-poisoning-attacks");

pub(super) const HIDDEN_UNICODE: Rule = SECURITY.rule(
    "hidden-unicode",
    Level::Must,
    "no invisible characters (tag characters, zero-width, bidi controls, control codes) in what the model reads",
    SECURITY.page("https://trojansource.codes/"),
    "remove the invisible characters: people reviewing the tool cannot see what the model reads",
);
pub(super) const POISONING: Rule = SECURITY.rule(
    "tool-poisoning",
    Level::Must,
    "no instructions to the model in descriptions or schemas (overriding, concealing, exfiltrating)",
    INVARIANT,
    "describe what the tool does; never tell the model to ignore instructions, hide things from the user or send data elsewhere",
);
pub(super) const SENSITIVE_FILE: Rule = SECURITY.rule(
    "sensitive-file",
    Level::Should,
    "descriptions do not point the model at credentials or configuration files (~/.ssh, mcp.json, .env)",
    INVARIANT,
    "do not ask the model to read or pass credential files; take what the tool needs as explicit arguments",
);
pub(super) const SHADOWING: Rule = SECURITY.rule(
    "tool-shadowing",
    Level::Must,
    "descriptions do not steer the model away from other tools or servers, or change how they behave",
    INVARIANT,
    "describe this tool only: no \"use this instead of…\", no rules for other tools or servers",
);
pub(super) const NAME_COLLISION: Rule = SECURITY.rule(
    "tool-name-collision",
    Level::Should,
    "tool names do not collide with another configured server's tools",
    INVARIANT,
    "give tools distinctive names (e.g. a prefix of your service): a host that does not prefix names offers the model two tools of that name",
);
pub(super) const SECRET_IN_URL: Rule = SECURITY.rule(
    "secret-in-url",
    Level::Must,
    "no tokens, keys or passwords in URLs (they end up in logs, histories and referrers)",
    Source::Spec("basic/authorization#access-token-usage"),
    "take credentials in the Authorization header, never in the URL's query or user info",
);
pub(super) const PLAIN_HTTP_AUTH: Rule = SECURITY.rule(
    "plain-http-auth",
    Level::Must,
    "credentials and authorization endpoints only over HTTPS (loopback excepted)",
    Source::Spec("basic/authorization#communication-security"),
    "serve the endpoint, its protected resource metadata and the authorization server over HTTPS",
);

pub(crate) const RULES: &[Rule] = &[
    HIDDEN_UNICODE,
    POISONING,
    SENSITIVE_FILE,
    SHADOWING,
    NAME_COLLISION,
    SECRET_IN_URL,
    PLAIN_HTTP_AUTH,
];

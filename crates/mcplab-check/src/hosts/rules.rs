//! The hosts set's rules. Each compares what the server needs with one part of a host
//! profile; a finding's severity follows its verdict (blocked → error, degraded → warning,
//! unknown → info) and its source is the profile field's own public source when the profile
//! names one — the rule's source below is the general requirement.

use mcplab_protocol::check::RuleSet;

use crate::rule::{Level, Rule, RuleTable, Source};

const HOSTS: RuleTable = RuleTable::new(RuleSet::Hosts).read_on("2026-12-06");

const MCP_APPS: Source = HOSTS.page(
    "https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx",
);

pub(super) const PROTOCOL: Rule = HOSTS.rule(
    "host-protocol",
    Level::Must,
    "the server speaks the protocol revision the host asks for",
    Source::Spec("basic/lifecycle#version-negotiation"),
    "also serve the 2025 handshake (initialize) while hosts still ask for 2025 revisions",
);
pub(super) const CAPABILITY: Rule = HOSTS.rule(
    "host-capability",
    Level::Should,
    "what the server asks of the client (sampling, elicitation, roots, tasks, skills) is declared by the host",
    Source::Spec("basic/lifecycle#capability-negotiation"),
    "check the client's capabilities before asking, and give a useful result without them",
);
pub(super) const TOOL_LIMIT: Rule = HOSTS.rule(
    "host-tool-limit",
    Level::Should,
    "the tools the model sees fit the host's tool limit",
    HOSTS.page("https://cursor.com/docs/context/mcp"),
    "offer fewer tools (merge near-duplicates, hide app-only tools from the model with _meta.ui.visibility)",
);
pub(super) const TOOL_NAME: Rule = HOSTS.rule(
    "host-tool-name",
    Level::Should,
    "tool names fit what model APIs accept ([A-Za-z0-9_-], at most 64 characters, with the host's prefix)",
    HOSTS.page("https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use"),
    "use short names of letters, digits, _ and -: a host renames (or drops) others",
);
/// Claude Code's MCP page states its cut ("truncates tool descriptions and server instructions
/// at 2KB each"); Claude Code has no profile, and no profile's host documents a limit, so no
/// profile has a field for one: the rule says so, as information.
pub(super) const DESCRIPTION: Rule = HOSTS.rule(
    "host-description-length",
    Level::Note,
    "tool descriptions over 2 KB, where Claude Code cuts them; no host profile states a description limit",
    HOSTS.page("https://code.claude.com/docs/en/mcp"),
    "put what the model must know first and keep descriptions under 2 KB",
);
pub(super) const RESULTS: Rule = HOSTS.rule(
    "host-structured-content",
    Level::Should,
    "results the model needs reach it in this host (structuredContent vs text)",
    Source::Spec("server/tools#structured-content"),
    "also return the structured result as JSON text in a text content block",
);
pub(super) const APP_RENDER: Rule = HOSTS.rule(
    "host-app-render",
    Level::Should,
    "the host renders the tool's app kind (MCP Apps view, OpenAI widget)",
    MCP_APPS,
    "link an MCP Apps view (_meta.ui.resourceUri) as well as an OpenAI template, so every app host shows it",
);
pub(super) const APP_CAPABILITY: Rule = HOSTS.rule(
    "host-app-capability",
    Level::Should,
    "what the app asks of the host (links, downloads, messages, model context, server tools, window.openai) is offered",
    MCP_APPS,
    "check hostCapabilities from ui/initialize before using a request, and degrade gracefully",
);
pub(super) const DISPLAY_MODE: Rule = HOSTS.rule(
    "host-display-mode",
    Level::Should,
    "the display modes the app asks for are offered by the host",
    MCP_APPS,
    "check availableDisplayModes in the host context before asking for fullscreen or pip",
);
pub(super) const CSP: Rule = HOSTS.rule(
    "host-app-csp",
    Level::Must,
    "every origin the app loads or connects to is declared in its CSP (hosts enforce it)",
    MCP_APPS,
    "declare the origins in _meta.ui.csp (connectDomains, resourceDomains, frameDomains) or openai/widgetCSP",
);
pub(super) const APP_READ: Rule = HOSTS.rule(
    "host-app-read",
    Level::Must,
    "the app resource a tool links can be read",
    MCP_APPS,
    "serve the ui:// resource the tool's _meta names, with its HTML as text",
);
pub(super) const LIVE: Rule = HOSTS.rule(
    "host-app-live",
    Level::Must,
    "rendered under the host's profile, the app initializes without errors or refused requests",
    MCP_APPS,
    "open the app with `mcplab apps render --host NAME` and fix what its report shows",
);

pub(crate) const RULES: &[Rule] = &[
    PROTOCOL,
    CAPABILITY,
    TOOL_LIMIT,
    TOOL_NAME,
    DESCRIPTION,
    RESULTS,
    APP_RENDER,
    APP_CAPABILITY,
    DISPLAY_MODE,
    CSP,
    APP_READ,
    LIVE,
];

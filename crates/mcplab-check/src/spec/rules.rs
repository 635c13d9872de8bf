//! Every rule of the spec set: a stable id, the requirement level the specification states
//! (MUST → error, SHOULD → warning, otherwise info), the section it comes from and the fix.
//! The rules' logic lives in `frames`, `tools` and `behaviour`; this table keeps ids,
//! sections and advice in one place.

use mcplab_protocol::check::RuleSet;

use crate::rule::{Level, Rule, RuleTable, Source};

use Level::{Must, Note, Should};

const SPEC: RuleTable = RuleTable::new(RuleSet::Spec);

/// A rule whose source is a section of the specification.
const fn spec(
    id: &'static str,
    level: Level,
    summary: &'static str,
    section: &'static str,
    fix: &'static str,
) -> Rule {
    SPEC.rule(id, level, summary, Source::Spec(section), fix)
}

pub(crate) const CONNECT: Rule = spec(
    "initialize",
    Must,
    "the connection opens: initialize (or server/discover) answers with a valid result",
    "basic/lifecycle#initialization",
    "answer `initialize` (or `server/discover`) with a valid result: protocolVersion, capabilities, serverInfo",
);
pub(crate) const SCHEMA: Rule = spec(
    "schema",
    Must,
    "every message the server sent matches the revision's JSON Schema",
    "schema",
    "make the message match the revision's JSON Schema at the path shown",
);
pub(crate) const CLIENT_SCHEMA: Rule = spec(
    "client-schema",
    Should,
    "every message mcplab sent matches the revision's JSON Schema (a finding is mcplab's bug)",
    "schema",
    "nothing for the server to change: report it to mcplab with the frame shown",
);
pub(crate) const RESPONSE_ID: Rule = spec(
    "response-id",
    Must,
    "responses carry the id of the request they answer, once",
    "basic#responses",
    "answer each request once, with exactly the id it was sent with",
);
pub(crate) const PROBE_ANSWER: Rule = spec(
    "probe-answer",
    Should,
    "a request the revision does not define (mcplab's 2026-07-28 probe) is answered with its own id",
    "basic#responses",
    "answer a method you do not know with error -32601 and the request's id (JSON-RPC: the id, or null when it cannot be read — never a made-up one): a 2026-07-28 client that probes first then falls back at once instead of waiting out its timeout",
);
pub(crate) const NOTIFICATION_ID: Rule = spec(
    "notification-id",
    Must,
    "notifications carry no id",
    "basic#notifications",
    "send notifications without an `id` (a message with an id is a request and expects an answer)",
);
pub(crate) const NOT_JSON_RPC: Rule = spec(
    "stdout-noise",
    Must,
    "stdout (or the HTTP body) carries only JSON-RPC messages",
    "basic/transports#stdio",
    "write logs and banners to stderr: stdout (or the HTTP body) must carry only JSON-RPC messages",
);
pub(crate) const PROTOCOL_VERSION: Rule = spec(
    "protocol-version",
    Must,
    "the negotiated protocol version is one the client offered or a revision that exists",
    "basic/lifecycle#version-negotiation",
    "answer with the client's protocolVersion when you support it, else the latest you support",
);
pub(crate) const PING: Rule = spec(
    "ping",
    Must,
    "ping is answered promptly with an empty result",
    "basic/utilities/ping",
    "answer `ping` promptly with an empty result",
);
pub(crate) const UNDECLARED: Rule = spec(
    "capability-undeclared",
    Should,
    "features in use are declared as capabilities",
    "basic/lifecycle#capability-negotiation",
    "declare the capability in the initialize result, or stop using it",
);
pub(crate) const BROKEN: Rule = spec(
    "capability-broken",
    Must,
    "the methods of every declared capability work",
    "basic/lifecycle#capability-negotiation",
    "serve the methods of every capability you declare, or stop declaring it",
);
pub(crate) const TEMPLATES: Rule = spec(
    "templates-unsupported",
    Note,
    "resources/templates/list answered with method-not-found (allowed: nothing requires templates)",
    "server/resources#resource-templates",
    "answer resources/templates/list with an empty list if you have no templates (clients then need no special case)",
);
pub(crate) const LIST_CHANGED: Rule = spec(
    "list-changed",
    Should,
    "list_changed notifications only with `listChanged: true` declared",
    "server/tools#list-changed-notification",
    "declare `listChanged: true` for that list in the capabilities, or do not send the notification",
);
pub(crate) const PAGINATION: Rule = spec(
    "pagination",
    Must,
    "pages end: every nextCursor is a new string, absent on the last page",
    "server/utilities/pagination",
    "return a new opaque nextCursor per page and leave it out on the last page",
);
pub(crate) const TOOL_NAME: Rule = spec(
    "tool-name",
    Should,
    "tool names are 1–128 characters of A–Z a–z 0–9 _ - .",
    "server/tools#tool-names",
    "use 1–128 characters from A–Z, a–z, 0–9, `_`, `-` and `.` (no spaces), unique per server",
);
pub(crate) const TOOL_DUPLICATE: Rule = spec(
    "tool-duplicate",
    Must,
    "tool names are unique within a server",
    "server/tools#listing-tools",
    "give every tool a unique name",
);
pub(crate) const INPUT_SCHEMA: Rule = spec(
    "input-schema",
    Must,
    "inputSchema is a valid JSON Schema with `type: object`",
    "server/tools#tool",
    "make inputSchema a valid JSON Schema (2020-12 unless `$schema` says otherwise) with `type: object`",
);
pub(crate) const OUTPUT_SCHEMA: Rule = spec(
    "output-schema",
    Must,
    "outputSchema is a valid JSON Schema with `type: object`",
    "server/tools#output-schema",
    "make outputSchema a valid JSON Schema with `type: object`",
);
pub(crate) const REMOTE_REF: Rule = spec(
    "schema-remote-ref",
    Note,
    "a tool schema `$ref` to another document is not resolved (never fetched), so that part is not checked",
    "server/tools#tool",
    "",
);
pub(crate) const STRUCTURED: Rule = spec(
    "structured-content",
    Must,
    "with an outputSchema, results carry structuredContent that conforms to it",
    "server/tools#structured-content",
    "with an outputSchema, return structuredContent that conforms to it (and, for older clients, the same JSON as text)",
);
pub(crate) const INPUT_REQUIRED: Rule = spec(
    "input-required",
    Note,
    "a request answered `input_required`: the rounds are run as the CLI would answer them",
    "basic/utilities/mrtr",
    "",
);
pub(crate) const ANNOTATIONS: Rule = spec(
    "annotations",
    Must,
    "tool annotations have their types: title a string, *Hint booleans",
    "server/tools#tool",
    "tool annotations are hints with fixed types: title a string, the *Hint fields booleans",
);
pub(crate) const CONTENT_TYPE: Rule = spec(
    "content-type",
    Must,
    "tool results use the revision's content types",
    "server/tools#tool-result",
    "use the content types of the revision: text, image, audio, resource_link, resource",
);
pub(crate) const IS_ERROR: Rule = spec(
    "is-error",
    Must,
    "isError is a boolean",
    "server/tools#error-handling",
    "send `isError` as a JSON boolean (true for a failed tool call), or leave it out",
);
pub(crate) const TOOL_LIST_SIZE: Rule = spec(
    "tool-list-size",
    Should,
    "the tool definitions fit the token budget (--token-budget)",
    "server/tools#listing-tools",
    "every tool definition is sent to the model on every turn: shorten descriptions and schemas, or split the server",
);
pub(crate) const TOOL_LIST_COST: Rule = spec(
    "tool-list-cost",
    Note,
    "what the tool definitions cost in model tokens per turn",
    "server/tools#listing-tools",
    "",
);

/// The spec set's rules, in the order they are listed.
pub(crate) const RULES: &[Rule] = &[
    CONNECT,
    PROTOCOL_VERSION,
    SCHEMA,
    CLIENT_SCHEMA,
    RESPONSE_ID,
    PROBE_ANSWER,
    NOTIFICATION_ID,
    NOT_JSON_RPC,
    PING,
    UNDECLARED,
    BROKEN,
    TEMPLATES,
    LIST_CHANGED,
    PAGINATION,
    TOOL_NAME,
    TOOL_DUPLICATE,
    INPUT_SCHEMA,
    OUTPUT_SCHEMA,
    REMOTE_REF,
    STRUCTURED,
    INPUT_REQUIRED,
    ANNOTATIONS,
    CONTENT_TYPE,
    IS_ERROR,
    TOOL_LIST_SIZE,
    TOOL_LIST_COST,
];

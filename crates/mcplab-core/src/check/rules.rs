//! Every rule `mcplab check` applies: a stable id, the spec section it comes from, how bad
//! breaking it is, and the fix to suggest. The rules' logic lives in `frames`, `tools` and
//! `probe`; this table keeps ids, sections and advice in one place.

use mcplab_protocol::check::Severity;

/// One rule of the checker.
pub struct Rule {
    pub id: &'static str,
    /// The section, relative to the revision's specification root.
    pub section: &'static str,
    pub severity: Severity,
    pub fix: &'static str,
}

impl Rule {
    /// The section's URL in `revision`.
    pub fn url(&self, revision: &str) -> String {
        format!(
            "https://modelcontextprotocol.io/specification/{revision}/{}",
            self.section
        )
    }
}

const fn rule(
    id: &'static str,
    section: &'static str,
    severity: Severity,
    fix: &'static str,
) -> Rule {
    Rule {
        id,
        section,
        severity,
        fix,
    }
}

use Severity::{Error, Info, Warning};

pub const CONNECT: Rule = rule(
    "initialize",
    "basic/lifecycle#initialization",
    Error,
    "answer `initialize` with a valid InitializeResult (protocolVersion, capabilities, serverInfo)",
);
pub const SCHEMA: Rule = rule(
    "schema",
    "schema",
    Error,
    "make the message match the revision's JSON Schema at the path shown",
);
pub const NOT_JSON_RPC: Rule = rule(
    "stdout-noise",
    "basic/transports#stdio",
    Error,
    "write logs and banners to stderr: stdout (or the HTTP body) must carry only JSON-RPC messages",
);
pub const PROTOCOL_VERSION: Rule = rule(
    "protocol-version",
    "basic/lifecycle#version-negotiation",
    Error,
    "answer with the client's protocolVersion when you support it, else the latest you support",
);
pub const PING: Rule = rule(
    "ping",
    "basic/utilities/ping",
    Error,
    "answer `ping` promptly with an empty result",
);
pub const UNDECLARED: Rule = rule(
    "capability-undeclared",
    "basic/lifecycle#capability-negotiation",
    Warning,
    "declare the capability in the initialize result, or stop using it",
);
pub const BROKEN: Rule = rule(
    "capability-broken",
    "basic/lifecycle#capability-negotiation",
    Error,
    "serve the methods of every capability you declare, or stop declaring it",
);
pub const LIST_CHANGED: Rule = rule(
    "list-changed",
    "server/tools#list-changed-notification",
    Warning,
    "declare `listChanged: true` for that list in the capabilities, or do not send the notification",
);
pub const PAGINATION: Rule = rule(
    "pagination",
    "server/utilities/pagination",
    Error,
    "return a new opaque nextCursor per page and leave it out on the last page",
);
pub const TOOL_NAME: Rule = rule(
    "tool-name",
    "server/tools#tool-names",
    Warning,
    "use 1–128 characters from A–Z, a–z, 0–9, `_`, `-` and `.` (no spaces), unique per server",
);
pub const TOOL_DUPLICATE: Rule = rule(
    "tool-duplicate",
    "server/tools#listing-tools",
    Error,
    "give every tool a unique name",
);
pub const INPUT_SCHEMA: Rule = rule(
    "input-schema",
    "server/tools#tool",
    Error,
    "make inputSchema a valid JSON Schema (2020-12 unless `$schema` says otherwise) with `type: object`",
);
pub const OUTPUT_SCHEMA: Rule = rule(
    "output-schema",
    "server/tools#output-schema",
    Error,
    "make outputSchema a valid JSON Schema with `type: object`",
);
pub const STRUCTURED: Rule = rule(
    "structured-content",
    "server/tools#structured-content",
    Error,
    "with an outputSchema, return structuredContent that conforms to it (and, for older clients, the same JSON as text)",
);
pub const ANNOTATIONS: Rule = rule(
    "annotations",
    "server/tools#tool",
    Error,
    "tool annotations are hints with fixed types: title a string, the *Hint fields booleans",
);
pub const CONTENT_TYPE: Rule = rule(
    "content-type",
    "server/tools#tool-result",
    Error,
    "use the content types of the revision: text, image, audio, resource_link, resource",
);
pub const IS_ERROR: Rule = rule(
    "is-error",
    "server/tools#error-handling",
    Error,
    "send `isError` as a JSON boolean (true for a failed tool call), or leave it out",
);
pub const TOOL_LIST_SIZE: Rule = rule(
    "tool-list-size",
    "server/tools#listing-tools",
    Warning,
    "every tool definition is sent to the model on every turn: shorten descriptions and schemas, or split the server",
);
pub const TOOL_LIST_COST: Rule = rule("tool-list-cost", "server/tools#listing-tools", Info, "");

//! The tools `mcplab mcp` offers, as a model reads them: names, descriptions that say when to
//! call what, input schemas and output schemas. Kept terse on purpose: the whole list is sent to
//! the agent's model on every turn, and a test holds it under 3,000 tokens (by the estimate
//! `mcplab check` uses: four bytes of JSON per token). Output schemas name the main fields and
//! require none, so a failure's `{"error": …}` fits every one of them.

use mcplab_mcp::tool_server::ToolSpec;
use serde_json::{Value, json};

const STR: &str = "string";

fn s(description: &str) -> Value {
    json!({ "type": STR, "description": description })
}

fn obj(properties: Value, required: &[&str]) -> Value {
    let mut schema = json!({ "type": "object", "properties": properties });
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    schema
}

/// An output schema: the named fields, none required; a type `a|b` allows either.
fn out(fields: &[(&str, &str)]) -> Value {
    let properties: serde_json::Map<String, Value> = fields
        .iter()
        .map(|(name, ty)| {
            let types: Vec<&str> = ty.split('|').collect();
            let ty = if types.len() == 1 {
                json!(ty)
            } else {
                json!(types)
            };
            (name.to_string(), json!({ "type": ty }))
        })
        .collect();
    json!({ "type": "object", "properties": properties })
}

fn tool(name: &str, title: &str, description: &str, input: Value, output: Value) -> ToolSpec {
    ToolSpec {
        name: name.into(),
        title: title.into(),
        description: description.into(),
        input_schema: input,
        output_schema: output,
        read_only: false,
    }
}

fn read_only(spec: ToolSpec) -> ToolSpec {
    ToolSpec {
        read_only: true,
        ..spec
    }
}

fn server() -> Value {
    s("Server name (see `servers`)")
}

/// Every tool, in the order a session uses them.
pub(crate) fn tools() -> Vec<ToolSpec> {
    let mut all = connections();
    all.extend(operations());
    all.extend(observation());
    all.extend(testing());
    all
}

fn target() -> Value {
    json!({
        "server": s("A configured server's name, or the name to give a new one"),
        "command": s("Start a stdio server: its command line, e.g. `node dist/index.js`"),
        "url": s("Reach a server over HTTP at this URL"),
        "transport": { "enum": ["http", "sse"], "description": "For `url`; default http" },
        "env": { "type": "object", "description": "Environment for `command`" },
        "cwd": s("Working directory for `command`"),
        "headers": { "type": "object", "description": "HTTP headers for `url`" },
        "protocol": s("Revision to speak (e.g. 2025-11-25, 2026-07-28); default auto"),
    })
}

fn connections() -> Vec<ToolSpec> {
    let status = out(&[
        ("server", STR),
        ("status", STR),
        ("protocol", STR),
        ("serverInfo", "object"),
        ("counts", "object"),
        ("tools", "array"),
    ]);
    vec![
        read_only(tool(
            "servers",
            "Servers",
            "The servers you can connect (configured ones and those you connected), each with \
             its status, and the command/URL patterns you may start; with --attach also the \
             person's inspector's servers (`person`).",
            obj(json!({}), &[]),
            out(&[
                ("servers", "array"),
                ("allow", "object"),
                ("person", "array"),
            ]),
        )),
        tool(
            "connect",
            "Connect",
            "Connect a server and keep the connection for later calls. Give `server` (a \
             configured name) or `command`/`url` (allowed by the person's patterns). Says what \
             it offers.",
            obj(target(), &[]),
            status.clone(),
        ),
        tool(
            "disconnect",
            "Disconnect",
            "Close a connection and stop its process.",
            obj(json!({ "server": server() }), &["server"]),
            out(&[("server", STR), ("status", STR)]),
        ),
        tool(
            "restart",
            "Restart",
            "After you rebuilt the server: reconnect it and say what changed in its tools, \
             resources, templates and prompts since the last connect.",
            obj(json!({ "server": server() }), &["server"]),
            out(&[("server", STR), ("status", STR), ("changes", "object")]),
        ),
    ]
}

fn operations() -> Vec<ToolSpec> {
    let result = out(&[("result", "object"), ("ms", "number")]);
    let args = json!({ "type": "object", "description": "Arguments" });
    vec![
        read_only(tool(
            "list",
            "List",
            "The server's tools, resources, resource templates or prompts, as it sent them \
             (schemas included).",
            obj(
                json!({ "server": server(),
                    "kind": { "enum": ["all", "tools", "resources", "templates", "prompts"] } }),
                &["server"],
            ),
            out(&[
                ("tools", "array"),
                ("resources", "array"),
                ("resourceTemplates", "array"),
                ("prompts", "array"),
            ]),
        )),
        tool(
            "call_tool",
            "Call tool",
            "Call a tool of the server; the result exactly as sent, with the time taken. \
             Progress is reported; cancelling cancels the call.",
            obj(
                json!({ "server": server(), "tool": s("Tool name"), "arguments": args,
                    "timeoutSecs": { "type": "number" } }),
                &["server", "tool"],
            ),
            result.clone(),
        ),
        read_only(tool(
            "read_resource",
            "Read resource",
            "Read a resource by URI.",
            obj(
                json!({ "server": server(), "uri": s("Resource URI") }),
                &["server", "uri"],
            ),
            result.clone(),
        )),
        read_only(tool(
            "get_prompt",
            "Get prompt",
            "Get a prompt with arguments.",
            obj(
                json!({ "server": server(), "prompt": s("Prompt name"), "arguments": args }),
                &["server", "prompt"],
            ),
            result.clone(),
        )),
        read_only(tool(
            "complete",
            "Complete",
            "Ask for completions of a prompt's or resource template's argument.",
            obj(
                json!({ "server": server(), "prompt": s("Prompt name"),
                    "uri": s("Resource template URI"), "argument": s("Argument name"),
                    "value": s("Typed so far"), "context": { "type": "object" } }),
                &["server", "argument"],
            ),
            result,
        )),
    ]
}

fn observation() -> Vec<ToolSpec> {
    let since = |what: &str| {
        obj(
            json!({ "server": s(what), "max": { "type": "integer" } }),
            &[],
        )
    };
    vec![
        read_only(tool(
            "notifications",
            "Notifications",
            "What servers sent since you last asked: logs, progress, list changes, resource \
             updates, elicitation/sampling requests and how they were answered, status changes.",
            since("Only this server"),
            out(&[
                ("events", "array"),
                ("missed", "integer"),
                ("more", "boolean"),
            ]),
        )),
        read_only(tool(
            "stderr",
            "Stderr",
            "Lines a stdio server wrote to stderr since you last asked.",
            since("Server name"),
            out(&[
                ("lines", "array"),
                ("missed", "integer"),
                ("more", "boolean"),
            ]),
        )),
        read_only(tool(
            "traffic",
            "Traffic",
            "The last JSON-RPC frames with a server, both ways, exact text; with --attach also \
             what the person did in the inspector. Each frame says `by` (agent/person). Pass \
             the answer's `cursor` as `since` to get only what happened after.",
            obj(
                json!({ "server": server(), "method": s("Only this method (and its responses)"),
                    "id": { "description": "Only this request id" },
                    "last": { "type": "integer", "description": "How many; default 20" },
                    "full": { "type": "boolean", "description": "Uncut frames" },
                    "by": { "enum": ["agent", "person"] },
                    "since": s("A `cursor` from an earlier answer") }),
                &["server"],
            ),
            out(&[
                ("frames", "array"),
                ("dropped", "integer"),
                ("cursor", STR),
                ("more", "boolean"),
            ]),
        )),
        tool(
            "policy",
            "Answer policy",
            "How elicitation and sampling requests from servers are answered. auto: forwarded \
             to you when your client supports it, else declined.",
            obj(
                json!({
                    "elicitation": { "enum": ["auto", "forward", "decline", "cancel", "accept_defaults"] },
                    "sampling": { "enum": ["auto", "forward", "decline", "reply"] },
                    "samplingReply": s("The text a `reply` answers with"),
                }),
                &[],
            ),
            out(&[("elicitation", STR), ("sampling", STR)]),
        ),
    ]
}

fn testing() -> Vec<ToolSpec> {
    let mut check_target = target();
    check_target["calls"] =
        json!({ "type": "object", "description": "Tools to call: name → arguments" });
    vec![
        tool(
            "check",
            "Check",
            "Lint a server against the MCP spec and security rules on a fresh connection: \
             every frame and behaviour; findings with rule, severity and fix. No host \
             verdicts, directory rules or fuzzing, so no app is rendered: run `mcplab check` \
             for those.",
            obj(check_target, &[]),
            out(&[
                ("counts", "object"),
                ("findings", "array"),
                ("protocols", "array"),
            ]),
        ),
        tool(
            "eval_run",
            "Run evals",
            "Run an eval suite file (or some cases): pass rates and the failing iterations.",
            obj(
                json!({ "suite": s("Path of the suite file"),
                    "cases": { "type": "array", "items": { "type": STR } },
                    "models": { "type": "array", "items": { "type": STR } },
                    "repeat": { "type": "integer" } }),
                &["suite"],
            ),
            out(&[
                ("runId", STR),
                ("verdict", STR),
                ("cells", "array"),
                ("failing", "array"),
            ]),
        ),
        read_only(tool(
            "hosts",
            "Host profiles",
            "Host profiles (Claude, ChatGPT, VS Code, Cursor, goose…): list, one, or how two \
             differ.",
            obj(
                json!({ "name": s("Profile"), "against": s("Compare with this profile") }),
                &[],
            ),
            out(&[
                ("profiles", "array"),
                ("profile", "object"),
                ("diff", "array"),
            ]),
        )),
        tool(
            "render_app",
            "Render app",
            "Call a tool that has a UI and render its app headless under a host profile: a PNG, \
             the bridge log, console errors and the time to ready.",
            obj(
                json!({ "server": server(), "tool": s("Tool with a UI"),
                    "arguments": { "type": "object" }, "host": s("Host profile"),
                    "device": { "enum": ["desktop", "tablet", "mobile"] },
                    "theme": { "enum": ["light", "dark"] } }),
                &["server", "tool"],
            ),
            out(&[
                ("initialized", "boolean"),
                // `null` when the app never said it was initialized.
                ("readyMs", "number|null"),
                ("bridge", "array"),
                ("consoleErrors", "array"),
            ]),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `mcplab check`'s estimate: four bytes of JSON per token.
    fn estimated_tokens() -> usize {
        let list: Vec<Value> = tools().iter().map(ToolSpec::to_json).collect();
        serde_json::to_string(&json!({ "tools": list }))
            .unwrap()
            .len()
            / 4
    }

    #[test]
    fn the_tool_list_costs_under_3000_tokens() {
        let tokens = estimated_tokens();
        assert!(tokens < 3000, "the tool list costs about {tokens} tokens");
    }

    #[test]
    fn names_are_unique_and_every_schema_is_an_object() {
        let all = tools();
        let mut names: Vec<&str> = all.iter().map(|t| t.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all.len());
        for t in &all {
            assert_eq!(t.input_schema["type"], "object", "{}", t.name);
            assert_eq!(t.output_schema["type"], "object", "{}", t.name);
            assert!(t.output_schema.get("required").is_none(), "{}", t.name);
            assert!(!t.description.is_empty());
        }
    }
}

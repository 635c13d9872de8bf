//! The request headers of 2026-07-28 streamable HTTP (SEP-2243): `MCP-Protocol-Version`,
//! `Mcp-Method`, `Mcp-Name` and the `Mcp-Param-{Name}` headers a tool designates with
//! `x-mcp-header` in its input schema, with the spec's value encoding (`=?base64?…?=` for values
//! that are not plain visible ASCII). It also validates `x-mcp-header` annotations: a tool with
//! an invalid one must not be used. Pure functions and a small registry; no I/O.

use std::collections::HashMap;
use std::sync::Arc;

use base64::Engine as _;
use parking_lot::RwLock;
use serde_json::Value;

/// `_meta` key of the protocol version of a request.
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
pub const VERSION_HEADER: &str = "MCP-Protocol-Version";
pub const METHOD_HEADER: &str = "Mcp-Method";
pub const NAME_HEADER: &str = "Mcp-Name";
pub const PARAM_HEADER_PREFIX: &str = "Mcp-Param-";

/// Integers beyond this are not safe in JavaScript and may not be mirrored.
const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// One designated parameter: where its value is in the arguments and the header name part.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamHeader {
    /// The chain of `properties` keys from the schema root.
    pub path: Vec<String>,
    /// The `x-mcp-header` value: the header is `Mcp-Param-{name}`.
    pub name: String,
}

/// What a tool's `x-mcp-header` annotations say: the headers to mirror, or why the tool must
/// be rejected.
pub type ToolHeaderSpec = Result<Vec<ParamHeader>, String>;

/// The designated headers of every listed tool of one connection, shared by the connection
/// (which learns them from `tools/list`) and the wire (which sends them).
#[derive(Debug, Default)]
pub struct ToolHeaders {
    by_tool: RwLock<HashMap<String, ToolHeaderSpec>>,
}

impl ToolHeaders {
    pub fn new() -> Arc<Self> {
        Arc::default()
    }

    /// Records what the tools of a `tools/list` page designate (other tools are kept).
    pub fn learn(&self, tools: &[Value]) {
        let mut map = self.by_tool.write();
        for tool in tools {
            if let Some(name) = tool.get("name").and_then(Value::as_str) {
                let schema = tool.get("inputSchema").unwrap_or(&Value::Null);
                map.insert(name.to_owned(), param_headers(schema));
            }
        }
    }

    /// Forgets everything (the tool list changed).
    pub fn clear(&self) {
        self.by_tool.write().clear();
    }

    /// What is known about `tool`; `None` when it was never listed.
    pub fn get(&self, tool: &str) -> Option<ToolHeaderSpec> {
        self.by_tool.read().get(tool).cloned()
    }

    /// Tools that must not be used, with the reason.
    pub fn rejected(&self) -> Vec<(String, String)> {
        let map = self.by_tool.read();
        let mut v: Vec<_> = map
            .iter()
            .filter_map(|(k, v)| v.as_ref().err().map(|e| (k.clone(), e.clone())))
            .collect();
        v.sort();
        v
    }
}

/// Validates a tool's `x-mcp-header` annotations and collects them.
pub fn param_headers(schema: &Value) -> ToolHeaderSpec {
    let mut found = Vec::new();
    collect(schema, &mut Vec::new(), true, &mut found)?;
    let mut seen: Vec<String> = Vec::new();
    for header in &found {
        let lower = header.name.to_ascii_lowercase();
        if seen.contains(&lower) {
            return Err(format!(
                "x-mcp-header `{}` is used twice (names must be unique, ignoring case)",
                header.name
            ));
        }
        seen.push(lower);
    }
    Ok(found)
}

/// Walks the schema. `reachable` says whether the current subschema is reached from the root
/// through `properties` keys only; annotations anywhere else make the tool invalid.
fn collect(
    schema: &Value,
    path: &mut Vec<String>,
    reachable: bool,
    out: &mut Vec<ParamHeader>,
) -> Result<(), String> {
    let Value::Object(map) = schema else {
        return Ok(());
    };
    if let Some(annotation) = map.get("x-mcp-header") {
        let where_ = if path.is_empty() {
            "the schema root".to_owned()
        } else {
            format!("`{}`", path.join("."))
        };
        if !reachable || path.is_empty() {
            return Err(format!(
                "x-mcp-header at {where_} is not reachable from the root through `properties` only"
            ));
        }
        let name = annotation
            .as_str()
            .ok_or_else(|| format!("x-mcp-header at {where_} is not a string"))?;
        check_name(name).map_err(|why| format!("x-mcp-header `{name}` at {where_}: {why}"))?;
        check_primitive(map).map_err(|why| format!("x-mcp-header `{name}` at {where_}: {why}"))?;
        out.push(ParamHeader {
            path: path.clone(),
            name: name.to_owned(),
        });
    }
    for (key, value) in map {
        match key.as_str() {
            "properties" => {
                if let Value::Object(props) = value {
                    for (prop, sub) in props {
                        path.push(prop.clone());
                        let r = collect(sub, path, reachable, out);
                        path.pop();
                        r?;
                    }
                }
            }
            "x-mcp-header" | "const" | "enum" | "default" | "examples" => {}
            _ => walk_unreachable(value, path, out)?,
        }
    }
    Ok(())
}

/// Any subschema under a keyword other than `properties` (items, anyOf, $defs, if/then…).
fn walk_unreachable(
    value: &Value,
    path: &mut Vec<String>,
    out: &mut Vec<ParamHeader>,
) -> Result<(), String> {
    match value {
        Value::Object(_) => collect(value, path, false, out),
        Value::Array(items) => items
            .iter()
            .try_for_each(|v| walk_unreachable(v, path, out)),
        _ => Ok(()),
    }
}

/// RFC 9110 `token`: 1*tchar.
fn check_name(name: &str) -> Result<(), &'static str> {
    if name.is_empty() {
        return Err("must not be empty");
    }
    let tchar = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    if name.chars().all(tchar) {
        Ok(())
    } else {
        Err("must be an HTTP token (letters, digits and !#$%&'*+-.^_`|~ only)")
    }
}

fn check_primitive(schema: &serde_json::Map<String, Value>) -> Result<(), &'static str> {
    match schema.get("type").and_then(Value::as_str) {
        Some("string" | "integer" | "boolean") => Ok(()),
        Some("number") => Err("type `number` may not be mirrored (use integer)"),
        Some(_) => Err("only string, integer and boolean parameters may be mirrored"),
        None => Err("the parameter must declare type string, integer or boolean"),
    }
}

/// The header value for an argument, or `None` when it must be omitted (absent, null, or of a
/// type that cannot be mirrored).
pub fn header_value(value: &Value) -> Option<String> {
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => {
            let i = n.as_i64().filter(|i| i.abs() <= MAX_SAFE_INTEGER)?;
            i.to_string()
        }
        _ => return None,
    };
    Some(encode_value(&text))
}

/// Plain when the value is visible ASCII/space/tab without edge whitespace and does not look
/// like the sentinel; `=?base64?…?=` of its UTF-8 otherwise.
pub fn encode_value(text: &str) -> String {
    let safe = text.chars().all(|c| c == ' ' || c.is_ascii_graphic());
    let edges = text.starts_with([' ', '\t']) || text.ends_with([' ', '\t']);
    let sentinel = text.starts_with("=?base64?") && text.ends_with("?=");
    if safe && !edges && !sentinel {
        text.to_owned()
    } else {
        let b64 = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
        format!("=?base64?{b64}?=")
    }
}

/// The value at `path` inside `arguments`.
fn at_path<'a>(arguments: &'a Value, path: &[String]) -> Option<&'a Value> {
    path.iter().try_fold(arguments, |v, key| v.get(key))
}

/// The protocol headers for one outbound frame of a 2026-07-28 connection, in sending order.
/// `fallback_version` is used when the frame carries no version in `_meta` (notifications).
pub fn frame_headers(
    frame: &Value,
    fallback_version: Option<&str>,
    tools: &ToolHeaders,
) -> Vec<(String, String)> {
    let mut headers = Vec::new();
    let params = frame.get("params");
    let version = params
        .and_then(|p| {
            p.pointer(&format!(
                "/_meta/{}",
                META_PROTOCOL_VERSION.replace('/', "~1")
            ))
        })
        .and_then(Value::as_str)
        .or(fallback_version);
    if let Some(version) = version {
        headers.push((VERSION_HEADER.to_owned(), version.to_owned()));
    }
    let Some(method) = frame.get("method").and_then(Value::as_str) else {
        return headers;
    };
    headers.push((METHOD_HEADER.to_owned(), method.to_owned()));
    let name_field = match method {
        "tools/call" | "prompts/get" => "name",
        "resources/read" => "uri",
        "tasks/get" | "tasks/update" | "tasks/cancel" => "taskId",
        _ => return headers,
    };
    if let Some(name) = params
        .and_then(|p| p.get(name_field))
        .and_then(Value::as_str)
    {
        headers.push((NAME_HEADER.to_owned(), encode_value(name)));
    }
    if method == "tools/call" {
        let tool = params.and_then(|p| p.get("name")).and_then(Value::as_str);
        let arguments = params.and_then(|p| p.get("arguments"));
        if let (Some(Ok(designated)), Some(arguments)) =
            (tool.and_then(|t| tools.get(t)), arguments)
        {
            for param in designated {
                if let Some(value) = at_path(arguments, &param.path).and_then(header_value) {
                    headers.push((format!("{PARAM_HEADER_PREFIX}{}", param.name), value));
                }
            }
        }
    }
    headers
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_are_encoded_as_the_spec_table_says() {
        assert_eq!(encode_value("us-west1"), "us-west1");
        assert_eq!(
            encode_value("Hello, 世界"),
            "=?base64?SGVsbG8sIOS4lueVjA==?="
        );
        assert_eq!(encode_value(" padded "), "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(encode_value("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
        assert_eq!(
            encode_value("=?base64?literal?="),
            "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="
        );
        assert_eq!(encode_value("us west 1"), "us west 1");
        assert_eq!(encode_value("\tindented"), "=?base64?CWluZGVudGVk?=");
        assert_eq!(encode_value(""), "");
        assert_eq!(header_value(&json!(42)).as_deref(), Some("42"));
        assert_eq!(header_value(&json!(false)).as_deref(), Some("false"));
        assert_eq!(header_value(&json!(null)), None);
        assert_eq!(header_value(&json!(3.5)), None);
    }

    #[test]
    fn designated_parameters_are_found_and_invalid_ones_rejected() {
        let ok = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "nested": {"type": "object", "properties": {"n": {"type": "integer", "x-mcp-header": "N"}}},
            "query": {"type": "string"}}});
        let found = param_headers(&ok).unwrap();
        assert_eq!(found.len(), 2);
        assert!(
            found
                .iter()
                .any(|h| h.path == ["nested", "n"] && h.name == "N")
        );
        let bad = [
            json!({"properties": {"v": {"type": "string", "x-mcp-header": ""}}}),
            json!({"properties": {"v": {"type": "object", "x-mcp-header": "Data"}}}),
            json!({"properties": {"v": {"type": "null", "x-mcp-header": "Nil"}}}),
            json!({"properties": {"v": {"type": "number", "x-mcp-header": "F"}}}),
            json!({"properties": {"a": {"type": "string", "x-mcp-header": "MyField"},
                                  "b": {"type": "string", "x-mcp-header": "myfield"}}}),
            json!({"properties": {"v": {"type": "string", "x-mcp-header": "My Region"}}}),
            json!({"properties": {"v": {"type": "string", "x-mcp-header": "Région"}}}),
            json!({"properties": {"v": {"type": "string", "x-mcp-header": "Region\t1"}}}),
            json!({"properties": {"v": {"type": "string", "x-mcp-header": "Region:P"}}}),
            json!({"properties": {"v": {"type": "array", "items": {"type": "string", "x-mcp-header": "I"}}}}),
            json!({"anyOf": [{"properties": {"v": {"type": "string", "x-mcp-header": "A"}}}]}),
        ];
        for schema in bad {
            assert!(param_headers(&schema).is_err(), "{schema} must be rejected");
        }
    }

    #[test]
    fn frame_headers_mirror_method_name_and_designated_params() {
        let tools = ToolHeaders::default();
        tools.learn(&[
            json!({"name": "t", "inputSchema": {"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "verbose": {"type": "boolean", "x-mcp-header": "Verbose"}}}}),
        ]);
        let frame = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "t", "arguments": {"region": "eu", "verbose": null},
            "_meta": {META_PROTOCOL_VERSION: "2026-07-28"}}});
        let h = frame_headers(&frame, None, &tools);
        assert_eq!(
            h,
            vec![
                ("MCP-Protocol-Version".to_owned(), "2026-07-28".to_owned()),
                ("Mcp-Method".to_owned(), "tools/call".to_owned()),
                ("Mcp-Name".to_owned(), "t".to_owned()),
                ("Mcp-Param-Region".to_owned(), "eu".to_owned()),
            ]
        );
        let read = json!({"method": "resources/read", "params": {"uri": "file:///a b"}});
        let h = frame_headers(&read, Some("2026-07-28"), &tools);
        assert_eq!(h[2], ("Mcp-Name".to_owned(), "file:///a b".to_owned()));
    }
}

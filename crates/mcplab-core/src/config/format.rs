//! The `mcpServers` JSON format. Accepts the shapes real hosts write: `{"mcpServers": {…}}`
//! (Claude Desktop, Cursor, Windsurf), `{"servers": {…}}` (VS Code), stdio entries with
//! `command`/`args`/`env`/`cwd`, and remote entries with `url`/`headers` and a `type` of
//! `http`, `streamable-http`, `streamableHttp` or `sse`, with OAuth settings under `oauth`
//! (ours, a superset of Claude Code's `{clientId, callbackPort}`; `scopes` may be an array) or
//! Cursor's `auth` (`CLIENT_ID`, `CLIENT_SECRET`, `scopes`). Unknown fields are ignored, as
//! hosts do.

use std::collections::BTreeMap;

use mcplab_protocol::oauth::OAuthConfig;
use mcplab_protocol::{ServerConfig, ServerTransport};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::ConfigError;

#[derive(Deserialize)]
struct Entry {
    command: Option<String>,
    args: Option<Vec<String>>,
    env: Option<BTreeMap<String, String>>,
    cwd: Option<String>,
    url: Option<String>,
    #[serde(alias = "serverUrl")]
    server_url: Option<String>,
    headers: Option<BTreeMap<String, String>>,
    #[serde(rename = "type", alias = "transport")]
    kind: Option<String>,
    #[serde(rename = "timeoutMs", alias = "timeout")]
    timeout_ms: Option<u64>,
    oauth: Option<Value>,
    /// Cursor's OAuth settings.
    auth: Option<CursorAuth>,
}

#[derive(Deserialize)]
struct CursorAuth {
    #[serde(rename = "CLIENT_ID")]
    client_id: Option<String>,
    #[serde(rename = "CLIENT_SECRET")]
    client_secret: Option<String>,
    scopes: Option<Vec<String>>,
}

/// The server entries of a document, still raw: where they sit (`mcpServers`, `servers`,
/// `mcp.servers`), and each entry with its name and the line of its key.
pub(super) struct RawDoc {
    pub key: &'static str,
    pub entries: Vec<RawEntry>,
}

pub(super) struct RawEntry {
    pub name: String,
    pub line: usize,
    pub value: Value,
}

/// Reads the document (JSON, or JSONC with comments and trailing commas) down to its entries.
pub(super) fn read_doc(text: &str, source_name: &str) -> Result<RawDoc, ConfigError> {
    let invalid = |line: usize, message: String| ConfigError::Invalid {
        source_name: source_name.to_owned(),
        line,
        message,
    };
    let clean = super::jsonc::strip(text);
    let root: Value = serde_json::from_str(&clean)
        .map_err(|e| invalid(e.line(), strip_position(&e.to_string())))?;
    let found = [
        ("mcpServers", root.get("mcpServers")),
        ("servers", root.get("servers")),
        (
            "mcp.servers",
            root.get("mcp").and_then(|m| m.get("servers")),
        ),
    ]
    .into_iter()
    .find_map(|(k, v)| v.map(|v| (k, v)));
    let Some((key, servers)) = found else {
        return Err(invalid(
            1,
            "no `mcpServers` (or VS Code `servers`, or settings.json `mcp.servers`) object \
             found; expected {\"mcpServers\": {\"name\": {\"command\": …}}}"
                .into(),
        ));
    };
    let Some(map) = servers.as_object() else {
        return Err(invalid(
            line_of_key(text, key.rsplit('.').next().unwrap_or(key), 0),
            format!("field `{key}`: expected an object of servers by name"),
        ));
    };
    let entries = map
        .iter()
        .map(|(name, value)| RawEntry {
            name: name.clone(),
            line: line_of_key(text, name, 0),
            value: value.clone(),
        })
        .collect();
    Ok(RawDoc { key, entries })
}

/// Parses an `mcpServers` file strictly: the first entry that cannot be used is an error.
/// `source_name` is used in error messages (usually the path). `import_mcp_servers` is the
/// lenient reading for files written by other hosts.
pub fn parse_mcp_servers(text: &str, source_name: &str) -> Result<Vec<ServerConfig>, ConfigError> {
    let doc = read_doc(text, source_name)?;
    let mut out = Vec::with_capacity(doc.entries.len());
    for entry in &doc.entries {
        if !valid_server_name(&entry.name) {
            return Err(ConfigError::Invalid {
                source_name: source_name.to_owned(),
                line: entry.line,
                message: format!(
                    "field `{}.{}`: server names may use letters, digits, `-`, `_` and `.`",
                    doc.key, entry.name
                ),
            });
        }
        out.push(convert(text, source_name, doc.key, entry, &entry.name)?);
    }
    Ok(out)
}

/// One entry as a config named `name` (the entry's own name unless the importer renamed it).
pub(super) fn convert(
    text: &str,
    source_name: &str,
    key: &str,
    raw: &RawEntry,
    name: &str,
) -> Result<ServerConfig, ConfigError> {
    let line = raw.line;
    let invalid = |line: usize, message: String| ConfigError::Invalid {
        source_name: source_name.to_owned(),
        line,
        message,
    };
    let field = |f: &str| format!("field `{key}.{}{f}`", raw.name);
    let entry: Entry = serde_path_to_error::deserialize(&raw.value).map_err(|e| {
        let path = e.path().to_string();
        // The innermost named field of the path, looked up after the entry's own key.
        let last = e.path().iter().rev().find_map(|seg| match seg {
            serde_path_to_error::Segment::Map { key } => Some(key.clone()),
            _ => None,
        });
        let at = last.map_or(line, |k| line_of_key(text, &k, line));
        let message = strip_position(&e.into_inner().to_string());
        let where_ = if path == "." {
            String::new()
        } else {
            format!(".{path}")
        };
        invalid(at, format!("{}: {message}", field(&where_)))
    })?;
    let url = entry.url.or(entry.server_url);
    let transport = match (entry.command, url) {
        (Some(_), Some(_)) => {
            return Err(invalid(
                line,
                format!("{}: has both `command` and `url`; keep one", field("")),
            ));
        }
        (None, None) => {
            return Err(invalid(
                line,
                format!(
                    "{}: needs `command` (a local stdio server) or `url` (a remote one)",
                    field("")
                ),
            ));
        }
        (Some(command), None) => {
            if let Some(kind) = entry.kind.as_deref()
                && kind != "stdio"
            {
                return Err(invalid(
                    line,
                    format!("{}: `{kind}` does not go with `command`", field(".type")),
                ));
            }
            if command.trim().is_empty() {
                return Err(invalid(line, format!("{} is empty", field(".command"))));
            }
            ServerTransport::Stdio {
                command,
                args: entry.args.unwrap_or_default(),
                env: entry.env.unwrap_or_default(),
                cwd: entry.cwd,
            }
        }
        (None, Some(url)) => {
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(invalid(
                    line,
                    format!(
                        "{}: `{url}` must start with http:// or https://",
                        field(".url")
                    ),
                ));
            }
            let headers = entry.headers.unwrap_or_default();
            let oauth = match (entry.oauth, entry.auth) {
                (Some(value), _) => Some(
                    oauth_settings(value)
                        .map_err(|e| invalid(line, format!("{}: {e}", field(".oauth"))))?,
                ),
                (None, Some(auth)) => Some(OAuthConfig {
                    client_id: auth.client_id,
                    client_secret: auth.client_secret,
                    scope: auth.scopes.map(|s| s.join(" ")),
                    ..OAuthConfig::default()
                }),
                (None, None) => None,
            }
            .filter(|o| !o.is_empty());
            match entry.kind.as_deref() {
                // Cursor and Claude entries often give only a URL; one ending in /sse is the
                // legacy transport by convention.
                None if is_legacy_sse_url(&url) => ServerTransport::Sse {
                    url,
                    headers,
                    oauth,
                },
                None | Some("http" | "streamable-http" | "streamableHttp" | "streamable_http") => {
                    ServerTransport::Http {
                        url,
                        headers,
                        oauth,
                    }
                }
                Some("sse") => ServerTransport::Sse {
                    url,
                    headers,
                    oauth,
                },
                Some(other) => {
                    return Err(invalid(
                        line,
                        format!(
                            "{}: unknown transport `{other}`; use `http` or `sse`",
                            field(".type")
                        ),
                    ));
                }
            }
        }
    };
    Ok(ServerConfig {
        name: name.to_owned(),
        transport,
        timeout_ms: entry.timeout_ms,
        inherit_env: false,
        protocol: Default::default(),
    })
}

/// A URL whose path ends in `/sse`: the legacy HTTP+SSE endpoint by convention.
pub fn is_legacy_sse_url(url: &str) -> bool {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    path.trim_end_matches('/').ends_with("/sse")
}

/// Renders configs as an `mcpServers` document other hosts can read.
pub fn render_mcp_servers(servers: &[ServerConfig]) -> Value {
    let mut map = Map::new();
    for s in servers {
        let mut entry = match &s.transport {
            ServerTransport::Stdio {
                command,
                args,
                env,
                cwd,
            } => {
                let mut e = json!({ "command": command });
                if !args.is_empty() {
                    e["args"] = json!(args);
                }
                if !env.is_empty() {
                    e["env"] = json!(env);
                }
                if let Some(cwd) = cwd {
                    e["cwd"] = json!(cwd);
                }
                e
            }
            ServerTransport::Http {
                url,
                headers,
                oauth,
            }
            | ServerTransport::Sse {
                url,
                headers,
                oauth,
            } => {
                let mut e = json!({ "type": s.transport.kind(), "url": url });
                if !headers.is_empty() {
                    e["headers"] = json!(headers);
                }
                if let Some(oauth) = oauth.as_ref().filter(|o| !o.is_empty()) {
                    e["oauth"] = json!(oauth);
                }
                e
            }
        };
        if let Some(t) = s.timeout_ms {
            entry["timeoutMs"] = json!(t);
        }
        map.insert(s.name.clone(), entry);
    }
    json!({ "mcpServers": map })
}

/// Our `oauth` object; `scopes` (an array or a string, as some hosts write it) becomes `scope`.
fn oauth_settings(mut value: Value) -> Result<OAuthConfig, String> {
    if let Some(obj) = value.as_object_mut()
        && let Some(scopes) = obj.remove("scopes")
        && !obj.contains_key("scope")
    {
        let joined = match scopes {
            Value::Array(items) => items
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(" "),
            Value::String(text) => text,
            _ => return Err("`scopes` must be an array of strings".into()),
        };
        obj.insert("scope".into(), Value::String(joined));
    }
    serde_json::from_value(value).map_err(|e| strip_position(&e.to_string()))
}

/// Server names become CLI arguments, file keys and (later) tool-name prefixes.
pub fn valid_server_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// serde_json appends " at line L column C"; we report the line ourselves.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_owned(),
        None => message.to_owned(),
    }
}

/// The 1-based line where `"name"` first appears as a key on or after line `after`, or
/// `after` (at least 1) when it does not.
pub(super) fn line_of_key(text: &str, name: &str, after: usize) -> usize {
    let needle = format!("{}", Value::String(name.to_owned()));
    let mut from = text
        .match_indices('\n')
        .nth(after.saturating_sub(2))
        .map_or(0, |(i, _)| if after > 1 { i + 1 } else { 0 });
    while let Some(i) = text[from..].find(&needle) {
        let at = from + i;
        let rest = text[at + needle.len()..].trim_start();
        if rest.starts_with(':') {
            return text[..at].matches('\n').count() + 1;
        }
        from = at + needle.len();
    }
    after.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_claude_and_vscode_shapes() {
        let claude = r#"{"mcpServers": {
            "fs": {"command": "npx", "args": ["-y", "pkg"], "env": {"A": "1"}, "disabled": false},
            "remote": {"url": "https://x.test/mcp", "headers": {"X": "y"}},
            "old": {"type": "sse", "url": "http://127.0.0.1:1/sse"}
        }}"#;
        let s = parse_mcp_servers(claude, "c.json").unwrap();
        assert_eq!(s.len(), 3);
        assert!(
            matches!(&s[0].transport, ServerTransport::Stdio { command, .. } if command == "npx")
        );
        // Key order is kept: fs, remote, old.
        assert!(matches!(&s[1].transport, ServerTransport::Http { .. }));
        assert!(matches!(&s[2].transport, ServerTransport::Sse { .. }));
        let vscode = r#"{"servers": {"a": {"type": "stdio", "command": "x"}}, "inputs": []}"#;
        assert_eq!(parse_mcp_servers(vscode, "v.json").unwrap().len(), 1);
    }

    #[test]
    fn type_error_names_line_and_field() {
        let text = "{\n  \"mcpServers\": {\n    \"a\": {\n      \"command\": \"x\",\n      \"args\": [1]\n    }\n  }\n}";
        let err = parse_mcp_servers(text, "f.json").unwrap_err().to_string();
        assert!(err.starts_with("f.json:5:"), "{err}");
        assert!(err.contains("mcpServers.a.args[0]"), "{err}");
    }

    #[test]
    fn semantic_error_names_line_and_field() {
        let text = "{\"mcpServers\": {\n\"ok\": {\"command\": \"x\"},\n\"bad\": {\"args\": []}\n}}";
        let err = parse_mcp_servers(text, "f.json").unwrap_err().to_string();
        assert!(err.starts_with("f.json:3:"), "{err}");
        assert!(err.contains("mcpServers.bad"), "{err}");
        let err = parse_mcp_servers("{\"mcpServers\": {\"x\": {\"url\": \"ftp://a\"}}}", "f")
            .unwrap_err()
            .to_string();
        assert!(err.contains("http://"), "{err}");
    }

    #[test]
    fn syntax_error_has_line() {
        let err = parse_mcp_servers("{\n\"mcpServers\": {,}\n}", "f.json")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("f.json:2:"), "{err}");
    }

    #[test]
    fn oauth_settings_round_trip_and_host_shapes_are_read() {
        let text = r#"{"mcpServers": {
            "ours": {"url": "https://a.test/mcp", "oauth": {"clientId": "c", "clientSecret": "s",
                     "scopes": ["read", "write"], "registration": "pre", "revision": "2025-06-18"}},
            "claude": {"type": "http", "url": "https://b.test/mcp", "oauth": {"clientId": "x", "callbackPort": 8080}},
            "cursor": {"url": "https://c.test/mcp", "auth": {"CLIENT_ID": "y", "scopes": ["a"]}}
        }}"#;
        let parsed = parse_mcp_servers(text, "f").unwrap();
        let oauth = |i: usize| parsed[i].transport.oauth().cloned().unwrap();
        assert_eq!(oauth(0).client_id.as_deref(), Some("c"));
        assert_eq!(oauth(0).scope.as_deref(), Some("read write"));
        assert_eq!(
            oauth(0).revision,
            Some(mcplab_protocol::oauth::OAuthRevision::V2025_06_18)
        );
        assert_eq!(oauth(1).client_id.as_deref(), Some("x"));
        assert_eq!(oauth(2).client_id.as_deref(), Some("y"));
        assert_eq!(oauth(2).scope.as_deref(), Some("a"));
        let rendered = render_mcp_servers(&parsed).to_string();
        assert_eq!(parse_mcp_servers(&rendered, "f").unwrap(), parsed);
        let bad = r#"{"mcpServers": {"x": {"url": "https://a.test", "oauth": {"registration": "magic"}}}}"#;
        let err = parse_mcp_servers(bad, "f").unwrap_err().to_string();
        assert!(err.contains("mcpServers.x.oauth"), "{err}");
    }

    #[test]
    fn render_round_trips() {
        let text = r#"{"mcpServers": {"a": {"command": "x", "args": ["1"], "cwd": "/tmp"},
            "b": {"type": "sse", "url": "http://127.0.0.1:9/sse", "headers": {"H": "v"}}}}"#;
        let parsed = parse_mcp_servers(text, "f").unwrap();
        let rendered = render_mcp_servers(&parsed).to_string();
        assert_eq!(parse_mcp_servers(&rendered, "f").unwrap(), parsed);
    }
}

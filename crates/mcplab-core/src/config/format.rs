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
struct FileShape {
    #[serde(rename = "mcpServers")]
    mcp_servers: Option<BTreeMap<String, Entry>>,
    servers: Option<BTreeMap<String, Entry>>,
}

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

/// Parses an `mcpServers` file. `source_name` is used in error messages (usually the path).
pub fn parse_mcp_servers(text: &str, source_name: &str) -> Result<Vec<ServerConfig>, ConfigError> {
    let invalid = |line: usize, message: String| ConfigError::Invalid {
        source_name: source_name.to_owned(),
        line,
        message,
    };
    let de = &mut serde_json::Deserializer::from_str(text);
    let shape: FileShape = serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let message = strip_position(&inner.to_string());
        let message = if path == "." || path.is_empty() {
            message
        } else {
            format!("field `{path}`: {message}")
        };
        invalid(inner.line(), message)
    })?;
    let (key, entries) = match (shape.mcp_servers, shape.servers) {
        (Some(m), _) => ("mcpServers", m),
        (None, Some(s)) => ("servers", s),
        (None, None) => {
            return Err(invalid(
                1,
                "no `mcpServers` (or VS Code `servers`) object found; expected \
                 {\"mcpServers\": {\"name\": {\"command\": …}}}"
                    .into(),
            ));
        }
    };
    let mut out = Vec::with_capacity(entries.len());
    for (name, entry) in entries {
        let line = line_of_key(text, &name);
        let field = |f: &str| format!("field `{key}.{name}{f}`");
        if !valid_server_name(&name) {
            return Err(invalid(
                line,
                format!(
                    "{}: server names may use letters, digits, `-`, `_` and `.`",
                    field("")
                ),
            ));
        }
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
                    None
                    | Some("http" | "streamable-http" | "streamableHttp" | "streamable_http") => {
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
        out.push(ServerConfig {
            name,
            transport,
            timeout_ms: entry.timeout_ms,
            inherit_env: false,
        });
    }
    Ok(out)
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

/// The 1-based line where `"name"` first appears as a key, or 1.
fn line_of_key(text: &str, name: &str) -> usize {
    let needle = format!("{}", Value::String(name.to_owned()));
    let mut from = 0;
    while let Some(i) = text[from..].find(&needle) {
        let at = from + i;
        let rest = text[at + needle.len()..].trim_start();
        if rest.starts_with(':') {
            return text[..at].matches('\n').count() + 1;
        }
        from = at + needle.len();
    }
    1
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
        assert!(matches!(&s[1].transport, ServerTransport::Sse { .. }));
        assert!(matches!(&s[2].transport, ServerTransport::Http { .. }));
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
        assert_eq!(oauth(2).client_id.as_deref(), Some("c"));
        assert_eq!(oauth(2).scope.as_deref(), Some("read write"));
        assert_eq!(
            oauth(2).revision,
            Some(mcplab_protocol::oauth::OAuthRevision::V2025_06_18)
        );
        assert_eq!(oauth(0).client_id.as_deref(), Some("x"));
        assert_eq!(oauth(1).client_id.as_deref(), Some("y"));
        assert_eq!(oauth(1).scope.as_deref(), Some("a"));
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

//! Lenient reading of config files written by other hosts (`servers import`, `--config`):
//! one entry that cannot be used is skipped with a warning instead of failing the file, a
//! name mcplab cannot use is renamed, a `disabled` server is left out, and what mcplab cannot
//! honour (`envFile`, VS Code `${workspaceFolder}`/`${input:…}` variables) is reported, each
//! as a warning the user reads. It never writes anything.

use std::collections::BTreeSet;

use mcplab_protocol::ServerConfig;
use serde_json::Value;

use super::ConfigError;
use super::format::{RawEntry, convert, read_doc, valid_server_name};

/// What an import found: the usable servers and one warning per thing the user should know.
#[derive(Debug, Default, PartialEq)]
pub struct Imported {
    pub servers: Vec<ServerConfig>,
    pub warnings: Vec<String>,
}

/// Reads every usable server of an `mcpServers` (or VS Code `servers`/`mcp.servers`) file.
/// Only a document that cannot be read at all is an error.
pub fn import_mcp_servers(text: &str, source_name: &str) -> Result<Imported, ConfigError> {
    let doc = read_doc(text, source_name)?;
    let mut out = Imported::default();
    let mut taken: BTreeSet<String> = doc
        .entries
        .iter()
        .filter(|e| valid_server_name(&e.name))
        .map(|e| e.name.clone())
        .collect();
    for entry in &doc.entries {
        let at = format!("{source_name}:{}", entry.line);
        if entry.value.get("disabled").and_then(Value::as_bool) == Some(true) {
            out.warnings.push(format!(
                "{at}: skipped `{}`: it is disabled in the file (enable it there, or add it \
                 with `mcplab servers add`)",
                entry.name
            ));
            continue;
        }
        let name = if valid_server_name(&entry.name) {
            entry.name.clone()
        } else {
            match rename(&entry.name, &taken) {
                Some(new) => {
                    out.warnings.push(format!(
                        "{at}: imported `{}` as `{new}` (server names may use letters, digits, \
                         `-`, `_` and `.`)",
                        entry.name
                    ));
                    taken.insert(new.clone());
                    new
                }
                None => {
                    out.warnings.push(format!(
                        "{at}: skipped `{}`: server names may use letters, digits, `-`, `_` \
                         and `.`; rename it in the file",
                        entry.name
                    ));
                    continue;
                }
            }
        };
        match convert(text, source_name, doc.key, entry, &name) {
            Ok(config) => {
                out.warnings.extend(unsupported(entry, &at));
                out.servers.push(config);
            }
            Err(e) => out.warnings.push(format!("skipped `{}`: {e}", entry.name)),
        }
    }
    Ok(out)
}

/// A usable name for `name`: other characters become `-`, trimmed to 64; `None` when that
/// leaves nothing or collides.
fn rename(name: &str, taken: &BTreeSet<String>) -> Option<String> {
    let mut new: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '-'
            }
        })
        .collect();
    new = new.trim_matches('-').chars().take(64).collect();
    (valid_server_name(&new) && !taken.contains(&new)).then_some(new)
}

/// Warnings for what the entry asks that mcplab does not do.
fn unsupported(entry: &RawEntry, at: &str) -> Vec<String> {
    let mut warnings = Vec::new();
    let name = &entry.name;
    if let Some(file) = entry.value.get("envFile").and_then(Value::as_str) {
        warnings.push(format!(
            "{at}: `{name}`: envFile `{file}` is not read by mcplab; put the variables under \
             `env` (mcplab servers add {name} -e KEY=VALUE …)"
        ));
    }
    let mut vars = BTreeSet::new();
    collect_variables(&entry.value, &mut vars);
    for var in vars {
        let why = if var.starts_with("${input:") {
            "a VS Code input mcplab does not prompt for"
        } else {
            "a host variable mcplab does not expand"
        };
        warnings.push(format!(
            "{at}: `{name}` uses {var}, {why}: it is kept literally; edit the server's \
             value (mcplab servers add {name} …)"
        ));
    }
    warnings
}

/// Every `${…}` in the entry's strings (the `envFile` value excepted: it is reported itself).
fn collect_variables(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::String(s) => {
            let mut rest = s.as_str();
            while let Some(start) = rest.find("${") {
                let Some(len) = rest[start..].find('}') else {
                    break;
                };
                out.insert(rest[start..=start + len].to_owned());
                rest = &rest[start + len + 1..];
            }
        }
        Value::Array(items) => items.iter().for_each(|i| collect_variables(i, out)),
        Value::Object(map) => map
            .iter()
            .filter(|(k, _)| k.as_str() != "envFile")
            .for_each(|(_, v)| collect_variables(v, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcplab_protocol::ServerTransport;

    #[test]
    fn vscode_jsonc_with_every_oddity() {
        let text = r#"{
  // comment
  "inputs": [{"id": "k"}],
  "servers": {
    "ok": {"command": "node", "args": ["a.js",],},
    "kitchen py": {"command": "python"},
    "off": {"command": "x", "disabled": true},
    "ws": {"command": "node", "args": ["${workspaceFolder}/x.js"], "envFile": "${workspaceFolder}/.env"},
    "bad": {"args": []},
    "legacy": {"url": "http://127.0.0.1:9/sse"},
  }
}"#;
        let i = import_mcp_servers(text, "mcp.json").unwrap();
        let names: Vec<_> = i.servers.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["ok", "kitchen-py", "ws", "legacy"]);
        assert!(matches!(
            i.servers[3].transport,
            ServerTransport::Sse { .. }
        ));
        let all = i.warnings.join("\n");
        for needle in [
            "as `kitchen-py`",
            "skipped `off`",
            "envFile",
            "${workspaceFolder}",
            "skipped `bad`",
        ] {
            assert!(all.contains(needle), "{needle}: {all}");
        }
        assert!(all.contains("mcp.json:8:"), "{all}");
    }

    #[test]
    fn vscode_settings_json() {
        let text = r#"{"editor.fontSize": 12, "mcp": {"servers": {"a": {"type": "http", "url": "https://a.test/mcp"}}}}"#;
        let i = import_mcp_servers(text, "settings.json").unwrap();
        assert_eq!(i.servers.len(), 1);
        assert!(i.warnings.is_empty());
    }
}

//! Putting a host's server entry through the tap and back (`mcplab servers tap|untap NAME
//! --for HOST`): where each host keeps its MCP config, and the rewrite of one stdio entry
//! (`"command": C, "args": A` → `"command": <mcplab>, "args": ["tap", "--", C, …A]`, every other
//! key kept) and its inverse. It works on text the binary reads and writes (the binary also
//! keeps the backup); it reads no environment or home directory itself.
//!
//! Where the files are, from each host's own documentation:
//! - Claude Desktop: `claude_desktop_config.json` in `~/Library/Application Support/Claude`
//!   (macOS) or `%APPDATA%\Claude` (Windows), `mcpServers`
//!   (<https://modelcontextprotocol.io/quickstart/user>); Linux builds use `~/.config/Claude`.
//! - Claude Code: `~/.claude.json` (or `$CLAUDE_CONFIG_DIR/.claude.json`), `mcpServers` at the
//!   top (user scope) or under `projects["<dir>"]` (local scope, its default)
//!   (<https://docs.anthropic.com/en/docs/claude-code/mcp>).
//! - Cursor: `~/.cursor/mcp.json`, `mcpServers` (<https://docs.cursor.com/context/mcp>).
//! - VS Code: the user profile's `mcp.json` (`~/.config/Code/User`, `~/Library/Application
//!   Support/Code/User`, `%APPDATA%\Code\User`), `servers`
//!   (<https://code.visualstudio.com/docs/copilot/customization/mcp-servers>); on Linux both
//!   Electron apps follow `$XDG_CONFIG_HOME` when it is set.
//! - Windsurf: `~/.codeium/windsurf/mcp_config.json`, `mcpServers`
//!   (<https://docs.windsurf.com/windsurf/cascade/mcp>).
//! - Gemini CLI: `~/.gemini/settings.json`, `mcpServers`
//!   (<https://github.com/google-gemini/gemini-cli/blob/main/docs/tools/mcp-server.md>).

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

/// A host whose config file `servers tap` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostApp {
    Claude,
    ClaudeCode,
    Cursor,
    Vscode,
    Windsurf,
    Gemini,
}

/// The platform whose paths apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    Linux,
    Macos,
    Windows,
}

/// What locates the files: the binary reads these from the environment.
#[derive(Debug, Clone)]
pub struct HostDirs {
    pub os: Os,
    pub home: PathBuf,
    /// Windows' `%APPDATA%`.
    pub appdata: Option<PathBuf>,
    /// `$XDG_CONFIG_HOME` (Linux; Electron apps keep their data there, default `~/.config`).
    pub xdg_config_home: Option<PathBuf>,
    /// `$CLAUDE_CONFIG_DIR`, where Claude Code then keeps its `.claude.json`.
    pub claude_config_dir: Option<PathBuf>,
}

/// Which entry: `name` under `key`, at the top of the file or, failing that, under
/// `projects[project]` (Claude Code's default "local" scope keeps a project's servers there).
#[derive(Debug, Clone, Copy)]
pub struct EntryAt<'a> {
    pub key: &'a str,
    pub name: &'a str,
    /// The project directory (absolute) whose entries are looked at after the top level.
    pub project: Option<&'a str>,
}

/// What is wrong with a host config or an entry.
#[derive(Debug, thiserror::Error)]
pub enum HostsError {
    #[error("{0}")]
    Invalid(String),
}

impl HostApp {
    /// The host's config file.
    pub fn config_file(self, dirs: &HostDirs) -> PathBuf {
        let home = dirs.home.as_path();
        let roaming = || {
            dirs.appdata
                .clone()
                .unwrap_or_else(|| home.join("AppData/Roaming"))
        };
        let app_support = |app: &str| match dirs.os {
            Os::Macos => home.join("Library/Application Support").join(app),
            Os::Windows => roaming().join(app),
            Os::Linux => match &dirs.xdg_config_home {
                Some(dir) => dir.join(app),
                None => home.join(".config").join(app),
            },
        };
        match self {
            HostApp::Claude => app_support("Claude").join("claude_desktop_config.json"),
            HostApp::ClaudeCode => match &dirs.claude_config_dir {
                Some(dir) => dir.join(".claude.json"),
                None => home.join(".claude.json"),
            },
            HostApp::Cursor => home.join(".cursor/mcp.json"),
            HostApp::Vscode => app_support("Code/User").join("mcp.json"),
            HostApp::Windsurf => home.join(".codeium/windsurf/mcp_config.json"),
            HostApp::Gemini => home.join(".gemini/settings.json"),
        }
    }

    /// The key its servers are under.
    pub fn servers_key(self) -> &'static str {
        match self {
            HostApp::Vscode => "servers",
            _ => "mcpServers",
        }
    }
}

/// `text` with the entry going through `tap` (the mcplab binary's path).
pub fn tap_entry(text: &str, at: &EntryAt, tap: &str) -> Result<String, HostsError> {
    let name = at.name;
    let mut doc = read(text)?;
    let entry = entry_mut(&mut doc, at)?;
    if tapped(entry, tap).is_some() {
        return Err(HostsError::Invalid(format!(
            "`{name}` already goes through the tap"
        )));
    }
    let Some(command) = entry
        .get("command")
        .and_then(Value::as_str)
        .map(str::to_owned)
    else {
        let url = entry.get("url").or_else(|| entry.get("serverUrl"));
        let hint = match url.and_then(Value::as_str) {
            Some(url) => format!(
                "it is reached by URL: run `mcplab tap --url {url} --listen 127.0.0.1:PORT` and \
                 give the host http://127.0.0.1:PORT/… instead"
            ),
            None => "it has no `command`".to_owned(),
        };
        return Err(HostsError::Invalid(format!("cannot tap `{name}`: {hint}")));
    };
    let mut args = vec![json!("tap"), json!("--"), json!(command)];
    if let Some(Value::Array(old)) = entry.get("args") {
        args.extend(old.iter().cloned());
    }
    entry.insert("command".into(), json!(tap));
    entry.insert("args".into(), Value::Array(args));
    write(&doc)
}

/// `text` with the entry back as it was before `tap_entry`: as in `original` (the backup's
/// text) when that has the entry with the same command, else by undoing the rewrite.
pub fn untap_entry(
    text: &str,
    at: &EntryAt,
    tap: &str,
    original: Option<&str>,
) -> Result<String, HostsError> {
    let mut doc = read(text)?;
    let entry = entry_mut(&mut doc, at)?;
    let Some((command, args)) = tapped(entry, tap) else {
        return Err(HostsError::Invalid(format!(
            "`{}` does not go through the tap",
            at.name
        )));
    };
    let before = original
        .and_then(|t| read(t).ok())
        .and_then(|mut d| entry_mut(&mut d, at).ok().map(|e| e.clone()))
        .filter(|e| e.get("command") == Some(&json!(command)));
    match before {
        Some(before) => *entry = before,
        None => {
            entry.insert("command".into(), json!(command));
            entry.insert("args".into(), Value::Array(args));
        }
    }
    write(&doc)
}

/// Whether any entry under `key` (at the top or in any project) still goes through the tap:
/// the backup is kept until none does.
pub fn any_tapped(text: &str, key: &str, tap: &str) -> bool {
    let Ok(doc) = read(text) else { return false };
    let projects = doc.get("projects").and_then(Value::as_object);
    let tables = std::iter::once(&doc)
        .chain(projects.into_iter().flat_map(|p| p.values()))
        .filter_map(|t| t.get(key)?.as_object());
    tables
        .flat_map(|t| t.values())
        .filter_map(Value::as_object)
        .any(|e| tapped(e, tap).is_some())
}

/// Whether two config texts hold the same document (comments and layout aside): `untap` puts
/// the backup's very text back when it does.
pub fn same_document(a: &str, b: &str) -> bool {
    matches!((read(a), read(b)), (Ok(a), Ok(b)) if a == b)
}

/// The server's own command and arguments when `entry` goes through the tap.
fn tapped(entry: &Map<String, Value>, tap: &str) -> Option<(String, Vec<Value>)> {
    let command = entry.get("command")?.as_str()?;
    let is_mcplab = command == tap || Path::new(command).file_stem()? == "mcplab";
    let args = entry.get("args")?.as_array()?;
    if !is_mcplab || args.first()? != "tap" {
        return None;
    }
    let after = args.iter().position(|a| a == "--")? + 1;
    let server = args.get(after)?.as_str()?.to_owned();
    Some((server, args[after + 1..].to_vec()))
}

fn read(text: &str) -> Result<Value, HostsError> {
    let mut plain = String::new();
    let mut reader = json_comments::StripComments::new(text.as_bytes());
    std::io::Read::read_to_string(&mut reader, &mut plain)
        .map_err(|e| HostsError::Invalid(e.to_string()))?;
    serde_json::from_str(&plain).map_err(|e| {
        HostsError::Invalid(format!(
            "line {}: {e} (fix the file, then try again)",
            e.line()
        ))
    })
}

fn write(doc: &Value) -> Result<String, HostsError> {
    let mut text =
        serde_json::to_string_pretty(doc).map_err(|e| HostsError::Invalid(e.to_string()))?;
    text.push('\n');
    Ok(text)
}

/// The entry `at` names: under `key` at the top, else in `projects[project]`, else in the
/// one project that has it.
fn entry_mut<'a>(
    doc: &'a mut Value,
    at: &EntryAt,
) -> Result<&'a mut Map<String, Value>, HostsError> {
    let (key, name) = (at.key, at.name);
    let has = |table: &Value| table.get(key).and_then(|s| s.get(name)).is_some();
    let mut path: Option<Vec<String>> = has(doc).then(Vec::new);
    if path.is_none()
        && let Some(projects) = doc.get("projects").and_then(Value::as_object)
    {
        let holding: Vec<&String> = projects
            .iter()
            .filter(|(_, p)| has(p))
            .map(|(k, _)| k)
            .collect();
        let chosen = match at.project {
            Some(dir) if holding.iter().any(|k| *k == dir) => Some(dir.to_owned()),
            _ if holding.len() == 1 => Some(holding[0].clone()),
            _ if holding.is_empty() => None,
            _ => {
                return Err(HostsError::Invalid(format!(
                    "`{name}` is in several projects ({holding:?}): run this in the project's \
                     directory"
                )));
            }
        };
        path = chosen.map(|dir| vec!["projects".to_owned(), dir]);
    }
    let Some(path) = path else {
        return Err(not_found(doc, key, name));
    };
    let mut table = &mut *doc;
    for step in &path {
        table = &mut table[step.as_str()];
    }
    table[key][name]
        .as_object_mut()
        .ok_or_else(|| HostsError::Invalid(format!("`{name}` under `{key}` is not an object")))
}

fn not_found(doc: &Value, key: &str, name: &str) -> HostsError {
    match doc.get(key).and_then(Value::as_object) {
        Some(servers) => {
            let known: Vec<&String> = servers.keys().collect();
            HostsError::Invalid(format!(
                "no server `{name}` under `{key}` (it has: {known:?})"
            ))
        }
        None => HostsError::Invalid(format!("the file has no `{key}` with `{name}` in it")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TAP: &str = "/usr/local/bin/mcplab";
    const FILE: &str = r#"{
  "globalShortcut": "",
  "mcpServers": {
    "notes": {"command": "node", "args": ["server.js", "--db", "x.db"], "env": {"K": "v"}},
    "remote": {"url": "https://example.test/mcp"}
  }
}"#;

    fn at<'a>(key: &'a str, name: &'a str) -> EntryAt<'a> {
        EntryAt {
            key,
            name,
            project: None,
        }
    }

    #[test]
    fn tap_then_untap_gives_back_the_entry() {
        let notes = at("mcpServers", "notes");
        let tapped = tap_entry(FILE, &notes, TAP).unwrap();
        let doc: Value = serde_json::from_str(&tapped).unwrap();
        let entry = &doc["mcpServers"]["notes"];
        assert_eq!(entry["command"], TAP);
        assert_eq!(
            entry["args"],
            json!(["tap", "--", "node", "server.js", "--db", "x.db"])
        );
        assert_eq!(entry["env"], json!({"K": "v"}), "other keys kept");
        assert_eq!(doc["globalShortcut"], "", "the rest of the file kept");
        assert!(any_tapped(&tapped, "mcpServers", TAP));
        assert!(!any_tapped(FILE, "mcpServers", TAP));
        let again = tap_entry(&tapped, &notes, TAP).unwrap_err();
        assert!(again.to_string().contains("already"), "{again}");

        for original in [Some(FILE), None] {
            let back = untap_entry(&tapped, &notes, TAP, original).unwrap();
            let back: Value = serde_json::from_str(&back).unwrap();
            let before: Value = serde_json::from_str(FILE).unwrap();
            assert_eq!(back, before, "with backup: {}", original.is_some());
        }
    }

    #[test]
    fn a_url_entry_says_how_to_tap_it_and_unknown_names_list_the_known() {
        let e = tap_entry(FILE, &at("mcpServers", "remote"), TAP)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("mcplab tap --url https://example.test/mcp"),
            "{e}"
        );
        let e = tap_entry(FILE, &at("mcpServers", "nope"), TAP)
            .unwrap_err()
            .to_string();
        assert!(e.contains("\"notes\""), "{e}");
    }

    #[test]
    fn claude_codes_project_scoped_entries_are_found() {
        let text = r#"{"mcpServers": {},
          "projects": {"/p/one": {"mcpServers": {"a": {"command": "x"}}},
                       "/p/two": {"mcpServers": {"a": {"command": "y"}, "b": {"command": "z"}}}}}"#;
        let only = tap_entry(text, &at("mcpServers", "b"), TAP).unwrap();
        let doc: Value = serde_json::from_str(&only).unwrap();
        assert_eq!(doc["projects"]["/p/two"]["mcpServers"]["b"]["args"][2], "z");
        assert!(any_tapped(&only, "mcpServers", TAP));
        let e = tap_entry(text, &at("mcpServers", "a"), TAP).unwrap_err();
        assert!(e.to_string().contains("several projects"), "{e}");
        let mut here = at("mcpServers", "a");
        here.project = Some("/p/one");
        let one = tap_entry(text, &here, TAP).unwrap();
        let doc: Value = serde_json::from_str(&one).unwrap();
        assert_eq!(doc["projects"]["/p/one"]["mcpServers"]["a"]["command"], TAP);
        assert_eq!(doc["projects"]["/p/two"]["mcpServers"]["a"]["command"], "y");
    }

    #[test]
    fn vscode_jsonc_reads_and_paths_follow_the_platform() {
        let text = "// mine\n{\"servers\": {\"a\": {\"type\": \"stdio\", \"command\": \"uvx\", \"args\": [\"srv\"]}}}";
        let out = tap_entry(text, &at("servers", "a"), TAP).unwrap();
        assert!(out.contains("\"uvx\""));
        let mut dirs = HostDirs {
            os: Os::Linux,
            home: "/h".into(),
            appdata: None,
            xdg_config_home: None,
            claude_config_dir: None,
        };
        let path = HostApp::Vscode.config_file(&dirs);
        assert_eq!(path, Path::new("/h/.config/Code/User/mcp.json"));
        dirs.os = Os::Macos;
        assert_eq!(
            HostApp::Claude.config_file(&dirs),
            Path::new("/h/Library/Application Support/Claude/claude_desktop_config.json")
        );
        dirs.claude_config_dir = Some("/c".into());
        assert_eq!(
            HostApp::ClaudeCode.config_file(&dirs),
            Path::new("/c/.claude.json")
        );
    }
}
